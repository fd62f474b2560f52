package princesses

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

type phase uint8

const (
	phaseChoose phase = iota + 1 // every seat keeps one of two princesses
	phasePass                    // every seat passes the round card's cards
	phasePlay                    // tricks
	phaseOver
	phaseAside  // Late to the Ball: every seat sets a card aside for the last trick
	phaseReveal // Crystal Clear: every seat reveals a suit
	phaseSplit  // After Party, Blind Man's Bluff: every seat puts half its hand aside
	phaseGift   // Wedding Gift: every seat adds a card to the trick's gift pile
	phaseGive   // Musical Chairs: every seat passes a card right after a trick
	phaseHaggle // Haggle with the Hag: the trick's winner may swap a card
	phasePower  // a power's sub-step asking one seat (sing, mulan, alice, pocahontas, trade, retain, assign, freeze)
	phaseOffer  // Sleeping Beauty: every seat gives her a card
)

var phaseNames = [...]string{
	phaseChoose: "choose", phasePass: "pass", phasePlay: "play", phaseOver: "over", phaseAside: "aside",
	phaseReveal: "reveal", phaseSplit: "split", phaseGift: "gift", phaseGive: "give", phaseHaggle: "haggle",
	phasePower: "power", phaseOffer: "offer",
}

// simultaneous reports whether every seat decides at once in this phase.
func (p phase) simultaneous() bool {
	switch p {
	case phaseChoose, phasePass, phaseAside, phaseReveal, phaseSplit, phaseGift, phaseGive, phaseOffer:
		return true
	}
	return false
}

// stepKind is the action kind of a simultaneous step.
var stepKind = [...]Kind{
	phasePass: KindPass, phaseAside: KindAside, phaseReveal: KindReveal, phaseSplit: KindSplit,
	phaseGift: KindGift, phaseGive: KindGive, phaseHaggle: 0, phasePower: 0, phaseOffer: KindOffer,
}

func (p phase) String() string { return phaseNames[p] }

// Play is one card played to a trick.
type Play struct {
	Seat engine.Seat
	Card Card
	// Free: played off the suit to follow by a seat that held it (Thumbelina,
	// a frozen card). Such a card is not a void card ("renons": Poisoned Apple).
	Free bool
}

// State is a game of Rebel Princess.
type State struct {
	cfg    config
	n      int
	phase  phase
	rounds []RoundID // the round row; the deluxe tie-break appends one
	round  int       // index into rounds
	extra  bool      // the deluxe tie-break round is being played

	offered [][]PrincessID // princesses dealt to each seat
	chosen  []PrincessID   // kept princess per seat; NoPrincess until chosen

	hands    [][]Card
	pending  [][]Card // cards a seat has put forward in a simultaneous step (pass, aside, split, gift, give); nil until it acted
	pendSuit []int8   // Crystal Clear: the suit a seat has chosen to reveal, +1; 0 until it acted
	setAside [][]Card // face-down cards before a seat: the Late to the Ball card, the After Party / Blind Man's Bluff half
	gifts    []Card   // Wedding Gift: each seat's card on the current trick's gift pile
	giftsWon [][]Card // Wedding Gift: the gift cards each seat has taken this round (counted openly at its end)
	revealed [][]Card // Crystal Clear: each seat's revealed cards still in hand
	masked   []Card   // Masquerade: each seat's face-down play to the current trick
	first    engine.Seat
	starter  engine.Seat // who led the round's first trick
	leader   engine.Seat // who leads the current trick
	trick    []Play
	snuckIn  bool
	princed  bool // a Prince has been played to a trick this round (the Little Mermaid may name them)
	captured [][]Card
	tricks   []int
	lastWin  engine.Seat // the last completed trick's winner, kept into the next round
	last     []Play      // the last completed trick

	used  []bool       // power spent this round, per seat
	decls []decl       // declared before-trick powers waiting to resolve, in order
	eff   trickEffects // the powers in force for the current trick
	sub   subStep      // the open power sub-step (phasePower)

	roundScores [][]int
	totals      []int
	winners     []engine.Seat
	note        string
}

func newState(c config, n int) *State {
	st := &State{cfg: c, n: n, rounds: slices.Clone(c.rounds), lastWin: -1}
	st.offered = make([][]PrincessID, n)
	st.chosen = make([]PrincessID, n)
	for i := range st.chosen {
		st.chosen[i] = NoPrincess
	}
	st.hands = make([][]Card, n)
	st.pending = make([][]Card, n)
	st.pendSuit = make([]int8, n)
	st.setAside = make([][]Card, n)
	st.gifts = make([]Card, n)
	st.giftsWon = make([][]Card, n)
	st.revealed = make([][]Card, n)
	st.masked = make([]Card, n)
	st.captured = make([][]Card, n)
	st.tricks = make([]int, n)
	st.totals = make([]int, n)
	st.used = make([]bool, n)
	return st
}

func (st *State) card() *roundData { return st.rounds[st.round].data() }

func (st *State) next(s engine.Seat, k int) engine.Seat {
	return engine.Seat((int(s)%st.n + k%st.n + st.n) % st.n)
}

// Clone returns an independent copy.
func (st *State) Clone() engine.State { return st.clone() }

