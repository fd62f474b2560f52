package courtiers

import (
	"strings"
)

// Family is one of the six families of courtiers, in the mat's column order
// (left to right; the Queen's column sits between nightingales and hares).
type Family uint8

// The families.
const (
	Butterfly Family = iota
	Toad
	Nightingale
	Hare
	Stag
	Carp
	NumFamilies
)

var familyWords = [NumFamilies]string{"butterfly", "toad", "nightingale", "hare", "stag", "carp"}

// String is the family's notation word.
func (f Family) String() string {
	if f >= NumFamilies {
		return "?"
	}
	return familyWords[f]
}

// ParseFamily reads a family word.
func ParseFamily(t string) (Family, bool) {
	for i, w := range familyWords {
		if w == t {
			return Family(i), true
		}
	}
	return 0, false
}

// Role is a courtier's special role; Plain has none.
type Role uint8

// The roles.
const (
	Plain Role = iota
	Noble
	Guard
	Assassin
	Spy
	NumRoles
)

var roleWords = [NumRoles]string{"", "noble", "guard", "assassin", "spy"}

// roleCounts is the composition of each family of 15 (rules/courtiers.md).
var roleCounts = [NumRoles]int{Plain: 4, Noble: 4, Guard: 3, Assassin: 2, Spy: 2}

// String is the role's notation word ("" for a plain courtier).
func (r Role) String() string {
	if r >= NumRoles {
		return "?"
	}
	return roleWords[r]
}

// Card is one kind of courtier card: a family and a role. Cards of the same
// kind are interchangeable. The zero Card is no card; at an assassin's
// target it stands for a face-down spy.
type Card uint8

// NoCard is the zero card.
const NoCard Card = 0

// NewCard makes a card.
func NewCard(f Family, r Role) Card { return Card(1 + uint8(f)*uint8(NumRoles) + uint8(r)) }

// Family of the card.
func (c Card) Family() Family { return Family((c - 1) / Card(NumRoles)) }

// Role of the card.
func (c Card) Role() Role { return Role((c - 1) % Card(NumRoles)) }

// Weight is what the card counts for in family status and domain scoring:
// a noble counts 2.
func (c Card) Weight() int {
	if c.Role() == Noble {
		return 2
	}
	return 1
}

// String is the card's notation: "carp", "hare-noble"; "spy" for NoCard
// (a face-down spy).
func (c Card) String() string {
	if c == NoCard {
		return "spy"
	}
	if c.Role() == Plain {
		return c.Family().String()
	}
	return c.Family().String() + "-" + c.Role().String()
}

// ParseCard reads a card in notation.
func ParseCard(t string) (Card, bool) {
	fam, role, hasRole := strings.Cut(t, "-")
	f, ok := ParseFamily(fam)
	if !ok {
		return NoCard, false
	}
	if !hasRole {
		return NewCard(f, Plain), true
	}
	for r := Noble; r < NumRoles; r++ {
		if roleWords[r] == role {
			return NewCard(f, r), true
		}
	}
	return NoCard, false
}

// AllCards lists the 30 kinds of card, family by family.
func AllCards() []Card {
	out := make([]Card, 0, int(NumFamilies)*int(NumRoles))
	for f := Family(0); f < NumFamilies; f++ {
		for r := Plain; r < NumRoles; r++ {
			out = append(out, NewCard(f, r))
		}
	}
	return out
}

// Deck is the full box of 90 courtiers, in family and role order.
func Deck() []Card {
	d := make([]Card, 0, 90)
	for _, c := range AllCards() {
		for i := 0; i < roleCounts[c.Role()]; i++ {
			d = append(d, c)
		}
	}
	return d
}

// Removed is the number of cards removed unseen at setup (seed 004).
func Removed(seats int) int {
	switch seats {
	case 2:
		return 30
	case 3:
		return 18
	case 4:
		return 6
	}
	return 0
}

// HandSize is the number of cards in a full hand.
const HandSize = 3

func countIf(cs []Card, f func(Card) bool) int {
	n := 0
	for _, c := range cs {
		if f(c) {
			n++
		}
	}
	return n
}
