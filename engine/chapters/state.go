package chapters

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

type phase uint8

const (
	phaseDraft phase = iota + 1 // chapter I: simultaneous picks
	phasePlay                   // chapter II: one card a round
	phaseOver                   // chapter III has been scored
)

var phaseNames = [...]string{phaseDraft: "draft", phasePlay: "play", phaseOver: "over"}

func (p phase) String() string { return phaseNames[p] }

// HandSize is the size of every draft deal.
const HandSize = 8

// Play is one card played in a round, by a seat or (2 players) a ghost.
type Play struct {
	Seat  engine.Seat // -1 for a ghost
	Ghost int         // the ghost deck (0 or 1), -1 for a seat
	Card  Card
}

// IsGhost reports whether a ghost played the card.
func (p Play) IsGhost() bool { return p.Seat < 0 }

// RoundResult is a completed chapter II round.
type RoundResult struct {
	Round  int    // 1-based
	Plays  []Play // in play order
	Winner int    // index into Plays
	Gains  []Tokens
	Frozen bool // the Snow Queen cancelled hearts and gems
}

// State is a game of 3 Chapters.
type State struct {
	cards    *Table
	n        int
	phase    phase
	scripted bool // a scenario with stacked outcomes

	box   []Card   // cards never dealt (unseen)
	aside []Card   // draft leftovers (unseen, back in the box)
	hands [][]Card // draft: the hand held now; play: the hand
	kept  [][]Card // draft: the cards kept so far
	picks []Action // draft: each seat's pick this turn (Kind 0 until picked)
	deal  int      // draft: 0 for the first deal, 1 for the redeal (2–3 players)
	taken int      // draft: picks made since the last deal

	ghosts      [2][]Card      // 2 players: ghost decks (top first once shuffled)
	ghostStacks []engine.Stack // scripted ghost deck orders, used at the end of the draft
	dealStacks  []engine.Stack // scripted hands for the redeal
	spent       []Card         // ghost cards of finished rounds, set aside

	first  engine.Seat // who starts chapter II
	round  int         // 0-based chapter II round
	leader int         // position leading the current round
	table  []Play      // the current round's plays
	last   *RoundResult
	played [][]Card // each seat's played cards, in play order
	wins   []int    // rounds won in chapter II
	tokens []Tokens

	chapter3 []Tokens      // chapter III gains (abilities, gem bonus, Greedy Dwarf)
	bonus    []engine.Seat // who got the gem bonus
	bonusGot []Tokens      // what each of them got from it (the 4 gems and abilities it starts)
	scores   []int
	winners  []engine.Seat
	note     string
}

func newState(t *Table, n int) *State {
	st := &State{cards: t, n: n, phase: phaseDraft}
	st.box = make([]Card, NumCards)
	for i := range st.box {
		st.box[i] = Card(i + 1)
	}
	st.hands = make([][]Card, n)
	st.kept = make([][]Card, n)
	st.picks = make([]Action, n)
	st.played = make([][]Card, n)
	st.wins = make([]int, n)
	st.tokens = make([]Tokens, n)
	return st
}

// Clone returns an independent copy.
func (st *State) Clone() engine.State { return st.clone() }

func (st *State) clone() *State {
	c := *st
	c.box = slices.Clone(st.box)
	c.aside = slices.Clone(st.aside)
	c.hands = engine.CloneNested(st.hands)
	c.kept = engine.CloneNested(st.kept)
	c.picks = slices.Clone(st.picks)
	c.ghosts = [2][]Card{slices.Clone(st.ghosts[0]), slices.Clone(st.ghosts[1])}
	c.ghostStacks = slices.Clone(st.ghostStacks)
	c.dealStacks = slices.Clone(st.dealStacks)
	c.spent = slices.Clone(st.spent)
	c.table = slices.Clone(st.table)
	if st.last != nil {
		l := *st.last
		l.Plays = slices.Clone(l.Plays)
		l.Gains = slices.Clone(l.Gains)
		c.last = &l
	}
	c.played = engine.CloneNested(st.played)
	c.wins = slices.Clone(st.wins)
	c.tokens = slices.Clone(st.tokens)
	c.chapter3 = slices.Clone(st.chapter3)
	c.bonus = slices.Clone(st.bonus)
	c.bonusGot = slices.Clone(st.bonusGot)
	c.scores = slices.Clone(st.scores)
	c.winners = slices.Clone(st.winners)
	return &c
}

// ghostGame reports whether ghosts play (2 players).
func (st *State) ghostGame() bool { return st.n == 2 }

// positions is the number of places around the table: seats, plus the two
// ghosts with 2 players (seat 0, ghost 1, seat 1, ghost 0 clockwise: the
// ghost deck seat s builds sits on its right and plays just before it).
func (st *State) positions() int {
	if st.ghostGame() {
		return 4
	}
	return st.n
}

// at says who sits at a position: a seat, or a ghost deck.
func (st *State) at(pos int) (engine.Seat, int) {
	if !st.ghostGame() {
		return engine.Seat(pos), -1
	}
	if pos%2 == 0 {
		return engine.Seat(pos / 2), -1
	}
	return -1, (pos/2 + 1) % 2
}

