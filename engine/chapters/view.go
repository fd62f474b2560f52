package chapters

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// View is what one seat may know of a game of 3 Chapters.
type View struct {
	Seat   engine.Seat // Spectator for a public view
	Seats  int
	Cards  *Table // the card table (immutable data)
	Phase  string // draft, play, over
	Ghosts bool   // 2 players: two ghost decks play too

	// Chapter I.
	Deal      int    // 1-based deal (2 with 2–3 players after the redeal)
	Deals     int    // deals in the draft
	Picks     int    // picks made from this deal
	PerDeal   int    // picks per deal
	Kept      []Card // the viewer's kept cards
	MyPick    Action // the viewer's pick this turn, hidden from others (Kind 0: none yet)
	Picked    []bool // who has picked this turn
	KeptSizes []int  // every seat's number of kept cards

	// Every phase.
	Hand       []Card        // the viewer's hand (in the draft: the cards to pick from)
	HandSizes  []int         // every seat's number of cards in hand
	GhostSizes []int         // 2 players: cards left in each ghost deck
	Acting     []engine.Seat // who must act now

	// Chapter II.
	First    engine.Seat // who started chapter II (-1 during the draft)
	Round    int         // 1-based current round
	Rounds   int         // rounds in chapter II
	Leader   Play        // who leads the current round (Card 0)
	Table    []Play      // the current round's plays, in order
	Last     *RoundResult
	Played   [][]Card      // every seat's played cards, in play order (public)
	Wins     []int         // rounds won per seat
	Tokens   []Tokens      // every seat's tokens
	Points   []int         // what the tokens are worth now
	Chapter3 []Tokens      // chapter III gains, once over
	Bonus    []engine.Seat // who got the gem bonus
	BonusGot []Tokens      // what each of Bonus got from it
	Winners  []engine.Seat
	Note     string
	// Places and TieBreak are the engine.Result's, once over: every
	// seat's place and its value in the tie-break.
	Places   []int
	TieBreak []int
}

// ViewerSeat is the seat the view was built for.
func (v *View) ViewerSeat() engine.Seat { return v.Seat }

// Rounds is the number of chapter II rounds: 7 with 4–6 players, 8 with 2–3.
func (st *State) rounds() int {
	if st.n <= 3 {
		return 8
	}
	return 7
}

// View lists what seat s may know.
func (st *State) View(s engine.Seat) engine.View {
	own := s >= 0 && int(s) < st.n
	v := &View{
		Seat: s, Seats: st.n, Cards: st.cards, Phase: st.phase.String(), Ghosts: st.ghostGame(),
		Acting: st.Acting(), First: -1, Round: st.round + 1, Rounds: st.rounds(),
		Table: slices.Clone(st.table), Played: engine.CloneNested(st.played), Wins: slices.Clone(st.wins),
		Tokens: slices.Clone(st.tokens), Chapter3: slices.Clone(st.chapter3), Bonus: slices.Clone(st.bonus),
		BonusGot: slices.Clone(st.bonusGot),
		Winners:  slices.Clone(st.winners), Note: st.note,
	}
	if st.phase == phaseOver {
		v.Round = st.rounds()
		v.Places, v.TieBreak = st.ranking()
	}
	v.Points = make([]int, st.n)
	for i, t := range st.tokens {
		v.Points[i] = t.Points()
	}
	v.HandSizes = make([]int, st.n)
	for i, h := range st.hands {
		v.HandSizes[i] = len(h)
	}
	if st.ghostGame() {
		v.GhostSizes = []int{len(st.ghosts[0]), len(st.ghosts[1])}
	}
	if st.last != nil {
		l := *st.last
		l.Plays = slices.Clone(l.Plays)
		l.Gains = slices.Clone(l.Gains)
		v.Last = &l
	}
	if st.phase == phaseDraft {
		v.Deal, v.Deals, v.Picks, v.PerDeal = st.deal+1, st.deals(), st.taken, st.keepPerDeal()
		v.Picked = make([]bool, st.n)
		v.KeptSizes = make([]int, st.n)
		for i := range v.Picked {
			v.Picked[i] = st.picks[i].Kind != 0
			v.KeptSizes[i] = len(st.kept[i])
		}
		if own {
			v.Kept = slices.Clone(st.kept[s])
			v.MyPick = st.picks[s]
		}
	} else {
		v.First = st.first
		seat, g := st.at(st.leader)
		v.Leader = Play{Seat: seat, Ghost: g}
	}
	if own {
		v.Hand = slices.Clone(st.hands[s])
	}
	return v
}

// Inventory counts every card in every zone: the box, the draft leftovers,
// hands, kept cards, ghost decks, the current round and the played cards.
// The 50 cards are always all there.
func (st *State) Inventory() map[string]int {
	inv := make(map[string]int, NumCards)
	add := func(cs []Card) {
		for _, c := range cs {
			inv[c.String()]++
		}
	}
	add(st.box)
	add(st.aside)
	for s := 0; s < st.n; s++ {
		add(st.hands[s])
		add(st.kept[s])
		add(st.played[s])
	}
	add(st.ghosts[0])
	add(st.ghosts[1])
	for _, p := range st.table {
		inv[p.Card.String()]++
	}
	add(st.spent)
	return inv
}

// ShuffleHidden re-deals everything seat s may not know: the other seats'
// hands (and their pending picks) and kept cards, the ghost decks, the box
// and the draft leftovers, keeping every zone's size.
func (st *State) ShuffleHidden(s engine.Seat, r *engine.Rand) engine.State {
	c := st.clone()
	var pool []Card
	take := func(cs []Card) { pool = append(pool, cs...) }
	take(c.box)
	take(c.aside)
	take(c.ghosts[0])
	take(c.ghosts[1])
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		take(c.hands[i])
		take(c.kept[i])
	}
	// Sorted first: the result depends on s's view and r alone.
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	deal := func(cs []Card, sorted bool) []Card {
		if cs == nil {
			return nil
		}
		out := slices.Clone(pool[:len(cs)])
		pool = pool[len(cs):]
		if sorted {
			slices.Sort(out)
		}
		return out
	}
	c.box = deal(c.box, true)
	c.aside = deal(c.aside, true)
	c.ghosts[0] = deal(c.ghosts[0], c.phase == phaseDraft)
	c.ghosts[1] = deal(c.ghosts[1], c.phase == phaseDraft)
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		c.hands[i] = deal(c.hands[i], true)
		c.kept[i] = deal(c.kept[i], true)
		if p := c.picks[i]; p.Kind != 0 {
			h := c.hands[i]
			p.Card = h[r.IntN(len(h))]
			if p.Ghost != 0 {
				for p.Ghost = h[r.IntN(len(h))]; p.Ghost == p.Card; p.Ghost = h[r.IntN(len(h))] {
				}
			}
			c.picks[i] = p
		}
	}
	return c
}
