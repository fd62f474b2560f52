package courtiers

import (
	"math"

	"github.com/stolik-bot/stolik/engine"
)

// outlookModel is the heuristic's model of the whole state (a search's
// sample knows every card, the spies of the Queen's column included, which
// are counted in their families, where the end moves them), each
// family's chances to end esteemed and disgraced from its margin and the
// cards still to come, and how many cards are left.
func (st *State) outlookModel() (model, [NumFamilies]float64, [NumFamilies]float64, int) {
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
	return m, pe, pd, left
}

// expectedTotals is each seat's expected total at the end: its domain
// under the families' odds, its missions' chances (missionOdds) and 12/n
// points for each turn it still plays at n seats (a turn puts a card of
// its choice into its domain and one into another's). It also returns the
// cards left.
func (st *State) expectedTotals() ([]float64, int) {
	m, pe, pd, left := st.outlookModel()
	out := make([]float64, st.n)
	turns := st.turnsLeft()
	for s := range out {
		v := outlookTurn / float64(st.n) * turns[s]
		for f := range m.dw[s] {
			v += float64(m.dw[s][f]) * (pe[f] - pd[f])
		}
		m.me = s
		for _, ms := range st.missions[s] {
			v += MissionPoints * m.missionOdds(ms, &pe, &pd, turns[s])
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

// The forecast's constants, fitted to the winners of heuristic games at 2
// and at 4 seats (the Brier score of the chances to win;
// docs/benchmarks-history.md): a turn still to play is worth 12/n points
// at n seats; a family's margin may move by 0.4 + 1.0·√(cards left / 18)
// (the heuristic's own spread, without the unknown spies, which a
// search's sample knows); a seat's total by 1 + 0.9·√(cards left).
const (
	outlookTurn      = 12.0
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

// missionProgress is how far seat m.me is toward mission ms, in the
// mission's own terms: above zero, fulfilled as things stand.
func (m *model) missionProgress(ms Mission, pe, pd *[NumFamilies]float64) float64 {
	d := missionTable[ms]
	switch d.kind {
	case fewerThanLeft:
		left := (m.me + 1) % m.n
		return float64(m.dc[left][d.family]-m.dc[m.me][d.family]) - 0.5
	case atLeastRole:
		return float64(m.roles[m.me][d.role]-d.n) + 0.5
	case familyDisgraced:
		return pd[d.family] - pe[d.family]
	case everyFamilyBelow:
		missing := 0
		for _, b := range m.below {
			missing += max(0, d.n-b)
		}
		return 0.5 - float64(missing)
	case oneFamilyBelow:
		most := 0
		for _, b := range m.below {
			most = max(most, b)
		}
		return float64(most-d.n) + 0.5
	case atMostEsteemed:
		sum := 0.0
		for _, p := range pe {
			sum += p
		}
		return float64(d.n) + 0.5 - sum
	case atLeastDisgraced:
		sum := 0.0
		for _, p := range pd {
			sum += p
		}
		return sum - float64(d.n) + 0.5
	}
	return 0
}

// missionFit is, per kind of mission, the logistic law of its holder's
// chance to fulfil it from its progress and the turns it has left: w0 +
// w1·progress + w2·turns, fitted to the missions of heuristic players
// (600 games at each of 2–5 seats, a third of the placements; Brier
// score 0.090 against the heuristic's own guess's 0.167 for "fewer than
// your left-hand neighbour", 0.123 against 0.314 for "at least n of a
// role", 0.160 against 0.181 for "a family disgraced", 0.062 against
// 0.071 and 0.048 against 0.059 for the counts of esteemed and disgraced
// families). The two missions about cards below the mat fitted no better
// than the heuristic's guess, which they keep.
var missionFit = [8][3]float64{
	fewerThanLeft:    {0.739, 1.238, 0.224},
	atLeastRole:      {0.640, 1.597, 0.660},
	familyDisgraced:  {-0.211, 2.458, 0.139},
	atMostEsteemed:   {0.843, 1.539, 0.010},
	atLeastDisgraced: {1.025, 1.512, 0.027},
}

// missionOdds is the chance that seat m.me fulfils mission ms by the end.
func (m *model) missionOdds(ms Mission, pe, pd *[NumFamilies]float64, turns float64) float64 {
	k := missionTable[ms].kind
	if k == everyFamilyBelow || k == oneFamilyBelow {
		return m.chance(ms, pe, pd)
	}
	w := missionFit[k]
	return sigmoid(w[0] + w[1]*m.missionProgress(ms, pe, pd) + w[2]*turns)
}
