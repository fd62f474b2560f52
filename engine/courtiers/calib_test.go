package courtiers

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

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
			var snaps []*State
			var final *State
			heuristicGame(t, seats, uint64(5000+g), func(st *State, _ engine.Seat, placed int) {
				if placed%3 == 0 {
					snaps = append(snaps, st.clone())
				}
				final = st
			})
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
