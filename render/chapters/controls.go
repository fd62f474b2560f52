package chapters

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ---------------------------------------------------------------- chapters

// Stops: with 2 players, the card to keep, then the ghost's.
func (Presenter) Stops(t []string) []int {
	if len(t) == 4 && t[0] == "pick" {
		return []int{2, 4}
	}
	return []int{len(t)}
}

func chaptersTable(v *chapters.View) *chapters.Table {
	if v == nil || v.Cards == nil {
		return &chapters.DefaultCards
	}
	return v.Cards
}

// chaptersDesc is what a card is and does in at most MaxOptionText
// characters: its traits and abilities; the abilities alone when both do
// not fit (the traits are the clause it may drop); else its traits and a
// pointer to the full text, which the control's Detail then carries (full
// is false).
func chaptersDesc(l *locales.Localizer, t *chapters.Table, c chapters.Card) (desc string, full bool) {
	traits, text := ChaptersTraits(l, t.Card(c).Traits), ChaptersAbilities(l, t, c)
	if d, ok := render.FirstFitting(render.MaxOptionText, l.T("chapters.step.desc", map[string]any{"List": traits, "Text": text}), text); ok {
		return d, true
	}
	d, _ := render.FirstFitting(render.MaxOptionText, l.T("chapters.control.desc_above", map[string]any{"List": traits}), l.T("chapters.control.desc_above", map[string]any{"List": "…"}))
	return d, false
}

// Control: a card of the hand in a menu, with what it does.
func (Presenter) Control(l *locales.Localizer, ev engine.View, _ render.Names, s render.Step) render.Control {
	v, _ := ev.(*chapters.View)
	tb := chaptersTable(v)
	t := s.Tokens
	if len(t) < 2 {
		return render.Control{Label: strings.Join(t, " ")}
	}
	i := 1
	menu, place := t[0], "chapters.control.menu."+t[0]
	if s.Chosen >= 2 && len(t) == 4 {
		i, menu, place = 3, "ghost", "chapters.control.menu.ghost"
	} else if t[0] == "pick" && v != nil && v.Ghosts {
		place = "chapters.control.menu.pick_ghost"
	}
	c, ok := chapters.ParseCard(t[i])
	if !ok {
		return render.Control{Label: strings.Join(t, " ")}
	}
	out := render.Control{Label: ChaptersCard(l, tb, c), Menu: menu, Placeholder: l.T(place, nil)}
	var full bool
	if out.Description, full = chaptersDesc(l, tb, c); !full {
		out.Detail = l.T("chapters.step.desc", map[string]any{"List": ChaptersTraits(l, tb.Card(c).Traits), "Text": ChaptersAbilities(l, tb, c)})
	}
	if i == 1 && len(t) == 4 {
		// The last two cards of a 2-player pick: one choice.
		g, _ := chapters.ParseCard(t[3])
		out.Label = l.T("chapters.control.keep_ghost", map[string]any{"Card": ChaptersCard(l, tb, c), "Text": ChaptersCard(l, tb, g)})
		out.Description, out.Detail = "", ""
	}
	return out
}

// Prompt: once the card to keep is chosen, the question of the ghost's.
func (Presenter) Prompt(l *locales.Localizer, ev engine.View, _ render.Names, chosen []string) string {
	v, _ := ev.(*chapters.View)
	if v == nil || len(chosen) != 2 || chosen[0] != "pick" {
		return ""
	}
	keep, _ := chapters.ParseCard(chosen[1])
	return l.T("chapters.control.prompt.ghost", map[string]any{"Card": ChaptersCard(l, chaptersTable(v), keep)})
}
