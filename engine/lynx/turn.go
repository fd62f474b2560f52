package lynx

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// applyPlay puts the set down as the player's new top layer, ends the game
// if the hand is empty, and otherwise finds whom the set must rob: the
// virtual player first (duel), then the others clockwise from the left.
func (st *State) applyPlay(s engine.Seat, set Layer) []engine.Event {
	h := &st.hands[s]
	if !set.JokersOnly() {
		h[set.Value] -= set.N
	}
	h[Joker] -= set.J
	st.displays[s] = append(st.displays[s], set)
	st.played = set
	ev := []engine.Event{engine.Public("played", map[string]any{"seat": s, "cards": engine.Strings(set.Cards())})}
	if h.Size() == 0 {
		return st.finish(ev, "hand_empty")
	}
	ones := st.cfg.mode.rules().onesStealHigh
	st.targets = st.targets[:0]
	for k := 1; k < st.n; k++ {
		t := st.next(s, k)
		if d := st.displays[t]; len(d) > 0 && beats(set, d[len(d)-1], ones) {
			st.targets = append(st.targets, t)
		}
	}
	if st.cfg.duel && len(st.virtualTargets()) > 0 {
		st.phase = phaseVirtual
		return ev
	}
	return st.advance(ev)
}

// advance robs the next target, or ends the turn (offering the basic-mode
// draw when nobody was robbed).
func (st *State) advance(ev []engine.Event) []engine.Event {
	if len(st.targets) > 0 {
		t := st.targets[0]
		st.targets = st.targets[1:]
		d := st.displays[t]
		st.stolen = d[len(d)-1]
		st.displays[t] = d[:len(d)-1]
		st.victim = t
		st.stole = true
		st.phase = phaseTake
		return append(ev, engine.Public("stolen", map[string]any{
			"seat": st.active, "victim": t, "cards": engine.Strings(st.stolen.Cards()),
		}))
	}
	st.victim = -1
	if !st.stole && st.cfg.mode.rules().drawWhenNoSteal && (len(st.deck) > 0 || len(st.pool) > 0) {
		st.phase = phaseBonus
		return ev
	}
	return st.endTurn(ev)
}

// endTurn passes the paw to the left.
func (st *State) endTurn(ev []engine.Event) []engine.Event {
	st.active = st.next(st.active, 1)
	st.phase = phasePlay
	st.played = Layer{}
	st.stole = false
	st.victim = -1
	st.targets = st.targets[:0]
	return append(ev, engine.Public("turn", map[string]any{"seat": st.active}))
}

// applyStealVirtual takes a group of the virtual row into the thief's hand
// (cards stolen from the virtual player always go to hand) and refills the
// row at once.
func (st *State) applyStealVirtual(v Card) []engine.Event {
	n := st.virtual[v]
	st.virtual[v] = 0
	cards := make([]Card, n)
	for i := range cards {
		cards[i] = v
	}
	st.hands[st.active].Add(cards...)
	st.stole = true
	ev := []engine.Event{engine.Public("stolen_virtual", map[string]any{"seat": st.active, "cards": engine.Strings(cards)})}
	ev = append(ev, st.refillVirtual()...)
	return st.advance(ev)
}

func (st *State) applyTake() []engine.Event {
	cards := st.stolen.Cards()
	st.hands[st.active].Add(cards...)
	st.owed = len(cards)
	st.stolen = Layer{}
	st.phase = phaseDraw
	return []engine.Event{engine.Public("taken", map[string]any{"seat": st.active, "victim": st.victim, "cards": engine.Strings(cards)})}
}

func (st *State) applyBack() []engine.Event {
	cards := st.stolen.Cards()
	st.hands[st.victim].Add(cards...)
	st.stolen = Layer{}
	ev := []engine.Event{engine.Public("taken_back", map[string]any{"seat": st.victim, "cards": engine.Strings(cards)})}
	return st.advance(ev)
}

func (st *State) applyDiscard() []engine.Event {
	cards := st.stolen.Cards()
	st.discard = append(st.discard, cards...)
	st.owed = len(cards)
	st.stolen = Layer{}
	st.phase = phaseDraw
	return []engine.Event{engine.Public("discarded", map[string]any{"seat": st.victim, "cards": engine.Strings(cards)})}
}

// applyDraw takes one card from the deck or one pool place (a duel group
// counts as one card). The game ends at once when the deck and the pool
// are both used up. After the last owed draw, or the basic-mode draw, the
// pool is refilled to 6.
func (st *State) applyDraw(s engine.Seat, fromDeck bool, pos int) []engine.Event {
	var ev []engine.Event
	var got []Card
	if fromDeck {
		got = []Card{st.deck[0]}
		st.deck = st.deck[1:]
		ev = append(ev,
			engine.Public("drew_deck", map[string]any{"seat": s}),
			engine.Private(s, "drew_card", map[string]any{"cards": engine.Strings(got)}))
	} else {
		got = st.pool[pos].List()
		st.pool = slices.Delete(st.pool, pos, pos+1)
		ev = append(ev, engine.Public("drew_pool", map[string]any{"seat": s, "cards": engine.Strings(got)}))
	}
	st.hands[s].Add(got...)
	if len(st.deck) == 0 && len(st.pool) == 0 {
		return st.finish(ev, "cards_out")
	}
	if st.phase == phaseDraw {
		st.owed--
		if st.owed > 0 {
			return ev
		}
		ev = append(ev, st.refillPool()...)
		return st.advance(ev)
	}
	ev = append(ev, st.refillPool()...)
	return st.endTurn(ev)
}

