package courtiers

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// Column is one family's column at the Queen's table: the face-up cards
// above and below the mat (sorted), and their weights (a noble counts 2).
type Column struct {
	Up, Down             []Card
	UpWeight, DownWeight int
}

// Domain is a seat's domain as everyone sees it: the face-up cards (sorted)
// and the number of face-down spies. At the end the spies are face up.
type Domain struct {
	Cards  []Card
	Hidden int
}

// MissionResult is one mission at the end: revealed, fulfilled or not.
type MissionResult struct {
	Mission Mission
	Done    bool
}

// Final is the scoreboard of a finished game.
type Final struct {
	Status   [NumFamilies]Status
	Points   []int              // domain points per seat
	Missions [][2]MissionResult // white, blue per seat
	Totals   []int
	Winners  []engine.Seat
	// Places is the engine.Result's: every seat's place (no tie-break:
	// equal totals share a place).
	Places []int
}

// View is what one seat may know of a game of Courtisans.
type View struct {
	Seat  engine.Seat // Spectator for a public view
	Seats int
	Phase string // play, over
	First engine.Seat

	Turn   engine.Seat   // whose turn it is
	Acting []engine.Seat // the seat that must act (none once over)
	QueenOpen, OwnOpen,
	OppOpen bool // the areas still open this turn
	Moves    []Placement // this turn's placements so far
	Last     []Placement // the previous turn's placements
	LastSeat engine.Seat // who played them; -1 before the first turn

	Hand     []Card     // the viewer's own hand (sorted)
	Missions [2]Mission // the viewer's own white and blue missions
	// Remembered lists the face-down spies the viewer placed, first
	// first, as it saw them in its hand, and where (Card, Area, Opp).
	// Nobody may look at a placed spy, its placer included, so no screen
	// shows them; a player at the table remembers them, and so does an AI.
	Remembered []Placement
	HandSizes  []int
	Deck       int // cards left in the draw pile
	Removed    int // cards set aside unseen at setup

	Table     [NumFamilies]Column
	QueenUp   int // face-down spies above the Queen's throne
	QueenDown int // and below it
	Domains   []Domain
	Killed    []Card // eliminated face up (sorted)
	Ghosts    int    // spies eliminated face down, never revealed

	Final *Final // once the game is over
}

// ViewerSeat is the seat the view was built for.
func (v *View) ViewerSeat() engine.Seat { return v.Seat }

func sorted(cs []Card) []Card {
	out := slices.Clone(cs)
	slices.Sort(out)
	return out
}

// cardBuf hands out the card lists of one view from a single allocation:
// take copies cs into it, sorted, keeping nil and empty as they were (a
// list's capacity ends where it does, so that appending to it cannot reach
// the next).
type cardBuf []Card

func (b *cardBuf) take(cs []Card) []Card {
	if len(cs) == 0 {
		return cs[:0:0]
	}
	out := (*b)[:len(cs):len(cs)]
	*b = (*b)[len(cs):]
	copy(out, cs)
	slices.Sort(out)
	return out
}

// View lists what seat s may know.
func (st *State) View(s engine.Seat) engine.View {
	own := s >= 0 && int(s) < st.n
	over := st.phase == phaseOver
	size := len(st.killed)
	if own {
		size += len(st.hands[s])
	}
	for i := range st.table {
		for _, col := range st.table[i] {
			size += len(col)
		}
	}
	for _, d := range st.domains {
		size += len(d)
	}
	buf := cardBuf(make([]Card, size))
	v := &View{
		Seat: s, Seats: st.n, Phase: st.phase.String(), First: st.first,
		Turn: st.turn, Acting: st.Acting(),
		QueenOpen: st.used&slotQueen == 0, OwnOpen: st.used&slotOwn == 0, OppOpen: st.used&slotOpp == 0,
		Moves: slices.Clone(st.moves), Last: slices.Clone(st.last), LastSeat: st.prev,
		Deck: len(st.deck), Removed: len(st.removed),
		QueenUp: len(st.queen[0]), QueenDown: len(st.queen[1]),
		Killed: buf.take(st.killed), Ghosts: len(st.ghosts),
	}
	if own {
		v.Hand = buf.take(st.hands[s])
		v.Missions = st.missions[s]
		v.Remembered = st.remembered(s)
	}
	v.HandSizes = make([]int, st.n)
	for i, h := range st.hands {
		v.HandSizes[i] = len(h)
	}
	for f := range v.Table {
		v.Table[f] = Column{
			Up: buf.take(st.table[0][f]), Down: buf.take(st.table[1][f]),
			UpWeight: weight(st.table[0][f]), DownWeight: weight(st.table[1][f]),
		}
	}
	v.Domains = make([]Domain, st.n)
	for i, d := range st.domains {
		var dv Domain
		up := 0
		for _, c := range d {
			if c.Role() == Spy && !over {
				dv.Hidden++
			} else {
				up++
			}
		}
		if up > 0 {
			dv.Cards = buf[:0:up]
			buf = buf[up:]
			for _, c := range d {
				if c.Role() != Spy || over {
					dv.Cards = append(dv.Cards, c)
				}
			}
			slices.Sort(dv.Cards)
		}
		v.Domains[i] = dv
	}
	if over {
		f := &Final{
			Status: st.status, Points: slices.Clone(st.points), Totals: slices.Clone(st.totals),
			Winners: slices.Clone(st.winners), Missions: make([][2]MissionResult, st.n), Places: st.places(),
		}
		for i := range f.Missions {
			for k := range 2 {
				f.Missions[i][k] = MissionResult{Mission: st.missions[i][k], Done: st.done[i][k]}
			}
		}
		v.Final = f
	}
	return v
}

