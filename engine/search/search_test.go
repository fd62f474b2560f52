package search_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/search"
)

// games are the four games with the seat counts tried: a duel and four.
var games = []struct {
	g     engine.Game
	seats []int
	opts  engine.Options
}{
	{princesses.Game{}, []int{3, 4}, nil},
	{lynx.Game{}, []int{2, 4}, nil},
	{lynx.Game{}, []int{3}, engine.Options{"mode": "expert"}},
	{chapters.Game{}, []int{2, 4}, nil},
	{courtiers.Game{}, []int{2, 4}, nil},
}

// TestBlindToHiddenCards gives the search player, at many points of many
// games, the real state and a copy in which everything its seat may not
// know is re-dealt (the same view, by the engine's HiddenShuffler, as the
// conformance suite's hidden check builds it), and requires the same
// decision for the same seed: what it cannot see cannot sway it.
func TestBlindToHiddenCards(t *testing.T) {
	const gamesPerCount, every = 3, 7
	for _, tc := range games {
		// The hard level as the game sets it (its playout depth, which
		// Courtisans cuts short and forecasts), on a small budget.
		hard, err := ai.Player(tc.g, ai.Hard, 0, 150)
		if err != nil {
			t.Fatal(err)
		}
		p := hard.(*search.Player)
		h, err := ai.Player(tc.g, ai.Normal, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.seats {
			t.Run(fmt.Sprintf("%s/%d%v", tc.g.ID(), n, tc.opts), func(t *testing.T) {
				checked, differed := 0, 0
				for seed := uint64(1); seed <= gamesPerCount; seed++ {
					st, err := engine.Start(tc.g, engine.Setup{Game: tc.g.ID(), Options: tc.opts, Seats: n, Seed: seed}, nil)
					if err != nil {
						t.Fatal(err)
					}
					for step := 0; ; step++ {
						if done, _ := st.Result(); done {
							break
						}
						s := st.Acting()[0]
						legal := st.Legal(s)
						if step%every == 0 && len(legal) > 1 {
							twin := st.(engine.HiddenShuffler).ShuffleHidden(s, engine.NewRand(seed^0xb11d, step))
							if !reflect.DeepEqual(twin.View(s), st.View(s)) {
								t.Fatalf("seed %d step %d: the re-dealt copy shows seat %d another view", seed, step, s)
							}
							if !reflect.DeepEqual(twin, st) {
								differed++
							}
							a := p.ChooseIn(st, s, engine.NewRand(seed, step))
							b := p.ChooseIn(twin, s, engine.NewRand(seed, step))
							if a != b {
								t.Fatalf("seed %d step %d: seat %d plays %v in the game but %v when only hidden cards differ", seed, step, s, a, b)
							}
							if !contains(legal, a) {
								t.Fatalf("seed %d step %d: %v is not legal", seed, step, a)
							}
							checked++
						}
						a := h.Choose(st.View(s), legal, engine.NewRand(seed^0xa11ce, step))
						if _, err := st.Apply(s, a, engine.NewRand(seed, step+1)); err != nil {
							t.Fatal(err)
						}
					}
				}
				if checked < 10 || differed < checked/2 {
					t.Fatalf("only %d decisions checked, %d with hidden cards re-dealt differently", checked, differed)
				}
			})
		}
	}
}

// TestDeterministic: the same state and seed give the same decision, and
// it is a legal action.
func TestDeterministic(t *testing.T) {
	for _, tc := range games {
		h, _ := tc.g.(engine.Bots).Bot("heuristic")
		p := search.New(h, search.Budget(300))
		st, err := engine.Start(tc.g, engine.Setup{Game: tc.g.ID(), Options: tc.opts, Seats: tc.seats[0], Seed: 7}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := st.Acting()[0]
		a := p.ChooseIn(st, s, engine.NewRand(3, 1))
		b := p.ChooseIn(st.Clone(), s, engine.NewRand(3, 1))
		if a != b || !contains(st.Legal(s), a) {
			t.Fatalf("%s: %v then %v (legal %v)", tc.g.ID(), a, b, st.Legal(s))
		}
	}
}

func contains(legal []engine.Action, a engine.Action) bool {
	for _, x := range legal {
		if x == a {
			return true
		}
	}
	return false
}
