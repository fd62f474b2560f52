package search

import (
	"fmt"
	"math"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// A forecast certain of the outcome is worth what that outcome is worth,
// and one that is not is worth the mean of the outcomes it weighs.
func TestForecastValue(t *testing.T) {
	t.Parallel()
	certain := func(scores []int) engine.Forecast {
		n := len(scores)
		f := engine.Forecast{Win: make([]float64, n), Ahead: make([][]float64, n)}
		best := 0
		for s, x := range scores {
			best = max(best, x)
			f.Ahead[s] = make([]float64, n)
			for o, y := range scores {
				switch {
				case x > y:
					f.Ahead[s][o] = 1
				case x == y && o != s:
					f.Ahead[s][o] = 0.5
				}
			}
		}
		var winners []engine.Seat
		for s, x := range scores {
			if x == best {
				winners = append(winners, engine.Seat(s))
			}
		}
		for _, w := range winners {
			f.Win[w] = 1 / float64(len(winners))
		}
		return f
	}
	result := func(scores []int) engine.Result {
		res := engine.Result{Scores: scores}
		best := 0
		for _, x := range scores {
			best = max(best, x)
		}
		for s, x := range scores {
			if x == best {
				res.Winners = append(res.Winners, engine.Seat(s))
			}
		}
		return res
	}
	for _, scores := range [][]int{{5, 3}, {3, 5}, {4, 4}, {9, 2, 7, 7}, {1, 8, 8, 3}, {6, 6, 6, 6}} {
		t.Run(fmt.Sprint(scores), func(t *testing.T) {
			for s := range scores {
				want := value(result(scores), engine.Seat(s))
				if got := forecastValue(certain(scores), engine.Seat(s)); math.Abs(got-want) > 1e-12 {
					t.Errorf("seat %d: the certain forecast is worth %v, the outcome %v", s, got, want)
				}
			}
		})
	}
	// Even odds between two outcomes: the mean of their values.
	a, b := []int{9, 2, 7, 1}, []int{2, 9, 1, 7}
	fa, fb := certain(a), certain(b)
	mix := engine.Forecast{Win: make([]float64, 4), Ahead: make([][]float64, 4)}
	for s := range 4 {
		mix.Win[s] = (fa.Win[s] + fb.Win[s]) / 2
		mix.Ahead[s] = make([]float64, 4)
		for o := range 4 {
			mix.Ahead[s][o] = (fa.Ahead[s][o] + fb.Ahead[s][o]) / 2
		}
	}
	for s := range 4 {
		want := (value(result(a), engine.Seat(s)) + value(result(b), engine.Seat(s))) / 2
		if got := forecastValue(mix, engine.Seat(s)); math.Abs(got-want) > 1e-12 {
			t.Errorf("seat %d: even odds worth %v, want %v", s, got, want)
		}
	}
}
