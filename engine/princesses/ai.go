package princesses

import (
	"slices"

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
	case KindPass, KindGift, KindGive, KindSplit, KindOffer, KindAssign, KindFreeze:
		// Sleeping Beauty: offer, and hand on, the most dangerous card; the
		// Ice Princess freezes the card most likely to take the trick.
		// Away with the most dangerous cards (a split's set-aside half is
		// played last, or goes to the right neighbour).
		return best(legal, worst)
	case KindAside, KindRetain:
		// The last trick's card, or the one Sleeping Beauty keeps: the safest.
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
	case KindPlay, KindDeclare, KindWithdraw:
		return choosePlayOrPower(v, legal)
	case KindSing:
		return legal[0]
	case KindTrade:
		// Scheherazade: swap the taken card for a clearly worse one of hers.
		return best(legal, func(a engine.Action) int {
			x := a.(Action)
			if x.No || len(v.Held) == 0 {
				return 0
			}
			return roundDanger(round, x.Cards[0]) - roundDanger(round, v.Held[0]) - 2
		})
	case KindMulan:
		return chooseMulan(v, legal)
	case KindAlice:
		// Redeal a trick that carries proposals.
		pts := 0
		for _, p := range v.Trick {
			pts += value(round, p.Card)
		}
		if pts > 0 {
			return Action{Kind: KindAlice}
		}
		return Action{Kind: KindAlice, No: true}
	case KindGuide:
		// Let the left neighbour lead: this seat then plays last.
		return Action{Kind: KindGuide, Target: int8((int(v.Seat)+1)%v.Seats) + 1}
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

// choosePlayOrPower declares a before-trick power when it looks useful (and
// at the latest in the round's last tricks, so that it is used most
// rounds), else plays, possibly with a power.
func choosePlayOrPower(v *View, legal []engine.Action) engine.Action {
	var plays, declares []engine.Action
	for _, a := range legal {
		switch a.(Action).Kind {
		case KindPlay:
			plays = append(plays, a)
		case KindDeclare:
			declares = append(declares, a)
		}
	}
	if len(declares) > 0 {
		if d := chooseDeclare(v, declares); d != nil {
			return d
		}
	}
	if len(plays) == 0 {
		return legal[0]
	}
	return choosePlay(v, plays)
}

// chooseDeclare picks a declaration, nil for none yet.
func chooseDeclare(v *View, declares []engine.Action) engine.Action {
	late := len(v.Hand) <= 4
	low, high, princes := 0, 0, 0
	for _, c := range v.Hand {
		switch {
		case c.Suit() == Princes:
			princes++
		case c.Rank() <= 5:
			low++
		default:
			high++
		}
	}
	leftSeat := int8((int(v.Seat)+1)%v.Seats) + 1
	return best(append([]engine.Action{nil}, declares...), func(a engine.Action) int {
		if a == nil {
			return 0
		}
		d := a.(Action)
		score := -5
		switch d.Power().String() {
		case "cinderella":
			score = 2 * (high - low)
		case "mermaid":
			// The suit of this seat's lowest card: easy to duck.
			score = 1
			for _, c := range v.Hand {
				if c.Suit() == d.Suit && c.Rank() <= 4 {
					score += 3
				}
			}
		case "pocahontas":
			if d.Target == leftSeat {
				score = 2
			}
		case "pea-princess":
			score = 2 * (low - high)
		case "rapunzel":
			score = 4 - 4*princes
		case "ice-princess":
			score = 1
		case "scheherazade", "sleeping-beauty":
			// Used late in the round, when a swap matters most.
			score = 0
		}
		if late {
			score += 10
		}
		return score
	})
}

// chooseMulan swaps the played card when that keeps proposals away.
func chooseMulan(v *View, legal []engine.Action) engine.Action {
	rid, _ := parseRound(v.RoundCard)
	rules := &rid.data().rules
	return best(legal, func(a engine.Action) int {
		x := a.(Action)
		t := slices.Clone(v.Trick)
		if !x.No {
			for i := range t {
				if t[i].Seat == v.Seat && t[i].Card == x.Cards[0] {
					t[i].Card = x.Cards[1]
				}
			}
		}
		pts := 0
		for _, p := range t {
			pts += value(v.RoundCard, p.Card)
		}
		score := 0
		if t[viewWinner(v, rules, t)].Seat == v.Seat {
			score = -100*pts - 1
		}
		if !x.No {
			score -= 2 // keep the power for a better trick
		}
		return score
	})
}

// viewWinner is the trick's winner as the view shows the powers in force.
func viewWinner(v *View, rules *roundRules, trick []Play) int {
	t := slices.Clone(trick)
	for i := range t {
		c := t[i].Card
		r := c.Rank()
		if r <= 7 && slices.Contains(v.ZeroSeats, t[i].Seat) {
			r = 0
		}
		if v.Reversed && rules.flip == nil {
			r = 13 - r
		}
		t[i].Card = NewCard(c.Suit(), r)
	}
	return winnerWith(rules, t, trick, v.Edition, v.Reversed)
}

// choosePlay plays each legal card into the visible trick and asks the
// round card's rule who would take it.
func choosePlay(v *View, legal []engine.Action) engine.Action {
	round := v.RoundCard
	rid, _ := parseRound(round)
	rules := &rid.data().rules
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
		x := a.(Action)
		c := x.Cards[0]
		t := append(trick, Play{Seat: v.Seat, Card: c})
		pts := 0
		for _, p := range t {
			pts += value(round, p.Card)
		}
		vv := *v
		if x.Power().String() == "snow-white" {
			vv.ZeroSeats = append(slices.Clone(v.ZeroSeats), v.Seat)
		}
		wins := t[viewWinner(&vv, rules, t)].Seat == v.Seat
		bonus := 0
		if x.Pow > 0 {
			bonus = 3 // use the power when it is as good as a plain play
		}
		switch {
		case wins && complete:
			// Taking it anyway: cheaply, with the most dangerous card.
			return -100*pts + roundDanger(round, c) + bonus
		case wins:
			// Someone may still go over: stay low, keep proposals out.
			return -100*pts - 50 - 2*c.Rank() - 10*value(round, c) + bonus
		default:
			// Losing: shed the most dangerous card.
			return roundDanger(round, c) + bonus
		}
	})
}
