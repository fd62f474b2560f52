package princesses

import "slices"

// The round cards' special rules, as hooks into roundRules (data.go). Each
// function is small and knows only its own card; the trick loop in state.go
// calls them without naming any card.

func init() {
	set := func(id string, r roundRules) {
		rid, ok := parseRound(id)
		if !ok {
			panic("princesses: no round card " + id)
		}
		r.noRebel = r.noRebel || roundTable[rid].rules.noRebel
		roundTable[rid].rules = r
	}
	set("late-to-the-ball", roundRules{setup: phaseAside})
	set("magic-beans", roundRules{playable: highestOrLowest})
	set("three-times-a-lady", roundRules{score: scoreThrees})
	set("arranged-marriage", roundRules{score: scoreNoTrick})
	set("royal-decree", roundRules{winner: winQueensTrump})
	set("always-the-bridesmaid", roundRules{winner: winSecondHighest})
	set("crystal-clear", roundRules{setup: phaseReveal})
	set("masquerade", roundRules{masked: true})
	set("pets-revenge", roundRules{score: scorePets})
	set("musical-chairs", roundRules{after: phaseGive})
	set("sisterhood", roundRules{winner: winFarthest})
	set("after-party", roundRules{setup: phaseSplit})
	set("late-for-a-date", roundRules{stopAt: 3})
	set("wedding-gift", roundRules{before: phaseGift, noRebel: true})
	set("haggle", roundRules{after: phaseHaggle})
	set("blind-mans-bluff", roundRules{setup: phaseSplit, halfRight: true})
	set("poisoned-apple", roundRules{winner: winVoid})
	set("odds-and-evens", roundRules{prefer: preferParity})
	set("single-fairy", roundRules{score: scoreFairies})
	set("rings-twice", roundRules{perTurn: 2, winner: winSum, flip: flipSum})
	set("midnight-makeover", roundRules{follow: followWildFairies, winner: winWildFairies})
	set("pass-the-bouquet", roundRules{required: lastSuit, winner: winLastSuit})
	set("upside-down", roundRules{winner: winUpsideDown, flip: flipUpsideDown})
	set("bathroom-break", roundRules{score: scoreDoubled})
	set("dancing-queens", roundRules{score: scorePairs})
}

// ---------------------------------------------------------------- following

