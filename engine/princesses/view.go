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
	Phase   string // choose, pass, aside, reveal, split, gift, play, give, haggle, power, offer, over

	Round      int    // 1-based
	Rounds     int    // rounds in the row (the tie-break round adds one)
	Extra      bool   // the deluxe tie-break round
	RoundCard  string // the current round card's id
	PastRounds []string
	PassLeft   int
	PassRight  int
	PerTurn    int // cards each seat plays to a trick (Rings Twice: 2)

	Hand       []Card        // the viewer's own hand
	HandSizes  []int         // every seat's number of hand cards
	Offered    []string      // the princesses dealt to the viewer, while choosing
	Princess   []string      // each seat's princess once revealed; the viewer's own at once; "" unknown
	Done       []bool        // who has acted in the current simultaneous step
	MyPass     []Card        // the cards the viewer has put forward in the current step (pass, aside, split, gift, give)
	MyReveal   string        // Crystal Clear: the suit the viewer has chosen to reveal, until all have chosen
	Revealed   [][]Card      // Crystal Clear: every seat's revealed cards still in hand (public)
	SetAside   []int         // every seat's number of face-down set-aside cards (Late to the Ball, After Party, Blind Man's Bluff)
	MySetAside []Card        // the viewer's own set-aside cards
	Gifts      int           // Wedding Gift: cards on the current trick's gift pile
	MyGift     Card          // the viewer's own card on it
	Masked     []bool        // Masquerade: who has played face down to the current trick
	MyMasked   Card          // the viewer's own face-down play
	Acting     []engine.Seat // who must act now
	Leader     engine.Seat   // who leads the current trick
	Starter    engine.Seat   // who led the round's first trick
	Trick      []Play        // the current trick's face-up cards, in play order
	LastTrick  []Play        // the last completed trick (after a haggle: as it now lies)
	LastWin    engine.Seat   // its winner, -1 before the first
	Swappable  []Card        // Haggle: the cards of the last trick its winner may take
	SnuckIn    bool          // Princes may lead
	Tricks     []int         // tricks won this round per seat
	Scores     [][]int       // round scores of every completed round
	Totals     []int         // cumulative proposals
	Winners    []engine.Seat // once over
	Note       string        // how the winner was decided
	// Places and TieBreak are the engine.Result's, once over: every
	// seat's place and its value in the tie-break.
	Places   []int
	TieBreak []int

	// Powers (public unless marked): who has spent hers this round, the
	// declarations waiting for the next lead (announcing is public), and
	// what is in force for the current trick.
	Used       []bool
	Declared   []Declared
	Reversed   bool          // Cinderella: ranking reversed for this trick
	ZeroSeats  []engine.Seat // Snow White's power is on: their cards of 7 or less count 0 in this trick
	LeadSuit   string        // the suit the leader must lead (Mermaid, Rapunzel)
	Pea        engine.Seat   // the Princess and the Pea whose power is on, -1
	Thumb      engine.Seat   // Thumbelina playing freely this trick, -1
	FrozenSeat engine.Seat   // who must play a frozen card (Ice Princess), -1
	MyFrozen   Card          // the viewer's frozen card (its holder knows it)
	PowerStep  string        // the open power sub-step: sing, mulan, alice, pocahontas
	PowerSeat  engine.Seat   // who answers it, -1
	MyPowers   []string      // the viewer's own usable powers (Karmezina: those she may copy)
	// Card-moving powers (Scheherazade, deluxe Ice Princess, Sleeping Beauty).
	PowerTarget engine.Seat // whose cards the open sub-step holds (trade, freeze), -1
	Held        []Card      // to the power's user only: the card(s) taken (trade) or drawn (freeze)
	Offers      []Card      // to Sleeping Beauty only, while she decides: each seat's offered card still with her (0: none)
}

// Declared is an announced power waiting to resolve.
type Declared struct {
	Seat   engine.Seat
	Power  string
	Suit   string      // Little Mermaid
	Target engine.Seat // -1 none
}

// ViewerSeat is the seat the view was built for.
func (v *View) ViewerSeat() engine.Seat { return v.Seat }

