package chapters

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// NumCards is the number of cards, valued 1 to 50.
const NumCards = 50

// Card is a card by its value 1..50. The zero Card is no card.
type Card uint8

// String is the card's notation: its value.
func (c Card) String() string {
	if c == 0 {
		return "-"
	}
	return strconv.Itoa(int(c))
}

// ParseCard reads a card in notation ("1".."50").
func ParseCard(t string) (Card, bool) {
	if len(t) == 0 || len(t) > 2 || t[0] == '0' || t[0] == '+' {
		return 0, false
	}
	v, err := strconv.Atoi(t)
	if err != nil || v < 1 || v > NumCards {
		return 0, false
	}
	return Card(v), true
}

// Trait is one of the eight trait symbols.
type Trait uint8

// The traits (seed 003's order).
const (
	Monster Trait = iota
	Magic
	Villain
	Animal
	Child
	Dwarf
	Wonderland
	Royal
	numTraits
)

var traitIDs = [numTraits]string{"monster", "magic", "villain", "animal", "child", "dwarf", "wonderland", "royal"}

// ID is the trait's id (locale key part).
func (t Trait) ID() string { return traitIDs[t] }

// Traits is a set of traits.
type Traits uint8

// AllTraits is every trait (the Shapeshifter).
const AllTraits Traits = 1<<numTraits - 1

