package render_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"

	_ "github.com/stolik-bot/stolik/engine/chapters"
	_ "github.com/stolik-bot/stolik/engine/courtiers"
	_ "github.com/stolik-bot/stolik/engine/lynx"
	_ "github.com/stolik-bot/stolik/engine/princesses"
)

// TestNothingHiddenIsRendered plays random games of every registered game
// and seat count and, at sampled steps, renders everything each seat and a
// spectator would read (public and private lines, the hint, the labels of
// its legal actions) in every language. Then it re-deals everything hidden
// from that reader (the state's HiddenShuffler) and renders again: the text
// must be identical, so no message can carry a card the reader may not
// know. Game-agnostic: no card names are matched.
//
// Games per game and seat count: 1 under -race or -short, 10 otherwise;
// STOLIK_HIDDEN_GAMES overrides (the thousands-of-games run):
//
//	STOLIK_HIDDEN_GAMES=200 go test -run NothingHiddenIsRendered ./render/
func TestNothingHiddenIsRendered(t *testing.T) {
	t.Parallel()
	n := 10
	if testing.Short() || raceEnabled {
		n = 1
	}
	if v := os.Getenv("STOLIK_HIDDEN_GAMES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	b := locales.MustLoad()
	names := render.Names{"Ala", "Olena", "Bob", "Zosia", "Marek", "Iryna"}
	for _, id := range engine.Games() {
		g, _ := engine.Lookup(id)
		r, ok := render.For(id)
		if !ok {
			continue
		}
		lo, hi := g.Seats()
		for seats := lo; seats <= hi; seats++ {
			t.Run(id+"/"+strconv.Itoa(seats), func(t *testing.T) {
				t.Parallel()
				for k := range n {
					hiddenGame(t, b, g, r, seats, uint64(1000*seats+k+1), names[:seats])
				}
			})
		}
	}
}

func hiddenGame(t *testing.T, b *locales.Bundle, g engine.Game, r render.Game, seats int, seed uint64, names render.Names) {
	su := engine.Setup{Game: g.ID(), Seats: seats, Seed: seed, Options: engine.Options{}}
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(engine.HiddenShuffler); !ok {
		t.Skipf("%s has no HiddenShuffler", g.ID())
	}
	pick := engine.NewRand(seed, 77)
	text := func(s engine.State, seat engine.Seat, l *locales.Localizer) string {
		v := s.View(seat)
		out := strings.Join(r.Public(l, v, names), "\n") + "\n" + strings.Join(r.Private(l, v, names), "\n") + "\n" + r.Hint(l, v)
		if seat >= 0 && engine.IsActing(s, seat) {
			for _, a := range s.Legal(seat) {
				out += "\n" + r.Action(l, a)
			}
		}
		return out
	}
	for step := 0; step < 5000; step++ {
		if done, _ := st.Result(); done {
			break
		}
		if step%4 == 0 {
			for viewer := -1; viewer < seats; viewer++ {
				seat := engine.Seat(viewer)
				other := st.(engine.HiddenShuffler).ShuffleHidden(seat, engine.NewRand(seed, -1-step))
				for _, lang := range locales.Languages() {
					l := b.Lang(lang)
					got, shuffled := text(st, seat, l), text(other, seat, l)
					if got != shuffled {
						t.Fatalf("%s seed %d step %d %s: seat %d's text depends on what is hidden from it:\n%s\n--- after re-dealing the hidden cards ---\n%s",
							g.ID(), seed, step, lang, viewer, got, shuffled)
					}
				}
			}
		}
		acting := st.Acting()
		s := acting[pick.IntN(len(acting))]
		legal := st.Legal(s)
		if _, err := engine.Step(g, st, seed, step, engine.Move{Seat: s, Action: legal[pick.IntN(len(legal))].String()}, nil); err != nil {
			t.Fatalf("%s seed %d step %d: %v", g.ID(), seed, step, err)
		}
	}
}
