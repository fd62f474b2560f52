package bot

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"

	// The tests play every game.
	_ "github.com/stolik-bot/stolik/games"
)

// GameSeats is a game and a seat count to play it at.
type GameSeats struct {
	Game  string
	Seats int
}

// MissingGames lists the registered games (render.Games) that have no case
// among ids, each at its most seats: the tests that walk whole games list
// cases of their own for the games they know (options, seat counts) and
// play these at their default options too, so that a game added to the
// list of games is walked without a line in every test.
func MissingGames(ids ...string) []GameSeats {
	var out []GameSeats
	for _, id := range render.Games() {
		if slices.Contains(ids, id) {
			continue
		}
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		_, hi := g.Seats()
		out = append(out, GameSeats{id, hi})
	}
	return out
}
