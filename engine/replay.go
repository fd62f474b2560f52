package engine

import (
	"errors"
	"maps"
	"strconv"
	"strings"
)

// Move is one entry of a table's action log.
type Move struct {
	Seat   Seat
	Action string // canonical notation
}

// Setup is everything a table starts from, apart from its log.
type Setup struct {
	Game    string
	Options Options
	Seats   int
	Seed    uint64
}

// Start creates the state of a new table (chance step 0).
func Start(g Game, su Setup, stacks *Stacks) (State, error) {
	if err := ValidateSeats(g, su.Seats); err != nil {
		return nil, err
	}
	st, err := g.New(su.Options, su.Seats, NewRand(su.Seed, 0).WithStacks(stacks))
	return st, withOptionValues(g, err)
}

// withOptionValues is err with, for an option value the game refused
// without saying why, the values that option takes ("why": "bad_value",
// "list": "standard, expert, duel"), so that a front end can say them.
func withOptionValues(g Game, err error) error {
	var re *RuleError
	if !errors.As(err, &re) || re.Code != CodeBadOption || re.Params["why"] != nil {
		return err
	}
	key, _ := re.Params["key"].(string)
	for _, spec := range g.Options() {
		if spec.Key == key && len(spec.Values) > 0 {
			params := maps.Clone(re.Params)
			params["why"], params["list"] = "bad_value", strings.Join(spec.Values, ", ")
			return &RuleError{Code: re.Code, Params: params}
		}
	}
	return err
}

// Step applies log entry number n (0-based) to st, parsing its notation.
// It returns the events; on error st is unchanged.
func Step(g Game, st State, seed uint64, n int, m Move, stacks *Stacks) ([]Event, error) {
	a, err := g.ParseAction(m.Action)
	if err != nil {
		return nil, err
	}
	return st.Apply(m.Seat, a, NewRand(seed, n+1).WithStacks(stacks))
}

// Replay rebuilds a table's state from its setup and log.
func Replay(g Game, su Setup, log []Move) (State, error) {
	st, err := Start(g, su, nil)
	if err != nil {
		return nil, err
	}
	for i, m := range log {
		if _, err := Step(g, st, su.Seed, i, m, nil); err != nil {
			return nil, &ReplayError{Index: i, Move: m, Err: err}
		}
	}
	return st, nil
}

// ReplayError says which log entry could not be replayed.
type ReplayError struct {
	Index int
	Move  Move
	Err   error
}

func (e *ReplayError) Error() string {
	return "replay: entry " + strconv.Itoa(e.Index) + " (" + e.Move.Seat.String() + ": " + e.Move.Action + "): " + e.Err.Error()
}

func (e *ReplayError) Unwrap() error { return e.Err }

// IsActing reports whether seat s is among those that must act.
func IsActing(st State, s Seat) bool {
	for _, a := range st.Acting() {
		if a == s {
			return true
		}
	}
	return false
}
