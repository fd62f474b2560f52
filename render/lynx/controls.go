package lynx

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ---------------------------------------------------------------- lynx

// Stops: a set's value, then the set.
func (Presenter) Stops(t []string) []int {
	if len(t) > 2 && t[0] == "play" {
		return []int{2, len(t)}
	}
	return []int{len(t)}
}

func lynxGroupOf(v *lynx.View, c lynx.Card) lynx.Group {
	if v != nil {
		for _, g := range v.Groups {
			if g.Card == c {
				return g
			}
		}
	}
	return lynx.Group{Card: c}
}

// Control: the value of a set from a menu of the hand grouped by value
// ("7×3"), then the set itself as a button ("7 7 X"); stealing, taking,
// leaving and drawing as buttons naming the cards and the player.
func (Presenter) Control(l *locales.Localizer, ev engine.View, names render.Names, s render.Step) render.Control {
	v, _ := ev.(*lynx.View)
	t := s.Tokens
	text := strings.Join(t, " ")
	if len(t) >= 2 && t[0] == "play" {
		value, ok := lynx.ParseCard(t[1])
		if !ok {
			return render.Control{Label: text}
		}
		if s.Chosen >= 2 {
			// "2 cards: 8 8", "2 cards: 9 X": how many, and which.
			return render.Control{Label: l.N("lynx.control.set", len(t)-1, map[string]any{"Set": strings.Join(t[1:], " ")})}
		}
		g := lynxGroupOf(v, value)
		c := render.Control{Label: LynxGroup(l, g), Menu: "play", Placeholder: l.T("lynx.control.menu.play", nil)}
		jokers := lynxGroupOf(v, lynx.Joker).Count
		if value == lynx.Joker {
			c.Label = l.T("lynx.control.jokers", map[string]any{"List": LynxGroup(l, g)})
			jokers = 0
		}
		if !s.Whole {
			c.Description = l.N("lynx.control.up_to", g.Count+jokers, nil)
		}
		return c
	}
	a, err := lynx.ParseAction(text)
	if err != nil || v == nil {
		return render.Control{Label: text}
	}
	stolen := LynxSet(v.Stolen)
	switch a.Kind {
	case lynx.KindStealVirtual:
		set := a.Value.String()
		for _, g := range v.Virtual {
			if g.Card == a.Value {
				set = LynxSet(repeat(g))
			}
		}
		return render.Control{Label: l.T("lynx.control.steal_virtual", map[string]any{"Set": set})}
	case lynx.KindTake:
		return render.Control{Label: l.T("lynx.control.take", map[string]any{"Set": stolen})}
	case lynx.KindLeave:
		return render.Control{Label: l.T("lynx.control.leave", map[string]any{"Set": stolen, "Name": names.Of(v.Victim)})}
	case lynx.KindBack:
		return render.Control{Label: l.T("lynx.control.back", map[string]any{"Set": stolen})}
	case lynx.KindDiscard:
		return render.Control{Label: l.N("lynx.control.discard", len(v.Stolen), map[string]any{"Set": stolen})}
	case lynx.KindDrawDeck:
		return render.Control{Label: l.T("lynx.control.deck", map[string]any{"Cards": l.N("lynx.cards", v.DeckSize, nil)})}
	case lynx.KindDrawPool:
		place := a.Value.String()
		if a.Under != 0 {
			place = lynxPlace([]lynx.Card{a.Under, a.Value})
		} else {
			for _, p := range v.Pool {
				if len(p) > 0 && p[len(p)-1] == a.Value {
					place = lynxPlace(p)
					break
				}
			}
		}
		return render.Control{Label: l.T("lynx.control.pool", map[string]any{"Set": place})}
	}
	return render.Control{Label: Presenter{}.Action(l, a)}
}

// Prompt: once a value is chosen, which set of it, with what the hand
// holds of it and of jokers.
func (Presenter) Prompt(l *locales.Localizer, ev engine.View, _ render.Names, chosen []string) string {
	v, _ := ev.(*lynx.View)
	if len(chosen) != 2 || chosen[0] != "play" {
		return ""
	}
	value, ok := lynx.ParseCard(chosen[1])
	if !ok {
		return ""
	}
	list := []string{LynxGroup(l, lynxGroupOf(v, value))}
	if j := lynxGroupOf(v, lynx.Joker); value != lynx.Joker && j.Count > 0 {
		list = append(list, LynxGroup(l, j))
	}
	return l.T("lynx.control.prompt.set", map[string]any{"Card": value.String(), "List": strings.Join(list, ", ")})
}