// posOf is a seat's position.
func (st *State) posOf(s engine.Seat) int {
	if st.ghostGame() {
		return 2 * int(s)
	}
	return int(s)
}

// Acting lists the seats that must act now.
func (st *State) Acting() []engine.Seat {
	switch st.phase {
	case phaseDraft:
		var out []engine.Seat
		for s := 0; s < st.n; s++ {
			if st.picks[s].Kind == 0 {
				out = append(out, engine.Seat(s))
			}
		}
		return out
	case phasePlay:
		s, _ := st.at(st.turnPos())
		return []engine.Seat{s}
	}
	return nil
}

func (st *State) turnPos() int { return (st.leader + len(st.table)) % st.positions() }

func (st *State) acting(s engine.Seat) bool {
	if s < 0 || int(s) >= st.n {
		return false
	}
	switch st.phase {
	case phaseDraft:
		return st.picks[s].Kind == 0
	case phasePlay:
		t, _ := st.at(st.turnPos())
		return t == s
	}
	return false
}

// Legal lists every action seat s may take now, in card order.
func (st *State) Legal(s engine.Seat) []engine.Action {
	if !st.acting(s) {
		return nil
	}
	hand := st.hands[s]
	var out []engine.Action
	switch st.phase {
	case phaseDraft:
		if st.ghostGame() {
			out = make([]engine.Action, 0, len(hand)*(len(hand)-1))
			for _, c := range hand {
				for _, g := range hand {
					if g != c {
						out = append(out, pick(c, g))
					}
				}
			}
			return out
		}
		out = make([]engine.Action, len(hand))
		for i, c := range hand {
			out[i] = pick(c, 0)
		}
	case phasePlay:
		out = make([]engine.Action, len(hand))
		for i, c := range hand {
			out[i] = play(c)
		}
	}
	return out
}

// isLegal reports whether a is among Legal(s), without listing them.
func (st *State) isLegal(s engine.Seat, a Action) bool {
	hand := st.hands[s]
	switch {
	case st.phase == phaseDraft && a.Kind == KindPick:
		if st.ghostGame() != (a.Ghost != 0) || a.Ghost == a.Card {
			return false
		}
		return slices.Contains(hand, a.Card) && (a.Ghost == 0 || slices.Contains(hand, a.Ghost))
	case st.phase == phasePlay && a.Kind == KindPlay:
		return a.Ghost == 0 && slices.Contains(hand, a.Card)
	}
	return false
}

// whyIllegal explains an action that is not legal.
func (st *State) whyIllegal(s engine.Seat, a Action) error {
	switch {
	case a.Kind == KindPick && st.phase == phaseDraft:
		switch {
		case st.ghostGame() && a.Ghost == 0:
			return engine.Errorf(CodeGhostNeeded)
		case !st.ghostGame() && a.Ghost != 0:
			return engine.Errorf(CodeNoGhost)
		case a.Ghost == a.Card:
			return engine.Errorf(CodeSameCard, "card", a.Card.String())
		}
		for _, c := range []Card{a.Card, a.Ghost} {
			if c != 0 && !slices.Contains(st.hands[s], c) {
				return engine.Errorf(CodeNotInHand, "card", c.String())
			}
		}
	case a.Kind == KindPlay && st.phase == phasePlay:
		if !slices.Contains(st.hands[s], a.Card) {
			return engine.Errorf(CodeNotInHand, "card", a.Card.String())
		}
	default:
		return engine.Errorf(CodeWrongPhase, "phase", st.phase.String(), "action", a.String())
	}
	return engine.Errorf(engine.CodeIllegal, "action", a.String())
}

// Apply performs action a for seat s.
func (st *State) Apply(s engine.Seat, a engine.Action, r *engine.Rand) ([]engine.Event, error) {
	act, err := engine.Admit(a, st.phase == phaseOver, s, func(Action) bool { return st.acting(s) })
	if err != nil {
		return nil, err
	}
	if !st.isLegal(s, act) {
		return nil, st.whyIllegal(s, act)
	}
	// The last pick of a turn may deal anew or shuffle the ghost decks,
	// which may fail on a bad scripted stack: work on a copy.
	next := st
	if act.Kind == KindPick && len(st.Acting()) == 1 {
		next = st.clone()
	}
	var ev []engine.Event
	switch act.Kind {
	case KindPick:
		ev, err = next.applyPick(s, act, r)
	case KindPlay:
		ev = next.applyPlay(s, act.Card)
	}
	if err != nil {
		return nil, err
	}
	if next != st {
		*st = *next
	}
	return ev, nil
}

// Result tells whether the game is over, the points and the winner.
func (st *State) Result() (bool, engine.Result) {
	scores := st.scores
	if scores == nil {
		scores = make([]int, st.n)
		for s, t := range st.tokens {
			scores[s] = t.Points()
		}
	}
	res := engine.Result{Scores: slices.Clone(scores), Winners: slices.Clone(st.winners), Note: st.note}
	if st.phase == phaseOver {
		res.Places, res.TieBreak = st.ranking()
	}
	return st.phase == phaseOver, res
}
