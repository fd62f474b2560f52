package princesses

import (
	"strconv"

	"github.com/stolik-bot/stolik/engine"
)

// Suit is one of the four suits.
type Suit uint8

// The suits, in display order.
const (
	Queens Suit = iota
	Fairies
	Pets
	Princes
	numSuits
)

var suitLetters = [numSuits]byte{'Q', 'F', 'A', 'P'}
var suitWords = [numSuits]string{"queens", "fairies", "pets", "princes"}

// Letter is the suit's notation letter (Q, F, A, P).
func (s Suit) Letter() string { return string(suitLetters[s]) }

// Word is the suit's notation word (queens, fairies, pets, princes).
func (s Suit) Word() string { return suitWords[s] }

// ParseSuit reads a suit word or letter.
func ParseSuit(t string) (Suit, bool) {
	for i := Suit(0); i < numSuits; i++ {
		if t == suitWords[i] || t == string(suitLetters[i]) {
			return i, true
		}
	}
	return 0, false
}

// Card is a suit and a rank 1..12. The zero Card is no card.
type Card uint8

// NewCard makes a card.
func NewCard(s Suit, rank int) Card { return Card(uint8(s)<<4 | uint8(rank)) }

// Suit of the card.
func (c Card) Suit() Suit { return Suit(c >> 4) }

// Rank of the card, 1..12.
func (c Card) Rank() int { return int(c & 0x0f) }

// Frog is the 8 of Pets.
var Frog = NewCard(Pets, 8)

// IsFrog reports whether c is the Frog.
func (c Card) IsFrog() bool { return c == Frog }

// String is the card's notation, e.g. "Q7".
func (c Card) String() string {
	if c == 0 {
		return "-"
	}
	return c.Suit().Letter() + strconv.Itoa(c.Rank())
}

// ParseCard reads a card in notation ("Q7", "P12").
func ParseCard(t string) (Card, bool) {
	if len(t) < 2 || len(t) > 3 {
		return 0, false
	}
	s, ok := ParseSuit(t[:1])
	if !ok {
		return 0, false
	}
	r, err := strconv.Atoi(t[1:])
	if err != nil || r < 1 || r > 12 || t[1] == '0' || t[1] == '+' {
		return 0, false
	}
	return NewCard(s, r), true
}

// deckRanks returns the lowest and highest rank in play for a seat count:
// 3 seats remove 1, 11 and 12; 4–5 seats remove 11 and 12; 6 use all.
func deckRanks(seats int) (lo, hi int) {
	switch {
	case seats <= 3:
		return 2, 10
	case seats <= 5:
		return 1, 10
	default:
		return 1, 12
	}
}

// Deck is the deck used with the given number of seats, in suit then rank order.
func Deck(seats int) []Card {
	lo, hi := deckRanks(seats)
	d := make([]Card, 0, 4*(hi-lo+1))
	for s := Suit(0); s < numSuits; s++ {
		for r := lo; r <= hi; r++ {
			d = append(d, NewCard(s, r))
		}
	}
	return d
}

func inDeck(c Card, seats int) bool {
	lo, hi := deckRanks(seats)
	return c.Rank() >= lo && c.Rank() <= hi
}

func parseCards(vals []string, seats int) ([]Card, *engine.RuleError) {
	out := make([]Card, 0, len(vals))
	for _, v := range vals {
		c, ok := ParseCard(v)
		if !ok || !inDeck(c, seats) {
			return nil, engine.Errorf(CodeUnknownCard, "card", v)
		}
		out = append(out, c)
	}
	return out, nil
}
