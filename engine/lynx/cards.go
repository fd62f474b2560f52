package lynx

import (
	"slices"
	"strconv"

	"github.com/stolik-bot/stolik/engine"
)

// Card is a number card 1..13 or the joker. The zero Card is no card.
type Card uint8

// Joker is the joker, written X. Played alone, jokers rank above every
// number.
const Joker Card = 14

// numKinds indexes counts by card: 1..13 and Joker (0 unused).
const numKinds = 15

// The composition of the deck.
const (
	copiesPerValue = 8
	jokers         = 5
	totalCards     = 13*copiesPerValue + jokers // 109
)

// IsJoker reports whether c is the joker.
func (c Card) IsJoker() bool { return c == Joker }

// String is the card's notation: "1".."13" or "X".
func (c Card) String() string {
	switch {
	case c == Joker:
		return "X"
	case c >= 1 && c <= 13:
		return strconv.Itoa(int(c))
	}
	return "-"
}

// ParseCard reads a card in notation ("7", "13", "X").
func ParseCard(t string) (Card, bool) {
	if t == "X" || t == "x" {
		return Joker, true
	}
	if len(t) == 0 || len(t) > 2 || t[0] < '1' || t[0] > '9' {
		return 0, false
	}
	v, err := strconv.Atoi(t)
	if err != nil || v < 1 || v > 13 {
		return 0, false
	}
	return Card(v), true
}

// copies is how many cards of kind c the game has.
func copies(c Card) int {
	if c == Joker {
		return jokers
	}
	return copiesPerValue
}

// FullDeck is every card of the game, in value order, jokers last.
func FullDeck() []Card {
	d := make([]Card, 0, totalCards)
	for v := Card(1); v <= Joker; v++ {
		for i := 0; i < copies(v); i++ {
			d = append(d, v)
		}
	}
	return d
}

// Hand is a multiset of cards: the count of each kind, indexed by Card.
type Hand [numKinds]uint8

// Size is the number of cards.
func (h *Hand) Size() int {
	n := 0
	for _, c := range h {
		n += int(c)
	}
	return n
}

// Cards lists the cards in value order, jokers last.
func (h *Hand) Cards() []Card {
	out := make([]Card, 0, h.Size())
	for v := Card(1); v <= Joker; v++ {
		for i := 0; i < int(h[v]); i++ {
			out = append(out, v)
		}
	}
	return out
}

// Add puts cards into the hand.
func (h *Hand) Add(cs ...Card) {
	for _, c := range cs {
		h[c]++
	}
}

// Group is a number of cards of one kind, as a hand or the virtual row
// shows them grouped by value.
type Group struct {
	Card  Card
	Count int
}

// Groups lists the kinds held with their counts, in value order.
func (h *Hand) Groups() []Group {
	var out []Group
	for v := Card(1); v <= Joker; v++ {
		if h[v] > 0 {
			out = append(out, Group{Card: v, Count: int(h[v])})
		}
	}
	return out
}

// Layer is a set of cards played together: N cards of Value and J jokers
// taking that value. A set of jokers only has Value Joker and N 0.
type Layer struct {
	Value Card
	N     uint8
	J     uint8
}

// Size is the number of cards in the set.
func (l Layer) Size() int { return int(l.N) + int(l.J) }

// JokersOnly reports whether the set holds no number card.
func (l Layer) JokersOnly() bool { return l.N == 0 }

// Cards lists the set's cards, numbers first.
func (l Layer) Cards() []Card {
	out := make([]Card, 0, l.Size())
	for i := 0; i < int(l.N); i++ {
		out = append(out, l.Value)
	}
	for i := 0; i < int(l.J); i++ {
		out = append(out, Joker)
	}
	return out
}

// beats reports whether a set played as p must steal the top layer t:
// the same number of cards and a strictly higher value (jokers alone rank
// above 13 and are never stolen); in expert mode a set of 1s also steals a
// set of 13s or of jokers alone.
func beats(p, t Layer, onesStealHigh bool) bool {
	if p.Size() != t.Size() || t.Size() == 0 {
		return false
	}
	if onesStealHigh && p.Value == 1 && (t.Value == 13 || t.JokersOnly()) {
		return true
	}
	if t.JokersOnly() {
		return false
	}
	return t.Value < p.Value
}

// PoolSpot is one place in the pool: a single card or, in the duel, a
// group (a 13 or a joker put on a single card); Cards bottom first.
type PoolSpot struct {
	Cards [2]Card
	N     uint8
}

// Top is the card on top.
func (p PoolSpot) Top() Card { return p.Cards[p.N-1] }

// List is the spot's cards, bottom first.
func (p PoolSpot) List() []Card { return slices.Clone(p.Cards[:p.N]) }

func single(c Card) PoolSpot { return PoolSpot{Cards: [2]Card{c}, N: 1} }

// parseCards reads card tokens; a rule error names the first unknown one.
func parseCards(vals []string) ([]Card, *engine.RuleError) {
	out := make([]Card, 0, len(vals))
	for _, v := range vals {
		c, ok := ParseCard(v)
		if !ok {
			return nil, engine.Errorf(CodeUnknownCard, "card", v)
		}
		out = append(out, c)
	}
	return out, nil
}
