package chapters

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ID is the game's id.
func (Presenter) ID() string { return "chapters" }

// Card finds a card by its number, else every card whose name holds the
// words typed (the exact names first), from the table's cards when v is
// the reader's view; else it says that the cards run 1 to 50.
func (Presenter) Card(l *locales.Localizer, ev engine.View, query string) (string, bool) {
	t := &chapters.DefaultCards
	if cv, ok := ev.(*chapters.View); ok && cv.Cards != nil {
		t = cv.Cards
	}
	if c, ok := chapters.ParseCard(query); ok && c >= 1 && c <= chapters.NumCards {
		return ChaptersCardEntry(l, t, c), true
	}
	var exact, partial []string
	want := render.FoldName(query)
	for c := chapters.Card(1); c <= chapters.NumCards; c++ {
		name := render.FoldName(l.T("chapters.card."+t.Card(c).Key, nil))
		switch {
		case name == want:
			exact = append(exact, ChaptersCardEntry(l, t, c))
		case strings.Contains(name, want):
			partial = append(partial, ChaptersCardEntry(l, t, c))
		}
	}
	if len(exact) == 0 {
		exact = partial
	}
	if len(exact) == 0 || want == "" {
		return l.T("term.card.range.chapters", map[string]any{"Max": chapters.NumCards}), false
	}
	return strings.Join(exact, "\n"), true
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"pick 35", "pick 49 ghost 12", "play 35"}, "35"
}

// Powers are the abilities of the cards in the seat's hand.
func (Presenter) Powers(l *locales.Localizer, ev engine.View, _ render.Names) []string {
	v, ok := ev.(*chapters.View)
	if !ok {
		return nil
	}
	out := []string{l.T("term.power.chapters", nil)}
	for _, c := range v.Hand {
		out = append(out, ChaptersCardLine(l, v.Cards, c))
	}
	return out
}
