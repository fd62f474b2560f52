package courtiers

import (
	"math"
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// spyPlan is where the face-down spies of a game lie, each named by the
// sighting that placed it: for each place (0 and 1 the Queen's column
// above and below, 2+d domain d) the spies there in the order the state
// keeps them, and the ghosts in the order they were eliminated.
type spyPlan struct {
	rec    []sighting
	places [][]int
	ghosts []int
}

// planSpies replays the record's face-down spies as any seat may picture
// them: every placement of a spy and every elimination of a face-down one
// is public, but not which of the spies of one place an assassin took (the
// engine picks one at random: nobody can tell them apart), so those picks
// are drawn with r. ok is false when the record does not account for the
// state's face-down spies (a state not reached by play).
func (st *State) planSpies(r *engine.Rand) (spyPlan, bool) {
	p := spyPlan{rec: st.record(), places: make([][]int, 2+st.n)}
	for i, sg := range p.rec {
		if sg.Kill && sg.Target == NoCard {
			at := placeOf(sg.Seat, sg.Area, sg.Opp, sg.Side)
			if at >= len(p.places) || len(p.places[at]) == 0 {
				return p, false
			}
			k := 0
			if len(p.places[at]) > 1 {
				k = r.IntN(len(p.places[at]))
			}
			p.ghosts = append(p.ghosts, p.places[at][k])
			p.places[at] = append(p.places[at][:k:k], p.places[at][k+1:]...)
		}
		if sg.Card == NoCard {
			if at := placeOf(sg.Seat, sg.Area, sg.Opp, SideNone); at < len(p.places) {
				p.places[at] = append(p.places[at], i)
			}
		}
	}
	if len(p.ghosts) != len(st.ghosts) {
		return p, false
	}
	for i := range st.queen {
		if len(p.places[i]) != len(st.queen[i]) {
			return p, false
		}
	}
	for d, dom := range st.domains {
		if len(p.places[2+d]) != countIf(dom, func(c Card) bool { return c.Role() == Spy }) {
			return p, false
		}
	}
	return p, true
}

// placeOf numbers the place of face-down spies a placement by seat s in
// area (opp's domain for AreaOpp) puts its card in, or, given the side of
// an elimination at the Queen's table, takes it from: 0 and 1 the Queen's
// column above and below, 2+d domain d.
func placeOf(s engine.Seat, area Area, opp engine.Seat, side Side) int {
	switch {
	case side == SideUp || side == SideNone && area == AreaUp:
		return 0
	case side == SideDown || side == SideNone && area == AreaDown:
		return 1
	case area == AreaOpp:
		return 2 + int(opp)
	}
	return 2 + int(s)
}

// renamed is a copy of the record in which each face-down spy is the card
// now in its slot (by[k] placed the spy of slots[k]): its last sighting and
// its last spy's.
func (p spyPlan) renamed(by []int, slots []*Card) (*sighting, *sighting) {
	if len(p.rec) == 0 {
		return nil, nil
	}
	recs := make([]sighting, len(p.rec))
	copy(recs, p.rec)
	for k, i := range by {
		recs[i].spy = *slots[k]
	}
	var spy *sighting
	for i := range recs {
		recs[i].prev, recs[i].prevSpy = nil, nil
		if i > 0 {
			recs[i].prev = &recs[i-1]
		}
		if recs[i].Card == NoCard {
			recs[i].prevSpy, spy = spy, &recs[i]
		}
	}
	return &recs[len(recs)-1], spy
}

// rememberSpies puts back in their slots (the ghosts, the Queen's column
// above and below, each domain's spies, in the state's order) the spies s
// placed, where a plan drawn with r puts them, marks them known and takes
// them out of the pool of cards s does not know. It returns the plan and
// the sighting behind each slot, or no sightings when the record does not
// account for the spies (s then remembers none).
func (st *State) rememberSpies(s engine.Seat, r *engine.Rand, slots []*Card, known []bool, pool *[]Card) (spyPlan, []int) {
	plan, ok := st.planSpies(r)
	if !ok {
		return plan, nil
	}
	by := slices.Clone(plan.ghosts)
	for _, p := range plan.places {
		by = append(by, p...)
	}
	if len(by) != len(slots) {
		return plan, nil
	}
	rest := slices.Clone(*pool)
	var mine []int // the slots of s's spies
	for k, i := range by {
		if sg := plan.rec[i]; sg.Seat == s && sg.spy != NoCard {
			if rest, ok = engine.RemoveOne(rest, sg.spy); !ok {
				return plan, nil
			}
			mine = append(mine, k)
		}
	}
	for _, k := range mine {
		*slots[k], known[k] = plan.rec[by[k]].spy, true
	}
	*pool = rest
	return plan, by
}

// remembered lists the face-down spies s placed, first first, with their
// families (nil if none).
func (st *State) remembered(s engine.Seat) []Placement {
	var out []Placement
	for x := st.spies; x != nil; x = x.prevSpy {
		if x.Seat == s {
			pl := x.Placement
			pl.Card = x.spy
			out = append(out, pl)
		}
	}
	slices.Reverse(out)
	return out
}

// drawSpy picks an unused spy of the pool, each weighing its family's odds
// (log-likelihoods): a family with more spies left is likelier by as
// many. It returns -1 if the pool has none left.
func drawSpy(pool []Card, used []bool, odds *[NumFamilies]float64, r *engine.Rand) int {
	top := math.Inf(-1)
	for _, x := range odds {
		top = max(top, x)
	}
	var w [NumFamilies]float64
	for f, x := range odds {
		w[f] = math.Exp(x - top)
	}
	total := 0.0
	for i, x := range pool {
		if !used[i] && x.Role() == Spy {
			total += w[x.Family()]
		}
	}
	if total == 0 {
		return -1
	}
	u := float64(r.Uint64()>>11) / (1 << 53) * total
	pick := -1
	for i, x := range pool {
		if !used[i] && x.Role() == Spy && w[x.Family()] > 0 {
			pick = i
			if u -= w[x.Family()]; u < 0 {
				break
			}
		}
	}
	return pick
}