// View lists what seat s may know.
func (st *State) View(s engine.Seat) engine.View {
	own := s >= 0 && int(s) < st.n
	rules := st.rules()
	v := &View{
		Seat: s, Seats: st.n, Edition: st.cfg.edition, Powers: st.cfg.powers,
		Phase: st.phase.String(), Round: st.round + 1, Rounds: len(st.rounds), Extra: st.extra,
		RoundCard: st.card().id, PassLeft: st.card().pass.left, PassRight: st.card().pass.right,
		PerTurn: rules.cardsPerTurn(),
		Acting:  st.Acting(), Leader: st.leader, Starter: st.starter,
		Trick: slices.Clone(st.trick), LastTrick: slices.Clone(st.last), LastWin: st.lastWin,
		SnuckIn: st.snuckIn, Tricks: slices.Clone(st.tricks), Scores: engine.CloneNested(st.roundScores),
		Totals: slices.Clone(st.totals), Winners: slices.Clone(st.winners), Note: st.note,
	}
	if st.phase == phaseOver {
		v.Places, v.TieBreak = st.ranking()
	}
	v.Used = slices.Clone(st.used)
	for _, d := range st.decls {
		dv := Declared{Seat: d.seat, Power: d.pow.String(), Target: d.target}
		if d.hasSuit {
			dv.Suit = d.suit.Word()
		}
		v.Declared = append(v.Declared, dv)
	}
	// The powers in force belong to the trick being played: once it is
	// taken (Haggle, Musical Chairs, Pocahontas's choice, the round's end)
	// they are no longer shown.
	eff := st.eff
	if !(st.phase == phasePlay || st.phase == phaseGift || (st.phase == phasePower && st.sub.kind != KindGuide)) {
		eff = trickEffects{}
	}
	v.Reversed = eff.reversed
	for i := 0; i < st.n; i++ {
		if eff.zeros&(1<<i) != 0 {
			v.ZeroSeats = append(v.ZeroSeats, engine.Seat(i))
		}
	}
	if eff.lead > 0 {
		v.LeadSuit = Suit(eff.lead - 1).Word()
	}
	v.Pea, v.Thumb, v.FrozenSeat = engine.Seat(eff.pea-1), engine.Seat(eff.thumb-1), -1
	if eff.frozenSeat > 0 && !eff.frozenPlayed {
		// Until it is played (it lies face down before its holder, so
		// everyone sees when it goes).
		v.FrozenSeat = engine.Seat(eff.frozenSeat - 1)
		if own && (eff.frozenSeat == int8(s)+1 || eff.frozenKnown == int8(s)+1) {
			v.MyFrozen = eff.frozen
		}
	}
	v.PowerSeat, v.PowerTarget = -1, -1
	if st.phase == phasePower {
		v.PowerStep, v.PowerSeat = kindWords[st.sub.kind], st.sub.seat
		if st.sub.kind == KindGuide {
			v.PowerStep = "pocahontas"
		}
		switch st.sub.kind {
		case KindTrade, KindFreeze:
			v.PowerTarget = st.sub.target
			if s == st.sub.seat {
				for _, c := range st.sub.held {
					if c != 0 {
						v.Held = append(v.Held, c)
					}
				}
			}
		case KindRetain, KindAssign:
			if s == st.sub.seat {
				v.Offers = make([]Card, st.n)
				for i, p := range st.pending {
					if len(p) > 0 {
						v.Offers[i] = p[0]
					}
				}
			}
		}
	}
	if st.phase == phaseOffer {
		v.PowerSeat = st.sub.seat
	}
	if own && st.phase != phaseChoose {
		v.MyPowers = princessStrings(st.powersOf(s))
	}
	for i := 0; i < st.round; i++ {
		v.PastRounds = append(v.PastRounds, st.rounds[i].String())
	}
	v.HandSizes = make([]int, st.n)
	v.SetAside = make([]int, st.n)
	v.Revealed = make([][]Card, st.n)
	for i := range st.hands {
		v.HandSizes[i] = len(st.hands[i])
		v.SetAside[i] = len(st.setAside[i])
		v.Revealed[i] = slices.Clone(st.revealed[i])
		if st.gifts[i] != 0 {
			v.Gifts++
		}
	}
	if st.phase.simultaneous() {
		v.Done = make([]bool, st.n)
		for i := range v.Done {
			v.Done[i] = !st.acting(engine.Seat(i))
		}
	}
	if st.maskedTurn() {
		v.Masked = make([]bool, st.n)
		for i, c := range st.masked {
			v.Masked[i] = c != 0
		}
	}
	if st.phase == phaseHaggle {
		v.Swappable = st.swappable()
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
		v.MyPass = slices.Clone(st.pending[s])
		if st.pendSuit[s] != 0 {
			v.MyReveal = Suit(st.pendSuit[s] - 1).Word()
		}
		v.MySetAside = slices.Clone(st.setAside[s])
		v.MyGift = st.gifts[s]
		v.MyMasked = st.masked[s]
		if st.phase == phaseChoose {
			v.Offered = princessStrings(st.offered[s])
		}
	}
	return v
}

