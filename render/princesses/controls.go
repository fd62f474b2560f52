package princesses

import (
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ---------------------------------------------------------------- princesses

// Stops: a card to play and then, when a power may go with it, the power;
// the hand card of a haggle, then the trick's card; a power to announce,
// then its suit or player; the card Sleeping Beauty hands on, then to whom.
// Every other action is one choice.
func (Presenter) Stops(t []string) []int {
	if len(t) == 3 {
		switch t[0] {
		case "play", "swap", "declare", "assign":
			return []int{2, 3}
		}
	}
	return []int{len(t)}
}

// princessMasked reports whether the view's seat plays face down
// (Masquerade, after the lead).
func princessMasked(v *princesses.View) bool {
	return v != nil && len(v.Masked) > 0 && v.Seat != v.Leader
}

func princessPower(l *locales.Localizer, id string) string {
	return l.T("princesses.princess."+id+".power", nil)
}

// princessPowerText is a princess's power in full, as the view's edition
// has it: what choosing or announcing it does.
func princessPowerText(l *locales.Localizer, v *princesses.View, id string) string {
	key := "princesses.princess." + id + ".text"
	if v != nil && v.Edition == princesses.Classic && l.Has(key+"_classic") {
		key += "_classic"
	}
	if !l.Has(key) {
		return ""
	}
	return l.T(key, nil)
}

func princessSeat(names render.Names, tok string) string {
	n, err := strconv.Atoi(tok)
	if err != nil {
		return "?"
	}
	return names.Of(engine.Seat(n))
}

// princessMenu is a card in the select menu of a verb.
func princessMenu(l *locales.Localizer, verb, label string) render.Control {
	return render.Control{Label: label, Menu: verb, Placeholder: l.T("princesses.control.menu."+verb, nil)}
}

// Control: cards are options of a menu whose placeholder says what
// choosing one does (play, set aside, give Sleeping Beauty…); powers,
// suits and players are buttons.
func (Presenter) Control(l *locales.Localizer, ev engine.View, names render.Names, s render.Step) render.Control {
	v, _ := ev.(*princesses.View)
	t := s.Tokens
	if len(t) == 0 {
		return render.Control{}
	}
	card := func(i int) string { return cardToken(l, t[i]) }
	whole := func() string {
		a, err := princesses.ParseAction(strings.Join(t, " "))
		if err != nil {
			return "?"
		}
		return princessAction(l, a, names)
	}
	if s.Chosen >= 2 {
		switch t[0] {
		case "play":
			if len(t) == 2 {
				return render.Control{Label: l.T("princesses.control.no_power", nil)}
			}
			return render.Control{Label: princessPower(l, t[2]), Detail: princessPowerText(l, v, t[2])}
		case "swap":
			return princessMenu(l, "take", card(2))
		case "declare":
			if su, ok := princesses.ParseSuit(t[2]); ok && len(t[2]) > 1 {
				return render.Control{Label: l.T("princesses.suit."+su.Letter(), nil)}
			}
			return render.Control{Label: princessSeat(names, t[2])}
		case "assign":
			return render.Control{Label: princessSeat(names, t[2])}
		}
		return render.Control{Label: whole()}
	}
	switch verb := t[0]; verb {
	case "choose":
		return render.Control{Label: l.T("princesses.control.princess", map[string]any{"Name": princessName(l, t[1]), "Power": princessPower(l, t[1])})}
	case "play":
		c := princessMenu(l, "play", card(1))
		if princessMasked(v) {
			c.Placeholder = l.T("princesses.control.menu.play_masked", nil)
		}
		switch {
		case len(t) == 3:
			c.Label = l.T("princesses.control.with_power", map[string]any{"Card": card(1), "Power": princessPower(l, t[2])})
		case !s.Whole:
			c.Description = l.T("princesses.control.power_next", nil)
		}
		return c
	case "aside", "gift", "give", "offer", "retain", "freeze":
		return princessMenu(l, verb, card(1))
	case "trade":
		if t[1] == "none" {
			return render.Control{Label: whole()}
		}
		return princessMenu(l, verb, card(1))
	case "mulan":
		if len(t) < 3 {
			return render.Control{Label: whole()}
		}
		return princessMenu(l, verb, l.T("princesses.control.swap", map[string]any{"Card": card(1), "Take": card(2)}))
	case "swap":
		c := princessMenu(l, verb, card(1))
		if len(t) == 3 {
			c.Label = l.T("princesses.control.swap", map[string]any{"Card": card(1), "Take": card(2)})
		}
		return c
	case "assign":
		c := princessMenu(l, verb, card(1))
		if len(t) == 3 {
			c.Label = l.T("princesses.control.to", map[string]any{"Card": card(1), "Name": princessSeat(names, t[2])})
		}
		return c
	case "reveal", "sing":
		if su, ok := princesses.ParseSuit(t[1]); ok {
			return render.Control{Label: l.T("princesses.suit."+su.Letter(), nil)}
		}
	case "declare":
		c := render.Control{Label: whole(), Detail: princessPowerText(l, v, t[1])}
		if !s.Whole {
			c.Label = l.T("princesses.power.action.declare", map[string]any{"Power": princessPower(l, t[1])})
		}
		return c
	case "pocahontas":
		if t[1] != "none" {
			return render.Control{Label: princessSeat(names, t[1])}
		}
	}
	return render.Control{Label: whole()}
}

// Prompt names the card or power chosen and asks for the rest; at the
// first step it asks the question suit and player buttons answer.
func (Presenter) Prompt(l *locales.Localizer, ev engine.View, names render.Names, chosen []string) string {
	v, _ := ev.(*princesses.View)
	if len(chosen) == 0 {
		switch {
		case v == nil:
		case v.Phase == "reveal":
			return l.T("princesses.control.prompt.reveal", nil)
		case v.PowerStep == "sing":
			return l.T("princesses.control.prompt.sing", map[string]any{"Power": princessPower(l, "mermaid")})
		case v.PowerStep == "pocahontas":
			return l.T("princesses.control.prompt.guide", map[string]any{"Power": princessPower(l, "pocahontas")})
		}
		return ""
	}
	if len(chosen) < 2 {
		return ""
	}
	card := cardToken(l, chosen[1])
	switch chosen[0] {
	case "play":
		key := "princesses.control.prompt.play"
		if princessMasked(v) {
			key = "princesses.control.prompt.play_masked"
		}
		return l.T(key, map[string]any{"Card": card})
	case "swap":
		return l.T("princesses.control.prompt.swap", map[string]any{"Card": card})
	case "assign":
		return l.T("princesses.control.prompt.assign", map[string]any{"Card": card})
	case "declare":
		key := "princesses.control.prompt.declare_seat"
		if chosen[1] == "mermaid" {
			key = "princesses.control.prompt.declare_suit"
		}
		return l.T(key, map[string]any{"Power": princessPower(l, chosen[1])})
	}
	return ""
}
