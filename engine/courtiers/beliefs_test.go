package courtiers

import (
	"math"
	"reflect"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// playTo plays heuristic players from a new game of n seats until seat
// `at` is to play its turn number `turns` (counting from 0), or the end.
func playTo(t *testing.T, n int, seed uint64, turns int) *State {
	t.Helper()
	st := newGame(t, n, seed)
	for k := 0; k < turns*3; k++ {
		if done, _ := st.Result(); done {
			break
		}
		heuristicMove(t, st, seed, k)
	}
	return st
}

func newGame(t *testing.T, n int, seed uint64) *State {
	t.Helper()
	es, err := Game{}.New(nil, n, engine.NewRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	return es.(*State)
}

// heuristicMove plays the k-th action of a game: the heuristic's, for the
// seat to act.
func heuristicMove(t *testing.T, st *State, seed uint64, k int) {
	t.Helper()
	s := st.Acting()[0]
	a := Heuristic{}.Choose(st.View(s), st.Legal(s), engine.NewRand(seed^0xa11ce, k))
	if _, err := st.Apply(s, a, engine.NewRand(seed, k+1)); err != nil {
		t.Fatal(err)
	}
}

// TestBeliefsReadTheMissions: after half a game against heuristic players,
// the odds worked out from the placements everyone saw put more weight on
// each opponent's real missions than a uniform deal does (1 in 9 for each
// colour, the seat's own excepted), over many games; and the sampler deals
// missions that are all different and keep the seat's own.
func TestBeliefsReadTheMissions(t *testing.T) {
	t.Parallel()

	for _, n := range []int{2, 4} {
		var mass, games float64
		for seed := uint64(1); seed <= 40; seed++ {
			st := playTo(t, n, seed, 3*n+1)
			if done, _ := st.Result(); done {
				t.Fatalf("%d seats, seed %d: over before half the game", n, seed)
			}
			s := st.Acting()[0]
			for o := 0; o < n; o++ {
				if o == int(s) {
					continue
				}
				odds := st.missionOdds(o)
				best := math.Inf(-1)
				for _, l := range odds {
					best = max(best, l)
				}
				var sum, white, blue float64
				for p, l := range odds {
					if p[0] == st.missions[s][0] || p[1] == st.missions[s][1] {
						continue // the seat knows these are its own
					}
					w := math.Exp(l - best)
					sum += w
					if p[0] == st.missions[o][0] {
						white += w
					}
					if p[1] == st.missions[o][1] {
						blue += w
					}
				}
				mass += (white + blue) / sum / 2
				games++
			}
			sample := st.Beliefs(s)(engine.NewRand(seed, 99)).(*State)
			if sample.missions[s] != st.missions[s] {
				t.Fatalf("%d seats, seed %d: the sample changed the seat's own missions", n, seed)
			}
			seen := map[Mission]bool{}
			for _, m := range append(sample.unused, flatten(sample.missions)...) {
				if seen[m] {
					t.Fatalf("%d seats, seed %d: mission %v dealt twice", n, seed, m)
				}
				seen[m] = true
			}
			if len(seen) != NumMissions {
				t.Fatalf("%d seats, seed %d: %d missions in the sample, want %d", n, seed, len(seen), NumMissions)
			}
			if !reflect.DeepEqual(sample.View(s), st.View(s)) {
				t.Fatalf("%d seats, seed %d: the sample shows the seat another view", n, seed)
			}
		}
		if got, uniform := mass/games, 1.0/9; got < 2*uniform {
			t.Errorf("%d seats: the real missions get %.3f of the odds on average, uniform %.3f", n, got, uniform)
		} else {
			t.Logf("%d seats: the real missions get %.3f of the odds on average, uniform %.3f", n, got, uniform)
		}
	}
}

func flatten(ms [][2]Mission) []Mission {
	var out []Mission
	for _, m := range ms {
		out = append(out, m[0], m[1])
	}
	return out
}

// TestSightingsArePublic: what the beliefs read is what everyone saw: no
// sighting names a spy (face down, its family unknown), and each records
// the placement as the table's moves show it.
func TestSightingsArePublic(t *testing.T) {
	t.Parallel()

	for seed := uint64(1); seed <= 10; seed++ {
		st := playTo(t, 3, seed, 100)
		if len(st.seen) == 0 {
			t.Fatal("no placement was sighted")
		}
		for i, sg := range st.seen {
			if sg.placed.Card != NoCard && sg.placed.Card.Role() == Spy {
				t.Fatalf("seed %d: sighting %d names the spy %v", seed, i, sg.placed.Card)
			}
			if sg.placed.Kill && sg.placed.Target != NoCard && sg.placed.Target.Role() == Spy && sg.placed.Side != SideNone {
				t.Fatalf("seed %d: sighting %d names the eliminated face-down spy %v", seed, i, sg.placed.Target)
			}

		}
	}
}

// TestSightingsRebuildThePublicPicture: the picture the beliefs build up
// from the sightings alone is, at every placement of whole games, the one
// the heuristic makes of the public view.
func TestSightingsRebuildThePublicPicture(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 3, 5} {
		for seed := uint64(1); seed <= 5; seed++ {
			st := newGame(t, n, seed)
			for k := 0; ; k++ {
				if done, _ := st.Result(); done {
					break
				}
				board := model{n: n, odds: &odds{}}
				for _, sg := range st.seen {
					board.applyPublic(sg.placed, domainOf(sg.seat, sg.placed))
				}
				want := newModel(st.View(-1).(*View))
				if board.margin != want.margin || board.below != want.below || board.dw != want.dw || board.dc != want.dc || board.roles != want.roles {
					t.Fatalf("%d seats, seed %d, action %d: the sightings rebuild %+v, the public view shows %+v", n, seed, k, board, *want)
				}
				heuristicMove(t, st, seed, k)
				if got := st.seen[len(st.seen)-1].temp; got != want.temp {
					t.Fatalf("%d seats, seed %d, action %d: sighted spread %v, the public view's %v", n, seed, k, got, want.temp)
				}
			}
		}
	}
}