// Inventory counts every card in every zone (hands, put-forward cards,
// set-aside cards, the gift pile, face-down and face-up plays, the captured
// piles, the cards a power holds out of a hand); with the deck for the seat count, nothing is ever lost.
func (st *State) Inventory() map[string]int {
	inv := map[string]int{}
	add := func(cs ...Card) {
		for _, c := range cs {
			if c != 0 {
				inv[c.String()]++
			}
		}
	}
	for s := 0; s < st.n; s++ {
		add(st.hands[s]...)
		add(st.pending[s]...)
		add(st.setAside[s]...)
		add(st.captured[s]...)
		add(st.gifts[s], st.masked[s])
	}
	add(st.sub.held[:]...)
	for _, p := range st.trick {
		add(p.Card)
	}
	return inv
}

// ShuffleHidden re-deals everything seat s may not know: the other seats'
// hands (but not their Crystal Clear cards, which everyone sees), the cards
// they have put forward, set aside, given as gifts or played face down, and
// the choices they have not revealed yet (princess, suit to reveal), and
// the cards a power holds out of a hand (Scheherazade's, the Ice
// Princess's) unless s is that power's user. Sleeping Beauty keeps the
// offered cards she is deciding about.
func (st *State) ShuffleHidden(s engine.Seat, r *engine.Rand) engine.State {
	c := st.clone()
	var pool []Card
	others := func(f func(i int)) {
		for i := 0; i < c.n; i++ {
			if engine.Seat(i) != s {
				f(i)
			}
		}
	}
	// Sleeping Beauty knows the offered cards while she decides; the user
	// of Scheherazade's or the Ice Princess's power knows the cards held.
	knowsOffers := c.phase == phasePower && (c.sub.kind == KindRetain || c.sub.kind == KindAssign) && c.sub.seat == s
	hideHeld := c.sub.seat != s && c.sub.held[0] != 0
	if hideHeld {
		for _, x := range c.sub.held {
			if x != 0 {
				pool = append(pool, x)
			}
		}
	}
	others(func(i int) {
		for _, x := range c.hands[i] {
			if !slices.Contains(c.revealed[i], x) {
				pool = append(pool, x)
			}
		}
		if !knowsOffers {
			pool = append(pool, c.pending[i]...)
		}
		pool = append(pool, c.setAside[i]...)
		if c.gifts[i] != 0 {
			pool = append(pool, c.gifts[i])
		}
		if c.masked[i] != 0 {
			pool = append(pool, c.masked[i])
		}
	})
	// Sorted first: the result depends on s's view and r alone.
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	take := func(k int) []Card {
		out := slices.Clone(pool[:k])
		pool = pool[k:]
		return out
	}
	others(func(i int) {
		k := len(c.hands[i]) - len(c.revealed[i])
		c.hands[i] = append(take(k), c.revealed[i]...)
		slices.Sort(c.hands[i])
		if c.pending[i] != nil && !knowsOffers {
			c.pending[i] = take(len(c.pending[i]))
		}
		if c.setAside[i] != nil {
			c.setAside[i] = take(len(c.setAside[i]))
			slices.Sort(c.setAside[i])
		}
		if c.gifts[i] != 0 {
			c.gifts[i] = take(1)[0]
		}
		if c.masked[i] != 0 {
			c.masked[i] = take(1)[0]
		}
		if c.phase == phaseChoose && c.chosen[i] != NoPrincess {
			c.chosen[i] = c.offered[i][r.IntN(len(c.offered[i]))]
		}
		if c.pendSuit[i] != 0 {
			h := c.hands[i]
			c.pendSuit[i] = int8(h[r.IntN(len(h))].Suit()) + 1
		}
	})
	if hideHeld {
		for k, x := range c.sub.held {
			if x != 0 {
				c.sub.held[k] = take(1)[0]
			}
		}
	}
	if h := engine.Seat(c.eff.frozenSeat - 1); h >= 0 && h != s && c.eff.frozenKnown != int8(s)+1 {
		// The frozen card is known only to its holder (and, deluxe, to the
		// Ice Princess): any card of the re-dealt hand may be it.
		// Drawn afresh even when the hand still holds the true one, so
		// that the copy does not depend on which it was.
		if hand := c.hands[h]; len(hand) > 0 {
			c.eff.frozen = hand[r.IntN(len(hand))]
		}
	}
	return c
}
