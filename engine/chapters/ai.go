package chapters

import (
	"github.com/stolik-bot/stolik/engine"
)

// Heuristic is the AI player: it drafts toward the team whose chapter III
// abilities score best (combos such as Pinocchio with Geppetto, children with
// Peter Pan, dwarfs with the Chief Dwarf), keeping some high cards for the
// stars, and in chapter II plays the card with the best expected gain this
// round. It reads only its view and the legal actions.
type Heuristic struct{}

// worth is what tokens are worth to the AI (a single gem counts half).
func worth(t Tokens) float64 { return 2*float64(t.Stars) + float64(t.Hearts) + float64(t.Gems)/2 }

// teamValue rates a set of own cards: their chapter III score, which
// chapter II roughly repeats, plus the stars high cards may win.
func teamValue(t *Table, cards []Card, rounds, players int) float64 {
	x := resolveCtx{chapter: 3, cards: cards}
	var got Tokens
	for stage := 0; stage <= 1; stage++ {
		for _, c := range cards {
			x.tokens = got.Add(Tokens{Hearts: 2})
			got = got.Add(t.resolve(c, stage, &x))
		}
	}
	v := 1.6 * worth(got)
	for _, c := range cards {
		p := float64(c) / NumCards
		win := 1.0
		for i := 1; i < players; i++ {
			win *= p
		}
		v += 2 * win
		for i := range t[c].Abilities {
			a := &t[c].Abilities[i]
			if a.Seal == 2 && a.Echo == nil && !a.Freeze {
				// A chapter II ability: some chance its conditions hold.
				v += 0.35 * worth(a.Reward) * win
				if len(a.When) > 0 && a.When[0].Kind != WonRound {
					v += 0.2 * worth(a.Reward)
				}
			}
			if a.Seal == 0 && len(a.When) == 1 && a.When[0].Kind == WithCard && !containsCard(cards, a.When[0].Card) {
				// A partner still to come: worth a little in hope.
				v += 0.15 * worth(a.Reward)
			}
		}
	}
	return v
}

func containsCard(cs []Card, c Card) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// Choose picks an action from the seat's view and legal actions only.
func (Heuristic) Choose(ev engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	v, ok := ev.(*View)
	if !ok || len(legal) == 0 || v.Cards == nil {
		return engine.Random{}.Choose(ev, legal, r)
	}
	players := v.Seats
	if v.Ghosts {
		players = 4
	}
	switch legal[0].(Action).Kind {
	case KindPick:
		return choosePick(v, legal, players)
	case KindPlay:
		return choosePlay(v, legal, players)
	}
	return legal[r.IntN(len(legal))]
}

func choosePick(v *View, legal []engine.Action, players int) engine.Action {
	t := v.Cards
	base := teamValue(t, v.Kept, v.Rounds, players)
	bestCard, bestGain := Card(0), -1e9
	for _, c := range v.Hand {
		gain := teamValue(t, append(append([]Card(nil), v.Kept...), c), v.Rounds, players) - base
		if gain > bestGain {
			bestCard, bestGain = c, gain
		}
	}
	if !v.Ghosts {
		return pick(bestCard, 0)
	}
	// The ghost gets the card the other player would like least: the one
	// with the lowest value on its own.
	ghost, low := Card(0), 1e9
	for _, c := range v.Hand {
		if c == bestCard {
			continue
		}
		if val := teamValue(t, []Card{c}, v.Rounds, players); val < low {
			ghost, low = c, val
		}
	}
	return pick(bestCard, ghost)
}

func choosePlay(v *View, legal []engine.Action, players int) engine.Action {
	t := v.Cards
	me := v.Seat
	after := players - len(v.Table) - 1 // cards still to come this round
	played := []Card{}
	if me >= 0 && int(me) < len(v.Played) {
		played = v.Played[me]
	}
	avoidWins := v.Wins != nil && v.Wins[me] == 0 && (holdsEnlightened(v.Hand) || containsCard(played, 14))
	bestI, best := 0, -1e9
	for i, a := range legal {
		c := a.(Action).Card
		plays := append(append([]Play(nil), v.Table...), Play{Seat: me, Ghost: -1, Card: c})
		my := len(plays) - 1
		high := true
		for _, p := range v.Table {
			if p.Card > c {
				high = false
			}
		}
		// Gains if nobody after us tops the card, and if someone does.
		lose := roundGains(t, append(plays, Play{Seat: -1, Ghost: -1}), len(plays))[my]
		val := worth(lose)
		if high {
			win := worth(roundGains(t, plays, my)[my])
			p := 1.0
			for k := 0; k < after; k++ {
				p *= float64(c) / NumCards
			}
			if avoidWins {
				win -= 4
			}
			val = p*win + (1-p)*val
		}
		// Keep high cards for later rounds unless this one is worth it.
		val -= 0.8 * float64(c) / NumCards
		if val > best {
			bestI, best = i, val
		}
	}
	return legal[bestI]
}

func holdsEnlightened(hand []Card) bool { return containsCard(hand, 14) }
