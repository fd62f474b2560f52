package princesses

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// dealPrincesses deals two princesses to each seat (scenario: the
// "princesses <seat>: id id" stacks). When the edition has fewer than two per
// seat (classic with 6 seats), the seats dealt last clockwise from the first
// player get one.
func (st *State) dealPrincesses(r *engine.Rand) error {
	pool := princessPool(st.cfg.edition, st.cfg.promo)
	all := slices.Clone(pool)
	want := make([]int, st.n)
	extra := len(pool) - st.n
	for k := 0; k < st.n; k++ {
		s := st.next(st.first, k)
		want[s] = 1
		if k < extra {
			want[s] = 2
		}
	}
	for _, sk := range r.Take("princesses") {
		if sk.Index < 0 || sk.Index >= st.n {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if len(sk.Values) != want[sk.Index] {
			return sk.Err("count", "want", want[sk.Index])
		}
		var got []PrincessID
		for _, v := range sk.Values {
			p, ok := parsePrincess(v)
			switch {
			case !ok:
				return sk.Err("unknown_princess", "princess", v)
			case !slices.Contains(all, p):
				return sk.Err("other_edition", "princess", v, "edition", st.cfg.edition.String())
			case !slices.Contains(pool, p):
				return sk.Err("dealt_twice", "princess", v)
			}
			pool = slices.DeleteFunc(pool, func(x PrincessID) bool { return x == p })
			got = append(got, p)
		}
		st.offered[sk.Index] = got
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for s := 0; s < st.n; s++ {
		if st.offered[s] != nil {
			continue
		}
		st.offered[s] = slices.Clone(pool[:want[s]])
		pool = pool[want[s]:]
	}
	return nil
}

// deal shuffles the deck for the seat count and deals every card (scenario:
// the "deal <seat>: cards" stacks; a stacked hand must be complete).
func (st *State) deal(r *engine.Rand) error {
	deck := Deck(st.n)
	size := len(deck) / st.n
	hands := make([][]Card, st.n)
	for _, sk := range r.Take("deal") {
		if sk.Index < 0 || sk.Index >= st.n {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if len(sk.Values) != size {
			return sk.Err("hand_size", "want", size, "got", len(sk.Values))
		}
		cs, err := parseCards(sk.Values, st.n)
		if err != nil {
			if _, ok := ParseCard(fmt.Sprint(err.Params["card"])); ok {
				return sk.Err("not_in_deck", "card", err.Params["card"], "seats", st.n)
			}
			return sk.Err("unknown_card", "card", err.Params["card"])
		}
		for _, c := range cs {
			var ok bool
			if deck, ok = engine.RemoveOne(deck, c); !ok {
				return sk.Err("too_many_copies", "card", c.String())
			}
		}
		hands[sk.Index] = cs
	}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	for s := range hands {
		if hands[s] == nil {
			hands[s] = slices.Clone(deck[:size])
			deck = deck[size:]
		}
		slices.Sort(hands[s])
	}
	st.hands = hands
	return nil
}

// startRound reveals the current round card, deals and opens its pass.
func (st *State) startRound(r *engine.Rand) ([]engine.Event, error) {
	if err := st.deal(r); err != nil {
		return nil, err
	}
	for s := 0; s < st.n; s++ {
		st.captured[s] = nil
		st.tricks[s] = 0
		st.pending[s], st.pendSuit[s], st.setAside[s] = nil, 0, nil
		st.gifts[s], st.revealed[s], st.masked[s] = 0, nil, 0
		st.giftsWon[s] = nil
	}
	st.trick, st.last, st.snuckIn, st.princed = nil, nil, false, false // lastWin stays: the last trick's winner until the next one
	for s := range st.used {
		st.used[s] = false // powers refresh every round
	}
	st.decls, st.eff, st.sub = nil, trickEffects{}, subStep{}
	st.leader = st.starter
	ev := []engine.Event{engine.Public("round_started", map[string]any{
		"round": st.round + 1, "card": st.card().id, "leader": st.starter, "extra": st.extra,
	})}
	return append(ev, st.beginRoundPlay(r)...), nil
}

// beginRoundPlay opens the round card's pass, or the first trick.
func (st *State) beginRoundPlay(r *engine.Rand) []engine.Event {
	if st.card().pass.total() > 0 {
		st.openStep(phasePass)
		return nil
	}
	return st.afterPass(r)
}

// endRound scores the round and starts the next one or ends the game.
func (st *State) endRound(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	scores, rebel := st.scoreRound()
	st.roundScores = append(st.roundScores, scores)
	for s, v := range scores {
		st.totals[s] += v
	}
	princes := make([]int, st.n)
	frog := engine.Seat(-1)
	for s, cs := range st.captured {
		for _, c := range cs {
			if c.Suit() == Princes {
				princes[s]++
			}
			if c.IsFrog() {
				frog = engine.Seat(s)
			}
		}
	}
	if slices.ContainsFunc(st.giftsWon, func(cs []Card) bool { return len(cs) > 0 }) {
		// The gift piles are counted openly with the rest.
		piles := make([][]string, st.n)
		for s, cs := range st.giftsWon {
			cs = slices.Clone(cs)
			slices.Sort(cs)
			piles[s] = engine.Strings(cs)
		}
		ev = append(ev, engine.Public("gifts_counted", map[string]any{"piles": piles}))
	}
	ev = append(ev, engine.Public("round_scored", map[string]any{
		"round": st.round + 1, "card": st.card().id, "scores": slices.Clone(scores),
		"totals": slices.Clone(st.totals), "rebel": rebel, "princes": princes, "frog": frog,
	}))
	if st.round+1 < len(st.rounds) {
		st.round++
		st.starter = st.nextStarter()
		more, err := st.startRound(r)
		return append(ev, more...), err
	}
	return st.finish(ev, r)
}

// scoreRound gives each seat's proposals for the round and the Rebel of the
// Ball (-1 if none).
func (st *State) scoreRound() ([]int, engine.Seat) {
	rules := st.card().rules
	scores := make([]int, st.n)
	lo, hi := deckRanks(st.n)
	allPrinces := hi - lo + 1
	rebel := engine.Seat(-1)
	for s, cs := range st.captured {
		base, princes, frog := 0, 0, false
		for _, c := range cs {
			base += basePoints(c)
			if c.Suit() == Princes {
				princes++
			}
			frog = frog || c.IsFrog()
		}
		if rules.score != nil {
			base = rules.score(st, s, cs, base)
		}
		scores[s] = base
		if st.cfg.edition == Deluxe && !rules.noRebel && princes == allPrinces && frog {
			scores[s] = -10
			rebel = engine.Seat(s)
		}
	}
	return scores, rebel
}

// nextStarter: deluxe — the lowest total, ties to the first tied seat
// clockwise from the left of the previous starter; classic — the winner of
// the last trick.
func (st *State) nextStarter() engine.Seat {
	if st.cfg.edition == Classic {
		return st.lastWin
	}
	best := engine.Seat(-1)
	for k := 1; k <= st.n; k++ {
		s := st.next(st.starter, k)
		if best < 0 || st.totals[s] < st.totals[best] {
			best = s
		}
	}
	return best
}

// finish decides the winners: the lowest total; ties broken per edition.
func (st *State) finish(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	tied := lowest(st.totals, nil)
	onTotal := slices.Clone(tied) // the seats tied on the lowest total
	var counts []int              // their good rounds (the tie-break)
	note := ""
	if len(tied) > 1 {
		counts = make([]int, st.n)
		good := st.goodRounds()
		for _, s := range tied {
			counts[s] = good[s]
		}
		neg := make([]int, st.n)
		for s := range neg {
			neg[s] = -counts[s]
		}
		tied = lowest(neg, tied)
		note = "tiebreak"
		if len(tied) > 1 && st.cfg.edition == Deluxe && !st.extra {
			ev = append(ev, engine.Public("tiebreak_round", map[string]any{"tied": onTotal, "good": counts}))
			return st.startTiebreakRound(ev, r)
		}
		if len(tied) > 1 {
			note = "shared"
		}
	}
	st.phase = phaseOver
	st.winners = tied
	st.note = note
	places, good := st.ranking()
	return append(ev, engine.Public("game_over", map[string]any{
		"winners": slices.Clone(tied), "totals": slices.Clone(st.totals), "note": note,
		"tied": onTotal, "good": counts, "places": places, "tiebreak": good, "edition": st.cfg.edition.String(),
	})), nil
}

// goodRounds counts every seat's rounds that count in the tie-break: a
// round score of 0 or less, or (deluxe) the lowest of the round.
func (st *State) goodRounds() []int {
	counts := make([]int, st.n)
	for _, rs := range st.roundScores {
		min := slices.Min(rs)
		for s, v := range rs {
			if v <= 0 || (st.cfg.edition == Deluxe && v == min) {
				counts[s]++
			}
		}
	}
	return counts
}

// ranking is every seat's place at the end (the lowest total first, then
// more rounds that count; still tied, a shared place: the deluxe extra
// round has been played by then) and its rounds that count, the tie-break.
func (st *State) ranking() (places, good []int) {
	good = st.goodRounds()
	return engine.Places(st.n, engine.ByScore(st.totals, false, good, true)), good
}

// startTiebreakRound plays the deluxe extra round with a random hourglass
// card (scenario: the "tiebreak: <id>" stack picks it).
func (st *State) startTiebreakRound(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	pool := playableRounds(st.cfg.edition, true)
	if len(pool) == 0 {
		pool = playableRounds(st.cfg.edition, false)
	}
	pick := pool[r.IntN(len(pool))]
	for _, sk := range r.Take("tiebreak") {
		id, ok := parseRound(strings.Join(sk.Values, ""))
		if !ok || !slices.Contains(pool, id) {
			return nil, sk.Err("not_hourglass", "round", strings.Join(sk.Values, " "))
		}
		pick = id
	}
	st.rounds = append(st.rounds, pick)
	st.round++
	st.extra = true
	st.starter = st.nextStarter()
	more, err := st.startRound(r)
	return append(ev, more...), err
}

// lowest returns the seats (among among, or all when nil) with the lowest value.
func lowest(vals []int, among []engine.Seat) []engine.Seat {
	if among == nil {
		for s := range vals {
			among = append(among, engine.Seat(s))
		}
	}
	var out []engine.Seat
	for _, s := range among {
		switch {
		case len(out) == 0 || vals[s] < vals[out[0]]:
			out = []engine.Seat{s}
		case vals[s] == vals[out[0]]:
			out = append(out, s)
		}
	}
	return out
}

// Result tells whether the game is over and who won (lowest total).
func (st *State) Result() (bool, engine.Result) {
	res := engine.Result{Scores: slices.Clone(st.totals), Winners: slices.Clone(st.winners), Note: st.note}
	if st.phase == phaseOver {
		res.Places, res.TieBreak = st.ranking()
	}
	return st.phase == phaseOver, res
}