func (st *State) clone() *State {
	c := *st
	c.cfg.rounds = slices.Clone(st.cfg.rounds)
	c.rounds = slices.Clone(st.rounds)
	c.offered = engine.CloneNested(st.offered)
	c.chosen = slices.Clone(st.chosen)
	c.hands = engine.CloneNested(st.hands)
	c.pending = engine.CloneNested(st.pending)
	c.pendSuit = slices.Clone(st.pendSuit)
	c.setAside = engine.CloneNested(st.setAside)
	c.gifts = slices.Clone(st.gifts)
	c.giftsWon = engine.CloneNested(st.giftsWon)
	c.revealed = engine.CloneNested(st.revealed)
	c.masked = slices.Clone(st.masked)
	c.trick = slices.Clone(st.trick)
	c.captured = engine.CloneNested(st.captured)
	c.tricks = slices.Clone(st.tricks)
	c.last = slices.Clone(st.last)
	c.roundScores = engine.CloneNested(st.roundScores)
	c.totals = slices.Clone(st.totals)
	c.winners = slices.Clone(st.winners)
	c.used = slices.Clone(st.used)
	c.decls = slices.Clone(st.decls)
	return &c
}

// Acting lists the seats that must act now.
func (st *State) Acting() []engine.Seat {
	if st.phase == phaseOver {
		return nil
	}
	if st.phase == phasePlay && !st.maskedTurn() {
		return []engine.Seat{st.turn()}
	}
	if st.phase == phaseHaggle {
		return []engine.Seat{st.lastWin}
	}
	if st.phase == phasePower {
		return []engine.Seat{st.sub.seat}
	}
	var out []engine.Seat
	for s := 0; s < st.n; s++ {
		if st.acting(engine.Seat(s)) {
			out = append(out, engine.Seat(s))
		}
	}
	return out
}

func (st *State) rules() *roundRules { return &st.rounds[st.round].data().rules }

// turn is the seat whose turn it is in a trick played in turn order.
func (st *State) turn() engine.Seat { return st.next(st.leader, len(st.trick)%st.n) }

// maskedTurn reports whether the seats after the leader now play face down,
// all at once (Masquerade).
func (st *State) maskedTurn() bool { return st.rules().masked && len(st.trick) > 0 }

// trickSize is the number of plays that complete a trick.
func (st *State) trickSize() int { return st.n * st.rules().cardsPerTurn() }

func (st *State) acting(s engine.Seat) bool {
	if s < 0 || int(s) >= st.n {
		return false
	}
	switch st.phase {
	case phaseChoose:
		return st.chosen[s] == NoPrincess
	case phaseReveal:
		return st.pendSuit[s] == 0
	case phasePass, phaseAside, phaseSplit, phaseGift, phaseGive, phaseOffer:
		return st.pending[s] == nil
	case phasePlay:
		if st.maskedTurn() {
			return s != st.leader && st.masked[s] == 0
		}
		return st.turn() == s
	case phaseHaggle:
		return st.lastWin == s
	case phasePower:
		return st.sub.seat == s
	}
	return false
}

// Legal lists every action seat s may take now.
func (st *State) Legal(s engine.Seat) []engine.Action {
	if !st.acting(s) {
		return nil
	}
	var out []engine.Action
	hand := st.hands[s]
	switch st.phase {
	case phaseChoose:
		for _, p := range st.offered[s] {
			out = append(out, choose(p))
		}
	case phasePass:
		out = st.appendPasses(out, s)
	case phasePlay:
		cards := st.playable(s)
		out = make([]engine.Action, len(cards), len(cards)+4)
		for i, c := range cards {
			out[i] = play(c)
		}
		out = append(out, st.powerPlays(s, cards)...)
		out = append(out, st.declareOptions(s)...)
	case phasePower:
		out = st.subLegal()
	case phaseAside, phaseGift, phaseGive, phaseOffer:
		k := stepKind[st.phase]
		out = make([]engine.Action, 0, len(hand))
		for _, c := range hand {
			if c != st.frozenFor(s) { // the frozen card must be played in this trick
				out = append(out, cardAction(k, c))
			}
		}
		out = append(out, st.declareOptions(s)...)
	case phaseReveal:
		for su := Suit(0); su < numSuits; su++ {
			if holdsSuit(hand, su) {
				out = append(out, Action{Kind: KindReveal, Suit: su})
			}
		}
	case phaseSplit:
		half := len(hand) / 2
		out = slices.Grow(out, binomial(len(hand), half))
		var idx [maxCards]int
		for ok := firstCombo(idx[:half], len(hand)); ok; ok = nextCombo(idx[:half], len(hand)) {
			a := Action{Kind: KindSplit, N: uint8(half)}
			for j, i := range idx[:half] {
				a.Cards[j] = hand[i]
			}
			out = append(out, a)
		}
	case phaseHaggle:
		out = append(out, Action{Kind: KindKeep})
		for _, h := range hand {
			for _, t := range st.swappable() {
				out = append(out, cardAction(KindSwap, h, t))
			}
		}
	}
	return out
}

// onlyPrinces reports whether every card of hand is a Prince (such a hand
// may lead one while they are locked).
func onlyPrinces(hand []Card) bool {
	return !slices.ContainsFunc(hand, func(c Card) bool { return c.Suit() != Princes })
}

func holdsSuit(hand []Card, su Suit) bool {
	for _, c := range hand {
		if c.Suit() == su {
			return true
		}
	}
	return false
}

// swappable lists the cards of the trick just won that its winner may take
// (Haggle with the Hag): any but the ones the winner played. A winner who
// used Mulan's power in the trick makes two exchanges (ruling 26; seed 000
// "Konszachty z Wiedźmą", seed 001 FAQ): one card someone else played, and
// the card she put in with her power, in either order.
func (st *State) swappable() []Card {
	var out []Card
	w := st.lastWin
	if st.eff.haggled&haggleOther == 0 {
		for _, p := range st.last {
			if p.Seat != w {
				out = append(out, p.Card)
			}
		}
	}
	if c := st.mulanCard(); c != 0 && st.eff.haggled&haggleMulan == 0 {
		out = append(out, c)
	}
	return out
}

