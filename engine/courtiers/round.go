package courtiers

import (
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// setup removes cards for the seat count, deals the hands, forms the deck,
// deals the missions and picks the first player (seed 004, "Przygotowanie").
// Scenario stacks: "deal <seat>: 3 cards", "deck: cards" (top first; the
// rest shuffled), "missions <seat>: W B", "first <seat>".
func (st *State) setup(r *engine.Rand) error {
	first, err := engine.FirstSeat(r, st.n)
	if err != nil {
		return err
	}
	st.first, st.turn = first, first
	pool := Deck()
	take := func(sk engine.Stack) ([]Card, error) {
		cs := make([]Card, 0, len(sk.Values))
		for _, v := range sk.Values {
			c, ok := ParseCard(v)
			if !ok {
				return nil, sk.Err("unknown_card", "card", v)
			}
			if pool, ok = engine.RemoveOne(pool, c); !ok {
				return nil, sk.Err("too_many_copies", "card", v)
			}
			cs = append(cs, c)
		}
		return cs, nil
	}
	inPlay := len(pool) - Removed(st.n)
	stacked := 0
	for _, sk := range r.Take("deal") {
		if sk.Index < 0 || sk.Index >= st.n {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if st.hands[sk.Index] != nil {
			return sk.Err("dealt_twice", "seat", sk.Index)
		}
		if len(sk.Values) != HandSize {
			return sk.Err("hand_size", "want", HandSize, "got", len(sk.Values))
		}
		cs, err := take(sk)
		if err != nil {
			return err
		}
		st.hands[sk.Index] = cs
		stacked += len(cs)
	}
	var top []Card
	for i, sk := range r.Take("deck") {
		if i > 0 || sk.Index != -1 {
			return sk.Err("one_deck")
		}
		if len(sk.Values) > inPlay-HandSize*st.n {
			return sk.Err("deck_size", "max", inPlay-HandSize*st.n)
		}
		cs, err := take(sk)
		if err != nil {
			return err
		}
		top = cs
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := Removed(st.n)
	st.removed, pool = slices.Clone(pool[:k]), pool[k:]
	for s := range st.hands {
		if st.hands[s] == nil {
			st.hands[s], pool = slices.Clone(pool[:HandSize]), pool[HandSize:]
		}
		slices.Sort(st.hands[s])
	}
	st.deck = append(top, pool...)
	return st.dealMissions(r)
}

// dealMissions gives each seat one white and one blue mission; the others
// go back to the box unseen.
func (st *State) dealMissions(r *engine.Rand) error {
	whites, blues := Missions(true), Missions(false)
	dealt := make([]bool, st.n)
	for _, sk := range r.Take("missions") {
		if sk.Index < 0 || sk.Index >= st.n {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if dealt[sk.Index] {
			return sk.Err("dealt_twice", "seat", sk.Index)
		}
		if len(sk.Values) != 2 {
			return sk.Err("two_missions")
		}
		w, okw := ParseMission(sk.Values[0])
		b, okb := ParseMission(sk.Values[1])
		if !okw || !okb || !w.White() || b.White() {
			return sk.Err("white_then_blue", "missions", strings.Join(sk.Values, " "))
		}
		var ok bool
		if whites, ok = engine.RemoveOne(whites, w); !ok {
			return sk.Err("dealt_twice", "mission", w.String())
		}
		if blues, ok = engine.RemoveOne(blues, b); !ok {
			return sk.Err("dealt_twice", "mission", b.String())
		}
		st.missions[sk.Index] = [2]Mission{w, b}
		dealt[sk.Index] = true
	}
	r.Shuffle(len(whites), func(i, j int) { whites[i], whites[j] = whites[j], whites[i] })
	r.Shuffle(len(blues), func(i, j int) { blues[i], blues[j] = blues[j], blues[i] })
	for s := range st.missions {
		if !dealt[s] {
			st.missions[s] = [2]Mission{whites[0], blues[0]}
			whites, blues = whites[1:], blues[1:]
		}
	}
	st.unused = append(slices.Clone(whites), blues...)
	return nil
}

// endTurn draws 3 cards for the seat that played (none once the deck is
// empty: that was its last turn) and passes the turn clockwise to the next
// seat holding cards; when nobody holds any, the game ends.
func (st *State) endTurn(ev []engine.Event, quiet bool) []engine.Event {
	s := st.turn
	k := min(HandSize, len(st.deck))
	if k > 0 {
		drawn := st.deck[:k]
		st.deck = st.deck[k:]
		st.hands[s] = append(st.hands[s], drawn...)
		slices.Sort(st.hands[s])
		if !quiet {
			ev = append(ev, engine.Private(s, "cards_drawn", map[string]any{"cards": engine.Strings(drawn)}))
			if len(st.deck) == 0 {
				ev = append(ev, engine.Public("deck_empty", map[string]any{"seat": s}))
			}
		}
	}
	st.last, st.moves, st.prev, st.used = st.moves, nil, s, 0
	for k := 1; k <= st.n; k++ {
		next := engine.Seat((int(s) + k) % st.n)
		if len(st.hands[next]) > 0 {
			st.turn = next
			if quiet {
				return ev
			}
			return append(ev, engine.Public("turn", map[string]any{"seat": next}))
		}
	}
	return st.finish(ev)
}

// finish reveals the spies, moves those of the Queen's column to their
// families on the same side, and scores: family status, domains, missions
// (seed 004, "Koniec gry i punktacja").
func (st *State) finish(ev []engine.Event) []engine.Event {
	st.phase = phaseOver
	revealed := map[string]any{}
	for i, side := range []string{"up", "down"} {
		revealed[side] = engine.Strings(st.queen[i])
		for _, c := range st.queen[i] {
			st.table[i][c.Family()] = append(st.table[i][c.Family()], c)
		}
		st.queen[i] = nil
	}
	domainSpies := make([]string, st.n)
	for s, d := range st.domains {
		var spies []string
		for _, c := range d {
			if c.Role() == Spy {
				spies = append(spies, c.String())
			}
		}
		domainSpies[s] = strings.Join(spies, " ")
	}
	revealed["domains"] = domainSpies
	ev = append(ev, engine.Public("spies_revealed", revealed))

	b := st.board()
	st.status = b.status
	st.points = make([]int, st.n)
	st.done = make([][2]bool, st.n)
	st.totals = make([]int, st.n)
	for s := 0; s < st.n; s++ {
		st.points[s] = st.domainPoints(s)
		st.totals[s] = st.points[s]
		for k, m := range st.missions[s] {
			if b.fulfilled(m, s) {
				st.done[s][k] = true
				st.totals[s] += MissionPoints
			}
		}
	}
	best := slices.Max(st.totals)
	st.winners = nil
	for s, t := range st.totals {
		if t == best {
			st.winners = append(st.winners, engine.Seat(s))
		}
	}
	statuses := make([]string, NumFamilies)
	for f, x := range st.status {
		statuses[f] = x.String()
	}
	return append(ev, engine.Public("game_over", map[string]any{
		"winners": slices.Clone(st.winners), "totals": slices.Clone(st.totals), "places": st.places(),
		"points": slices.Clone(st.points), "status": statuses,
	}))
}

// weight sums the weights of cards (a noble counts 2).
func weight(cs []Card) int {
	w := 0
	for _, c := range cs {
		w += c.Weight()
	}
	return w
}

// statusOf compares the weight above and below the mat.
func statusOf(up, down int) Status {
	switch {
	case up > down:
		return Esteemed
	case down > up:
		return Disgraced
	}
	return Neutral
}

// board is the picture the missions are checked against.
func (st *State) board() *board {
	b := &board{domains: st.domains}
	for f := Family(0); f < NumFamilies; f++ {
		b.status[f] = statusOf(weight(st.table[0][f]), weight(st.table[1][f]))
		b.below[f] = len(st.table[1][f])
	}
	return b
}

// domainPoints: +weight per card of an esteemed family, −weight per card of
// a disgraced one.
func (st *State) domainPoints(s int) int {
	p := 0
	for _, c := range st.domains[s] {
		switch st.status[c.Family()] {
		case Esteemed:
			p += c.Weight()
		case Disgraced:
			p -= c.Weight()
		}
	}
	return p
}

// Result tells whether the game is over and who won: the highest total;
// a tie is a shared victory (note "shared").
func (st *State) Result() (bool, engine.Result) {
	res := engine.Result{Scores: slices.Clone(st.totals), Winners: slices.Clone(st.winners)}
	if res.Scores == nil {
		res.Scores = make([]int, st.n)
	}
	if len(st.winners) > 1 {
		res.Note = "shared"
	}
	if st.phase == phaseOver {
		res.Places = st.places()
	}
	return st.phase == phaseOver, res
}

// places is every seat's place at the end: the highest total first; the
// game has no tie-break, so equal totals share a place.
func (st *State) places() []int {
	return engine.Places(st.n, engine.ByScore(st.totals, true, nil, false))
}
