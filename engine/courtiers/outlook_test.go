package courtiers

import (
	"fmt"
	"math"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// turnsLeft counts, at every placement of heuristic games, the turns each
// seat will still play: a third of a turn for every placement it makes
// from there to the end.
func TestTurnsLeft(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{2, 3, 4, 5} {
		t.Run(fmt.Sprint(seats), func(t *testing.T) {
			t.Parallel()
			var told [][]float64
			var who []engine.Seat
			heuristicGame(t, seats, 11, func(st *State, s engine.Seat, _ int) {
				told = append(told, st.turnsLeft())
				who = append(who, s)
			})
			left := make([]float64, seats)
			for k := len(who) - 1; k >= 0; k-- {
				left[who[k]] += 1.0 / HandSize
				for s := range left {
					if math.Abs(told[k][s]-left[s]) > 1e-9 {
						t.Fatalf("placement %d: seat %d has %.3f turns left, told %.3f", k, s, left[s], told[k][s])
					}
				}
			}
			if want := []float64{2: 10, 3: 8, 4: 7, 5: 6}[seats]; told[0][0] != want {
				t.Errorf("at the start seat 0 has %.2f turns, want %v", told[0][0], want)
			}
		})
	}
}

// The forecast tells the winner better than scoring the game as it stands
// (how the search valued a playout it cut short before) and better than
// even odds: its Brier score over the placements of heuristic games is
// lower.
func TestForecastBeatsTheEstimate(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{2, 4} {
		t.Run(fmt.Sprint(seats), func(t *testing.T) {
			t.Parallel()
			var forecast, estimate, even float64
			for g := range 60 {
				states, final := snapshots(t, seats, uint64(100+g), 1)
				_, res := final.Result()
				won := make([]float64, seats)
				for _, w := range res.Winners {
					won[w] = 1 / float64(len(res.Winners))
				}
				brier := func(p []float64) float64 {
					b := 0.0
					for s := range p {
						b += (p[s] - won[s]) * (p[s] - won[s])
					}
					return b
				}
				for _, st := range states {
					forecast += brier(st.Forecast().Win)
					est := scoredAsItStands(st)
					p := make([]float64, seats)
					for _, w := range est.Winners {
						p[w] = 1 / float64(len(est.Winners))
					}
					estimate += brier(p)
					for s := range p {
						p[s] = 1 / float64(seats)
					}
					even += brier(p)
				}
			}
			t.Logf("%d seats, Brier score: forecast %.2f, estimate %.2f, even odds %.2f", seats, forecast, estimate, even)
			if forecast >= estimate || forecast >= even {
				t.Errorf("the forecast (%.2f) does not beat the estimate (%.2f) and even odds (%.2f)", forecast, estimate, even)
			}
		})
	}
}

// The forecast's fitted mission odds (missionFit) tell whether a mission's
// holder fulfils it better than the heuristic's own guess, kind by kind,
// over games other than those they were fitted to: a lower Brier score at
// every third placement of heuristic games at 2–5 seats.
func TestMissionOddsBeatTheGuess(t *testing.T) {
	t.Parallel()
	type score struct{ fit, guess, n float64 }
	var by [8]score
	for _, seats := range []int{2, 3, 4, 5} {
		for g := range 30 {
			snaps, final := snapshots(t, seats, uint64(5000+g), 0)
			b := final.board()
			for _, sn := range snaps {
				m, pe, pd, _ := sn.outlookModel()
				turns := sn.turnsLeft()
				for s := range seats {
					m.me = s
					for _, ms := range sn.missions[s] {
						done := 0.0
						if b.fulfilled(ms, s) {
							done = 1
						}
						fit, guess := m.missionOdds(ms, &pe, &pd, turns[s]), m.chance(ms, &pe, &pd)
						sc := &by[missionTable[ms].kind]
						sc.fit += (fit - done) * (fit - done)
						sc.guess += (guess - done) * (guess - done)
						sc.n++
					}
				}
			}
		}
	}
	for k, sc := range by {
		if sc.n == 0 {
			continue
		}
		t.Run(kindNames[k], func(t *testing.T) {
			fitted := missionFit[k] != [3]float64{}
			t.Logf("%.0f readings: Brier score %.3f fitted, %.3f the heuristic's guess (fitted: %v)", sc.n, sc.fit/sc.n, sc.guess/sc.n, fitted)
			if fitted && sc.fit >= sc.guess {
				t.Errorf("the fitted odds (%.3f) do no better than the guess (%.3f)", sc.fit/sc.n, sc.guess/sc.n)
			}
			if !fitted && sc.fit != sc.guess {
				t.Errorf("a kind without a fit is not the guess")
			}
		})
	}
}

var kindNames = [8]string{"", "fewer_than_left", "at_least_role", "family_disgraced", "every_family_below", "one_family_below", "at_most_esteemed", "at_least_disgraced"}

// snapshots plays a seeded heuristic game and returns copies of its state
// before every third placement (from the offset-th) and the finished game.
func snapshots(t *testing.T, seats int, seed uint64, offset int) (snaps []*State, final *State) {
	t.Helper()
	heuristicGame(t, seats, seed, func(st *State, _ engine.Seat, placed int) {
		if placed%3 == offset {
			snaps = append(snaps, st.clone())
		}
		final = st
	})
	return snaps, final
}

// scoredAsItStands is the result the game would have if it ended now: how
// the search valued a playout it cut short before the forecast.
func scoredAsItStands(st *State) engine.Result {
	c := st.clone()
	c.finish(nil)
	_, res := c.Result()
	return res
}
