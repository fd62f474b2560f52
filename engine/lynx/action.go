package lynx

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Kind is what an action does.
type Kind uint8

// The action kinds.
const (
	KindPlay         Kind = iota + 1 // play <card> [<card> ...]
	KindTake                         // take: the thief takes the stolen cards into hand
	KindLeave                        // leave: the thief leaves them to the robbed player
	KindBack                         // back: the robbed player takes them back into hand
	KindDiscard                      // discard: the robbed player discards them and draws as many
	KindDrawDeck                     // draw deck
	KindDrawPool                     // draw pool <card> [<card>]
	KindPass                         // pass: no draw after a turn without a steal
	KindStealVirtual                 // steal-virtual <card>
)

var kindWords = [...]string{
	KindTake: "take", KindLeave: "leave", KindBack: "back", KindDiscard: "discard", KindPass: "pass",
}

// Action is one move in notation: "play 4 4 4 X", "take", "draw pool 7",
// "steal-virtual 5". It is a comparable value.
//
// For play, Value is the set's value (Joker for jokers alone), N the number
// cards and J the jokers. For draw pool, Value is the top card of the pool
// place and Under, when not zero, the card beneath it (named only when
// several places show the same top card). For steal-virtual, Value is the
// group's value.
type Action struct {
	Kind  Kind
	Value Card
	N     uint8
	J     uint8
	Under Card
}

// Set is the set a play action puts down.
func (a Action) Set() Layer { return Layer{Value: a.Value, N: a.N, J: a.J} }

// String gives the canonical notation.
func (a Action) String() string {
	var b strings.Builder
	switch a.Kind {
	case KindPlay:
		b.WriteString("play")
		for i := 0; i < int(a.N); i++ {
			b.WriteByte(' ')
			b.WriteString(a.Value.String())
		}
		for i := 0; i < int(a.J); i++ {
			b.WriteString(" X")
		}
	case KindDrawDeck:
		b.WriteString("draw deck")
	case KindDrawPool:
		b.WriteString("draw pool ")
		b.WriteString(a.Value.String())
		if a.Under != 0 {
			b.WriteByte(' ')
			b.WriteString(a.Under.String())
		}
	case KindStealVirtual:
		b.WriteString("steal-virtual ")
		b.WriteString(a.Value.String())
	default:
		if int(a.Kind) < len(kindWords) {
			b.WriteString(kindWords[a.Kind])
		}
	}
	return b.String()
}

func play(l Layer) Action { return Action{Kind: KindPlay, Value: l.Value, N: l.N, J: l.J} }

func simple(k Kind) Action { return Action{Kind: k} }

func drawPool(top, under Card) Action { return Action{Kind: KindDrawPool, Value: top, Under: under} }

func stealVirtual(v Card) Action { return Action{Kind: KindStealVirtual, Value: v} }

// maxSet bounds a played set: every copy of one value and every joker.
const maxSet = copiesPerValue + jokers

// ParseAction reads an action in notation. The cards of a play may come in
// any order; the canonical form lists the numbers first, then the jokers.
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
	case "play":
		if len(f) < 2 {
			return Action{}, bad
		}
		if len(f)-1 > maxSet {
			return Action{}, engine.Errorf(CodeTooManyCards, "count", len(f)-1)
		}
		var l Layer
		for _, t := range f[1:] {
			c, err := card(t)
			if err != nil {
				return Action{}, err
			}
			switch {
			case c == Joker:
				l.J++
			case l.N == 0 || l.Value == c:
				l.Value = c
				l.N++
			default:
				return Action{}, engine.Errorf(CodeMixedValues, "card", l.Value.String(), "value", c.String())
			}
		}
		if l.N == 0 {
			l.Value = Joker
		}
		return play(l), nil
	case "draw":
		switch {
		case len(f) == 2 && f[1] == "deck":
			return simple(KindDrawDeck), nil
		case (len(f) == 3 || len(f) == 4) && f[1] == "pool":
			top, err := card(f[2])
			if err != nil {
				return Action{}, err
			}
			var under Card
			if len(f) == 4 {
				if under, err = card(f[3]); err != nil {
					return Action{}, err
				}
			}
			return drawPool(top, under), nil
		}
		return Action{}, bad
	case "steal-virtual":
		if len(f) != 2 {
			return Action{}, bad
		}
		c, err := card(f[1])
		if err != nil {
			return Action{}, err
		}
		return stealVirtual(c), nil
	}
	if len(f) == 1 {
		for k, w := range kindWords {
			if w != "" && w == f[0] {
				return simple(Kind(k)), nil
			}
		}
	}
	return Action{}, bad
}
