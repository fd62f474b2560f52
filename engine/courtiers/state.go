package courtiers

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

type phase uint8

const (
	phasePlay phase = iota + 1
	phaseOver
)

var phaseNames = [...]string{phasePlay: "play", phaseOver: "over"}

func (p phase) String() string { return phaseNames[p] }

// Placement is a card placed during a turn, as everyone may know it: a
// face-down spy is NoCard, and so is a face-down spy eliminated.
type Placement struct {
	Card   Card
	Area   Area
	Opp    engine.Seat // for AreaOpp
	Kill   bool
	Target Card // the eliminated card; NoCard for a face-down spy
	Side   Side // the target's side at the Queen's table
}

// sighting is a placement as everyone saw it, and who made it; prev is the
// one before it. Sightings are never changed once made, so clones share
// them: a placement adds one, without copying the record.
type sighting struct {
	Seat engine.Seat
	Placement
	spy  Card // a face-down spy's family, which its placer alone saw (else NoCard)
	prev *sighting
	// prevSpy is the face-down spy placed before this one (for a spy's
	// sighting): a view lists its seat's spies without reading the record.
	prevSpy *sighting
}

// record lists the game's sightings, the first first.
func (st *State) record() []sighting {
	var out []sighting
	for x := st.seen; x != nil; x = x.prev {
		out = append(out, *x)
	}
	slices.Reverse(out)
	return out
}

// State is a game of Courtisans.
type State struct {
	n     int
	phase phase
	first engine.Seat
	turn  engine.Seat
	used  uint8       // the slots (Queen's table, own, opponent) used this turn
	moves []Placement // this turn's placements
	last  []Placement // the previous turn's placements
	prev  engine.Seat // who played the previous turn; -1 before the first
	seen  *sighting   // the last placement of the game as everyone saw it
	spies *sighting   // the last face-down spy placed, among seen's

	hands   [][]Card
	deck    []Card // top first
	removed []Card // set aside unseen at setup; never revealed

	table   [2][NumFamilies][]Card // face-up cards per side (up, down) and family
	queen   [2][]Card              // face-down spies in the Queen's column, per side
	domains [][]Card               // each seat's domain; its spies lie face down until the end
	killed  []Card                 // eliminated face up
	ghosts  []Card                 // spies eliminated face down: never revealed

	missions [][2]Mission // white, blue per seat
	unused   []Mission    // back in the box, unseen

	// Filled at the end.
	status  [NumFamilies]Status
	points  []int     // domain points per seat
	done    [][2]bool // missions fulfilled per seat
	totals  []int
	winners []engine.Seat
}

func newState(n int) *State {
	return &State{
		n: n, phase: phasePlay, prev: -1,
		hands: make([][]Card, n), domains: make([][]Card, n), missions: make([][2]Mission, n),
	}
}

func sideIndex(s Side) int { return int(s) - 1 }

// Clone returns an independent copy.
func (st *State) Clone() engine.State { return st.clone() }

func (st *State) clone() *State {
	c := *st
	c.moves = slices.Clone(st.moves)
	c.last = slices.Clone(st.last)
	c.hands = engine.CloneNested(st.hands)
	c.deck = slices.Clone(st.deck)
	c.removed = slices.Clone(st.removed)
	for s := range st.table {
		for f := range st.table[s] {
			c.table[s][f] = slices.Clone(st.table[s][f])
		}
		c.queen[s] = slices.Clone(st.queen[s])
	}
	c.domains = engine.CloneNested(st.domains)
	c.killed = slices.Clone(st.killed)
	c.ghosts = slices.Clone(st.ghosts)
	c.missions = slices.Clone(st.missions)
	c.unused = slices.Clone(st.unused)
	c.points = slices.Clone(st.points)
	c.done = slices.Clone(st.done)
	c.totals = slices.Clone(st.totals)
	c.winners = slices.Clone(st.winners)
	return &c
}

// Acting lists the seat whose turn it is; nobody once the game is over.
func (st *State) Acting() []engine.Seat {
	if st.phase != phasePlay {
		return nil
	}
	return []engine.Seat{st.turn}
}

func (st *State) acting(s engine.Seat) bool { return st.phase == phasePlay && s == st.turn }

// areas lists the areas still open this turn for seat s, in notation
// order: up, down, own, then the opponents clockwise from s.
func (st *State) areas(s engine.Seat, buf *[3 + maxSeats]Action) []Action {
	out := buf[:0]
	if st.used&slotQueen == 0 {
		out = append(out, Action{Area: AreaUp}, Action{Area: AreaDown})
	}
	if st.used&slotOwn == 0 {
		out = append(out, Action{Area: AreaOwn})
	}
	if st.used&slotOpp == 0 {
		for k := 1; k < st.n; k++ {
			out = append(out, Action{Area: AreaOpp, Opp: engine.Seat((int(s) + k) % st.n)})
		}
	}
	return out
}

