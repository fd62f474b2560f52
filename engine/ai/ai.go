// Package ai names the AI players people choose between: levels (easy,
// normal, hard) and the kinds behind them (random, heuristic, search).
package ai

import (
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/search"
)

// The levels, weakest first. Their words are in the locale files
// (ai.level.<id>).
const (
	Easy   = "easy"   // the heuristic, with a random move one time in two
	Normal = "normal" // the game's heuristic player
	Hard   = "hard"   // the search player
)

// Levels lists the levels, weakest first.
func Levels() []string { return []string{Easy, Normal, Hard} }

// Strongest is the strongest level: the default for a stand-in.
const Strongest = Hard

// Kinds lists every name Player accepts besides the levels.
func Kinds() []string { return []string{"heuristic", "random", "search"} }

// IsLevel reports whether name is one of the levels.
func IsLevel(name string) bool {
	return name == Easy || name == Normal || name == Hard
}

// Player makes the player of a level or kind for game g at a table of
// seats: "" and "normal" are the heuristic, "hard" and "search" the search
// player with the given budget in simulated actions per decision (0: the
// game's Budget at that many seats), "easy" a weakened heuristic, "random"
// a random player.
func Player(g engine.Game, name string, seats, budget int) (engine.Player, error) {
	bots, ok := g.(engine.Bots)
	if !ok {
		return nil, engine.Errorf(engine.CodeBadOption, "key", "bot", "value", name)
	}
	h, err := bots.Bot("heuristic")
	if err != nil {
		return nil, err
	}
	switch name {
	case "", Normal, "heuristic":
		return h, nil
	case Hard, "search":
		if budget <= 0 {
			budget = Budget(g, seats)
		}
		opts := []search.Option{search.Budget(budget)}
		if d, ok := g.(interface{ SearchDepth() int }); ok {
			opts = append(opts, search.Depth(d.SearchDepth()))
		}
		if w, ok := g.(interface{ SearchWidth() int }); ok {
			opts = append(opts, search.Width(w.SearchWidth()))
		}
		return search.New(h, opts...), nil
	case Easy:
		return weak{h}, nil
	}
	return bots.Bot(name)
}

// Budget is the default budget of game g's search player at a table of
// seats, in simulated actions per decision (within a median of 50 ms on
// one core): the game's own (a game whose playouts are much cheaper or
// dearer than most, or whose actions cost more with more seats, says so
// with a SearchBudget method), else search.DefaultBudget.
func Budget(g engine.Game, seats int) int {
	if b, ok := g.(interface{ SearchBudget(seats int) int }); ok {
		return b.SearchBudget(seats)
	}
	return search.DefaultBudget
}

// LevelOf is the level a kind of player plays at: the levels themselves,
// the heuristic as normal, the search player as hard; "" for another kind
// (random).
func LevelOf(kind string) string {
	switch kind {
	case Easy:
		return Easy
	case "", Normal, "heuristic":
		return Normal
	case Hard, "search":
		return Hard
	}
	return ""
}

// Slow reports whether p is a search player, whose decisions take tens of
// milliseconds where the others take microseconds.
func Slow(p engine.Player) bool {
	_, ok := p.(*search.Player)
	return ok
}

// weak is the easy level: the heuristic, but half its moves are random.
type weak struct{ h engine.Player }

// Choose picks at random one time in two, else as the heuristic does.
func (w weak) Choose(v engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	if r.IntN(2) == 0 {
		return engine.Random{}.Choose(v, legal, r)
	}
	return w.h.Choose(v, legal, r)
}
