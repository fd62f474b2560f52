package courtiers

import (
	"math"
	"slices"
	"sync"

	"github.com/stolik-bot/stolik/engine"
)

// Heuristic is the AI player: it plans the rest of its turn (each card of
// its hand into each open area, an assassin's best elimination included),
// and scores every plan by the points it expects at the end from what its
// view shows: each family's chance to end esteemed or disgraced given the
// visible weights and the cards still to come, its domain under those odds,
// the chances of its two missions, minus the best opponent's domain.
type Heuristic struct{}

const maxSeats = 5

// model is the heuristic's picture of the game, built from a view only.
type model struct {
	n, me  int
	margin [NumFamilies]int // weight above minus weight below the mat, face-up cards
	below  [NumFamilies]int // physical cards below the mat
	dw     [maxSeats][NumFamilies]int
	dc     [maxSeats][NumFamilies]int
	roles  [maxSeats][NumRoles]int // physical cards per role (face-down spies counted)
	odds   *odds                   // each margin's chances, by how much it may still move
}

// oddsLimit bounds the margins whose chances are worked out ahead.
const oddsLimit = 40

// odds holds a family's chances to end esteemed and disgraced for each
// margin within ±oddsLimit, at one spread (temp).
type odds struct {
	temp                float64
	esteemed, disgraced [2*oddsLimit + 1]float64
}

// oddsTables keeps the odds of every spread met so far: a spread follows
// from a few counts (cards left, spies in the Queen's column), so a
// process meets few of them, and a decision looks its table up instead of
// working it out.
var oddsTables sync.Map // float64 → *odds

// oddsAt is the table of the spread temp.
func oddsAt(temp float64) *odds {
	if o, ok := oddsTables.Load(temp); ok {
		return o.(*odds)
	}
	o := &odds{temp: temp}
	for i := range o.esteemed {
		o.esteemed[i], o.disgraced[i] = o.work(i - oddsLimit)
	}
	got, _ := oddsTables.LoadOrStore(temp, o)
	return got.(*odds)
}

// chances is a family's chance to end esteemed and disgraced at margin x.
func (m *model) chances(x int) (float64, float64) {
	if x < -oddsLimit || x > oddsLimit {
		return m.odds.work(x)
	}
	return m.odds.esteemed[x+oddsLimit], m.odds.disgraced[x+oddsLimit]
}

func (o *odds) work(x int) (float64, float64) {
	f := float64(x)
	return sigmoid((f - 0.5) / o.temp * 1.7), sigmoid((-f - 0.5) / o.temp * 1.7)
}

func newModel(v *View) model {
	m := model{n: v.Seats, me: int(v.Seat)}
	for f, col := range v.Table {
		m.margin[f] = col.UpWeight - col.DownWeight
		m.below[f] = len(col.Down)
	}
	for s, d := range v.Domains {
		for _, c := range d.Cards {
			m.addDomain(s, c, 1)
		}
		m.roles[s][Spy] += d.Hidden
	}
	left := v.Deck
	for _, h := range v.HandSizes {
		left += h
	}
	// About one card in three still to come goes to the Queen's table,
	// spread over six families; spies there stay unknown.
	m.odds = oddsAt(0.8 + 0.9*math.Sqrt(float64(left)/3/float64(NumFamilies)+float64(v.QueenUp+v.QueenDown)/2))
	return m
}

func (m *model) addDomain(s int, c Card, k int) {
	m.dw[s][c.Family()] += k * c.Weight()
	m.dc[s][c.Family()] += k
	m.roles[s][c.Role()] += k
}

// apply places a (and makes its elimination) in the model.
func (m *model) apply(a Action) {
	d := m.me
	if a.Area == AreaOpp {
		d = int(a.Opp)
	}
	if a.Kill {
		m.eliminate(a.Target, a.Side, d)
	}
	m.place(a, 1)
}

// eliminate takes target out: from the Queen's table's side, or from
// domain d (NoCard: a face-down card, of unknown family; one at the
// Queen's table changes no family's margin).
func (m *model) eliminate(target Card, side Side, d int) {
	switch {
	case side != SideNone && target != NoCard:
		f := target.Family()
		if side == SideUp {
			m.margin[f] -= target.Weight()
		} else {
			m.margin[f] += target.Weight()
			m.below[f]--
		}
	case side == SideNone && target != NoCard:
		m.addDomain(d, target, -1)
	case side == SideNone:
		m.roles[d][Spy]--
	}
}