// Inventory counts every card in every zone: hands, deck, the cards set
// aside, the Queen's table (both columns), the domains and the eliminated;
// and every mission, dealt or in the box.
func (st *State) Inventory() map[string]int {
	inv := map[string]int{}
	add := func(cs []Card) {
		for _, c := range cs {
			inv[c.String()]++
		}
	}
	for s := 0; s < st.n; s++ {
		add(st.hands[s])
		add(st.domains[s])
		for _, m := range st.missions[s] {
			inv[m.String()]++
		}
	}
	add(st.deck)
	add(st.removed)
	for i := range st.table {
		for f := range st.table[i] {
			add(st.table[i][f])
		}
		add(st.queen[i])
	}
	add(st.killed)
	add(st.ghosts)
	for _, m := range st.unused {
		inv[m.String()]++
	}
	return inv
}

// ShuffleHidden re-deals everything seat s may not know: the other seats'
// hands, the deck, the cards set aside, the other seats' missions (with
// those in the box) while the game lasts, and the family of every
// face-down spy (at the Queen's table, in the domains, eliminated) but
// those s placed itself, which it saw in its hand: nobody may look at a
// placed spy, but its placer remembers it. Of the spies of one place an
// assassin took one nobody can tell from the others, so where s's own
// spies lie after that is drawn too. The copy's record names the spies as
// it re-deals them, so that it is a game that might have been played.
func (st *State) ShuffleHidden(s engine.Seat, r *engine.Rand) engine.State {
	return st.redeal(s, r, nil)
}

// redeal is ShuffleHidden, the family of each other seat's face-down spy
// drawn by spyOdds where it has them (each family's log-likelihood, by the
// index in the record of the sighting that placed the spy), else evenly.
func (st *State) redeal(s engine.Seat, r *engine.Rand, spyOdds map[int]*[NumFamilies]float64) *State {
	c := st.clone()
	over := c.phase == phaseOver
	var pool []Card
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) != s {
			pool = append(pool, c.hands[i]...)
		}
	}
	pool = append(pool, c.deck...)
	pool = append(pool, c.removed...)
	pool = append(pool, c.ghosts...)
	// The face-down spy slots: the ghosts, and while the game lasts the
	// Queen's column and the domains' spies.
	slots := []*Card{}
	for i := range c.ghosts {
		slots = append(slots, &c.ghosts[i])
	}
	var by []int // the sighting that placed each slot's spy, once planned
	var plan spyPlan
	if !over {
		for i := range c.queen {
			pool = append(pool, c.queen[i]...)
			for k := range c.queen[i] {
				slots = append(slots, &c.queen[i][k])
			}
		}
		for d := range c.domains {
			for k, x := range c.domains[d] {
				if x.Role() == Spy {
					pool = append(pool, x)
					slots = append(slots, &c.domains[d][k])
				}
			}
		}
	}
	known := make([]bool, len(slots))
	if !over {
		plan, by = st.rememberSpies(s, r, slots, known, &pool)
	}
	// Sorted first: the result depends on s's view and r alone.
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	// Fill the spy slots s does not remember with spies from the pool (the
	// first left, or one drawn by the odds of the slot's spy), then deal
	// the rest.
	used := make([]bool, len(pool))
	next := 0
	for k := range slots {
		if known[k] {
			continue
		}
		pick := -1
		if by != nil && spyOdds[by[k]] != nil {
			pick = drawSpy(pool, used, spyOdds[by[k]], r)
		}
		for pick < 0 && next < len(pool) {
			if !used[next] && pool[next].Role() == Spy {
				pick = next
			}
			next++
		}
		if pick < 0 {
			break // cannot happen: the slots' own cards are in the pool
		}
		*slots[k], used[pick] = pool[pick], true
	}
	var rest []Card
	for i, x := range pool {
		if !used[i] {
			rest = append(rest, x)
		}
	}
	if by != nil {
		c.seen, c.spies = plan.renamed(by, slots)
	}
	deal := func(dst []Card) {
		copy(dst, rest[:len(dst)])
		rest = rest[len(dst):]
	}
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) != s {
			deal(c.hands[i])
			slices.Sort(c.hands[i])
		}
	}
	deal(c.deck)
	deal(c.removed)
	if !over {
		var whites, blues []Mission
		for i := 0; i < c.n; i++ {
			if engine.Seat(i) != s {
				whites, blues = append(whites, c.missions[i][0]), append(blues, c.missions[i][1])
			}
		}
		for _, m := range c.unused {
			if m.White() {
				whites = append(whites, m)
			} else {
				blues = append(blues, m)
			}
		}
		slices.Sort(whites)
		slices.Sort(blues)
		r.Shuffle(len(whites), func(i, j int) { whites[i], whites[j] = whites[j], whites[i] })
		r.Shuffle(len(blues), func(i, j int) { blues[i], blues[j] = blues[j], blues[i] })
		for i := 0; i < c.n; i++ {
			if engine.Seat(i) != s {
				c.missions[i] = [2]Mission{whites[0], blues[0]}
				whites, blues = whites[1:], blues[1:]
			}
		}
		c.unused = append(whites, blues...)
	}
	return c
}
