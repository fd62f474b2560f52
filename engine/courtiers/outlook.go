package courtiers

import (
	"math"

	"github.com/stolik-bot/stolik/engine"
)

// expectedTotals is each seat's expected total at the end, read from the
// whole state (a search's sample knows every card): each family's chance
// to end esteemed or disgraced from its margin (the spies of the Queen's
// column counted in their families, where the end moves them) and the
// cards still to come, the domains under those odds, each mission's
// chance as the heuristic weighs it, and the turns each seat still plays
// (a turn puts a card of its choice into its domain and one of its choice
// into another's). It also returns the cards left.
func (st *State) expectedTotals() ([]float64, int) {
	m := model{n: st.n}
	for f := range NumFamilies {
		m.margin[f] = weight(st.table[0][f]) - weight(st.table[1][f])
		m.below[f] = len(st.table[1][f])
	}
	for i, q := range st.queen {
		for _, c := range q {
			if i == 0 {
				m.margin[c.Family()] += c.Weight()
			} else {
				m.margin[c.Family()] -= c.Weight()
				m.below[c.Family()]++
			}
		}
	}
	for s, d := range st.domains {
		for _, c := range d {
			m.addDomain(s, c, 1)
		}
	}
	left := len(st.deck)
	for _, h := range st.hands {
		left += len(h)
	}
	m.odds = oddsAt(outlookTempBase + outlookTempScale*math.Sqrt(float64(left)/3/float64(NumFamilies)))
	var pe, pd [NumFamilies]float64
	for f := range m.margin {
		pe[f], pd[f] = m.chances(m.margin[f])
	}
	out := make([]float64, st.n)
	turns := st.turnsLeft()
	for s := range out {
		v := outlookTurn * turns[s]
		for f := range m.dw[s] {
			v += float64(m.dw[s][f]) * (pe[f] - pd[f])
		}
		m.me = s
		for _, ms := range st.missions[s] {
			v += MissionPoints * m.chance(ms, &pe, &pd)
		}
		out[s] = v
	}
	return out, left
}

// turnsLeft is each seat's turns still to play, the one under way counted
// by the part left (a placement a third of a turn).
func (st *State) turnsLeft() []float64 {
	out := make([]float64, st.n)
	held := make([]int, st.n)
	for s, h := range st.hands {
		held[s] = len(h)
	}
	deck := len(st.deck)
	s := int(st.turn)
	for range 4 * 90 {
		if held[s] == 0 {
			break
		}
		out[s] += float64(held[s]) / HandSize
		held[s] = min(HandSize, deck)
		deck -= held[s]
		s = (s + 1) % st.n
	}
	return out
}

// The forecast's constants, fitted to the winners of 300 heuristic games
// at 2 and at 4 seats (the Brier score of the chances to win at every
// other placement; docs/benchmarks-history.md): a turn still to play is
// worth 4 points; a family's margin may move by 0.4 + 1.0·√(cards left /
// 18) (the heuristic's own spread, without the unknown spies, which a
// search's sample knows); a seat's total by 1 + 0.9·√(cards left).
const (
	outlookTurn      = 4.0
	outlookTempBase  = 0.4
	outlookTempScale = 1.0
	outlookSpreadA   = 1.0
	outlookSpreadB   = 0.9
)

// Forecast is each seat's chance to win and to end ahead of each other
// seat (engine.Forecaster): the totals expected at the end, each spread
// as a normal law whose width shrinks as the cards run out; a seat ends
// ahead of another by the chance that the difference of the two is
// positive, and wins by the product of its chances to end ahead of each
// other seat, the products scaled to sum to one. It reads the whole
// state: the search asks it of its samples only, which hold nothing but
// what the seat knows and what it drew for the rest. A finished game's
// forecast is its result, certain.
func (st *State) Forecast() engine.Forecast {
	n := st.n
	if st.phase == phaseOver {
		f := engine.Forecast{Win: make([]float64, n), Ahead: make([][]float64, n)}
		for _, w := range st.winners {
			f.Win[w] = 1 / float64(len(st.winners))
		}
		for s := range n {
			f.Ahead[s] = make([]float64, n)
			for o := range n {
				switch d := st.totals[s] - st.totals[o]; {
				case d > 0:
					f.Ahead[s][o] = 1
				case d == 0 && o != s:
					f.Ahead[s][o] = 0.5
				}
			}
		}
		return f
	}
	mu, left := st.expectedTotals()
	sigma := outlookSpreadA + outlookSpreadB*math.Sqrt(float64(left))
	f := engine.Forecast{Win: make([]float64, n), Ahead: make([][]float64, n)}
	sum := 0.0
	for s := range n {
		f.Ahead[s] = make([]float64, n)
		w := 1.0
		for o := range n {
			if o != s {
				p := 0.5 * math.Erfc(-(mu[s]-mu[o])/(2*sigma))
				f.Ahead[s][o] = p
				w *= p
			}
		}
		f.Win[s] = w
		sum += w
	}
	for s := range f.Win {
		f.Win[s] /= sum
	}
	return f
}
