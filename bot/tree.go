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

// treeAct is a legal action and its notation's tokens.
type treeAct struct {
	text string
	toks []string
}

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
	ctl, _ := r.(render.Controller)
	var acts []treeAct
	for _, a := range legal {
		s := a.String()
		if len(s) > maxOptionText || len(actionID(id, ver, s)) > maxCustomID {
			continue
		}
		acts = append(acts, treeAct{s, strings.Fields(s)})
	}
	pre := strings.Fields(prefix)
	cands := treeUnder(acts, pre)
	if len(pre) > 0 && (len(cands) == 0 || !fitsID(id, ver, prefixMark+strings.Join(pre, " "))) {
		pre, cands = nil, acts // a prefix that leads nowhere now: start again
	}
	chosen := len(pre) // chosen by the user

	// The next choices; a single one that is not a whole action is taken
	// at once.
	var order []string
	var groups map[string][]treeAct
	for {
		order, groups = treeGroups(ctl, cands, pre, id, ver)
		if len(order) != 1 {
			break
		}
		g := groups[order[0]]
		key := strings.Fields(order[0])
		if len(g) == 1 || len(key) <= len(pre) {
			break
		}
		pre, cands = key, g
	}

	var choices []stepChoice
	for _, key := range order {
		g := groups[key]
		c := stepChoice{toks: strings.Fields(key), whole: len(g) == 1}
		if c.whole {
			c.value, c.toks = g[0].text, g[0].toks
		} else {
			c.value = prefixMark + key
		}
		if len(c.value) > maxOptionText || !fitsID(id, ver, c.value) {
			continue
		}
		s := render.Step{Tokens: c.toks, Chosen: len(pre), Whole: c.whole}
		switch {
		case ctl != nil:
			c.Control = ctl.Control(l, v, nm, s)
		case r != nil:
			c.Label = render.StepLabel(r, l, v, nm, s, snap.Game.ParseAction)
			if c.Description = render.StepDescription(r, l, v, s); c.Description != "" {
				c.Menu = "~"
			}
		default:
			c.Label = strings.Join(c.toks, " ")
		}
		if c.whole && r != nil {
			// The whole action in words, in case its label does not tell
			// it from another's.
			c.alt = render.StepLabel(r, l, v, nm, render.Step{Tokens: c.toks, Whole: true}, snap.Game.ParseAction)
		}
		choices = append(choices, c)
	}

	var extra string
	switch {
	case ctl != nil:
		extra = ctl.Prompt(l, v, nm, pre)
	case chosen > 0 && r != nil:
		extra = l.T("bot.step.chosen", map[string]any{"Choice": render.StepLabel(r, l, v, nm, render.Step{Tokens: pre}, snap.Game.ParseAction)})
	}
	hint := func() string {
		more := l.T("bot.too_many_actions", nil)
		if r != nil {
			if h := r.Hint(l, v); h != "" {
				more += "\n" + h
			}
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

// treeUnder lists the actions that begin with p.
func treeUnder(acts []treeAct, p []string) []treeAct {
	var out []treeAct
	for _, a := range acts {
		if len(a.toks) >= len(p) && slices.Equal(a.toks[:len(p)], p) {
			out = append(out, a)
		}
	}
	return out
}

// treeGroups groups the actions under pre by their next choice: the
// tokens up to their next stop (render.Controller.Stops), in the order
// the engine lists them. Without a Controller, every action is a choice of
// its own when they fit in one menu, else the next token is.
func treeGroups(ctl render.Controller, cands []treeAct, pre []string, id string, ver int) ([]string, map[string][]treeAct) {
	var order []string
	groups := map[string][]treeAct{}
	for _, a := range cands {
		end := len(a.toks)
		switch {
		case ctl != nil:
			for _, s := range ctl.Stops(a.toks) {
				if s > len(pre) && s < end {
					end = s
					break
				}
			}
		case len(cands) > maxSelectItems && len(a.toks) > len(pre):
			end = len(pre) + 1
		}
		key := strings.Join(a.toks[:end], " ")
		if end < len(a.toks) && !fitsID(id, ver, prefixMark+key) {
			key = a.text // a prefix too long for a custom_id: the action itself
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], a)
	}
	return order, groups
}
