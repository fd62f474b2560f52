package courtiers

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// heuristicGame plays a seeded game of heuristic players, calling at before
// every placement with the state, the seat to act and the placements made.
func heuristicGame(t *testing.T, seats int, seed uint64, at func(st *State, s engine.Seat, placed int)) {
	t.Helper()
	playGame(t, seats, seed, nil, func(st *State, s engine.Seat, _ Action, placed int) { at(st, s, placed) })
}

// playGame plays a seeded game of heuristic players, whose choices change
// (if change is given) into another of the legal actions, calling at
// before every placement with the state, the seat to act, its action and
// the placements made.
func playGame(t *testing.T, seats int, seed uint64, change func(a Action, legal []engine.Action) Action, at func(st *State, s engine.Seat, a Action, placed int)) {
	t.Helper()
	g, err := Game{}.New(nil, seats, engine.NewRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	st := g.(*State)
	for step := 0; ; step++ {
		if done, _ := st.Result(); done {
			return
		}
		s := st.Acting()[0]
		r := engine.NewRand(seed, 1+step)
		legal := st.Legal(s)
		a := Heuristic{}.Choose(st.View(s), legal, r).(Action)
		if change != nil {
			a = change(a, legal)
		}
		at(st, s, a, step)
		if _, err := st.Apply(s, a, r); err != nil {
			t.Fatal(err)
		}
	}
}

// chooseEach weighing every pair of missions at once picks for each pair
// what Choose (that pair alone) picks with the view's missions set to it:
// sharing the plans between the pairs changes no choice.
func TestChooseEachIsChoose(t *testing.T) {
	t.Parallel()
	var hyps [][2]Mission
	for _, w := range Missions(true) {
		for _, b := range Missions(false) {
			hyps = append(hyps, [2]Mission{w, b})
		}
	}
	hyps = append(hyps, [2]Mission{NoMission, NoMission})
	checked := 0
	for _, seats := range []int{2, 4, 5} {
		heuristicGame(t, seats, uint64(seats), func(st *State, s engine.Seat, _ int) {
			if checked%3 != 0 {
				checked++
				return
			}
			checked++
			v := st.View(s).(*View)
			legal := st.Legal(s)
			got := chooseEach(v, legal, hyps)
			for i, h := range hyps {
				v.Missions = h
				if want := (Heuristic{}).Choose(v, legal, nil); got[i] != want {
					t.Fatalf("%d seats, %v: chooseEach %v, Choose %v", seats, h, got[i], want)
				}
			}
		})
	}
}

// Reading heuristic players: the pair of missions they hold is never ruled
// out (every placement read is the one the heuristic holding it makes),
// and it ends up far likelier than an even share; so does the real family
// of each of their face-down spies, read from the placements they made
// with it in hand.
func TestReadHeuristicPlayers(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{2, 4} {
		t.Run(fmt.Sprint(seats), func(t *testing.T) {
			t.Parallel()
			var pairs, pairReads, families, spyReads float64
			for seed := uint64(1); seed <= 4; seed++ {
				heuristicGame(t, seats, seed, func(st *State, s engine.Seat, placed int) {
					if placed%5 != 0 {
						return
					}
					mr := st.readPlay(s)
					rec := st.record()
					for i, odds := range mr.spies {
						if rec[i].Seat == s || rec[i].Card != NoCard || rec[i].spy.Role() != Spy {
							t.Fatalf("seed %d: seat %d reads sighting %d (%+v), not another's face-down spy", seed, s, i, rec[i])
						}
						top := slices.Max(odds[:])
						total := 0.0
						for _, x := range odds {
							total += math.Exp(x - top)
						}
						families += math.Exp(odds[rec[i].spy.Family()]-top) / total
						spyReads++
					}
					if placed < 6*seats {
						return
					}
					for o := 0; o < seats; o++ {
						if engine.Seat(o) == s {
							continue
						}
						w := mr.weights[o]
						truth := -1
						total := 0.0
						for k, h := range mr.hyps {
							total += w[k]
							if h == st.missions[o] {
								truth = k
							}
						}
						if truth < 0 || w[truth] != 1 {
							t.Fatalf("seed %d, seat %d reading %d: the real pair %v weighs %v of the likeliest", seed, s, o, st.missions[o], w[truth])
						}
						pairs += w[truth] / total
						pairReads++
					}
				})
			}
			pairs /= pairReads
			families /= spyReads
			t.Logf("%d seats: the real pair's share of the odds %.3f over %.0f readings (even: %.3f); the real family's %.3f over %.0f (even: %.3f)",
				seats, pairs, pairReads, 1/81.0, families, spyReads, 1/float64(NumFamilies))
			if pairs < 0.2 {
				t.Errorf("the real pair gets %.3f of the odds", pairs)
			}
			if spyReads < 20 || families < 0.3 {
				t.Errorf("the real family gets %.3f of the odds over %.0f readings", families, spyReads)
			}
		})
	}
}

// BenchmarkReadMissions reads the missions late in a 4-seat game (about
// 60 placements by three others).
func BenchmarkReadMissions(b *testing.B) {
	g, _ := Game{}.New(nil, 4, engine.NewRand(3, 0))
	st := g.(*State)
	for step := 0; step < 72; step++ {
		s := st.Acting()[0]
		r := engine.NewRand(3, 1+step)
		a := Heuristic{}.Choose(st.View(s), st.Legal(s), r)
		if _, err := st.Apply(s, a, r); err != nil {
			b.Fatal(err)
		}
	}
	s := st.Acting()[0]
	b.ResetTimer()
	for range b.N {
		st.readPlay(s)
	}
}
