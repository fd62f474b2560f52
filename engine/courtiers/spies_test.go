package courtiers

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// A seat remembers the spies it placed face down, and nobody else's: its
// view lists them (no other view does), and a re-deal of what it may not
// know keeps each where it was placed, or, when an assassin took a
// face-down spy from that place, there or among the eliminated, both of
// which happen; the others' spies are re-dealt, and the copy's record names
// them as they now lie.
func TestRedealRemembersOwnSpies(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{2, 3, 4, 5} {
		t.Run(fmt.Sprint(seats), func(t *testing.T) {
			t.Parallel()
			var checked, redealt, survived, taken int
			for seed := uint64(1); seed <= 10; seed++ {
				placed := make([][]Placement, seats) // each seat's spies, by the test's own count
				touched := map[int]bool{}            // places an assassin took a face-down spy from
				playGame(t, seats, seed, killSpies, func(st *State, acting engine.Seat, a Action, step int) {
					for s := range seats {
						v := st.View(engine.Seat(s)).(*View)
						if !reflect.DeepEqual(v.Remembered, placed[s]) {
							t.Fatalf("seed %d step %d: seat %d remembers %v, placed %v", seed, step, s, v.Remembered, placed[s])
						}
					}
					if v := st.View(engine.Spectator).(*View); v.Remembered != nil {
						t.Fatalf("a spectator remembers spies: %v", v.Remembered)
					}
					if step%5 == 0 {
						for s := range seats {
							for k := range 4 {
								c := st.ShuffleHidden(engine.Seat(s), engine.NewRand(seed, step*8+k)).(*State)
								sv, tk := checkRemembered(t, c, engine.Seat(s), placed[s], touched)
								survived, taken, checked = survived+sv, taken+tk, checked+1
								if !slices.Equal(faceDown(c), faceDown(st)) {
									redealt++
								}
								for o := range seats {
									if mem := c.View(engine.Seat(o)).(*View).Remembered; len(mem) == len(placed[o]) {
										checkRemembered(t, c, engine.Seat(o), mem, touched)
									} else {
										t.Fatalf("seat %d remembers %d spies in a copy, %d in the game", o, len(mem), len(placed[o]))
									}
								}
							}
						}
					}
					if a.Kill && a.Target == NoCard {
						touched[placeOf(acting, a.Area, a.Opp, a.Side)] = true
					}
					if a.Card.Role() == Spy {
						placed[acting] = append(placed[acting], Placement{Card: a.Card, Area: a.Area, Opp: a.Opp})
					}
				})
			}
			if checked == 0 || redealt < checked/4 {
				t.Errorf("%d re-deals, only %d of them moved another seat's spy", checked, redealt)
			}
			t.Logf("%d seats: %d re-deals, %d moving another seat's spy; remembered spies from a struck place: %d stayed, %d taken", seats, checked, redealt, survived, taken)
			if survived == 0 || taken == 0 {
				t.Errorf("a remembered spy from a place an assassin struck: stayed %d times, taken %d: want both", survived, taken)
			}
		})
	}
}

// killSpies changes a heuristic player's choice into taking a face-down
// spy whenever an assassin may.
func killSpies(a Action, legal []engine.Action) Action {
	for _, b := range legal {
		if b := b.(Action); b.Kill && b.Target == NoCard {
			a = b
		}
	}
	return a
}

// faceDown lists the face-down spies where they lie: the Queen's column
// above and below, the domains, the ghosts.
func faceDown(st *State) []Card {
	out := slices.Concat(st.queen[0], st.queen[1])
	for _, d := range st.domains {
		for _, x := range d {
			if x.Role() == Spy {
				out = append(out, x)
			}
		}
	}
	return append(out, st.ghosts...)
}

// checkRemembered checks that the spies seat s remembers (mem) lie in c
// where s placed them, or, from a place an assassin struck, there or among
// the ghosts; it counts those of struck places that stayed and that were
// taken.
func checkRemembered(t *testing.T, c *State, s engine.Seat, mem []Placement, touched map[int]bool) (stayed, taken int) {
	t.Helper()
	at := make([][]Card, 2+c.n)
	at[0], at[1] = slices.Clone(c.queen[0]), slices.Clone(c.queen[1])
	for d := range c.n {
		for _, x := range c.domains[d] {
			if x.Role() == Spy {
				at[2+d] = append(at[2+d], x)
			}
		}
	}
	ghosts := slices.Clone(c.ghosts)
	for _, pl := range mem {
		p := placeOf(s, pl.Area, pl.Opp, SideNone)
		var ok bool
		if at[p], ok = engine.RemoveOne(at[p], pl.Card); ok {
			if touched[p] {
				stayed++
			}
			continue
		}
		if ghosts, ok = engine.RemoveOne(ghosts, pl.Card); !ok || !touched[p] {
			t.Fatalf("seat %d's spy %v placed at %d is neither there (%v) nor, after an assassin struck there, among the ghosts", s, pl.Card, p, at[p])
		}
		taken++
	}
	return stayed, taken
}
