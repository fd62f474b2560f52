package bot

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// prefixMark starts a custom_id's action, or a select option's value, that
// is not an action but the beginning of several: choosing it redraws the
// hand offering the next step. t/<table>/<version>/>play 4
const prefixMark = ">"

// treeControls offers a seat's legal actions as a tree over their
// notation, cut where the game's renderer says a choice ends
// (render.Controller: the card, then where it goes). Each step offers the
// choices that follow the prefix chosen so far: a whole action when only
// one follows, else the beginning of several, carried in the custom_id or
// the option's value (prefixMark), so that nothing is kept between clicks.
// A step with a single choice is taken without asking. The renderer names
// each choice and puts it in a select menu or on a button; the prompt it
// gives (the choice so far and the question) comes back as the line above
// the controls.
func treeControls(l *locales.Localizer, r render.Game, snap *table.Snapshot, v engine.View, legal []engine.Action, prefix string) ([]discordgo.MessageComponent, string) {
	id, ver := snap.Record.ID, snap.Version
	nm := distinctNames(names(l, snap.Record))
	fits := func(key string) bool { return fitsID(id, ver, prefixMark+key) }
	tree := render.NewTree(r, legal, func(s string) bool {
		return len(s) <= maxOptionText && len(actionID(id, ver, s)) <= maxCustomID
	}, "")
	pre := strings.Fields(prefix)
	if len(pre) > 0 && (len(tree.Under(pre)) == 0 || !fits(strings.Join(pre, " "))) {
		pre = nil // a prefix that leads nowhere now: start again
	}
	chosen := len(pre) // chosen by the user

	// The next choices; a single one that is not a whole action is taken
	// at once.
	pre, order, groups := tree.Descend(pre, fits, nil)

	var choices []stepChoice
	for _, key := range order {
		g := groups[key]
		c := stepChoice{toks: strings.Fields(key), whole: len(g) == 1}
		if c.whole {
			c.value, c.toks = g[0].Text, g[0].Tokens
		} else {
			c.value = prefixMark + key
		}
		if len(c.value) > maxOptionText || !fitsID(id, ver, c.value) {
			continue
		}
		c.Control = r.Control(l, v, nm, render.Step{Tokens: c.toks, Chosen: len(pre), Whole: c.whole})
		if c.whole {
			// The whole action in words, in case its label does not tell
			// it from another's.
			c.alt = render.StepLabel(r, l, v, nm, render.Step{Tokens: c.toks, Whole: true}, snap.Game.ParseAction)
		}
		choices = append(choices, c)
	}

	extra := r.Prompt(l, v, nm, pre)
	hint := func() string {
		more := l.T("bot.too_many_actions", nil)
		if h := r.Hint(l, v); h != "" {
			more += "\n" + h
		}
		return more
	}
	return layout(l, id, ver, choices, chosen > 0, &extra, hint), extra
}

// distinctNames tells apart the players who go by the same name, by
// their seat ("Alex (2)"), so that controls naming them differ.
func distinctNames(n render.Names) render.Names {
	out := slices.Clone(n)
	for round := 0; round < 3; round++ {
		count := map[string]int{}
		for _, s := range out {
			count[s]++
		}
		alike := false
		for i, s := range out {
			if count[s] > 1 {
				out[i] = s + " (" + strconv.Itoa(i+1) + ")"
				alike = true
			}
		}
		if !alike {
			break
		}
	}
	return out
}

// fitsID reports whether an action or prefix fits a custom_id.
func fitsID(id string, ver int, action string) bool {
	return len(actionID(id, ver, action)) <= maxCustomID
}
