package princesses

import (
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ID is the game's id.
func (Presenter) ID() string { return "princesses" }

// Card finds a round card or a princess by its id or name
// (render.RulesLookup), else a card by its code (Q7) or by its name as the
// screen shows it (Queen 7, Frog); else it says what the cards are.
func (Presenter) Card(l *locales.Localizer, _ engine.View, query string) (string, bool) {
	const whole = 1 << 20
	if text, ok := render.RulesLookup(l, "princesses", query, whole); ok {
		return text, true
	}
	entry := func(c princesses.Card) string {
		return l.T("term.card.code", map[string]any{"Text": c.String(), "Card": PrincessCard(l, c),
			"Suit": l.T("princesses.suit."+c.Suit().Letter(), nil)})
	}
	if c, ok := princesses.ParseCard(strings.ToUpper(strings.TrimSpace(query))); ok {
		return entry(c), true
	}
	var cards []princesses.Card
	var names []string
	for _, suit := range []princesses.Suit{princesses.Queens, princesses.Fairies, princesses.Pets, princesses.Princes} {
		for r := 1; r <= 12; r++ {
			c := princesses.NewCard(suit, r)
			cards, names = append(cards, c), append(names, PrincessCard(l, c))
		}
	}
	if i := render.NameMatch(query, names); i >= 0 {
		return entry(cards[i]), true
	}
	return l.T("term.card.range.princesses", nil), false
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"play Q7", "pass Q3 F9", "declare mermaid queens"}, "Q7"
}

// Powers are the princesses at the table: the ones dealt to the seat while
// it chooses, then every seat's.
func (Presenter) Powers(l *locales.Localizer, ev engine.View, names render.Names) []string {
	v, ok := ev.(*princesses.View)
	if !ok {
		return nil
	}
	if !v.Powers {
		return []string{l.T("term.power.off", nil)}
	}
	text := func(id string) string {
		key := "princesses.princess." + id + ".text"
		if v.Edition == princesses.Classic && l.Has(key+"_classic") {
			key += "_classic"
		}
		return l.T(key, nil)
	}
	out := []string{l.T("term.power.header", nil)}
	for _, id := range v.Offered {
		out = append(out, l.T("term.power.line", map[string]any{
			"Name": l.T("term.power.dealt", nil), "Princess": l.T("princesses.princess."+id+".name", nil),
			"Power": l.T("princesses.princess."+id+".power", nil), "Text": text(id),
		}))
	}
	for s, id := range v.Princess {
		if id == "" {
			continue
		}
		line := l.T("term.power.line", map[string]any{
			"Name": names.Of(engine.Seat(s)), "Princess": l.T("princesses.princess."+id+".name", nil),
			"Power": l.T("princesses.princess."+id+".power", nil), "Text": text(id),
		})
		if s < len(v.Used) && v.Used[s] {
			line += " " + l.T("term.power.used", nil)
		}
		out = append(out, line)
	}
	if len(out) == 1 {
		out = append(out, l.T("term.power.none_yet", nil))
	}
	return out
}

// OfferOptional: a power announced in advance is offered before a trick is
// led, where it would resolve at once, and not while cards are masked.
func (Presenter) OfferOptional(ev engine.View) bool {
	v, ok := ev.(*princesses.View)
	return ok && v.Phase == "play" && len(v.Trick) == 0 && !slices.Contains(v.Masked, true)
}
