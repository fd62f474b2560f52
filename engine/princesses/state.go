package princesses

import (
	"slices"
	"strconv"

	"github.com/stolik-bot/stolik/engine"
)

type phase uint8

const (
	phaseChoose phase = iota + 1 // every seat keeps one of two princesses
	phasePass                    // every seat passes the round card's cards
	phasePlay                    // tricks
	phaseOver
)

var phaseNames = [...]string{phaseChoose: "choose", phasePass: "pass", phasePlay: "play", phaseOver: "over"}

func (p phase) String() string { return phaseNames[p] }

// Play is one card played to a trick.
type Play struct {
	Seat engine.Seat
	Card Card
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
	passes   [][]Card // cards a seat has put forward to pass; nil until it passed
	first    engine.Seat
	starter  engine.Seat // who led the round's first trick
	leader   engine.Seat // who leads the current trick
	trick    []Play
	snuckIn  bool
	captured [][]Card
	tricks   []int
	lastWin  engine.Seat
	last     []Play // the last completed trick

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
	st.passes = make([][]Card, n)
	st.captured = make([][]Card, n)
	st.tricks = make([]int, n)
	st.totals = make([]int, n)
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
	c.offered = cloneNested(st.offered)
	c.chosen = slices.Clone(st.chosen)
	c.hands = cloneNested(st.hands)
	c.passes = cloneNested(st.passes)
	c.trick = slices.Clone(st.trick)
	c.captured = cloneNested(st.captured)
	c.tricks = slices.Clone(st.tricks)
	c.last = slices.Clone(st.last)
	c.roundScores = cloneNested(st.roundScores)
	c.totals = slices.Clone(st.totals)
	c.winners = slices.Clone(st.winners)
	return &c
}

func cloneNested[T any](in [][]T) [][]T {
	if in == nil {
		return nil
	}
	out := make([][]T, len(in))
	for i, x := range in {
		if x != nil {
			out[i] = slices.Clone(x)
		}
	}
	return out
}

// Acting lists the seats that must act now.
func (st *State) Acting() []engine.Seat {
	switch st.phase {
	case phaseChoose, phasePass:
		var out []engine.Seat
		for s := 0; s < st.n; s++ {
			if st.acting(engine.Seat(s)) {
				out = append(out, engine.Seat(s))
			}
		}
		return out
	case phasePlay:
		return []engine.Seat{st.turn()}
	}
	return nil
}

func (st *State) turn() engine.Seat { return st.next(st.leader, len(st.trick)) }

func (st *State) acting(s engine.Seat) bool {
	if s < 0 || int(s) >= st.n {
		return false
	}
	switch st.phase {
	case phaseChoose:
		return st.chosen[s] == NoPrincess
	case phasePass:
		return st.passes[s] == nil
	case phasePlay:
		return st.turn() == s
	}
	return false
}

