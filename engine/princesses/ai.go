package princesses

import (
	"github.com/stolik-bot/stolik/engine"
)

// Heuristic is the AI player of the base game: it ducks tricks that carry
// proposals, sheds the Frog and high Princes when void, passes away its most
// dangerous cards and leads low.
type Heuristic struct{}

// danger rates how much a card is a liability to hold: high cards win
// tricks, Princes and the Frog are proposals.
func danger(c Card) int {
	d := c.Rank()
	switch {
	case c.IsFrog():
		d += 40
	case c.Suit() == Princes:
		d += 20
	}
	return d
}

// Choose picks an action from the seat's view and legal actions only.
func (Heuristic) Choose(ev engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	v, ok := ev.(*View)
	if !ok || len(legal) == 0 {
		return engine.Random{}.Choose(ev, legal, r)
	}
	switch legal[0].(Action).Kind {
	case KindPass:
		return choosePass(legal)
	case KindPlay:
		return choosePlay(v, legal)
	}
	return legal[r.IntN(len(legal))]
}

// choosePass gives away the cards with the highest total danger.
func choosePass(legal []engine.Action) engine.Action {
	best, bestScore := legal[0], -1
	for _, a := range legal {
		sum := 0
		for _, c := range a.(Action).CardList() {
			sum += danger(c)
		}
		if sum > bestScore {
			best, bestScore = a, sum
		}
	}
	return best
}

func choosePlay(v *View, legal []engine.Action) engine.Action {
	cards := make([]Card, len(legal))
	for i, a := range legal {
		cards[i] = a.(Action).Cards[0]
	}
	pick := func(better func(a, b Card) bool) engine.Action {
		bi := 0
		for i := range cards {
			if better(cards[i], cards[bi]) {
				bi = i
			}
		}
		return legal[bi]
	}
	if len(v.Trick) == 0 {
		// Lead the lowest, least dangerous card.
		return pick(func(a, b Card) bool { return danger(a) < danger(b) })
	}
	led := v.Trick[0].Card.Suit()
	high := 0
	for _, p := range v.Trick {
		if p.Card.Suit() == led && p.Card.Rank() > high {
			high = p.Card.Rank()
		}
	}
	if cards[0].Suit() != led {
		// Void: shed the most dangerous card.
		return pick(func(a, b Card) bool { return danger(a) > danger(b) })
	}
	last := len(v.Trick) == v.Seats-1
	var below []int
	for i, c := range cards {
		if c.Rank() < high {
			below = append(below, i)
		}
	}
	if len(below) > 0 {
		// Duck with the highest card that still loses.
		bi := below[0]
		for _, i := range below {
			if cards[i].Rank() > cards[bi].Rank() {
				bi = i
			}
		}
		return legal[bi]
	}
	if last {
		// Winning anyway: get rid of the highest card.
		return pick(func(a, b Card) bool { return danger(a) > danger(b) })
	}
	// Must go over: stay as low as possible, hoping someone tops it.
	return pick(func(a, b Card) bool { return danger(a) < danger(b) })
}
