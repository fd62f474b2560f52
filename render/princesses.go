package render

import (
	"fmt"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

func init() { games["princesses"] = princessesRenderer{} }

type princessesRenderer struct{}

// PrincessCard names a card of Rebel Princess ("Queen 7", "Frog").
func PrincessCard(l *locales.Localizer, c princesses.Card) string {
	if c.IsFrog() {
		return l.T("princesses.card.frog", nil)
	}
	return l.T("princesses.card."+c.Suit().Letter(), map[string]any{"Rank": c.Rank()})
}

func cardToken(l *locales.Localizer, t string) string {
	c, ok := princesses.ParseCard(t)
	if !ok {
		return t
	}
	return PrincessCard(l, c)
}

func princessCards(l *locales.Localizer, cs []princesses.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = PrincessCard(l, c)
	}
	return strings.Join(parts, ", ")
}

func tokens(l *locales.Localizer, ts []string) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = cardToken(l, t)
	}
	return strings.Join(parts, ", ")
}

func princessName(l *locales.Localizer, id string) string {
	return l.T("princesses.princess."+id+".name", nil)
}

func roundName(l *locales.Localizer, id string) string {
	return l.T("princesses.round."+id+".name", nil)
}

func passText(l *locales.Localizer, left, right int) string {
	switch {
	case left > 0 && right > 0:
		return l.T("princesses.pass.both", nil)
	case left > 0:
		return l.N("princesses.pass.left", left, nil)
	case right > 0:
		return l.N("princesses.pass.right", right, nil)
	}
	return l.T("princesses.pass.none", nil)
}

func (princessesRenderer) Public(l *locales.Localizer, ev engine.View, names Names) []string {
	v := ev.(*princesses.View)
	var out []string
	edition := l.T("princesses.edition."+v.Edition.String(), nil)
	if v.Extra {
		out = append(out, l.T("princesses.ui.tiebreak_round", map[string]any{"Card": roundName(l, v.RoundCard)}))
	} else {
		out = append(out, l.T("princesses.ui.round", map[string]any{
			"Round": v.Round, "Rounds": v.Rounds, "Card": roundName(l, v.RoundCard), "Edition": edition,
		}))
	}
	text := "princesses.round." + v.RoundCard + ".text"
	if v.Edition == princesses.Classic {
		text += "_classic"
	}
	out = append(out, "  "+l.T(text, nil)+" "+passText(l, v.PassLeft, v.PassRight))
	if v.Powers && v.Phase != "choose" {
		parts := make([]string, len(v.Princess))
		for s, p := range v.Princess {
			parts[s] = names.Of(engine.Seat(s)) + ": " + princessName(l, p)
		}
		out = append(out, l.T("princesses.ui.princesses", map[string]any{"List": strings.Join(parts, "; ")}))
	}
	switch v.Phase {
	case "choose", "pass":
		var waiting []engine.Seat
		for s, d := range v.Done {
			if !d {
				waiting = append(waiting, engine.Seat(s))
			}
		}
		key := "princesses.ui.waiting_choose"
		if v.Phase == "pass" {
			key = "princesses.ui.waiting_pass"
		}
		out = append(out, l.T(key, map[string]any{"Names": names.List(waiting)}))
	case "play":
		if len(v.Trick) == 0 {
			out = append(out, l.T("princesses.ui.trick_empty", map[string]any{"Name": names.Of(v.Leader)}))
		} else {
			parts := make([]string, len(v.Trick))
			for i, p := range v.Trick {
				parts[i] = names.Of(p.Seat) + ": " + PrincessCard(l, p.Card)
			}
			out = append(out, l.T("princesses.ui.trick", map[string]any{"Plays": strings.Join(parts, " · ")}))
		}
		if v.SnuckIn {
			out = append(out, l.T("princesses.snuck_in", nil))
		}
		out = append(out, l.T("princesses.ui.turn", map[string]any{"Name": names.Of(v.Acting[0])}))
	}
	out = append(out, l.T("princesses.ui.scores", nil))
	for s := 0; s < v.Seats; s++ {
		last := "—"
		if n := len(v.Scores); n > 0 {
			last = fmt.Sprint(v.Scores[n-1][s])
		}
		out = append(out, "  "+l.T("princesses.ui.score_line", map[string]any{
			"Name": names.Of(engine.Seat(s)), "Tricks": l.N("princesses.tricks", v.Tricks[s], nil),
			"Cards": l.N("princesses.cards", v.HandSizes[s], nil), "Last": last, "Total": v.Totals[s],
		}))
	}
	if v.Phase == "over" {
		key := "ui.winner"
		if len(v.Winners) > 1 {
			key = "ui.winners_shared"
		}
		out = append(out, l.T(key, map[string]any{"Names": names.List(v.Winners)}))
	}
	return out
}

