package render

import (
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Act is a legal action and its notation's tokens.
type Act struct {
	Text   string
	Tokens []string
}

// Tree is one seat's legal actions as a tree over their notation, cut where
// the game's Chooser says a choice ends (Stops: the card, then where it
// goes, then the target). It is built from the engine's legal actions only;
// the Discord controls (bot) and the terminal's menu (cmd/stolik) both walk
// it a step at a time and name its choices with the game's Control.
type Tree struct {
	g    Chooser
	acts []Act
	// pick is the verb of a choice of several cards at once (Chooser.Pick):
	// its actions form one choice at the root.
	pick string
}

// NewTree is the tree of legal; keep, when not nil, leaves out the actions
// a front end cannot carry (too long for a custom_id). pick is the verb of
// a Pick the front end offers at the root as one choice, "" for none.
func NewTree(g Chooser, legal []engine.Action, keep func(text string) bool, pick string) *Tree {
	t := &Tree{g: g, pick: pick}
	for _, a := range legal {
		s := a.String()
		if keep != nil && !keep(s) {
			continue
		}
		t.acts = append(t.acts, Act{s, strings.Fields(s)})
	}
	return t
}

// Acts are the tree's actions, in the engine's order.
func (t *Tree) Acts() []Act { return t.acts }

// Under lists the actions that begin with pre.
func (t *Tree) Under(pre []string) []Act {
	var out []Act
	for _, a := range t.acts {
		if len(a.Tokens) >= len(pre) && slices.Equal(a.Tokens[:len(pre)], pre) {
			out = append(out, a)
		}
	}
	return out
}

// Groups groups the actions under pre by their next choice: the tokens up
// to their next stop, in the order the engine lists them; the actions of
// the pick form one group at the root. A beginning that fits does not
// (a prefix too long for a custom_id) groups as the action itself.
func (t *Tree) Groups(pre []string, fits func(prefix string) bool) (order []string, groups map[string][]Act) {
	groups = map[string][]Act{}
	for _, a := range t.Under(pre) {
		end := len(a.Tokens)
		if t.pick != "" && len(pre) == 0 && len(a.Tokens) > 1 && a.Tokens[0] == t.pick {
			end = 1
		} else {
			for _, s := range t.g.Stops(a.Tokens) {
				if s > len(pre) && s < end {
					end = s
					break
				}
			}
		}
		key := strings.Join(a.Tokens[:end], " ")
		if end < len(a.Tokens) && fits != nil && !fits(key) {
			key = a.Text
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], a)
	}
	return order, groups
}

// Descend takes the choices that are no choice: from pre, while the next
// step offers a single beginning of several actions, it is taken. stop,
// when not nil, says where to stop anyway. It returns the beginning
// reached and that step's groups.
func (t *Tree) Descend(pre []string, fits func(prefix string) bool, stop func(pre []string) bool) ([]string, []string, map[string][]Act) {
	for {
		order, groups := t.Groups(pre, fits)
		if len(order) != 1 || (stop != nil && stop(pre)) {
			return pre, order, groups
		}
		g := groups[order[0]]
		key := strings.Fields(order[0])
		if len(g) == 1 || len(key) <= len(pre) {
			return pre, order, groups
		}
		pre = key
	}
}