// mulanCard is the card the trick's winner put into it with Mulan's power
// and that still lies there, 0 if none.
func (st *State) mulanCard() Card {
	w := st.lastWin
	if w < 0 {
		return 0
	}
	c := st.eff.mulanIn[w]
	if c == 0 || !slices.ContainsFunc(st.last, func(p Play) bool { return p.Seat == w && p.Card == c }) {
		return 0
	}
	return c
}

// appendPasses appends every legal pass of seat s: the left cards then the
// right cards, each group in card order (hands are kept sorted).
func (st *State) appendPasses(out []engine.Action, s engine.Seat) []engine.Action {
	ps := st.card().pass
	hand := st.hands[s]
	n := len(hand)
	out = slices.Grow(out, binomial(n, ps.left)*binomial(n-ps.left, ps.right))
	var li, ri [maxCards]int
	for ok := firstCombo(li[:ps.left], n); ok; ok = nextCombo(li[:ps.left], n) {
		// The right group is a combination of the positions not in the left one.
		var rest [16]Card
		m := 0
		for i, c := range hand {
			if !slices.Contains(li[:ps.left], i) {
				rest[m] = c
				m++
			}
		}
		for ok := firstCombo(ri[:ps.right], m); ok; ok = nextCombo(ri[:ps.right], m) {
			a := Action{Kind: KindPass, N: uint8(ps.total())}
			for j, i := range li[:ps.left] {
				a.Cards[j] = hand[i]
			}
			for j, i := range ri[:ps.right] {
				a.Cards[ps.left+j] = rest[i]
			}
			out = append(out, a)
		}
	}
	return out
}

// firstCombo sets idx to the first k-combination of 0..n-1.
func firstCombo(idx []int, n int) bool {
	for i := range idx {
		idx[i] = i
	}
	return len(idx) <= n
}

// nextCombo advances idx to the next k-combination of 0..n-1 in
// lexicographic order; false when there is none.
func nextCombo(idx []int, n int) bool {
	k := len(idx)
	for i := k - 1; i >= 0; i-- {
		if idx[i] < n-k+i {
			idx[i]++
			for j := i + 1; j < k; j++ {
				idx[j] = idx[j-1] + 1
			}
			return true
		}
	}
	return false
}

func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// required is the suit the next card of the current trick must follow.
func (st *State) required() Suit {
	if f := st.rules().required; f != nil {
		return f(st.trick)
	}
	return st.trick[0].Card.Suit()
}

// playable lists the cards seat s may play to the current trick.
func (st *State) playable(s engine.Seat) []Card {
	hand := st.hands[s]
	rules := st.rules()
	frozen := st.frozenFor(s)
	if frozen != 0 && (rules.cardsPerTurn() == 1 || slices.ContainsFunc(st.trick, func(p Play) bool { return p.Seat == s })) {
		// The Ice Princess's card overrides every other rule. In Rings
		// Twice it may be either of the seat's two cards ("którą musi
		// zagrać w tej lewie"): the second one if not the first.
		return []Card{frozen}
	}
	out := st.followable(s, hand, rules)
	if frozen != 0 && !slices.Contains(out, frozen) {
		out = append(out, frozen)
		slices.Sort(out)
	}
	return out
}