// refillPool lays deck cards out until the pool has 6 places again; an
// empty deck is not rebuilt.
func (st *State) refillPool() []engine.Event {
	var added []Card
	for len(st.pool) < poolSize && len(st.deck) > 0 {
		c := st.deck[0]
		st.deck = st.deck[1:]
		st.pool = append(st.pool, single(c))
		added = append(added, c)
	}
	if len(added) == 0 {
		return nil
	}
	return []engine.Event{engine.Public("pool_refilled", map[string]any{"cards": engine.Strings(added)})}
}

// refillVirtual reveals deck cards for the virtual row until it holds 13
// cards or the deck is empty; 13s and jokers go to the pool.
func (st *State) refillVirtual() []engine.Event {
	var row, pool []Card
	for st.virtual.Size() < virtualSize && len(st.deck) > 0 {
		c := st.deck[0]
		st.deck = st.deck[1:]
		if st.revealVirtual(c) {
			row = append(row, c)
		} else {
			pool = append(pool, c)
		}
	}
	if len(row)+len(pool) == 0 {
		return nil
	}
	return []engine.Event{engine.Public("virtual_refilled", map[string]any{"cards": engine.Strings(row), "pool": engine.Strings(pool)})}
}

// revealVirtual puts a card revealed for the virtual row on its value's
// group, or, for a 13 or a joker, on the pool's lowest single card (the
// leftmost on a tie; a new pool place when there is no single card). It
// reports whether the card went to the row.
func (st *State) revealVirtual(c Card) bool {
	if c != maxHighValue && c != Joker {
		st.virtual[c]++
		return true
	}
	best := -1
	for i, p := range st.pool {
		if p.N == 1 && (best < 0 || p.Top() < st.pool[best].Top()) {
			best = i
		}
	}
	if best < 0 {
		st.pool = append(st.pool, single(c))
		return false
	}
	st.pool[best].Cards[1] = c
	st.pool[best].N = 2
	return false
}

// finish scores the game: +1 per displayed card, -1 per card in hand. The
// highest total wins; a tie goes to fewer cards in hand, then is shared.
func (st *State) finish(ev []engine.Event, reason string) []engine.Event {
	for s := 0; s < st.n; s++ {
		st.scores[s] = st.score(engine.Seat(s))
	}
	best := []engine.Seat{}
	for s := 0; s < st.n; s++ {
		seat := engine.Seat(s)
		switch {
		case len(best) == 0 || st.scores[s] > st.scores[best[0]]:
			best = []engine.Seat{seat}
		case st.scores[s] == st.scores[best[0]]:
			best = append(best, seat)
		}
	}
	note := ""
	if len(best) > 1 {
		note = "tiebreak"
		fewest := best[:0:0]
		for _, s := range best {
			switch {
			case len(fewest) == 0 || st.hands[s].Size() < st.hands[fewest[0]].Size():
				fewest = []engine.Seat{s}
			case st.hands[s].Size() == st.hands[fewest[0]].Size():
				fewest = append(fewest, s)
			}
		}
		best = fewest
		if len(best) > 1 {
			note = "shared"
		}
	}
	st.winners = best
	st.note = note
	st.reason = reason
	st.phase = phaseOver
	st.victim = -1
	st.targets = st.targets[:0]
	places, hands := st.ranking()
	// seat is the paw holder: with "hand_empty", the one who played the
	// last card of their hand.
	return append(ev, engine.Public("game_over", map[string]any{
		"winners": slices.Clone(best), "scores": slices.Clone(st.scores), "note": note, "reason": reason, "seat": st.active,
		"places": places, "tiebreak": hands,
	}))
}

// ranking is every seat's place at the end (the highest total first, then
// fewer cards in hand; still tied, a shared place) and its cards in hand,
// the tie-break.
func (st *State) ranking() (places, hands []int) {
	hands = make([]int, st.n)
	for s := range hands {
		hands[s] = st.hands[s].Size()
	}
	return engine.Places(st.n, engine.ByScore(st.scores, true, hands, false)), hands
}

// score is a seat's total: its displayed cards minus its hand.
func (st *State) score(s engine.Seat) int {
	n := 0
	for _, l := range st.displays[s] {
		n += l.Size()
	}
	return n - st.hands[s].Size()
}

// Result tells whether the game is over and who won.
func (st *State) Result() (bool, engine.Result) {
	res := engine.Result{Scores: slices.Clone(st.scores), Winners: slices.Clone(st.winners), Note: st.note}
	if st.phase == phaseOver {
		res.Places, res.TieBreak = st.ranking()
	}
	return st.phase == phaseOver, res
}
