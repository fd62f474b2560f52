package princesses

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Kind is what an action does.
type Kind uint8

// The action kinds of the base game.
const (
	KindChoose Kind = iota + 1 // choose <princess>
	KindPass                   // pass <card> [<card> ...]
	KindPlay                   // play <card>
)

const maxCards = 4

// Action is one move in notation: "choose mulan", "pass Q3 F5 A1", "play Q7".
// It is a comparable value.
type Action struct {
	Kind     Kind
	Princess PrincessID
	N        uint8
	Cards    [maxCards]Card
}

// CardList is the action's cards.
func (a Action) CardList() []Card { return a.Cards[:a.N] }

// String gives the canonical notation.
func (a Action) String() string {
	var b strings.Builder
	switch a.Kind {
	case KindChoose:
		b.WriteString("choose ")
		b.WriteString(a.Princess.String())
	case KindPass:
		b.WriteString("pass")
		for _, c := range a.CardList() {
			b.WriteByte(' ')
			b.WriteString(c.String())
		}
	case KindPlay:
		b.WriteString("play ")
		b.WriteString(a.Cards[0].String())
	}
	return b.String()
}

func play(c Card) Action { return Action{Kind: KindPlay, N: 1, Cards: [maxCards]Card{c}} }

func choose(p PrincessID) Action { return Action{Kind: KindChoose, Princess: p} }

func pass(cs ...Card) Action {
	a := Action{Kind: KindPass, N: uint8(len(cs))}
	copy(a.Cards[:], cs)
	return a
}

// ParseAction reads an action in notation.
func ParseAction(text string) (Action, error) {
	f := strings.Fields(text)
	bad := engine.Errorf(engine.CodeUnknownAction, "text", text)
	if len(f) == 0 {
		return Action{}, bad
	}
	switch f[0] {
	case "choose":
		if len(f) != 2 {
			return Action{}, bad
		}
		p, ok := parsePrincess(f[1])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownPrincess, "princess", f[1])
		}
		return choose(p), nil
	case "play":
		if len(f) != 2 {
			return Action{}, bad
		}
		c, ok := ParseCard(f[1])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownCard, "card", f[1])
		}
		return play(c), nil
	case "pass":
		if len(f) < 2 || len(f) > maxCards+1 {
			return Action{}, bad
		}
		cs := make([]Card, 0, len(f)-1)
		for _, t := range f[1:] {
			c, ok := ParseCard(t)
			if !ok {
				return Action{}, engine.Errorf(CodeUnknownCard, "card", t)
			}
			cs = append(cs, c)
		}
		return pass(cs...), nil
	}
	return Action{}, bad
}
