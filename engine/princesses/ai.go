package princesses

import (
	"github.com/stolik-bot/stolik/engine"
)

// Heuristic is the AI player: it ducks tricks that carry proposals under
// the round card's own rule for who wins, sheds the Frog and high Princes
// when it can, passes, gives and sets aside its most dangerous cards and
// leads low. It reads only its view and the legal actions.
type Heuristic struct{}

// value is what capturing c costs in proposals under the round card (an
// estimate for the cards whose worth depends on the rest of the pile).
func value(round string, c Card) int {
	v := basePoints(c)
	switch round {
	case "pets-revenge":
		if c.Suit() == Pets {
			v++
		}
	case "single-fairy":
		if c.Suit() == Fairies {
			v--
		}
	case "three-times-a-lady":
		if c.Rank() == 3 {
			v -= 3
		}
	case "bathroom-break":
		if c.Suit() == Princes {
			v++
		}
	case "dancing-queens":
		if c.Suit() == Queens {
			v++
		}
	}
	return v
}

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

// roundDanger is danger under the round card's scoring.
func roundDanger(round string, c Card) int {
	return c.Rank() + 8*value(round, c)
}

// Choose picks an action from the seat's view and legal actions only.
func (Heuristic) Choose(ev engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	v, ok := ev.(*View)
	if !ok || len(legal) == 0 {
		return engine.Random{}.Choose(ev, legal, r)
	}
	round := v.RoundCard
	worst := func(a engine.Action) int {
		sum := 0
		for _, c := range a.(Action).CardList() {
			sum += roundDanger(round, c)
		}
		return sum
	}
	switch legal[0].(Action).Kind {
	case KindPass, KindGift, KindGive, KindSplit:
		// Away with the most dangerous cards (a split's set-aside half is
		// played last, or goes to the right neighbour).
		return best(legal, worst)
	case KindAside:
		// The last trick's card: the safest one.
		return best(legal, func(a engine.Action) int { return -worst(a) })
	case KindReveal:
		// Show as little as possible: the suit with the fewest cards.
		return best(legal, func(a engine.Action) int {
			n := 0
			for _, c := range v.Hand {
				if c.Suit() == a.(Action).Suit {
					n++
				}
			}
			return -n
		})
	case KindKeep, KindSwap:
		// Take proposals out of the trick just won, put a harmless card in.
		return best(legal, func(a engine.Action) int {
			x := a.(Action)
			if x.Kind == KindKeep {
				return 0
			}
			give, take := x.Cards[0], x.Cards[1]
			return 10*(value(round, take)-value(round, give)) + give.Rank() - take.Rank() - 3
		})
	case KindPlay:
		return choosePlay(v, legal)
	}
	return legal[r.IntN(len(legal))]
}

// best returns the legal action with the highest score (the first on ties).
func best(legal []engine.Action, score func(engine.Action) int) engine.Action {
	bi, bs := 0, score(legal[0])
	for i := 1; i < len(legal); i++ {
		if s := score(legal[i]); s > bs {
			bi, bs = i, s
		}
	}
	return legal[bi]
}

// choosePlay plays each legal card into the visible trick and asks the
// round card's rule who would take it.
func choosePlay(v *View, legal []engine.Action) engine.Action {
	round := v.RoundCard
	rid, _ := parseRound(round)
	rules := &rid.data().rules
	winner := rules.winner
	if winner == nil {
		winner = winHighest
	}
	if len(v.Trick) == 0 {
		if rules.winner != nil && round == "sisterhood" {
			// The leader never wins: lead the worst card.
			return best(legal, func(a engine.Action) int { return roundDanger(round, a.(Action).Cards[0]) })
		}
		// Lead the lowest, least dangerous card.
		return best(legal, func(a engine.Action) int { return -roundDanger(round, a.(Action).Cards[0]) })
	}
	// Complete when every seat has played its cards (a Masquerade trick
	// shows only the lead, so it never looks complete).
	complete := len(v.Trick)+1 == v.Seats*v.PerTurn
	trick := make([]Play, len(v.Trick), len(v.Trick)+1)
	copy(trick, v.Trick)
	return best(legal, func(a engine.Action) int {
		c := a.(Action).Cards[0]
		t := append(trick, Play{Seat: v.Seat, Card: c})
		pts := 0
		for _, p := range t {
			pts += value(round, p.Card)
		}
		wins := t[winner(t, v.Edition)].Seat == v.Seat
		switch {
		case wins && complete:
			// Taking it anyway: cheaply, with the most dangerous card.
			return -100*pts + roundDanger(round, c)
		case wins:
			// Someone may still go over: stay low, keep proposals out.
			return -100*pts - 50 - 2*c.Rank() - 10*value(round, c)
		default:
			// Losing: shed the most dangerous card.
			return roundDanger(round, c)
		}
	})
}