func (princessesRenderer) Private(l *locales.Localizer, ev engine.View, names Names) []string {
	v := ev.(*princesses.View)
	if v.Seat < 0 {
		return nil
	}
	var out []string
	if p := v.Princess[v.Seat]; p != "" {
		out = append(out, l.T("princesses.ui.your_princess", map[string]any{
			"Name": princessName(l, p), "Power": l.T("princesses.princess."+p+".power", nil),
		}))
	}
	if len(v.Offered) > 0 {
		parts := make([]string, len(v.Offered))
		for i, p := range v.Offered {
			parts[i] = princessName(l, p)
		}
		out = append(out, l.T("princesses.ui.offered", map[string]any{"List": strings.Join(parts, ", ")}))
	}
	out = append(out, l.T("princesses.ui.hand", map[string]any{"Cards": princessCards(l, v.Hand)}))
	if len(v.MyPass) > 0 {
		out = append(out, l.T("princesses.ui.my_pass", map[string]any{"Cards": princessCards(l, v.MyPass)}))
	}
	return out
}

func (princessesRenderer) Action(l *locales.Localizer, ea engine.Action) string {
	a := ea.(princesses.Action)
	switch a.Kind {
	case princesses.KindChoose:
		return l.T("princesses.action.choose", map[string]any{"Princess": princessName(l, a.Princess.String())})
	case princesses.KindPass:
		return l.T("princesses.action.pass", map[string]any{"Cards": princessCards(l, a.CardList())})
	case princesses.KindPlay:
		return l.T("princesses.action.play", map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	}
	return a.String()
}

func (princessesRenderer) Hint(l *locales.Localizer, ev engine.View) string {
	v := ev.(*princesses.View)
	if v.Phase != "pass" || v.Seat < 0 {
		return ""
	}
	n := v.PassLeft + v.PassRight
	example := "pass"
	for i := 0; i < n && i < len(v.Hand); i++ {
		example += " " + v.Hand[len(v.Hand)-1-i].String()
	}
	key := "princesses.ui.pass_hint"
	if v.PassLeft > 0 && v.PassRight > 0 {
		key = "princesses.ui.pass_hint_both"
	}
	return l.N(key, n, map[string]any{"Example": example, "Direction": passText(l, v.PassLeft, v.PassRight)})
}

func (princessesRenderer) Event(l *locales.Localizer, e engine.Event, names Names) string {
	a := e.Args
	seat := func(k string) string {
		s, _ := a[k].(engine.Seat)
		return names.Of(s)
	}
	switch e.Type {
	case "princess_chosen":
		return l.T("princesses.event.princess_chosen", map[string]any{"Name": seat("seat")})
	case "princesses_revealed":
		ids, _ := a["princesses"].([]string)
		parts := make([]string, len(ids))
		for s, id := range ids {
			parts[s] = names.Of(engine.Seat(s)) + ": " + princessName(l, id)
		}
		return l.T("princesses.event.princesses_revealed", map[string]any{"List": strings.Join(parts, "; ")})
	case "cards_passed":
		return l.T("princesses.event.cards_passed", map[string]any{"Name": seat("seat")})
	case "cards_received":
		cs, _ := a["cards"].([]string)
		gave, _ := a["gave"].([]string)
		return l.T("princesses.event.cards_received", map[string]any{"Cards": tokens(l, cs), "Gave": tokens(l, gave)})
	case "passing_done":
		return l.T("princesses.event.passing_done", nil)
	case "card_played":
		c, _ := a["card"].(string)
		return l.T("princesses.event.card_played", map[string]any{"Name": seat("seat"), "Card": cardToken(l, c)})
	case "princes_snuck_in":
		return l.T("princesses.snuck_in", nil)
	case "trick_won":
		cs, _ := a["cards"].([]string)
		pts, _ := a["points"].(int)
		return l.T("princesses.event.trick_won", map[string]any{
			"Name": seat("seat"), "Cards": tokens(l, cs), "Proposals": l.N("princesses.proposals", pts, nil),
		})
	case "round_started":
		round, _ := a["round"].(int)
		card, _ := a["card"].(string)
		return l.T("princesses.event.round_started", map[string]any{"Round": round, "Card": roundName(l, card), "Name": seat("leader")})
	case "round_scored":
		scores, _ := a["scores"].([]int)
		totals, _ := a["totals"].([]int)
		round, _ := a["round"].(int)
		parts := make([]string, len(scores))
		for s := range scores {
			parts[s] = l.T("princesses.event.score_part", map[string]any{
				"Name": names.Of(engine.Seat(s)), "Proposals": l.N("princesses.proposals", scores[s], nil), "Total": totals[s],
			})
		}
		text := l.T("princesses.event.round_scored", map[string]any{"Round": round, "List": strings.Join(parts, "; ")})
		if rebel, _ := a["rebel"].(engine.Seat); rebel >= 0 {
			text += " " + l.T("princesses.event.rebel", map[string]any{"Name": names.Of(rebel)})
		}
		return text
	case "tiebreak_round":
		return l.T("princesses.event.tiebreak_round", nil)
	case "game_over":
		w, _ := a["winners"].([]engine.Seat)
		key := "ui.winner"
		if len(w) > 1 {
			key = "ui.winners_shared"
		}
		return l.T(key, map[string]any{"Names": names.List(w)})
	}
	return ""
}
