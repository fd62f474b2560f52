// Package engine is the shared model of every Stolik game: seats, canonical
// actions, an explicit chance source, per-seat views, events and rule errors.
//
// The engine knows nothing of Discord, SQL, languages or wall-clock time. It
// speaks in seats (0..n-1, clockwise), actions in canonical text form and
// events. Everything a player reads is produced by a front end from locale keys.
package engine

import "strconv"

// Seat is a place at the table, 0..n-1 clockwise.
type Seat int

// Spectator is the seat of someone who only watches: their view holds only
// public information.
const Spectator Seat = -1

// Everyone is the audience of a public event.
const Everyone Seat = -2

// Options are a table's rule options in their text form (k=v), validated by
// the game in New.
type Options map[string]string

// Action is one move in a game. Its String method gives the canonical text
// form (the game's notation); ParseAction(a.String()) gives back an equal
// action. Actions are comparable values.
type Action interface {
	String() string
}

// Game describes one game and creates its states.
type Game interface {
	ID() string
	Seats() (min, max int)
	// Options lists the option keys the game accepts, with their allowed
	// values ("" meaning free text validated by New).
	Options() []OptionSpec
	New(opts Options, seats int, r *Rand) (State, error)
	ParseAction(text string) (Action, error)
}

// OptionSpec describes one table option of a game.
type OptionSpec struct {
	Key     string
	Default string
	Values  []string // the allowed values; empty when the value is free-form
}

// State is one game in progress. Apply is the only way to change it.
type State interface {
	// Acting lists the seats that must act now: several during a
	// simultaneous decision, none once the game is over.
	Acting() []Seat
	// Legal lists every action seat s may take now. It is the one source of
	// legality: the user interface, validation and the AI all use it.
	Legal(s Seat) []Action
	// Apply performs action a for seat s. On error the state is unchanged
	// and the error is a *RuleError.
	Apply(s Seat, a Action, r *Rand) ([]Event, error)
	// View is what seat s may know, built by listing it. Spectator gets
	// public information only.
	View(s Seat) View
	// Result tells whether the game is over, and how it ended.
	Result() (done bool, r Result)
	// Clone returns an independent copy.
	Clone() State
}

// View is a game-specific, self-contained picture of a state as one seat
// may know it. It holds no reference into the state.
type View interface {
	ViewerSeat() Seat
}

// Result is how a game ended.
type Result struct {
	Scores  []int  // final score per seat, in the game's own unit
	Winners []Seat // several on a shared win
	Note    string // a game-specific code for how the winner was decided, e.g. "tiebreak"
	// Places is every seat's place, 1 the first: by the score, then by the
	// game's tie-break; seats the rules do not separate share a place and
	// the next place skips as many (1, 1, 3). The seats placed 1 are the
	// Winners.
	Places []int
	// TieBreak is every seat's value in the game's tie-break, the rule
	// that separates seats tied on the score (Rebel Princess: the rounds
	// that count, more first; Abluxxen: cards in hand, fewer first;
	// 3 Chapters: the highest card played, higher first); nil for a game
	// where a tie is shared (Courtisans).
	TieBreak []int
}

// Event is something that happened, for an audience: Everyone or one seat.
// Type is a stable code (e.g. "trick_won"); Args holds its parameters as
// values a front end can render: Seat, []Seat, int, []int, string (a
// notation token such as a card), []string.
type Event struct {
	Type     string
	Audience Seat
	Args     map[string]any
}

// Public makes an event for everyone.
func Public(typ string, args map[string]any) Event {
	return Event{Type: typ, Audience: Everyone, Args: args}
}

// Private makes an event for one seat only.
func Private(s Seat, typ string, args map[string]any) Event {
	return Event{Type: typ, Audience: s, Args: args}
}

// VisibleTo reports whether seat s may see the event.
func (e Event) VisibleTo(s Seat) bool {
	return e.Audience == Everyone || (s >= 0 && e.Audience == s)
}

// ValidateSeats checks a seat count against a game's limits.
func ValidateSeats(g Game, seats int) error {
	lo, hi := g.Seats()
	if seats < lo || seats > hi {
		return Errorf(CodeBadSeats, "seats", seats, "min", lo, "max", hi)
	}
	return nil
}

// String makes a seat print as its number.
func (s Seat) String() string { return strconv.Itoa(int(s)) }
