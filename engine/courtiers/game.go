// Package courtiers is Courtisans (Polish "Dworzanie", seed 004): on your
// turn you place your three cards, one at the Queen's table (above the mat
// to raise a family's esteem, below to push it into disgrace), one in your
// own domain and one in an opponent's; at the end every card in your domain
// scores for an esteemed family and costs for a disgraced one, and two
// secret missions add 3 points each.
package courtiers

import (
	"github.com/stolik-bot/stolik/engine"
)

// Codes of this game's rule errors.
const (
	CodeUnknownCard   = "courtiers.unknown_card"   // the card token is not a card
	CodeUnknownArea   = "courtiers.unknown_area"   // the area token is not up, down, own, opp:<seat>
	CodeUnknownTarget = "courtiers.unknown_target" // the kill target is not a card, "spy", with @up/@down
	CodeNotInHand     = "courtiers.not_in_hand"    // you do not hold that card
	CodeAreaUsed      = "courtiers.area_used"      // you have already placed a card there this turn
	CodeNotOpponent   = "courtiers.not_opponent"   // opp:<seat> names yourself or nobody
	CodeNotAssassin   = "courtiers.not_assassin"   // only an assassin may kill
	CodeTargetSide    = "courtiers.target_side"    // a table target needs @up/@down, a domain target none
	CodeNoTarget      = "courtiers.no_target"      // there is no such card in that area
	CodeGuard         = "courtiers.guard"          // guards cannot be eliminated
)

// Game is Courtisans.
type Game struct{}

func init() { engine.Register(Game{}) }

// ID is "courtiers".
func (Game) ID() string { return "courtiers" }

// Seats: 2 to 5.
func (Game) Seats() (int, int) { return 2, 5 }

// Options: the game has none.
func (Game) Options() []engine.OptionSpec { return nil }

// ParseAction reads an action in notation.
func (Game) ParseAction(text string) (engine.Action, error) {
	return engine.Parsed(ParseAction(text))
}

// New creates a table's game: cards removed, hands, deck and missions dealt,
// a first player drawn.
func (g Game) New(opts engine.Options, seats int, r *engine.Rand) (engine.State, error) {
	for k, v := range opts {
		return nil, engine.Errorf(engine.CodeBadOption, "key", k, "value", v, "why", "unknown_key")
	}
	if err := engine.ValidateSeats(g, seats); err != nil {
		return nil, err
	}
	st := newState(seats)
	if err := st.setup(r); err != nil {
		return nil, err
	}
	return st, nil
}

// StackKinds lists the scenario stacking directives: "deal <seat>: cards"
// (a full hand of 3), "deck: cards" (top first), "missions <seat>: W B" and
// "first <seat>".
func (Game) StackKinds() []string { return []string{"deal", "deck", "missions", "first"} }

// Bot returns an AI player: "random" or "heuristic".
func (Game) Bot(kind string) (engine.Player, error) { return engine.BotOf(kind, Heuristic{}) }

// SearchBudget is the search player's default budget in simulated actions
// per decision (engine/ai): 10,000 at 2 seats, 5,000 at 3 and 4, 4,000 at
// 5, a median decision of about 40 ms of one core at each (BENCHMARKS.md).
// An action of a Courtisans playout costs more than another game's, since
// its heuristic plans the rest of the turn at every placement, and more at
// a larger table, where each opponent's domain is one more place for each
// card and the search reads more players' missions and spies.
func (Game) SearchBudget(seats int) int {
	switch {
	case seats <= 2:
		return 10000
	case seats >= 5:
		return 4000
	}
	return 5000
}

// SearchDepth cuts the search player's playouts short after a round of
// four players (a turn is three placements), valued by State.Forecast: a
// game's playout to the end takes up to 80 actions, which the budget
// affords a few times per candidate; cut short and forecast, about fifty
// samples. Cut after two rounds did no better, after one turn (the
// opponents' answers unplayed) worse (docs/benchmarks-history.md).
func (Game) SearchDepth() int { return 12 }

// SearchWidth lets the search player weigh 12 candidate placements, not
// search.DefaultWidth's 6: a turn offers about 12 to 30, and a playout
// valued by the forecast is smooth enough for the search to tell more of
// them apart (docs/benchmarks-history.md).
func (Game) SearchWidth() int { return 12 }
