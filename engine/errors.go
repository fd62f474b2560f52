package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Codes shared by every game. Games add their own, prefixed with the game id
// ("<game>.must_follow").
const (
	CodeUnknownAction = "unknown_action" // the text is not an action of this game
	CodeNotYourTurn   = "not_your_turn"  // the seat is not among those that must act
	CodeIllegal       = "illegal"        // well-formed, but not a legal action now
	CodeGameOver      = "game_over"      // the game has ended
	CodeBadOption     = "bad_option"     // an option key or value is not accepted
	CodeBadSeats      = "bad_seats"      // the seat count is outside the game's limits
	CodeBadStack      = "bad_stack"      // a scripted chance outcome cannot be a legal deal
	CodeStale         = "stale"          // the action was made against an older version
	CodeUnknownGame   = "unknown_game"   // no game is registered under that id
)

// RuleError is every error the engine returns for bad input: a stable code
// and named parameters, so that a front end can explain it in any language.
type RuleError struct {
	Code   string
	Params map[string]any
}

func (e *RuleError) Error() string {
	if len(e.Params) == 0 {
		return e.Code
	}
	keys := make([]string, 0, len(e.Params))
	for k := range e.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(e.Code)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, e.Params[k])
	}
	return b.String()
}

// Is makes errors.Is match two rule errors by code.
func (e *RuleError) Is(target error) bool {
	t, ok := target.(*RuleError)
	return ok && t.Code == e.Code
}

// Errorf builds a RuleError from a code and key/value pairs.
func Errorf(code string, kv ...any) *RuleError {
	e := &RuleError{Code: code}
	if len(kv) > 0 {
		e.Params = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Params[fmt.Sprint(kv[i])] = kv[i+1]
		}
	}
	return e
}

// Code returns the code of a RuleError anywhere in err's chain, or "".
func Code(err error) string {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}
