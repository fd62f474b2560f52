package ai_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/engine/search"
)

// The default budget is the game's at the table's seat count: Courtisans'
// actions cost more with each seat, so its search simulates fewer of them
// at a larger table; a game without its own budget gets the search's.
func TestBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		g     engine.Game
		seats int
		want  int
	}{
		{courtiers.Game{}, 2, 10000},
		{courtiers.Game{}, 3, 5000},
		{courtiers.Game{}, 4, 5000},
		{courtiers.Game{}, 5, 4000},
		{lynx.Game{}, 2, search.DefaultBudget},
		{lynx.Game{}, 4, search.DefaultBudget},
	} {
		if got := ai.Budget(tc.g, tc.seats); got != tc.want {
			t.Errorf("%s at %d seats: budget %d, want %d", tc.g.ID(), tc.seats, got, tc.want)
		}
	}
}
