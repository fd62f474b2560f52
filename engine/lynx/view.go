package lynx

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// View is what one seat may know of a game of lynx. Everything on the
// table is public: every layer of every display (the rulebook lays them
// out offset so that every layer's count and value show), the pool, the
// deck's size, the face-up discard pile, the virtual row, the stolen set
// being decided on, and who must decide what. A seat's own hand is its
// own; of the other hands only the sizes are known.
type View struct {
	Seat  engine.Seat // Spectator for a public view
	Seats int
	Mode  Mode
	Duel  bool
	Phase string // play, steal-virtual, take, back, draw, bonus, over

	Active  engine.Seat   // the paw holder
	Acting  []engine.Seat // who must act now
	Played  []Card        // the set played this turn (empty before the play)
	Victim  engine.Seat   // the player being robbed, or drawing; -1 none
	Stolen  []Card        // the stolen set being decided on (take/back phases)
	Owed    int           // draws the victim still owes (draw phase)
	Pending []engine.Seat // players still to be robbed this turn, in order
	Targets []Card        // steal-virtual phase: the virtual groups that may be stolen

	Hand      []Card  // the viewer's own hand, in value order
	Groups    []Group // the same hand grouped by value, for choosing sets
	HandSizes []int
	Displays  [][]Layer // per seat, bottom layer first; the last is the top layer
	Pool      [][]Card  // per pool place, bottom card first
	DeckSize  int
	Discard   []Card  // the discard pile, in order (the last is on top)
	Virtual   []Group // the duel's virtual row, grouped by value
	VirtualN  int     // cards in the virtual row
	Scores    []int   // the score if the game ended now (final once over)
	Winners   []engine.Seat
	Note      string // "", "tiebreak", "shared"
	Reason    string // how the game ended: "hand_empty", "cards_out"
	// Places and TieBreak are the engine.Result's, once over: every
	// seat's place and its value in the tie-break.
	Places   []int
	TieBreak []int
}

// ViewerSeat is the seat the view was built for.
func (v *View) ViewerSeat() engine.Seat { return v.Seat }

// Top is a seat's top layer and whether it has one.
func (v *View) Top(s engine.Seat) (Layer, bool) {
	d := v.Displays[s]
	if len(d) == 0 {
		return Layer{}, false
	}
	return d[len(d)-1], true
}

// View lists what seat s may know.
func (st *State) View(s engine.Seat) engine.View {
	v := &View{
		Seat: s, Seats: st.n, Mode: st.cfg.mode, Duel: st.cfg.duel, Phase: st.phase.String(),
		Active: st.active, Acting: st.Acting(), Victim: st.victim, Owed: st.owed,
		Played: st.played.Cards(), Stolen: st.stolen.Cards(), Pending: slices.Clone(st.targets),
		DeckSize: len(st.deck), Discard: slices.Clone(st.discard),
		Winners: slices.Clone(st.winners), Note: st.note, Reason: st.reason,
	}
	if st.phase == phaseVirtual {
		v.Targets = st.virtualTargets()
	}
	if s >= 0 && int(s) < st.n {
		v.Hand = st.hands[s].Cards()
		v.Groups = st.hands[s].Groups()
	}
	v.HandSizes = make([]int, st.n)
	v.Displays = make([][]Layer, st.n)
	v.Scores = make([]int, st.n)
	for i := 0; i < st.n; i++ {
		v.HandSizes[i] = st.hands[i].Size()
		v.Displays[i] = slices.Clone(st.displays[i])
		v.Scores[i] = st.score(engine.Seat(i))
	}
	v.Pool = make([][]Card, len(st.pool))
	for i, p := range st.pool {
		v.Pool[i] = p.List()
	}
	if st.phase == phaseOver {
		v.Places, v.TieBreak = st.ranking()
	}
	if st.cfg.duel {
		v.Virtual = st.virtual.Groups()
		v.VirtualN = st.virtual.Size()
	}
	return v
}

// Inventory counts every card in every zone: hands, displays, the stolen
// set in limbo, the pool, the deck, the discard pile, the virtual row.
// The game's 109 cards are always all there.
func (st *State) Inventory() map[string]int {
	var all Hand
	for i := 0; i < st.n; i++ {
		for v, c := range st.hands[i] {
			all[v] += c
		}
		for _, l := range st.displays[i] {
			all.Add(l.Cards()...)
		}
	}
	all.Add(st.stolen.Cards()...)
	for _, p := range st.pool {
		all.Add(p.List()...)
	}
	all.Add(st.deck...)
	all.Add(st.discard...)
	for v, c := range st.virtual {
		all[v] += c
	}
	inv := map[string]int{}
	for v := Card(1); v <= Joker; v++ {
		if all[v] > 0 {
			inv[v.String()] = int(all[v])
		}
	}
	return inv
}

// ShuffleHidden re-deals everything seat s may not know: the other seats'
// hands and the order and contents of the deck, keeping every size. The
// copy depends only on s's view and r (see engine.HiddenShuffler).
func (st *State) ShuffleHidden(s engine.Seat, r *engine.Rand) engine.State {
	c := st.clone()
	pool := slices.Clone(c.deck)
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) != s {
			pool = append(pool, c.hands[i].Cards()...)
		}
	}
	// Sorted first: the result depends on s's view and r alone, not on
	// how the hidden cards lay (a search player samples with it).
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		k := c.hands[i].Size()
		c.hands[i] = Hand{}
		c.hands[i].Add(pool[:k]...)
		pool = pool[k:]
	}
	c.deck = pool
	return c
}