// place puts a's card where a says (k = 1), or takes it back (k = −1).
func (m *model) place(a Action, k int) {
	switch a.Area {
	case AreaUp:
		m.margin[a.Card.Family()] += k * a.Card.Weight()
	case AreaDown:
		m.margin[a.Card.Family()] -= k * a.Card.Weight()
		m.below[a.Card.Family()] += k
	case AreaOwn:
		m.addDomain(m.me, a.Card, k)
	default:
		m.addDomain(int(a.Opp), a.Card, k)
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// fewerOdds is the chance of a "fewer than the player on your left"
// mission for each difference in cards within ±oddsLimit.
var fewerOdds = func() (t [2*oddsLimit + 1]float64) {
	for i := range t {
		t[i] = sigmoid((float64(i-oddsLimit) - 0.5) * 1.5)
	}
	return t
}()

// chance estimates how likely a mission is to be fulfilled.
func (m *model) chance(ms Mission, pe, pd *[NumFamilies]float64) float64 {
	d := missionTable[ms]
	switch d.kind {
	case fewerThanLeft:
		// A sigmoid of the progress, the difference in cards less a half;
		// worked out ahead for most differences.
		x := m.missionProgress(ms, pe, pd)
		if i := int(x+0.5) + oddsLimit; i >= 0 && i < len(fewerOdds) {
			return fewerOdds[i]
		}
		return sigmoid(x * 1.5)
	case atLeastRole:
		have := m.roles[m.me][d.role]
		if have >= d.n {
			return 1
		}
		return 0.5 * float64(have) / float64(d.n)
	case familyDisgraced:
		return pd[d.family]
	case everyFamilyBelow:
		p := 1.0
		for _, b := range m.below {
			if b < d.n {
				p *= 0.6
			}
		}
		return p
	case oneFamilyBelow:
		most := 0
		for _, b := range m.below {
			most = max(most, b)
		}
		return math.Min(1, float64(most)/float64(d.n)) * 0.8
	case atMostEsteemed, atLeastDisgraced:
		return sigmoid(m.missionProgress(ms, pe, pd) * 1.5)
	}
	return 0
}

// Choose picks an action from the seat's view and legal actions only.
func (Heuristic) Choose(ev engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	v, ok := ev.(*View)
	if !ok || len(legal) == 0 || v.Seat < 0 || v.Seats > maxSeats {
		return engine.Random{}.Choose(ev, legal, r)
	}
	return chooseEach(v, legal, [][2]Mission{v.Missions})[0]
}

func restOfHand(hand []Card, played Card) []Card {
	out := make([]Card, 0, len(hand))
	skipped := false
	for _, c := range hand {
		if c == played && !skipped {
			skipped = true
			continue
		}
		out = append(out, c)
	}
	return out
}

// chooseEach is the heuristic's choice for each pair of missions the
// view's seat might hold (Choose asks for the seat's own pair alone): for
// every legal action, the best plan for the rest of the turn, each plan
// valued as the points the seat may expect at the end, ahead of the
// others; the first action with the highest value. The plans are made
// once, and only the missions' terms are worked out for each pair, so
// reading 81 pairs (readPlay) costs a few choices, not 81.
func chooseEach(v *View, legal []engine.Action, hyps [][2]Mission) []engine.Action {
	out := make([]engine.Action, len(hyps))
	if len(legal) == 0 || v.Seat < 0 || v.Seats > maxSeats {
		return out
	}
	base := newModel(v)
	best := make([]float64, len(hyps))
	vals := make([]float64, len(hyps))
	for i := range best {
		best[i] = math.Inf(-1)
		out[i] = legal[0]
	}
	ev := &evalEach{hyps: hyps}
	for _, h := range hyps {
		for _, ms := range h {
			if ms != NoMission && !slices.Contains(ev.need, ms) {
				ev.need = append(ev.need, ms)
			}
		}
	}
	for _, ea := range legal {
		a := ea.(Action)
		m := base
		m.apply(a)
		rest := restOfHand(v.Hand, a.Card)
		open := [3]bool{v.QueenOpen && a.Area.slot() != slotQueen, v.OwnOpen && a.Area.slot() != slotOwn, v.OppOpen && a.Area.slot() != slotOpp}
		for i := range vals {
			vals[i] = math.Inf(-1)
		}
		ev.complete(&m, rest, open, vals)
		for i, x := range vals {
			if x > best[i] {
				best[i], out[i] = x, ea
			}
		}
	}
	return out
}

// evalEach values plans under every pair of missions at once.
type evalEach struct {
	hyps [][2]Mission
	need []Mission // the missions the pairs hold
	ch   [NumMissions + 1]float64
}

// complete raises vals to the best value under each pair reachable by
// placing the remaining cards into the open slots (Queen's table, own
// domain, an opponent's), without eliminations. Each placement is made in
// m, weighed, and taken back: no copies.
func (e *evalEach) complete(m *model, rest []Card, open [3]bool, vals []float64) {
	if len(rest) == 0 {
		e.leaf(m, vals)
		return
	}
	c := rest[0]
	placed := false
	try := func(a Action, slot int) {
		o := open
		o[slot] = false
		m.place(a, 1)
		e.complete(m, rest[1:], o, vals)
		m.place(a, -1)
		placed = true
	}
	if open[0] {
		try(Action{Card: c, Area: AreaUp}, 0)
		try(Action{Card: c, Area: AreaDown}, 0)
	}
	if open[1] {
		try(Action{Card: c, Area: AreaOwn}, 1)
	}
	if open[2] {
		for k := 1; k < m.n; k++ {
			try(Action{Card: c, Area: AreaOpp, Opp: engine.Seat((m.me + k) % m.n)}, 2)
		}
	}
	if !placed {
		e.leaf(m, vals)
	}
}

// leaf raises vals to the plan's value under each pair: the seat's
// expected domain and missions, less 0.6 of the best other domain and 0.4
// of the others' average.
func (e *evalEach) leaf(m *model, vals []float64) {
	var pe, pd, net [NumFamilies]float64
	for f := range m.margin {
		pe[f], pd[f] = m.chances(m.margin[f])
		net[f] = pe[f] - pd[f]
	}
	domain := func(s int) float64 {
		v := 0.0
		for f, w := range &m.dw[s] {
			v += float64(w) * net[f]
		}
		return v
	}
	mine := domain(m.me)
	best := math.Inf(-1)
	sum := 0.0
	for s := 0; s < m.n; s++ {
		if s != m.me {
			o := domain(s)
			best = max(best, o)
			sum += o
		}
	}
	wb, ws := 0.6*best, 0.4*sum/float64(m.n-1)
	for _, ms := range e.need {
		e.ch[ms] = MissionPoints * m.chance(ms, &pe, &pd)
	}
	for i, h := range e.hyps {
		v := mine
		for _, ms := range h {
			if ms != NoMission {
				v += e.ch[ms]
			}
		}
		vals[i] = max(vals[i], v-wb-ws)
	}
}
