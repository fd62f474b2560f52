package courtiers

import (
	"math"
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// What the play shows of the secret missions. Every placement is public
// (a spy's family excepted), and a player who holds a mission places its
// cards towards it: a seat that watched the game knows more of the others'
// missions than a uniform deal of the unseen ones. Beliefs samples the
// other seats' missions by how likely the heuristic holding them would have
// made the placements everyone saw, and deals the rest as ShuffleHidden
// does.

// sighting is one placement as everyone saw it, with how much of the game
// was still to come.
type sighting struct {
	seat   int
	step   int // 0, 1, 2: the placement's place in its turn
	placed Placement
	temp   float64 // the heuristic's spread of a family's margin just before it
}

// beliefSharpness is how surely a player is taken to play the turn its
// missions favour most: the chances of two ways of playing a turn differ
// by a factor e for each third of a point between their values.
const beliefSharpness = 3.0

// sight records seat s's placement pl before it is made, unless st is a
// sample of a search (its own placements tell nothing).
func (st *State) sight(s engine.Seat, pl Placement) {
	if st.unseen || st.n > maxSeats {
		return
	}
	left := len(st.deck)
	for _, h := range st.hands {
		left += len(h)
	}
	st.seen = append(st.seen[:len(st.seen):len(st.seen)], &sighting{
		seat: int(s), step: len(st.moves), placed: pl,
		temp: spread(left, len(st.queen[0])+len(st.queen[1])),
	})
}

// applyPublic makes placement a as everyone saw it (a face-down spy of
// unknown family) in m.
func (m *model) applyPublic(a Placement, d int) {
	if a.Kill {
		m.eliminate(a.Target, a.Side, d)
	}
	if a.Card == NoCard {
		if a.Area == AreaOwn || a.Area == AreaOpp {
			m.roles[d][Spy]++
		}
		return
	}
	if a.Area == AreaOwn || a.Area == AreaOpp {
		m.addDomain(d, a.Card, 1)
		return
	}
	m.place(Action{Card: a.Card, Area: a.Area}, 1)
}

// weighing is what one turn says of its seat's missions: for the turn's
// placements as made and each other way of placing the same cards, the
// picture's value after them without missions, and each mission's chance.
type weighing struct {
	base   []float64
	chance [][NumMissions + 1]float64
}

// weighTurn works out the weighing of one seat's turn, seen as turn (its
// placements in order), from the picture before it (before). The
// heuristic chooses the whole turn's plan by its value after it, so the
// other plans are the turn's cards in every order into the three areas,
// every opponent's domain for the third, without eliminations.
func weighTurn(before model, turn []*sighting) weighing {
	var w weighing
	me, n := before.me, before.n
	add := func(plan []Placement) {
		m := before
		m.odds = &odds{}
		for _, a := range plan {
			m.applyPublic(a, domainOf(me, a))
		}
		var pe, pd [NumFamilies]float64
		for f := range m.margin {
			pe[f], pd[f] = m.chances(m.margin[f])
		}
		w.base = append(w.base, m.value())
		var ch [NumMissions + 1]float64
		for ms := Mission(1); ms <= NumMissions; ms++ {
			ch[ms] = m.chance(ms, &pe, &pd)
		}
		w.chance = append(w.chance, ch)
	}
	made := make([]Placement, len(turn))
	for k, sg := range turn {
		made[k] = sg.placed
	}
	add(made)
	if len(turn) != HandSize {
		return w // a last turn cut short by the end: the made plan alone says nothing
	}
	cards := []Card{made[0].Card, made[1].Card, made[2].Card}
	same := func(plan []Placement) bool {
		for _, x := range made {
			found := false
			for _, y := range plan {
				if x.Card == y.Card && x.Area == y.Area && (x.Area != AreaOpp || x.Opp == y.Opp) {
					found = true
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	for _, perm := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		for _, side := range []Area{AreaUp, AreaDown} {
			for k := 1; k < n; k++ {
				plan := []Placement{
					{Card: cards[perm[0]], Area: side},
					{Card: cards[perm[1]], Area: AreaOwn},
					{Card: cards[perm[2]], Area: AreaOpp, Opp: engine.Seat((me + k) % n)},
				}
				if !same(plan) {
					add(plan)
				}
			}
		}
	}
	return w
}

func domainOf(me int, a Placement) int {
	if a.Area == AreaOpp {
		return int(a.Opp)
	}
	return me
}

// missionOdds is, for each pair of a white and a blue mission, the log of
// how likely seat o's placements seen so far were had it held them.
func (st *State) missionOdds(o int) map[[2]Mission]float64 {
	// The public picture, built up placement by placement from the empty
	// table: what newModel makes of the public view at each moment.
	board := model{n: st.n, odds: &odds{}}
	var ws []weighing
	for i := 0; i < len(st.seen); {
		// One turn: consecutive sightings of one seat, steps 0, 1, 2.
		j := i + 1
		for j < len(st.seen) && st.seen[j].seat == st.seen[i].seat && st.seen[j].step > st.seen[j-1].step {
			j++
		}
		turn := st.seen[i:j]
		if turn[0].seat == o && turn[0].step == 0 && (j < len(st.seen) || st.turn != engine.Seat(o)) {
			before := board
			before.me, before.temp = o, turn[0].temp
			ws = append(ws, weighTurn(before, turn))
		}
		for _, sg := range turn {
			board.applyPublic(sg.placed, domainOf(sg.seat, sg.placed))
		}
		i = j
	}
	out := map[[2]Mission]float64{}
	for w := Mission(1); w <= NumMissions; w++ {
		if !w.White() {
			continue
		}
		for b := Mission(1); b <= NumMissions; b++ {
			if b.White() {
				continue
			}
			l := 0.0
			for _, x := range ws {
				best := math.Inf(-1)
				vals := make([]float64, len(x.base))
				for a := range x.base {
					vals[a] = beliefSharpness * (x.base[a] + MissionPoints*(x.chance[a][w]+x.chance[a][b]))
					best = max(best, vals[a])
				}
				sum := 0.0
				for _, v := range vals {
					sum += math.Exp(v - best)
				}
				l += vals[0] - best - math.Log(sum)
			}
			out[[2]Mission{w, b}] = l
		}
	}
	return out
}

// Beliefs returns a sampler of the states seat s cannot tell from st, as
// ShuffleHidden deals them but for the other seats' missions, drawn by
// what their placements showed (engine.Believer). The odds are worked out
// once, from public sightings alone.
func (st *State) Beliefs(s engine.Seat) func(r *engine.Rand) engine.State {
	if st.phase == phaseOver || int(s) < 0 || int(s) >= st.n {
		return func(r *engine.Rand) engine.State { return st.ShuffleHidden(s, r) }
	}
	odds := make([]map[[2]Mission]float64, st.n)
	for o := 0; o < st.n; o++ {
		if o != int(s) {
			odds[o] = st.missionOdds(o)
		}
	}
	return func(r *engine.Rand) engine.State {
		c := st.ShuffleHidden(s, r).(*State)
		taken := map[Mission]bool{c.missions[s][0]: true, c.missions[s][1]: true}
		for o := 0; o < c.n; o++ {
			if o == int(s) {
				continue
			}
			pairs := make([][2]Mission, 0, len(odds[o]))
			for p := range odds[o] {
				if !taken[p[0]] && !taken[p[1]] {
					pairs = append(pairs, p)
				}
			}
			slices.SortFunc(pairs, func(a, b [2]Mission) int {
				if a[0] != b[0] {
					return int(a[0]) - int(b[0])
				}
				return int(a[1]) - int(b[1])
			})
			best := math.Inf(-1)
			for _, p := range pairs {
				best = max(best, odds[o][p])
			}
			weights := make([]float64, len(pairs))
			sum := 0.0
			for i, p := range pairs {
				weights[i] = math.Exp(odds[o][p] - best)
				sum += weights[i]
			}
			x := float64(r.Uint64()>>11) / (1 << 53) * sum
			pick := len(pairs) - 1
			for i, w := range weights {
				if x < w {
					pick = i
					break
				}
				x -= w
			}
			c.missions[o] = pairs[pick]
			taken[pairs[pick][0]], taken[pairs[pick][1]] = true, true
		}
		c.unused = c.unused[:0]
		for _, w := range Missions(true) {
			if !taken[w] {
				c.unused = append(c.unused, w)
			}
		}
		for _, b := range Missions(false) {
			if !taken[b] {
				c.unused = append(c.unused, b)
			}
		}
		return c
	}
}