// placements holds every placement without an elimination as an
// engine.Action, made once: Legal lists them without boxing each anew.
var placements = func() (t [(int(NumFamilies)*int(NumRoles) + 1) * 5 * maxSeats]engine.Action) {
	for c := range int(NumFamilies)*int(NumRoles) + 1 {
		for ar := AreaUp; ar <= AreaOpp; ar++ {
			for o := range maxSeats {
				t[placementIndex(Action{Card: Card(c), Area: ar, Opp: engine.Seat(o)})] = Action{Card: Card(c), Area: ar, Opp: engine.Seat(o)}
			}
		}
	}
	return t
}()

func placementIndex(a Action) int { return (int(a.Card)*5+int(a.Area))*maxSeats + int(a.Opp) }

// boxed is a as an engine.Action: a placement without an elimination from
// the table.
func boxed(a Action) engine.Action {
	if !a.Kill && a.Opp >= 0 && int(a.Opp) < maxSeats {
		return placements[placementIndex(a)]
	}
	return a
}

// Legal lists every action seat s may take now: each distinct card of the
// hand into each open area, and for an assassin every elimination it may
// make there (or none).
func (st *State) Legal(s engine.Seat) []engine.Action {
	if !st.acting(s) {
		return nil
	}
	var hb [2 * HandSize]Card
	hand := append(hb[:0], st.hands[s]...)
	slices.Sort(hand)
	hand = slices.Compact(hand)
	var ab [3 + maxSeats]Action
	areas := st.areas(s, &ab)
	out := make([]engine.Action, 0, len(hand)*len(areas))
	for _, c := range hand {
		for _, ar := range areas {
			a := ar
			a.Card = c
			out = append(out, boxed(a))
			if c.Role() == Assassin {
				out = st.appendKills(out, s, a)
			}
		}
	}
	return out
}

// targets counts the cards an assassin placed in a's area may eliminate,
// per card kind (index 0: face-down spies), on one side of the mat for the
// Queen's table.
func (st *State) targets(s engine.Seat, a Action, side Side) (counts [1 + int(NumFamilies)*int(NumRoles)]int) {
	add := func(cs []Card, faceDownSpies bool) {
		for _, c := range cs {
			switch {
			case c.Role() == Spy && faceDownSpies:
				counts[0]++
			case c.Role() != Guard:
				counts[c]++
			}
		}
	}
	if a.Area == AreaUp || a.Area == AreaDown {
		i := sideIndex(side)
		for f := range st.table[i] {
			add(st.table[i][f], false)
		}
		counts[0] += len(st.queen[i])
		return counts
	}
	add(st.domains[st.domainOf(s, a)], true)
	return counts
}

func (st *State) domainOf(s engine.Seat, a Action) engine.Seat {
	if a.Area == AreaOpp {
		return a.Opp
	}
	return s
}

// appendKills appends the eliminations an assassin placement may add.
func (st *State) appendKills(out []engine.Action, s engine.Seat, a Action) []engine.Action {
	sides := []Side{SideNone}
	if a.Area == AreaUp || a.Area == AreaDown {
		sides = []Side{SideUp, SideDown}
	}
	for _, side := range sides {
		counts := st.targets(s, a, side)
		for c := 1; c < len(counts); c++ {
			if counts[c] > 0 {
				out = append(out, Action{Card: a.Card, Area: a.Area, Opp: a.Opp, Kill: true, Target: Card(c), Side: side})
			}
		}
		if counts[0] > 0 {
			out = append(out, Action{Card: a.Card, Area: a.Area, Opp: a.Opp, Kill: true, Target: NoCard, Side: side})
		}
	}
	return out
}

// check tells why seat s may not take a now (nil when it may). It accepts
// exactly the actions Legal lists.
func (st *State) check(s engine.Seat, a Action) error {
	illegal := func() error { return engine.Errorf(engine.CodeIllegal, "action", a.String()) }
	if a.Card == NoCard || int(a.Card) > int(NumFamilies)*int(NumRoles) || a.Area < AreaUp || a.Area > AreaOpp {
		return illegal()
	}
	if a.Area == AreaOpp {
		if a.Opp == s || a.Opp < 0 || int(a.Opp) >= st.n {
			return engine.Errorf(CodeNotOpponent, "seat", int(a.Opp))
		}
	} else if a.Opp != 0 {
		return illegal()
	}
	if !slices.Contains(st.hands[s], a.Card) {
		return engine.Errorf(CodeNotInHand, "card", a.Card.String())
	}
	if st.used&a.Area.slot() != 0 {
		return engine.Errorf(CodeAreaUsed, "area", a.AreaString())
	}
	if !a.Kill {
		if a.Target != NoCard || a.Side != SideNone {
			return illegal()
		}
		return nil
	}
	if a.Card.Role() != Assassin {
		return engine.Errorf(CodeNotAssassin, "card", a.Card.String())
	}
	atTable := a.Area == AreaUp || a.Area == AreaDown
	if atTable != (a.Side != SideNone) || a.Side > SideDown {
		return engine.Errorf(CodeTargetSide, "target", a.TargetString())
	}
	if a.Target != NoCard && int(a.Target) > int(NumFamilies)*int(NumRoles) {
		return illegal()
	}
	if a.Target != NoCard && a.Target.Role() == Guard {
		return engine.Errorf(CodeGuard, "target", a.TargetString())
	}
	if a.Target != NoCard && a.Target.Role() == Spy {
		return engine.Errorf(CodeNoTarget, "target", a.TargetString())
	}
	side := a.Side
	if !atTable {
		side = SideNone
	}
	if st.targets(s, a, side)[a.Target] == 0 {
		return engine.Errorf(CodeNoTarget, "target", a.TargetString())
	}
	return nil
}

