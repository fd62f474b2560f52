package render_test

import (
	"testing"

	princessesview "github.com/stolik-bot/stolik/render/princesses"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// TestToReader: an event about the reader's seat is told to them in the
// second person; an event about another seat, one that only lists the
// reader among others, or one the reader may not see, is not.
func TestToReader(t *testing.T) {
	b := locales.MustLoad()
	g, _ := render.For("princesses")
	names := render.Names{"Ala", "Olena", "Bob"}
	q9, ok := princesses.ParseCard("Q9")
	if !ok {
		t.Fatal("no card Q9")
	}
	played := engine.Public("card_played", map[string]any{"seat": engine.Seat(1), "card": "Q9"})
	for _, tt := range []struct {
		name   string
		lang   string
		e      engine.Event
		reader engine.Seat
		want   string // a key rendered with the card's words, or "" for none
	}{
		{"own move", "en", played, 1, "princesses.event.card_played_you"},
		{"own move, Polish", "pl", played, 1, "princesses.event.card_played_you"},
		{"another's move", "en", played, 2, ""},
		{"the reader listed among others", "en", engine.Public("princesses_revealed", map[string]any{"princesses": []string{"a", "b", "c"}}), 1, ""},
		{"hidden from the reader", "uk", engine.Private(0, "princess_chosen", map[string]any{"seat": engine.Seat(1)}), 1, ""},
		{"a spectator", "en", played, engine.Spectator, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := b.Lang(tt.lang)
			got := render.ToReader(g, l, tt.e, names, tt.reader)
			want := ""
			if tt.want != "" {
				want = l.T(tt.want, map[string]any{"Card": princessesview.PrincessCard(l, q9)})
			}
			if got != want {
				t.Errorf("ToReader = %q, want %q", got, want)
			}
		})
	}
}
