// Package chapters is 3 Chapters (seed 003): draft a team of fairy-tale
// characters (chapter I), play them one a round for the star of the highest
// card and the abilities' tokens (chapter II), then score the abilities again
// on your own cards (chapter III). Two players add two ghost decks.
package chapters

import (
	"github.com/stolik-bot/stolik/engine"
)

// Codes of this game's rule errors.
const (
	CodeUnknownCard = "chapters.unknown_card"
	CodeNotInHand   = "chapters.not_in_hand"
	CodeWrongPhase  = "chapters.wrong_phase"
	CodeGhostNeeded = "chapters.ghost_needed" // 2 players: a pick names a card for the ghost
	CodeNoGhost     = "chapters.no_ghost"     // 3+ players: there are no ghosts
	CodeSameCard    = "chapters.same_card"    // the same card for you and the ghost
)

// Game is 3 Chapters. Cards is the card table; nil means DefaultCards
// (tests load alternative tables through it).
type Game struct {
	Cards *Table
}

func init() { engine.Register(Game{}) }

// ID is "chapters".
func (Game) ID() string { return "chapters" }

// Seats: 2 to 6.
func (Game) Seats() (int, int) { return 2, 6 }

// Options: none.
func (Game) Options() []engine.OptionSpec { return nil }

// ParseAction reads an action in notation.
func (Game) ParseAction(text string) (engine.Action, error) {
	return engine.Parsed(ParseAction(text))
}

func (g Game) table() *Table {
	if g.Cards != nil {
		return g.Cards
	}
	return &DefaultCards
}

// New deals the first draft hands and draws who starts chapter II.
func (g Game) New(opts engine.Options, seats int, r *engine.Rand) (engine.State, error) {
	for k, v := range opts {
		return nil, engine.Errorf(engine.CodeBadOption, "key", k, "value", v, "why", "unknown_key")
	}
	if seats < 2 || seats > 6 {
		return nil, engine.Errorf(engine.CodeBadSeats, "seats", seats, "min", 2, "max", 6)
	}
	st := newState(g.table(), seats)
	first, scripted, err := engine.StackedFirst(r, seats)
	if err != nil {
		return nil, err
	}
	st.first = first
	if err := st.dealHands(r); err != nil {
		return nil, err
	}
	if err := st.takeGhostStacks(r); err != nil {
		return nil, err
	}
	st.scripted = scripted || st.scripted
	if !st.scripted || first >= 0 {
		if st.first < 0 {
			st.first = engine.Seat(r.IntN(seats))
		}
	} else {
		// A scenario without a "first" line: seat 0 starts (SCENARIOS.md).
		st.first = 0
	}
	return st, nil
}

// StackKinds lists the scenario stacking directives: "deal <seat>: cards"
// (the 8 cards of the next deal), "ghost <n>: cards" (a ghost deck, top
// first) and "first <seat>" (who starts chapter II).
func (Game) StackKinds() []string { return []string{"deal", "ghost", "first"} }

// Bot returns an AI player: "random" or "heuristic".
func (Game) Bot(kind string) (engine.Player, error) { return engine.BotOf(kind, Heuristic{}) }

// SearchBudget is the search player's default budget in simulated actions
// per decision (engine/ai): 3 Chapters' playouts are short and cheap.
func (Game) SearchBudget(int) int { return 3000 }