// Legal lists every action seat s may take now.
func (st *State) Legal(s engine.Seat) []engine.Action {
	if !st.acting(s) {
		return nil
	}
	var out []engine.Action
	switch st.phase {
	case phaseChoose:
		for _, p := range st.offered[s] {
			out = append(out, choose(p))
		}
	case phasePass:
		out = st.appendPasses(out, s)
	case phasePlay:
		cards := st.playable(s)
		out = make([]engine.Action, len(cards))
		for i, c := range cards {
			out[i] = play(c)
		}
	}
	return out
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

// normalize puts a pass action's cards in canonical order (each direction's
// group sorted) so that the same pass typed in any order is the same action.
func (st *State) normalize(a Action) Action {
	if a.Kind != KindPass || st.phase != phasePass {
		return a
	}
	ps := st.card().pass
	if int(a.N) != ps.total() {
		return a
	}
	sortCards(a.Cards[:ps.left])
	sortCards(a.Cards[ps.left:a.N])
	return a
}

// playable lists the cards seat s may play to the current trick.
func (st *State) playable(s engine.Seat) []Card {
	hand := st.hands[s]
	var out []Card
	if len(st.trick) == 0 {
		onlyPrinces := true
		for _, c := range hand {
			if c.Suit() != Princes {
				onlyPrinces = false
				break
			}
		}
		for _, c := range hand {
			if c.Suit() != Princes || st.snuckIn || onlyPrinces {
				out = append(out, c)
			}
		}
	} else {
		led := st.trick[0].Card.Suit()
		for _, c := range hand {
			if c.Suit() == led {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			out = slices.Clone(hand)
		}
	}
	if f := st.card().rules.playable; f != nil {
		out = f(st, int(s), out)
	}
	return out
}

// Apply performs action a for seat s.
func (st *State) Apply(s engine.Seat, a engine.Action, r *engine.Rand) ([]engine.Event, error) {
	act, ok := a.(Action)
	if !ok {
		return nil, engine.Errorf(engine.CodeUnknownAction, "text", a.String())
	}
	if st.phase == phaseOver {
		return nil, engine.Errorf(engine.CodeGameOver)
	}
	if !st.acting(s) {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat", s)
	}
	act = st.normalize(act)
	if !st.isLegal(s, act) {
		return nil, st.whyIllegal(s, act)
	}
	// An action that ends the choice or a round deals anew, which may fail
	// on a bad scripted deal: work on a copy so that st stays as it was.
	next := st
	if st.mayDeal(act) {
		next = st.clone()
	}
	var ev []engine.Event
	var err error
	switch act.Kind {
	case KindChoose:
		ev, err = next.applyChoose(s, act, r)
	case KindPass:
		ev, err = next.applyPass(s, act)
	case KindPlay:
		ev, err = next.applyPlay(s, act.Cards[0], r)
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
// It uses the same rules as Legal: the offered princesses, the round card's
// pass, the playable cards.
func (st *State) isLegal(s engine.Seat, a Action) bool {
	switch {
	case st.phase == phaseChoose && a.Kind == KindChoose:
		return slices.Contains(st.offered[s], a.Princess)
	case st.phase == phasePass && a.Kind == KindPass:
		ps := st.card().pass
		if int(a.N) != ps.total() {
			return false
		}
		cs := a.CardList()
		for i, c := range cs {
			if !slices.Contains(st.hands[s], c) || slices.Contains(cs[:i], c) {
				return false
			}
		}
		return slices.IsSorted(cs[:ps.left]) && slices.IsSorted(cs[ps.left:])
	case st.phase == phasePlay && a.Kind == KindPlay && a.N == 1:
		return slices.Contains(st.playable(s), a.Cards[0])
	}
	return false
}

// mayDeal reports whether applying a could start a new round (and so deal).
func (st *State) mayDeal(a Action) bool {
	switch a.Kind {
	case KindChoose:
		return len(st.Acting()) == 1
	case KindPlay:
		return len(st.trick) == st.n-1 && len(st.hands[st.turn()]) == 1
	}
	return false
}

// whyIllegal explains an action that is not in the legal list.
func (st *State) whyIllegal(s engine.Seat, a Action) error {
	switch {
	case a.Kind == KindChoose && st.phase == phaseChoose:
		return engine.Errorf(CodeNotOffered, "princess", a.Princess.String())
	case a.Kind == KindPass && st.phase == phasePass:
		want := st.card().pass.total()
		if int(a.N) != want {
			return engine.Errorf(CodePassCount, "count", want)
		}
		seen := map[Card]bool{}
		for _, c := range a.CardList() {
			if seen[c] {
				return engine.Errorf(CodeDuplicateCard, "card", c.String())
			}
			seen[c] = true
			if !slices.Contains(st.hands[s], c) {
				return engine.Errorf(CodeNotInHand, "card", c.String())
			}
		}
	case a.Kind == KindPlay && st.phase == phasePlay:
		c := a.Cards[0]
		if !slices.Contains(st.hands[s], c) {
			return engine.Errorf(CodeNotInHand, "card", c.String())
		}
		if len(st.trick) == 0 && c.Suit() == Princes && !st.snuckIn {
			return engine.Errorf(CodePrincesLocked, "card", c.String())
		}
		if len(st.trick) > 0 {
			led := st.trick[0].Card.Suit()
			if c.Suit() != led {
				return engine.Errorf(CodeMustFollow, "card", c.String(), "suit", led.Word())
			}
		}
	default:
		return engine.Errorf(CodeWrongPhase, "phase", st.phase.String(), "action", a.String())
	}
	return engine.Errorf(engine.CodeIllegal, "action", a.String())
}

func (st *State) applyChoose(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	st.chosen[s] = a.Princess
	if len(st.Acting()) > 0 {
		return []engine.Event{engine.Public("princess_chosen", map[string]any{"seat": s})}, nil
	}
	ev := []engine.Event{engine.Public("princesses_revealed", map[string]any{"princesses": princessStrings(st.chosen)})}
	return append(ev, st.beginRoundPlay()...), nil
}

func princessStrings(ps []PrincessID) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func (st *State) applyPass(s engine.Seat, a Action) ([]engine.Event, error) {
	give := slices.Clone(a.CardList())
	for _, c := range give {
		st.hands[s], _ = removeCard(st.hands[s], c)
	}
	st.passes[s] = give
	ev := []engine.Event{engine.Public("cards_passed", map[string]any{"seat": s})}
	if len(st.Acting()) > 0 {
		return ev, nil
	}
	ps := st.card().pass
	got := make([][]Card, st.n)
	from := make([][]engine.Seat, st.n)
	for i := 0; i < st.n; i++ {
		giver := engine.Seat(i)
		left, right := st.next(giver, 1), st.next(giver, -1)
		for j, c := range st.passes[i] {
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
		sortCards(st.hands[i])
		ev = append(ev, engine.Private(engine.Seat(i), "cards_received", map[string]any{
			"cards": cardStrings(got[i]), "from": from[i], "gave": cardStrings(st.passes[i]),
		}))
		st.passes[i] = nil
	}
	st.phase = phasePlay
	return append(ev, engine.Public("passing_done", nil)), nil
}

func (st *State) applyPlay(s engine.Seat, c Card, r *engine.Rand) ([]engine.Event, error) {
	st.hands[s], _ = removeCard(st.hands[s], c)
	ev := []engine.Event{engine.Public("card_played", map[string]any{"seat": s, "card": c.String()})}
	if len(st.trick) > 0 && c.Suit() == Princes && st.trick[0].Card.Suit() != Princes && !st.snuckIn {
		st.snuckIn = true
		ev = append(ev, engine.Public("princes_snuck_in", map[string]any{"seat": s}))
	}
	st.trick = append(st.trick, Play{Seat: s, Card: c})
	if len(st.trick) < st.n {
		return ev, nil
	}
	return st.resolveTrick(ev, r)
}

// resolveTrick gives the completed trick to its winner.
func (st *State) resolveTrick(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
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
	st.tricks[w]++
	st.lastWin = w
	st.last = st.trick
	st.trick = nil
	st.leader = w
	ev = append(ev, engine.Public("trick_won", map[string]any{
		"seat": w, "cards": cardStrings(cards), "seats": seats, "points": points,
	}))
	if len(st.hands[w]) > 0 {
		return ev, nil
	}
	return st.endRound(ev, r)
}

// trickWinner is the index of the winning play: the highest card of the led
// suit, unless the round card says otherwise.
func (st *State) trickWinner(trick []Play) int {
	if f := st.card().rules.winner; f != nil {
		return f(st, trick)
	}
	led := trick[0].Card.Suit()
	best := 0
	for i, p := range trick {
		if p.Card.Suit() == led && p.Card.Rank() > trick[best].Card.Rank() {
			best = i
		}
	}
	return best
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

func atoiSeat(t string, n int) (engine.Seat, bool) {
	v, err := strconv.Atoi(t)
	if err != nil || v < 0 || v >= n {
		return 0, false
	}
	return engine.Seat(v), true
}
