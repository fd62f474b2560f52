package chapters

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Kind is what an action does.
type Kind uint8

// The action kinds.
const (
	KindPick Kind = iota + 1 // pick <card> [ghost <card>]
	KindPlay                 // play <card>
)

// Action is one move in notation: "pick 5", "pick 5 ghost 50", "play 35".
// It is a comparable value.
type Action struct {
	Kind  Kind
	Card  Card
	Ghost Card // the card given to the ghost on your right (2 players); 0 otherwise
}

// String gives the canonical notation.
func (a Action) String() string {
	switch a.Kind {
	case KindPick:
		if a.Ghost != 0 {
			return "pick " + a.Card.String() + " ghost " + a.Ghost.String()
		}
		return "pick " + a.Card.String()
	case KindPlay:
		return "play " + a.Card.String()
	}
	return ""
}

func pick(c, ghost Card) Action { return Action{Kind: KindPick, Card: c, Ghost: ghost} }

func play(c Card) Action { return Action{Kind: KindPlay, Card: c} }

// ParseAction reads an action in notation.
func ParseAction(text string) (Action, error) {
	f := strings.Fields(text)
	bad := engine.Errorf(engine.CodeUnknownAction, "text", text)
	if len(f) == 0 {
		return Action{}, bad
	}
	card := func(t string) (Card, error) {
		c, ok := ParseCard(t)
		if !ok {
			return 0, engine.Errorf(CodeUnknownCard, "card", t)
		}
		return c, nil
	}
	switch f[0] {
	case "pick":
		if len(f) != 2 && (len(f) != 4 || f[2] != "ghost") {
			return Action{}, bad
		}
		c, err := card(f[1])
		if err != nil {
			return Action{}, err
		}
		var g Card
		if len(f) == 4 {
			if g, err = card(f[3]); err != nil {
				return Action{}, err
			}
			if g == c {
				return Action{}, engine.Errorf(CodeSameCard, "card", c.String())
			}
		}
		return pick(c, g), nil
	case "play":
		if len(f) != 2 {
			return Action{}, bad
		}
		c, err := card(f[1])
		if err != nil {
			return Action{}, err
		}
		return play(c), nil
	}
	return Action{}, bad
}
