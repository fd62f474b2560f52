package princesses

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// View is what one seat may know of a game of Rebel Princess.
type View struct {
	Seat    engine.Seat // Spectator for a public view
	Seats   int
	Edition Edition
	Powers  bool
	Phase   string // choose, pass, play, over

	Round      int    // 1-based
	Rounds     int    // rounds in the row (the tie-break round adds one)
	Extra      bool   // the deluxe tie-break round
	RoundCard  string // the current round card's id
	PastRounds []string
	PassLeft   int
	PassRight  int

	Hand      []Card        // the viewer's own hand
	HandSizes []int         // every seat's number of hand cards
	Offered   []string      // the princesses dealt to the viewer, while choosing
	Princess  []string      // each seat's princess once revealed; the viewer's own at once; "" unknown
	Done      []bool        // who has chosen (choose) or passed (pass)
	MyPass    []Card        // the cards the viewer has put forward to pass
	Acting    []engine.Seat // who must act now
	Leader    engine.Seat   // who leads the current trick
	Starter   engine.Seat   // who led the round's first trick
	Trick     []Play        // the current trick, in play order
	LastTrick []Play        // the last completed trick
	LastWin   engine.Seat   // its winner, -1 before the first
	SnuckIn   bool          // Princes may lead
	Tricks    []int         // tricks won this round per seat
	Scores    [][]int       // round scores of every completed round
	Totals    []int         // cumulative proposals
	Winners   []engine.Seat // once over
	Note      string        // how the winner was decided
}

// ViewerSeat is the seat the view was built for.
func (v *View) ViewerSeat() engine.Seat { return v.Seat }

// View lists what seat s may know.
func (st *State) View(s engine.Seat) engine.View {
	own := s >= 0 && int(s) < st.n
	v := &View{
		Seat: s, Seats: st.n, Edition: st.cfg.edition, Powers: st.cfg.powers,
		Phase: st.phase.String(), Round: st.round + 1, Rounds: len(st.rounds), Extra: st.extra,
		RoundCard: st.card().id, PassLeft: st.card().pass.left, PassRight: st.card().pass.right,
		Acting: st.Acting(), Leader: st.leader, Starter: st.starter,
		Trick: slices.Clone(st.trick), LastTrick: slices.Clone(st.last), LastWin: st.lastWin,
		SnuckIn: st.snuckIn, Tricks: slices.Clone(st.tricks), Scores: cloneNested(st.roundScores),
		Totals: slices.Clone(st.totals), Winners: slices.Clone(st.winners), Note: st.note,
	}
	for i := 0; i < st.round; i++ {
		v.PastRounds = append(v.PastRounds, st.rounds[i].String())
	}
	v.HandSizes = make([]int, st.n)
	for i, h := range st.hands {
		v.HandSizes[i] = len(h)
	}
	v.Done = make([]bool, st.n)
	for i := range v.Done {
		switch st.phase {
		case phaseChoose:
			v.Done[i] = st.chosen[i] != NoPrincess
		case phasePass:
			v.Done[i] = st.passes[i] != nil
		}
	}
	revealed := st.phase != phaseChoose
	v.Princess = make([]string, st.n)
	for i, p := range st.chosen {
		if p != NoPrincess && (revealed || (own && engine.Seat(i) == s)) {
			v.Princess[i] = p.String()
		}
	}
	if own {
		v.Hand = slices.Clone(st.hands[s])
		v.MyPass = slices.Clone(st.passes[s])
		if st.phase == phaseChoose {
			v.Offered = princessStrings(st.offered[s])
		}
	}
	return v
}

// Inventory counts every card in every zone (hands, passes, the trick, the
// captured piles); with the deck for the seat count, nothing is ever lost.
func (st *State) Inventory() map[string]int {
	inv := map[string]int{}
	add := func(cs []Card) {
		for _, c := range cs {
			inv[c.String()]++
		}
	}
	for s := 0; s < st.n; s++ {
		add(st.hands[s])
		add(st.passes[s])
		add(st.captured[s])
	}
	for _, p := range st.trick {
		inv[p.Card.String()]++
	}
	return inv
}

// ShuffleHidden re-deals everything seat s may not know: the other seats'
// hands and put-forward passes, and (before the reveal) the other seats'
// princess choices among their offers.
func (st *State) ShuffleHidden(s engine.Seat, r *engine.Rand) engine.State {
	c := st.clone()
	var pool []Card
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		pool = append(pool, c.hands[i]...)
		pool = append(pool, c.passes[i]...)
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		k := len(c.hands[i])
		c.hands[i], pool = slices.Clone(pool[:k]), pool[k:]
		sortCards(c.hands[i])
		if c.passes[i] != nil {
			k = len(c.passes[i])
			c.passes[i], pool = slices.Clone(pool[:k]), pool[k:]
		}
		if c.phase == phaseChoose && c.chosen[i] != NoPrincess {
			c.chosen[i] = c.offered[i][r.IntN(len(c.offered[i]))]
		}
	}
	return c
}