// followSuit is the base rule: cards of the required suit if any, else the
// whole hand.
func followSuit(hand []Card, req Suit) []Card {
	var out []Card
	for _, c := range hand {
		if c.Suit() == req {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return slices.Clone(hand)
	}
	return out
}

// highestOrLowest (Magic Beans): only the highest or the lowest card the
// seat holds of the suit it plays (the seat's own hand: ruling 1).
func highestOrLowest(hand, base []Card) []Card {
	out := base[:0:0]
	for _, c := range base {
		lo, hi := true, true
		for _, h := range hand {
			if h.Suit() == c.Suit() {
				lo = lo && h.Rank() >= c.Rank()
				hi = hi && h.Rank() <= c.Rank()
			}
		}
		if lo || hi {
			out = append(out, c)
		}
	}
	return out
}

// preferParity (Odds and Evens): among the cards a follower may play (the
// suit, or the whole hand when void), those of the lead card's printed
// parity, if any; otherwise any of them. The Pea's "above 5" narrows the
// pool first (ruling 17).
func preferParity(trick []Play, pool []Card) []Card {
	odd := trick[0].Card.Rank() % 2
	var out []Card
	for _, c := range pool {
		if c.Rank()%2 == odd {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return pool
	}
	return out
}

// followWildFairies (Midnight Makeover): Fairies are wild, so a seat holding
// one is never void: the led suit or a Fairy; else any card.
func followWildFairies(_ []Play, req Suit, hand []Card) []Card {
	var out []Card
	for _, c := range hand {
		if c.Suit() == req || c.Suit() == Fairies {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return slices.Clone(hand)
	}
	return out
}

// lastSuit (Pass the Bouquet): every card of a new suit becomes the required
// suit, so the required suit is always the suit of the last card played.
func lastSuit(trick []Play) Suit { return trick[len(trick)-1].Card.Suit() }

// ---------------------------------------------------------------- winning

// highestOf is the index of the highest card of suit s in the trick, -1 if
// none; ties (possible only in combined plays) go to the earlier card.
func highestOf(trick []Play, s Suit) int {
	best := -1
	for i, p := range trick {
		if p.Card.Suit() == s && (best < 0 || p.Card.Rank() > trick[best].Card.Rank()) {
			best = i
		}
	}
	return best
}

// winHighest is the base rule: the highest card of the led suit.
func winHighest(trick []Play, _ Edition) int { return highestOf(trick, trick[0].Card.Suit()) }

// winQueensTrump (Royal Decree): the highest Queen, else the base rule.
func winQueensTrump(trick []Play, ed Edition) int {
	if i := highestOf(trick, Queens); i >= 0 {
		return i
	}
	return winHighest(trick, ed)
}

// winSecondHighest (Always the Bridesmaid): the second-highest card of the
// led suit; the leader when every other seat is void.
func winSecondHighest(trick []Play, _ Edition) int {
	led := trick[0].Card.Suit()
	first, second := -1, -1
	for i, p := range trick {
		if p.Card.Suit() != led {
			continue
		}
		switch {
		case first < 0 || p.Card.Rank() > trick[first].Card.Rank():
			first, second = i, first
		case second < 0 || p.Card.Rank() > trick[second].Card.Rank():
			second = i
		}
	}
	if second < 0 {
		return 0
	}
	return second
}

// winFarthest (Sisterhood): among the other seats' led-suit cards (or all
// their cards when every other seat is void), the number farthest from the
// lead's; equal distance: the higher number; equal number: the earlier
// play. The leader never wins (rulings 3 and 4).
func winFarthest(trick []Play, _ Edition) int {
	lead := trick[0].Card
	anyFollow := false
	for _, p := range trick[1:] {
		anyFollow = anyFollow || p.Card.Suit() == lead.Suit()
	}
	best, bestDist := -1, -1
	for i := 1; i < len(trick); i++ {
		c := trick[i].Card
		if anyFollow && c.Suit() != lead.Suit() {
			continue
		}
		d := c.Rank() - lead.Rank()
		if d < 0 {
			d = -d
		}
		if best < 0 || d > bestDist || (d == bestDist && c.Rank() > trick[best].Card.Rank()) {
			best, bestDist = i, d
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

// winVoid (Poisoned Apple): a void card wins; among several, the highest,
// ties to the one played last (both rulebooks). No void card: the base rule.
// A card played off suit by a seat that held the suit (Thumbelina, a frozen
// card) is not a void card: "renons" is having no card of the suit.
func winVoid(trick []Play, ed Edition) int {
	led := trick[0].Card.Suit()
	best := -1
	for i, p := range trick {
		if p.Card.Suit() != led && !p.Free && (best < 0 || p.Card.Rank() >= trick[best].Card.Rank()) {
			best = i
		}
	}
	if best < 0 {
		return winHighest(trick, ed)
	}
	return best
}

// winSum (Rings Twice): the highest sum of a seat's led-suit cards; tie:
// the seat with the highest single led-suit card. The index returned is the
// seat's first play.
func winSum(trick []Play, _ Edition) int {
	led := trick[0].Card.Suit()
	best, bestSum, bestHigh := 0, -1, -1
	for i, p := range trick {
		if slices.IndexFunc(trick, func(q Play) bool { return q.Seat == p.Seat }) != i {
			continue // a seat's second play is counted with its first
		}
		sum, high := 0, 0
		for _, q := range trick {
			if q.Seat == p.Seat && q.Card.Suit() == led {
				sum += q.Card.Rank()
				high = max(high, q.Card.Rank())
			}
		}
		if sum > bestSum || (sum == bestSum && high > bestHigh) {
			best, bestSum, bestHigh = i, sum, high
		}
	}
	return best
}

// winWildFairies (Midnight Makeover): the highest card among the led suit
// and the Fairies; equal numbers: deluxe the card played first, classic the
// card played last.
func winWildFairies(trick []Play, ed Edition) int {
	led := trick[0].Card.Suit()
	best := 0
	for i, p := range trick {
		if p.Card.Suit() != led && p.Card.Suit() != Fairies {
			continue
		}
		r, b := p.Card.Rank(), trick[best].Card.Rank()
		if r > b || (r == b && ed == Classic) {
			best = i
		}
	}
	return best
}

// winLastSuit (Pass the Bouquet): the highest card of the last required suit.
func winLastSuit(trick []Play, _ Edition) int { return highestOf(trick, lastSuit(trick)) }

// winUpsideDown (Upside Down): each 6 in the trick reverses the ranking; an
// odd number of 6s makes the lowest led-suit card win.
func winUpsideDown(trick []Play, ed Edition) int {
	sixes := 0
	for _, p := range trick {
		if p.Card.Rank() == 6 {
			sixes++
		}
	}
	if sixes%2 == 0 {
		return winHighest(trick, ed)
	}
	led := trick[0].Card.Suit()
	best := 0
	for i, p := range trick {
		if p.Card.Suit() == led && p.Card.Rank() < trick[best].Card.Rank() {
			best = i
		}
	}
	return best
}

// ---------------------------------------------------------------- scoring

func count(cs []Card, f func(Card) bool) int {
	n := 0
	for _, c := range cs {
		if f(c) {
			n++
		}
	}
	return n
}

// scoreThrees (Three Times a Lady): every captured 3 is -3.
func scoreThrees(_ *State, _ int, cs []Card, base int) int {
	return base - 3*count(cs, func(c Card) bool { return c.Rank() == 3 })
}

// scoreNoTrick (Arranged Marriage): +5 for a seat that won no trick.
func scoreNoTrick(st *State, s int, _ []Card, base int) int {
	if st.tricks[s] == 0 {
		return base + 5
	}
	return base
}

// scorePets (Pets' Revenge): every captured Pet is +1 (the Frog 6).
func scorePets(_ *State, _ int, cs []Card, base int) int {
	return base + count(cs, func(c Card) bool { return c.Suit() == Pets })
}

// scoreFairies (Single Fairy): every captured Fairy is -1.
func scoreFairies(_ *State, _ int, cs []Card, base int) int {
	return base - count(cs, func(c Card) bool { return c.Suit() == Fairies })
}

// scoreDoubled (Bathroom Break): doubled, except for the seat(s) with the
// highest total before this round. Deluxe doubles the Princes only (not the
// Frog); classic doubles all the round's proposals.
func scoreDoubled(st *State, s int, cs []Card, base int) int {
	if st.totals[s] == slices.Max(st.totals) {
		return base
	}
	if st.cfg.edition == Classic {
		return 2 * base
	}
	return base + count(cs, func(c Card) bool { return c.Suit() == Princes })
}

// scorePairs (Dancing Queens): Princes paired with Queens of the same
// number are 3 a pair, then with any other Queen 2 a pair; an unpaired
// Prince 1, an unpaired Queen nothing; the Frog stays 5.
func scorePairs(_ *State, _ int, cs []Card, _ int) int {
	var princes, queens [13]bool
	for _, c := range cs {
		switch c.Suit() {
		case Princes:
			princes[c.Rank()] = true
		case Queens:
			queens[c.Rank()] = true
		}
	}
	same, p, q := 0, 0, 0
	for r := 1; r <= 12; r++ {
		switch {
		case princes[r] && queens[r]:
			same++
		case princes[r]:
			p++
		case queens[r]:
			q++
		}
	}
	mixed := min(p, q)
	score := 3*same + 2*mixed + (p - mixed)
	if slices.Contains(cs, Frog) {
		score += 5
	}
	return score
}

// flipUpsideDown (Upside Down with Cinderella): the reversal applies from
// the start and every printed 6 flips again; Snow White's 0 is then the best
// card when the ranking is reversed (ruling 12).
func flipUpsideDown(valued, printed []Play, ed Edition, reversed bool) int {
	sixes := 0
	for _, p := range printed {
		if p.Card.Rank() == 6 {
			sixes++
		}
	}
	if (sixes%2 == 1) == reversed {
		return winHighest(valued, ed)
	}
	return lowestOf(valued, valued[0].Card.Suit())
}

// lowestOf is the index of the lowest card of suit s (the earlier on ties).
func lowestOf(trick []Play, s Suit) int {
	best := 0
	for i, p := range trick {
		if p.Card.Suit() == s && p.Card.Rank() < trick[best].Card.Rank() {
			best = i
		}
	}
	return best
}

// flipSum (Rings Twice): reversed by Cinderella, the lowest sum of a seat's
// led-suit cards wins, ties to the seat with the lowest single led-suit card
// (ruling 10); a seat with no led-suit card does not compete.
func flipSum(valued, printed []Play, ed Edition, reversed bool) int {
	if !reversed {
		return winSum(valued, ed)
	}
	led := valued[0].Card.Suit()
	best, bestSum, bestLow := 0, 1<<30, 1<<30
	for i, p := range valued {
		if slices.IndexFunc(valued, func(q Play) bool { return q.Seat == p.Seat }) != i {
			continue
		}
		sum, low, any := 0, 1<<30, false
		for _, q := range valued {
			if q.Seat == p.Seat && q.Card.Suit() == led {
				sum += q.Card.Rank()
				low = min(low, q.Card.Rank())
				any = true
			}
		}
		if any && (sum < bestSum || (sum == bestSum && low < bestLow)) {
			best, bestSum, bestLow = i, sum, low
		}
	}
	return best
}
