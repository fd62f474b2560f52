package engine

import (
	"sort"
	"sync"
)

var (
	regMu sync.RWMutex
	reg   = map[string]Game{}
)

// Register makes a game available by its id. Game packages call it from init.
func Register(g Game) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := reg[g.ID()]; dup {
		panic("engine: game registered twice: " + g.ID())
	}
	reg[g.ID()] = g
}

// Lookup finds a registered game.
func Lookup(id string) (Game, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	g, ok := reg[id]
	if !ok {
		return nil, Errorf(CodeUnknownGame, "game", id)
	}
	return g, nil
}

// Games lists the registered game ids in order.
func Games() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	ids := make([]string, 0, len(reg))
	for id := range reg {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