// Of makes a trait set.
func Of(ts ...Trait) Traits {
	var s Traits
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

// Has reports whether the set holds t.
func (s Traits) Has(t Trait) bool { return s&(1<<t) != 0 }

// List lists the traits of the set in order.
func (s Traits) List() []Trait {
	var out []Trait
	for t := Trait(0); t < numTraits; t++ {
		if s.Has(t) {
			out = append(out, t)
		}
	}
	return out
}

// Token is a kind of point token.
type Token uint8

// The token kinds.
const (
	Star Token = iota
	Heart
	Gem
)

var tokenIDs = [...]string{"star", "heart", "gem"}

// ID is the token kind's id.
func (k Token) ID() string { return tokenIDs[k] }

// Tokens counts tokens of each kind.
type Tokens struct{ Stars, Hearts, Gems int }

// Add returns the sum.
func (t Tokens) Add(o Tokens) Tokens {
	return Tokens{t.Stars + o.Stars, t.Hearts + o.Hearts, t.Gems + o.Gems}
}

// Times returns t multiplied by n.
func (t Tokens) Times(n int) Tokens { return Tokens{t.Stars * n, t.Hearts * n, t.Gems * n} }

// Get returns the count of one kind.
func (t Tokens) Get(k Token) int {
	switch k {
	case Star:
		return t.Stars
	case Heart:
		return t.Hearts
	}
	return t.Gems
}

// Of returns tokens of one kind.
func tokensOf(k Token, n int) Tokens {
	switch k {
	case Star:
		return Tokens{Stars: n}
	case Heart:
		return Tokens{Hearts: n}
	}
	return Tokens{Gems: n}
}

// Zero reports whether there are no tokens.
func (t Tokens) Zero() bool { return t == Tokens{} }

// Points is the tokens' worth: a star 2, a heart 1, two gems 1.
func (t Tokens) Points() int { return 2*t.Stars + t.Hearts + t.Gems/2 }

// String is "stars=1 hearts=2 gems=3" (scenarios, debugging).
func (t Tokens) String() string {
	return "stars=" + strconv.Itoa(t.Stars) + " hearts=" + strconv.Itoa(t.Hearts) + " gems=" + strconv.Itoa(t.Gems)
}

// CondKind is a condition of the ability vocabulary.
type CondKind uint8

// The conditions. In chapter II "the cards" are the cards played in the
// current round (ghost cards included); in chapter III, your own played
// cards.
const (
	// WithCard: card Card is among the cards.
	WithCard CondKind = iota + 1
	// AnyTrait: at least one card with Trait (Other: not counting this card).
	AnyTrait
	// WonRound: you played the highest card of the round (chapter II).
	WonRound
	// WonNoRound: you won no round in chapter II.
	WonNoRound
	// MostGems: you have the most gems at the gem check (ties included).
	MostGems
	// AtLeastHearts: you have at least N hearts.
	AtLeastHearts
	// PlayedLast: your card was the last one played in the round.
	PlayedLast
)

var condIDs = [...]string{WithCard: "with_card", AnyTrait: "any_trait", WonRound: "won", WonNoRound: "won_none",
	MostGems: "most_gems", AtLeastHearts: "at_least_hearts", PlayedLast: "last"}

// ID is the condition's id (locale key part).
func (k CondKind) ID() string { return condIDs[k] }

// Cond is one condition.
type Cond struct {
	Kind  CondKind
	Card  Card  // WithCard
	Trait Trait // AnyTrait
	Other bool  // AnyTrait: another card than this one
	N     int   // AtLeastHearts
}

// CountKind is what a "per card" reward counts.
type CountKind uint8

// The counters.
const (
	// CountTrait: cards with Trait (Other: not counting this card).
	CountTrait CountKind = iota + 1
	// CountValues: cards valued Lo..Hi.
	CountValues
)

// Count multiplies a reward by a number of cards.
type Count struct {
	Kind   CountKind // 0: the reward is paid once
	Trait  Trait
	Other  bool
	Lo, Hi int
}

// Echo is the Queen of Hearts' and the Cheshire Cat's ability: for each
// token of kind From received this round (by anyone, ghosts' would-be tokens
// included), receive one of kind To. It resolves after every other ability.
type Echo struct{ From, To Token }

// Chapter is an ability's seal: 0 for both chapters, or 2 or 3.
type Chapter uint8

// Ability is one ability of a card, built from the vocabulary: when every
// condition holds, the reward (times the count, if any) is paid.
type Ability struct {
	When   []Cond
	Per    Count
	Reward Tokens
	Seal   Chapter
	// Either groups alternative abilities of one card: of the abilities
	// sharing a non-zero Either, only the first whose conditions hold pays.
	Either uint8
	Echo   *Echo
	// Freeze: nobody receives hearts or gems this round (Snow Queen).
	Freeze bool
}

// stage is when an ability resolves: 0 with the others, 1 after all the
// others (echoes, hearts thresholds), 2 at the gem check.
func (a *Ability) stage() int {
	if a.Echo != nil {
		return 1
	}
	for _, c := range a.When {
		switch c.Kind {
		case AtLeastHearts:
			return 1
		case MostGems:
			return 2
		}
	}
	return 0
}

func (a *Ability) inChapter(ch Chapter) bool { return a.Seal == 0 || a.Seal == ch }

// Guess marks what part of a card is this project's reconstruction.
type Guess uint8

// The reconstructed parts.
const (
	GuessValue   Guess = 1 << iota // the card's value is not known
	GuessName                      // the card's name is not known
	GuessTraits                    // its traits are not (all) known
	GuessAbility                   // its ability or reward is not (all) known
)

// CardData is one card of the table.
type CardData struct {
	Value     Card
	Key       string // locale id: chapters.card.<Key>
	Traits    Traits
	Abilities []Ability
	// Provisional lists what is reconstructed; 0 for a confirmed card.
	Provisional Guess
}

// IsProvisional reports whether any part of the card is reconstructed.
func (d *CardData) IsProvisional() bool { return d.Provisional != 0 }

// Freezes reports whether the card cancels the round's hearts and gems.
func (d *CardData) Freezes() bool {
	for i := range d.Abilities {
		if d.Abilities[i].Freeze {
			return true
		}
	}
	return false
}

// Table is a card table indexed by value (index 0 unused).
type Table [NumCards + 1]CardData

// Card returns a card's data.
func (t *Table) Card(c Card) *CardData { return &t[c] }

// Clone deep-copies the table (tests swap abilities on a copy).
func (t *Table) Clone() *Table {
	c := *t
	for i := range c {
		c[i].Abilities = slices.Clone(t[i].Abilities)
		for j := range c[i].Abilities {
			c[i].Abilities[j].When = slices.Clone(t[i].Abilities[j].When)
		}
	}
	return &c
}

// Provisional lists the values of the provisional cards.
func (t *Table) Provisional() []Card {
	var out []Card
	for v := Card(1); v <= NumCards; v++ {
		if t[v].IsProvisional() {
			out = append(out, v)
		}
	}
	return out
}

// resolveCtx is what an ability looks at.
type resolveCtx struct {
	chapter Chapter
	cards   []Card // the round's cards (II) or your own played cards (III)
	won     bool   // you won this round (II)
	wonAny  bool   // you won a round in chapter II (III)
	last    bool   // your card was played last this round (II)
	tokens  Tokens // your tokens so far
	most    bool   // you have the most gems at the gem check
}

// holds reports whether a condition holds for card self.
func (t *Table) holds(c Cond, self Card, x *resolveCtx) bool {
	switch c.Kind {
	case WithCard:
		return c.Card != self && slices.Contains(x.cards, c.Card)
	case AnyTrait:
		for _, o := range x.cards {
			if (o != self || !c.Other) && t[o].Traits.Has(c.Trait) {
				return true
			}
		}
		return false
	case WonRound:
		return x.chapter == 2 && x.won
	case WonNoRound:
		return x.chapter == 3 && !x.wonAny
	case MostGems:
		return x.most
	case AtLeastHearts:
		return x.tokens.Hearts >= c.N
	case PlayedLast:
		return x.chapter == 2 && x.last
	}
	return false
}

// count is the multiplier of an ability's reward.
func (t *Table) count(p Count, self Card, x *resolveCtx) int {
	n := 0
	switch p.Kind {
	case 0:
		return 1
	case CountTrait:
		for _, o := range x.cards {
			if (o != self || !p.Other) && t[o].Traits.Has(p.Trait) {
				n++
			}
		}
	case CountValues:
		for _, o := range x.cards {
			if int(o) >= p.Lo && int(o) <= p.Hi {
				n++
			}
		}
	}
	return n
}

// resolve pays card self's abilities of one stage (echoes excluded: they
// need the whole round, see resolveEcho).
func (t *Table) resolve(self Card, stage int, x *resolveCtx) Tokens {
	var got Tokens
	var doneEither uint8
	for i := range t[self].Abilities {
		a := &t[self].Abilities[i]
		if a.Echo != nil || a.Freeze || !a.inChapter(x.chapter) || a.stage() != stage {
			continue
		}
		if a.Either != 0 && doneEither&(1<<a.Either) != 0 {
			continue
		}
		ok := true
		for _, c := range a.When {
			if !t.holds(c, self, x) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if a.Either != 0 {
			doneEither |= 1 << a.Either
		}
		got = got.Add(a.Reward.Times(t.count(a.Per, self, x)))
	}
	return got
}

// resolveEcho pays card self's echo abilities given the tokens everyone
// received this round from the other abilities.
func (t *Table) resolveEcho(self Card, ch Chapter, received Tokens) Tokens {
	var got Tokens
	for i := range t[self].Abilities {
		a := &t[self].Abilities[i]
		if a.Echo == nil || !a.inChapter(ch) {
			continue
		}
		got = got.Add(tokensOf(a.Echo.To, received.Get(a.Echo.From)))
	}
	return got
}

func parseCards(vals []string) ([]Card, string) {
	out := make([]Card, 0, len(vals))
	for _, v := range vals {
		c, ok := ParseCard(v)
		if !ok {
			return nil, v
		}
		out = append(out, c)
	}
	return out, ""
}

// joinCards is "3 4 26" (debugging and scenario messages).
func joinCards(cs []Card) string { return strings.Join(engine.Strings(cs), " ") }