// followable lists the cards seat s may play under the rules of the lead,
// the round card and the powers in force (the Ice Princess aside).
func (st *State) followable(s engine.Seat, hand []Card, rules *roundRules) []Card {
	var out []Card
	if len(st.trick) == 0 && st.eff.lead > 0 && holdsSuit(hand, Suit(st.eff.lead-1)) {
		// Mermaid, Rapunzel: the imposed suit, Princes even while locked.
		for _, c := range hand {
			if c.Suit() == Suit(st.eff.lead-1) {
				out = append(out, c)
			}
		}
	} else if len(st.trick) == 0 {
		only := onlyPrinces(hand)
		for _, c := range hand {
			if c.Suit() != Princes || st.snuckIn || only {
				out = append(out, c)
			}
		}
	} else if rules.follow != nil {
		out = rules.follow(st.trick, st.required(), hand)
	} else {
		out = followSuit(hand, st.required())
	}
	if rules.playable != nil {
		out = rules.playable(hand, out)
	}
	if st.eff.pea > 0 && st.eff.pea != int8(s)+1 {
		// The Princess and the Pea: above 5 if possible.
		out = above5(out)
	}
	if rules.prefer != nil && len(st.trick) > 0 {
		out = rules.prefer(st.trick, out)
	}
	if st.eff.thumb == int8(s)+1 {
		// Thumbelina's second card of a Rings Twice trick is free too.
		for _, c := range hand {
			if c.Suit() != Princes && !c.IsFrog() && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
		slices.Sort(out)
	}
	return out
}

// above5 is the cards above 5 among cs, or cs if there are none (the
// Princess and the Pea).
func above5(cs []Card) []Card {
	var high []Card
	for _, c := range cs {
		if c.Rank() > 5 {
			high = append(high, c)
		}
	}
	if len(high) > 0 {
		return high
	}
	return cs
}

// Apply performs action a for seat s.
func (st *State) Apply(s engine.Seat, a engine.Action, r *engine.Rand) ([]engine.Event, error) {
	act, err := engine.Admit(a, st.phase == phaseOver, s, func(act Action) bool {
		// A waiting seat may declare or withdraw a power while the tricks go on.
		optional := act.Kind == KindDeclare || act.Kind == KindWithdraw
		return st.acting(s) || (optional && st.declaring() && s >= 0 && int(s) < st.n)
	})
	if err != nil {
		return nil, err
	}
	act = st.canonical(s, act)
	if !st.isLegal(s, act) {
		return nil, st.whyIllegal(s, act)
	}
	// An action that ends the choice or a round deals anew, which may fail
	// on a bad scripted deal: work on a copy so that st stays as it was.
	next := st
	if st.mayDeal(s, act) || act.Kind >= KindDeclare || (act.Kind == KindPlay && act.Pow > 0) {
		next = st.clone()
	}
	var ev []engine.Event
	switch act.Kind {
	case KindChoose:
		ev, err = next.applyChoose(s, act, r)
	case KindPlay:
		ev, err = next.applyPlay(s, act.Cards[0], act.Power(), r)
	case KindSwap, KindKeep:
		ev, err = next.applyHaggle(s, act, r)
	case KindDeclare, KindWithdraw:
		ev, err = next.applyDeclare(s, act, r)
	case KindSing, KindMulan, KindAlice, KindGuide, KindTrade, KindRetain, KindAssign, KindFreeze:
		ev, err = next.applySub(s, act, r)
	default:
		ev, err = next.applyStep(s, act, r)
	}
	if err != nil {
		return nil, err
	}
	if next != st {
		*st = *next
	}
	return ev, nil
}

// isLegal reports whether a is among Legal(s), without listing them all.
// It uses the same rules as Legal.
func (st *State) isLegal(s engine.Seat, a Action) bool {
	hand := st.hands[s]
	cs := a.CardList()
	distinctInHand := func() bool {
		for i, c := range cs {
			if !slices.Contains(hand, c) || slices.Contains(cs[:i], c) {
				return false
			}
		}
		return true
	}
	switch {
	case st.phase == phaseChoose && a.Kind == KindChoose:
		return slices.Contains(st.offered[s], a.Princess)
	case st.phase == phasePass && a.Kind == KindPass:
		ps := st.card().pass
		if int(a.N) != ps.total() {
			return false
		}
		return distinctInHand() && slices.IsSorted(cs[:ps.left]) && slices.IsSorted(cs[ps.left:])
	case st.phase == phasePlay && a.Kind == KindPlay && a.N == 1 && a.Pow == 0:
		return slices.Contains(st.playable(s), a.Cards[0])
	case st.phase == phasePlay && a.Kind == KindPlay:
		return slices.Contains(st.powerPlays(s, st.playable(s)), engine.Action(a))
	case a.Kind == KindDeclare || a.Kind == KindWithdraw:
		return slices.Contains(st.declareOptions(s), engine.Action(a))
	case st.phase == phasePower && a.Kind == st.sub.kind:
		return slices.Contains(st.subLegal(), engine.Action(a))
	case st.phase.simultaneous() && a.Kind == stepKind[st.phase] && a.Kind != KindSplit && a.Kind != KindReveal:
		return a.N == 1 && distinctInHand() && (st.phase == phasePass || a.Cards[0] != st.frozenFor(s))
	case st.phase == phaseReveal && a.Kind == KindReveal:
		return a.N == 0 && a.Suit < numSuits && holdsSuit(hand, a.Suit)
	case st.phase == phaseSplit && a.Kind == KindSplit:
		return int(a.N) == len(hand)/2 && distinctInHand() && slices.IsSorted(cs)
	case st.phase == phaseHaggle && a.Kind == KindKeep:
		return a.N == 0
	case st.phase == phaseHaggle && a.Kind == KindSwap:
		return a.N == 2 && slices.Contains(hand, a.Cards[0]) && slices.Contains(st.swappable(), a.Cards[1])
	}
	return false
}

// Canonical is a as Legal spells it (engine.Canonicalizer).
func (st *State) Canonical(s engine.Seat, a engine.Action) engine.Action {
	if act, ok := a.(Action); ok {
		return st.canonical(s, act)
	}
	return a
}

// canonical reads two spellings that mean the canonical action: a two-card
// pass to one side in any order (the round card fixes the direction, so
// the order carries nothing), and a power named again on the second card of
// a Rings Twice trick, where the power already covers both cards ("Moce
// Księżniczki wpływają na obie karty zagrane w tej podwójnej lewie").
func (st *State) canonical(s engine.Seat, a Action) Action {
	switch {
	case a.Kind == KindPass && st.phase == phasePass && a.N == 2:
		if p := st.card().pass; p.left == 0 || p.right == 0 {
			cs := slices.Clone(a.CardList())
			slices.Sort(cs)
			return pass(cs...)
		}
	case a.Kind == KindPlay && a.Pow > 0 && st.phase == phasePlay && st.powerInForce(s, a.Power()):
		a.Pow = 0
	}
	return a
}

// powerInForce reports whether seat s's play power p already covers its
// next card in this trick (its second card of a Rings Twice trick).
func (st *State) powerInForce(s engine.Seat, p PrincessID) bool {
	if !slices.ContainsFunc(st.trick, func(pl Play) bool { return pl.Seat == s }) {
		return false
	}
	switch p.String() {
	case "snow-white":
		return st.eff.zeros&(1<<s) != 0
	case "thumbelina":
		return st.eff.thumb == int8(s)+1
	}
	return false
}

// mayDeal reports whether applying a could start a new round (and so deal).
func (st *State) mayDeal(s engine.Seat, a Action) bool {
	switch a.Kind {
	case KindChoose:
		return len(st.Acting()) == 1
	case KindPlay:
		return len(st.hands[s]) <= st.rules().cardsPerTurn()+st.rules().stopAt &&
			(len(st.trick) == st.trickSize()-1 || (st.maskedTurn() && len(st.Acting()) == 1))
	}
	return false
}

// whyIllegal explains an action that is not in the legal list.
func (st *State) whyIllegal(s engine.Seat, a Action) error {
	hand := st.hands[s]
	checkCards := func(want int, code string) error {
		if int(a.N) != want {
			return engine.Errorf(code, "count", want)
		}
		seen := map[Card]bool{}
		for _, c := range a.CardList() {
			if seen[c] {
				return engine.Errorf(CodeDuplicateCard, "card", c.String())
			}
			seen[c] = true
			if !slices.Contains(hand, c) {
				return engine.Errorf(CodeNotInHand, "card", c.String())
			}
		}
		return nil
	}
	switch {
	case a.Kind == KindDeclare || a.Kind == KindWithdraw:
		return st.whyNoDeclare(s, a)
	case st.phase == phasePower && a.Kind == KindGuide && st.sub.kind == KindGuide && a.TargetSeat() == st.sub.seat:
		return engine.Errorf(CodeNotSelf, "power", "pocahontas")
	case st.phase == phasePower && a.Kind == st.sub.kind && a.Kind >= KindTrade:
		// A card-moving power's answer that is not among its choices: name
		// the cards it may take.
		var cards []string
		for _, l := range st.subLegal() {
			if la := l.(Action); la.N > 0 && !slices.Contains(cards, la.Cards[0].String()) {
				cards = append(cards, la.Cards[0].String())
			}
		}
		return engine.Errorf(CodeNotAChoice, "action", a.String(), "cards", cards)
	case a.Kind == KindChoose && st.phase == phaseChoose:
		return engine.Errorf(CodeNotOffered, "princess", a.Princess.String())
	case a.Kind == KindPass && st.phase == phasePass:
		if err := checkCards(st.card().pass.total(), CodePassCount); err != nil {
			return err
		}
	case a.Kind == KindSplit && st.phase == phaseSplit:
		if err := checkCards(len(hand)/2, CodeSplitCount); err != nil {
			return err
		}
	case st.phase.simultaneous() && a.Kind == stepKind[st.phase] && a.Kind != KindReveal:
		if err := checkCards(1, engine.CodeIllegal); err != nil {
			return err
		}
		if f := st.frozenFor(s); f != 0 && a.N == 1 && a.Cards[0] == f {
			return engine.Errorf(CodeMustPlayFrozen, "card", f.String())
		}
	case a.Kind == KindReveal && st.phase == phaseReveal:
		return engine.Errorf(CodeSuitNotHeld, "suit", a.Suit.Word())
	case a.Kind == KindSwap && st.phase == phaseHaggle:
		if !slices.Contains(hand, a.Cards[0]) {
			return engine.Errorf(CodeNotInHand, "card", a.Cards[0].String())
		}
		for _, p := range st.last {
			if p.Card == a.Cards[1] && p.Seat == st.lastWin {
				return engine.Errorf(CodeOwnTrickCard, "card", a.Cards[1].String())
			}
			if p.Card == a.Cards[1] {
				// Mulan's second exchange may only take back her own card.
				return engine.Errorf(CodeAlreadySwapped, "card", a.Cards[1].String())
			}
		}
		return engine.Errorf(CodeNotInTrick, "card", a.Cards[1].String())
	case a.Kind == KindPlay && st.phase == phasePlay:
		c := a.Cards[0]
		if !slices.Contains(hand, c) {
			return engine.Errorf(CodeNotInHand, "card", c.String())
		}
		if a.Pow > 0 {
			if !slices.Contains(st.powersOf(s), a.Power()) {
				return engine.Errorf(CodeNoPower, "power", a.Power().String())
			}
			if st.used[s] || st.pendingDecl(s) >= 0 {
				return engine.Errorf(CodePowerUsed, "power", a.Power().String())
			}
		}
		if f := st.frozenFor(s); f != 0 && (st.rules().cardsPerTurn() == 1 || slices.ContainsFunc(st.trick, func(p Play) bool { return p.Seat == s })) {
			return engine.Errorf(CodeMustPlayFrozen, "card", f.String())
		}
		if len(st.trick) == 0 && st.eff.lead > 0 && c.Suit() != Suit(st.eff.lead-1) && holdsSuit(hand, Suit(st.eff.lead-1)) {
			return engine.Errorf(CodeMustLead, "card", c.String(), "suit", Suit(st.eff.lead-1).Word())
		}
		if len(st.trick) == 0 && st.eff.lead == 0 && c.Suit() == Princes && !st.snuckIn && !onlyPrinces(hand) {
			return engine.Errorf(CodePrincesLocked, "card", c.String())
		}
		if len(st.trick) > 0 {
			rules := st.rules()
			var base []Card
			if rules.follow != nil {
				base = rules.follow(st.trick, st.required(), hand)
			} else {
				base = followSuit(hand, st.required())
			}
			if !slices.Contains(base, c) {
				req := st.required()
				switch {
				case c.Suit() != req && holdsSuit(base, req):
					return engine.Errorf(CodeMustFollow, "card", c.String(), "suit", req.Word())
				case c.Suit() != Fairies && !holdsSuit(base, req) && holdsSuit(base, Fairies) && !holdsSuit(base, c.Suit()):
					return engine.Errorf(CodeMustFollow, "card", c.String(), "suit", Fairies.Word())
				}
				return engine.Errorf(CodeMustMatchParity, "card", c.String(), "rank", st.trick[0].Card.Rank())
			}
			if rules.prefer != nil {
				pool := base
				if st.eff.pea > 0 && st.eff.pea != int8(s)+1 {
					pool = above5(pool)
				}
				if slices.Contains(pool, c) {
					return engine.Errorf(CodeMustMatchParity, "card", c.String(), "rank", st.trick[0].Card.Rank())
				}
			}
		}
		if st.rules().playable != nil && !slices.Contains(st.rules().playable(hand, hand), c) {
			return engine.Errorf(CodeHighOrLow, "card", c.String())
		}
		if st.eff.pea > 0 && st.eff.pea != int8(s)+1 && c.Rank() <= 5 {
			return engine.Errorf(CodeAboveFive, "card", c.String())
		}
		if a.Pow > 0 {
			return engine.Errorf(CodePowerNotNow, "power", a.Power().String(), "action", a.String())
		}
	default:
		return engine.Errorf(CodeWrongPhase, "phase", st.phase.String(), "action", a.String())
	}
	return engine.Errorf(engine.CodeIllegal, "action", a.String())
}

func (st *State) applyChoose(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	st.chosen[s] = a.Princess
	ev := []engine.Event{engine.Public("princess_chosen", map[string]any{"seat": s})}
	if len(st.Acting()) > 0 {
		return ev, nil
	}
	ev = append(ev, engine.Public("princesses_revealed", map[string]any{"princesses": princessStrings(st.chosen)}))
	return append(ev, st.beginRoundPlay(r)...), nil
}

func princessStrings(ps []PrincessID) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// takeCard removes c from seat s's hand (and from its revealed cards).
func (st *State) takeCard(s engine.Seat, c Card) {
	st.hands[s], _ = engine.RemoveOne(st.hands[s], c)
	if len(st.revealed[s]) > 0 {
		st.revealed[s], _ = engine.RemoveOne(st.revealed[s], c)
	}
}

// openStep starts a simultaneous step (or the haggle) with nothing decided.
func (st *State) openStep(p phase) {
	st.phase = p
	for s := range st.pending {
		st.pending[s] = nil
		st.pendSuit[s] = 0
	}
}

// applyStep records a seat's part in a simultaneous step (pass, aside,
// reveal, split, gift, give), hidden from the others; the last one resolves
// the step.
func (st *State) applyStep(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	if a.Kind == KindReveal {
		st.pendSuit[s] = int8(a.Suit) + 1
	} else {
		cs := slices.Clone(a.CardList())
		for _, c := range cs {
			st.takeCard(s, c)
		}
		st.pending[s] = cs
	}
	ev := []engine.Event{engine.Public("step_done", map[string]any{"seat": s, "step": st.phase.String()})}
	if st.phase == phasePass {
		ev[0] = engine.Public("cards_passed", map[string]any{"seat": s})
	}
	if len(st.Acting()) > 0 {
		return ev, nil
	}
	switch st.phase {
	case phasePass:
		return st.resolvePass(ev, r), nil
	case phaseAside, phaseSplit:
		for i := range st.pending {
			st.setAside[i], st.pending[i] = st.pending[i], nil
			slices.Sort(st.setAside[i])
		}
		ev = append(ev, engine.Public(st.phase.String()+"_done", nil))
		return append(ev, st.startTrick(r)...), nil
	case phaseReveal:
		for i := range st.pendSuit {
			su := Suit(st.pendSuit[i] - 1)
			st.pendSuit[i] = 0
			var cs []Card
			for _, c := range st.hands[i] {
				if c.Suit() == su {
					cs = append(cs, c)
				}
			}
			st.revealed[i] = cs
			ev = append(ev, engine.Public("suit_revealed", map[string]any{"seat": engine.Seat(i), "suit": su.Word(), "cards": engine.Strings(cs)}))
		}
		return append(ev, st.startTrick(r)...), nil
	case phaseOffer:
		return st.offersDone(ev), nil
	case phaseGift:
		for i := range st.pending {
			st.gifts[i], st.pending[i] = st.pending[i][0], nil
		}
		st.phase = phasePlay
		return append(ev, engine.Public("gifts_placed", nil)), nil
	case phaseGive:
		// Every seat passes one card to its right neighbour (seat-1).
		got := make([]Card, st.n)
		for i := range st.pending {
			got[st.next(engine.Seat(i), -1)] = st.pending[i][0]
		}
		for i := range st.pending {
			to, from := st.next(engine.Seat(i), -1), st.next(engine.Seat(i), 1)
			st.hands[i] = append(st.hands[i], got[i])
			slices.Sort(st.hands[i])
			ev = append(ev, engine.Private(engine.Seat(i), "card_given", map[string]any{
				"card": st.pending[i][0].String(), "to": to, "got": got[i].String(), "from": from,
			}))
			st.pending[i] = nil
		}
		ev = append(ev, engine.Public("give_done", nil))
		return append(ev, st.startTrick(r)...), nil
	}
	return ev, nil
}

// resolvePass hands every seat the cards passed to it.
func (st *State) resolvePass(ev []engine.Event, r *engine.Rand) []engine.Event {
	ps := st.card().pass
	got := make([][]Card, st.n)
	from := make([][]engine.Seat, st.n)
	for i := 0; i < st.n; i++ {
		giver := engine.Seat(i)
		left, right := st.next(giver, 1), st.next(giver, -1)
		for j, c := range st.pending[i] {
			to := left
			if j >= ps.left {
				to = right
			}
			got[to] = append(got[to], c)
			from[to] = append(from[to], giver)
		}
	}
	for i := 0; i < st.n; i++ {
		st.hands[i] = append(st.hands[i], got[i]...)
		slices.Sort(st.hands[i])
		ev = append(ev, engine.Private(engine.Seat(i), "cards_received", map[string]any{
			"cards": engine.Strings(got[i]), "from": from[i], "gave": engine.Strings(st.pending[i]),
		}))
		st.pending[i] = nil
	}
	ev = append(ev, engine.Public("passing_done", nil))
	return append(ev, st.afterPass(r)...)
}

// afterPass opens the round card's setup step, or the first trick.
func (st *State) afterPass(r *engine.Rand) []engine.Event {
	if p := st.rules().setup; p != 0 {
		st.openStep(p)
		return nil
	}
	return st.startTrick(r)
}

// startTrick opens the next trick: the declared powers resolve (Sleeping
// Beauty before the gifts, ruling 21; after Musical Chairs' pass, ruling 8),
// then the round card's step before every trick (Wedding Gift), then the
// lead.
func (st *State) startTrick(r *engine.Rand) []engine.Event {
	st.eff = trickEffects{}
	st.phase = phasePlay
	return st.resolveDecls(nil, r)
}

// sneaks reports whether c, played when req is the suit to follow, is a
// void player's Prince that lets the Princes sneak in.
func (st *State) sneaks(c Card, req Suit) bool {
	return c.Suit() == Princes && req != Princes && !st.snuckIn
}

func (st *State) applyPlay(s engine.Seat, c Card, p PrincessID, r *engine.Rand) ([]engine.Event, error) {
	free := len(st.trick) > 0 && c.Suit() != st.required() && holdsSuit(st.hands[s], st.required())
	if c == st.frozenFor(s) {
		st.eff.frozenPlayed = true
	}
	st.takeCard(s, c)
	pw := map[string]any{}
	if p != NoPrincess {
		// A power used in playing is announced, even face down (ruling 11).
		st.applyPlayPower(s, c, p)
		pw["power"] = p.String()
	}
	if st.maskedTurn() {
		st.masked[s] = c
		if free {
			st.eff.free |= 1 << s
		}
		ev := []engine.Event{engine.Public("card_masked", withArgs(pw, "seat", s))}
		if len(st.Acting()) > 0 {
			return ev, nil
		}
		return st.revealMasked(ev, r)
	}
	ev := []engine.Event{engine.Public("card_played", withArgs(pw, "seat", s, "card", c.String()))}
	if len(st.trick) > 0 && st.sneaks(c, st.required()) {
		st.snuckIn = true
		ev = append(ev, engine.Public("princes_snuck_in", map[string]any{"seat": s}))
	}
	st.trick = append(st.trick, Play{Seat: s, Card: c, Free: free})
	st.princed = st.princed || c.Suit() == Princes
	if len(st.trick) < st.trickSize() {
		return ev, nil
	}
	return st.resolveTrick(ev, r)
}

// revealMasked turns the face-down plays up together, in turn order from
// the leader's left (Masquerade).
func (st *State) revealMasked(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	req := st.required()
	var cards []string
	var seats []engine.Seat
	sneaked := engine.Seat(-1)
	for k := 1; k < st.n; k++ {
		s := st.next(st.leader, k)
		c := st.masked[s]
		st.masked[s] = 0
		if sneaked < 0 && st.sneaks(c, req) {
			sneaked = s
		}
		st.trick = append(st.trick, Play{Seat: s, Card: c, Free: st.eff.free&(1<<s) != 0})
		st.princed = st.princed || c.Suit() == Princes
		cards = append(cards, c.String())
		seats = append(seats, s)
	}
	ev = append(ev, engine.Public("cards_unmasked", map[string]any{"seats": seats, "cards": cards}))
	if sneaked >= 0 {
		st.snuckIn = true
		ev = append(ev, engine.Public("princes_snuck_in", map[string]any{"seat": sneaked}))
	}
	return st.resolveTrick(ev, r)
}

// resolveTrick decides the completed trick: first Mulan's offer (every card
// is down), then the winner, Alice's offer, and the capture.
func (st *State) resolveTrick(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	if s := st.nextMulan(); s >= 0 {
		st.openSub(KindMulan, s)
		return ev, nil
	}
	w := st.trick[st.trickWinner(st.trick)].Seat
	if st.canUse(w, pid("alice")) && !slices.ContainsFunc(st.trick, func(p Play) bool { return p.Card.IsFrog() }) {
		st.lastWin = w
		st.openSub(KindAlice, w)
		return append(ev, engine.Public("trick_decided", map[string]any{"seat": w})), nil
	}
	return st.takeTrick(ev, r)
}

// takeTrick gives the completed trick (and the gift pile) to its winner.
func (st *State) takeTrick(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	wi := st.trickWinner(st.trick)
	w := st.trick[wi].Seat
	cards := make([]Card, len(st.trick))
	seats := make([]engine.Seat, len(st.trick))
	points := 0
	for i, p := range st.trick {
		cards[i], seats[i] = p.Card, p.Seat
		points += basePoints(p.Card)
	}
	st.captured[w] = append(st.captured[w], cards...)
	gifts := 0 // face down, even to the winner, until the round is scored
	for i, g := range st.gifts {
		if g != 0 {
			st.captured[w] = append(st.captured[w], g)
			st.giftsWon[w] = append(st.giftsWon[w], g)
			st.gifts[i] = 0
			gifts++
		}
	}
	st.tricks[w]++
	st.lastWin = w
	st.last = st.trick
	st.trick = nil
	st.leader = w
	ev = append(ev, engine.Public("trick_won", map[string]any{
		"seat": w, "cards": engine.Strings(cards), "seats": seats, "points": points, "gifts": gifts,
	}))

	if st.canUse(w, pid("pocahontas")) && powerFor(st.cfg.edition, pid("pocahontas")).when == atWin && st.moreTricks() {
		st.openSub(KindGuide, w)
		return ev, nil
	}
	return st.afterTrick(ev, r)
}

// afterTrick ends the round when the hands are played out (or, in Late for
// a Date, down to the cards kept), else opens the round card's step after a
// trick, or the next trick.
func (st *State) afterTrick(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	rules := st.rules()
	left := len(st.hands[st.lastWin])
	if rules.stopAt > 0 && left <= rules.stopAt {
		seats := make([]engine.Seat, st.n)
		kept := make([]string, 0, st.n*left)
		for s := range st.hands {
			seats[s] = engine.Seat(s)
			kept = append(kept, engine.Strings(st.hands[s])...)
			st.captured[s] = append(st.captured[s], st.hands[s]...)
			st.hands[s] = nil
			st.revealed[s] = nil
		}
		ev = append(ev, engine.Public("cards_kept", map[string]any{"seats": seats, "cards": kept, "each": left}))
		return st.endRound(ev, r)
	}
	if left == 0 && len(st.setAside[st.lastWin]) == 0 {
		return st.endRound(ev, r)
	}
	if left > 0 && rules.after != 0 {
		st.openStep(rules.after)
		return ev, nil
	}
	return append(ev, st.nextTrick(r)...), nil
}

// nextTrick picks up the set-aside cards when the hands have run out, then
// opens the next trick.
func (st *State) nextTrick(r *engine.Rand) []engine.Event {
	var ev []engine.Event
	if len(st.hands[st.leader]) == 0 {
		right := st.rules().halfRight
		for i := 0; i < st.n; i++ {
			to := engine.Seat(i)
			if right {
				to = st.next(to, -1)
			}
			cs := st.setAside[i]
			st.hands[to] = append(st.hands[to], cs...)
			slices.Sort(st.hands[to])
			st.setAside[i] = nil
			args := map[string]any{"cards": engine.Strings(cs), "from": engine.Seat(i), "to": to}
			ev = append(ev, engine.Private(to, "set_aside_taken", args))
			if to != engine.Seat(i) {
				ev = append(ev, engine.Private(engine.Seat(i), "set_aside_given", args))
			}
		}
		ev = append(ev, engine.Public("set_aside_picked_up", map[string]any{"right": right}))
	}
	return append(ev, st.startTrick(r)...)
}

// applyHaggle is the trick winner's choice after the trick (Haggle with the
// Hag): keep, or swap a hand card (shown to all) for a card of the trick
// that someone else played. Putting a Prince into one's trick this way does
// not make the Princes sneak in (ruling 6).
func (st *State) applyHaggle(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	var ev []engine.Event
	if a.Kind == KindSwap {
		give, take := a.Cards[0], a.Cards[1]
		mulan := take == st.mulanCard() && st.eff.haggled&haggleMulan == 0
		if mulan {
			st.eff.haggled |= haggleMulan
		} else {
			st.eff.haggled |= haggleOther
		}
		st.takeCard(s, give)
		st.hands[s] = append(st.hands[s], take)
		slices.Sort(st.hands[s])
		st.captured[s], _ = engine.RemoveOne(st.captured[s], take)
		st.captured[s] = append(st.captured[s], give)
		last := slices.Clone(st.last)
		for i := range last {
			if last[i].Card == take {
				last[i] = Play{Seat: s, Card: give}
			}
		}
		st.last = last
		ev = append(ev, engine.Public("haggled", map[string]any{"seat": s, "gave": give.String(), "took": take.String()}))
		if len(st.swappable()) > 0 && len(st.hands[s]) > 0 {
			// Mulan's second exchange (ruling 26): the haggle stays open.
			return ev, nil
		}
	} else {
		ev = append(ev, engine.Public("haggle_kept", map[string]any{"seat": s}))
	}
	return append(ev, st.nextTrick(r)...), nil
}

// trickWinner is the index of the winning play: the highest card of the led
// suit, unless the round card says otherwise.
// Powers come first (rule hierarchy: power > round card > base rules):
// Snow White's card counts 0 and Cinderella reverses the ranking, through
// the numbers the round card's rule sees, or through its own flip hook.
func (st *State) trickWinner(trick []Play) int {
	return winnerWith(st.rules(), st.valued(trick, st.rules().flip != nil), trick, st.cfg.edition, st.eff.reversed)
}

// winnerWith applies a round card's winner rule to a valued trick.
func winnerWith(rules *roundRules, valued, printed []Play, ed Edition, reversed bool) int {
	if rules.flip != nil {
		return rules.flip(valued, printed, ed, reversed)
	}
	if rules.winner != nil {
		return rules.winner(valued, ed)
	}
	return winHighest(valued, ed)
}

// basePoints are a card's proposals: a Prince 1, the Frog 5.
func basePoints(c Card) int {
	switch {
	case c.Suit() == Princes:
		return 1
	case c.IsFrog():
		return 5
	}
	return 0
}

// withArgs returns a copy of m with the key-value pairs kv added.
func withArgs(m map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