// Apply performs action a for seat s.
func (st *State) Apply(s engine.Seat, a engine.Action, r *engine.Rand) ([]engine.Event, error) {
	act, err := st.admit(s, a)
	if err != nil {
		return nil, err
	}
	return st.place(s, act, r, false), nil
}

// Simulate performs action a for seat s as Apply does, telling nobody: a
// search's playout reads no events (engine.Simulator).
func (st *State) Simulate(s engine.Seat, a engine.Action, r *engine.Rand) error {
	act, err := st.admit(s, a)
	if err != nil {
		return err
	}
	st.place(s, act, r, true)
	return nil
}

func (st *State) admit(s engine.Seat, a engine.Action) (Action, error) {
	act, err := engine.Admit(a, st.phase == phaseOver, s, func(Action) bool { return st.acting(s) })
	if err != nil {
		return Action{}, err
	}
	return act, st.check(s, act)
}

// place performs a checked placement: the elimination first (it picks among
// the cards already there), then the card. Quiet, it makes no events.
func (st *State) place(s engine.Seat, a Action, r *engine.Rand, quiet bool) []engine.Event {
	st.hands[s], _ = engine.RemoveOne(st.hands[s], a.Card)
	pl := Placement{Card: a.Card, Area: a.Area, Opp: a.Opp, Kill: a.Kill, Target: a.Target, Side: a.Side}
	faceDown := a.Card.Role() == Spy
	if faceDown {
		pl.Card = NoCard
	}
	var ev []engine.Event
	if !quiet {
		args := map[string]any{"seat": s, "card": pl.Card.String(), "area": areaWord(a.Area)}
		if a.Area == AreaOwn || a.Area == AreaOpp {
			args["domain"] = st.domainOf(s, a)
		}
		ev = []engine.Event{engine.Public("card_placed", args)}
	}
	if a.Kill {
		st.eliminate(s, a, r)
		if !quiet {
			kargs := map[string]any{"seat": s, "card": a.Target.String(), "side": a.Side.String()}
			if a.Side == SideNone {
				kargs["domain"] = st.domainOf(s, a)
			}
			ev = append(ev, engine.Public("card_killed", kargs))
		}
	}
	switch {
	case a.Area == AreaUp || a.Area == AreaDown:
		i := sideIndex(a.Area.side())
		if faceDown {
			st.queen[i] = append(st.queen[i], a.Card)
		} else {
			f := a.Card.Family()
			st.table[i][f] = append(st.table[i][f], a.Card)
		}
	default:
		d := st.domainOf(s, a)
		st.domains[d] = append(st.domains[d], a.Card)
	}
	st.moves = append(st.moves, pl)
	st.seen = &sighting{Seat: s, Placement: pl, prev: st.seen}
	if faceDown {
		st.seen.spy, st.seen.prevSpy = a.Card, st.spies
		st.spies = st.seen
	}
	st.used |= a.Area.slot()
	if st.used == allSlots {
		ev = st.endTurn(ev, quiet)
	}
	return ev
}

func areaWord(a Area) string {
	switch a {
	case AreaUp:
		return "up"
	case AreaDown:
		return "down"
	case AreaOwn:
		return "own"
	}
	return "opp"
}

// eliminate removes an assassin's target from the game. A face-down spy is
// one of those on that side (or in that domain) picked at random: nobody
// can tell them apart, and it is never revealed.
func (st *State) eliminate(s engine.Seat, a Action, r *engine.Rand) {
	pick := func(n int) int {
		if n <= 1 {
			return 0
		}
		return r.IntN(n)
	}
	if a.Side != SideNone {
		i := sideIndex(a.Side)
		if a.Target == NoCard {
			k := pick(len(st.queen[i]))
			st.ghosts = append(st.ghosts, st.queen[i][k])
			st.queen[i] = slices.Delete(st.queen[i], k, k+1)
			return
		}
		f := a.Target.Family()
		st.table[i][f], _ = engine.RemoveOne(st.table[i][f], a.Target)
		st.killed = append(st.killed, a.Target)
		return
	}
	d := st.domainOf(s, a)
	if a.Target == NoCard {
		var spies []int
		for k, c := range st.domains[d] {
			if c.Role() == Spy {
				spies = append(spies, k)
			}
		}
		k := spies[pick(len(spies))]
		st.ghosts = append(st.ghosts, st.domains[d][k])
		st.domains[d] = slices.Delete(st.domains[d], k, k+1)
		return
	}
	st.domains[d], _ = engine.RemoveOne(st.domains[d], a.Target)
	st.killed = append(st.killed, a.Target)
}
