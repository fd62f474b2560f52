package engine_test

import (
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scores  []int
		high    bool
		tie     []int
		tieHigh bool
		want    []int
		ranked  []engine.Seat
	}{
		{"highest wins", []int{3, 9, 5}, true, nil, false, []int{3, 1, 2}, []engine.Seat{1, 2, 0}},
		{"lowest wins", []int{3, 9, 5}, false, nil, false, []int{1, 3, 2}, []engine.Seat{0, 2, 1}},
		{"a shared place skips the next", []int{7, 7, 2, 7}, true, nil, false, []int{1, 1, 4, 1}, []engine.Seat{0, 1, 3, 2}},
		{"a shared second place", []int{9, 4, 4, 1}, true, nil, false, []int{1, 2, 2, 4}, []engine.Seat{0, 1, 2, 3}},
		{"the tie-break separates, fewer first", []int{5, 5, 5}, true, []int{3, 1, 3}, false, []int{2, 1, 2}, []engine.Seat{1, 0, 2}},
		{"the tie-break only among equal scores", []int{6, 5, 5}, true, []int{9, 2, 1}, true, []int{1, 2, 3}, []engine.Seat{0, 1, 2}},
		{"lowest wins, more good rounds first", []int{4, 4, 10}, false, []int{1, 3, 5}, true, []int{2, 1, 3}, []engine.Seat{1, 0, 2}},
		{"one seat", []int{0}, true, nil, false, []int{1}, []engine.Seat{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := engine.Places(len(tc.scores), engine.ByScore(tc.scores, tc.high, tc.tie, tc.tieHigh))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Places = %v, want %v", got, tc.want)
			}
			if r := engine.Ranked(got); !slices.Equal(r, tc.ranked) {
				t.Errorf("Ranked = %v, want %v", r, tc.ranked)
			}
		})
	}
}
