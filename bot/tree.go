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
// hand offering the next token(s). t/<table>/<version>/>play 4
const prefixMark = ">"

// treeChoice is one control of treeControls: a whole action, or (value
// starting with prefixMark) the beginning of several.
type treeChoice struct {
	value, label, desc string
}

// treeControls offers a seat's legal actions as a prefix tree over their
// notation. When every action that begins with the chosen prefix fits (as
// buttons, or in one select menu), they are all shown; otherwise the next
// token is offered, each choice carrying the longer prefix in its
// custom_id or value, so that nothing is kept between clicks. Tokens that
// every remaining action shares are taken without asking. Labels and
// descriptions come from the game's renderer (render.Prefixer,
// render.Describer); a game with descriptions gets select menus, where they
// show.
func treeControls(l *locales.Localizer, r render.Game, snap *table.Snapshot, v engine.View, legal []engine.Action, prefix string) ([]discordgo.MessageComponent, string) {
	id, ver := snap.Record.ID, snap.Version
	nm := names(l, snap.Record)
	type act struct {
		text string
		toks []string
	}
	var acts []act
	for _, a := range legal {
		s := a.String()
		if len(s) > maxOptionText || len(actionID(id, ver, s)) > maxCustomID {
			continue
		}
		acts = append(acts, act{s, strings.Fields(s)})
	}
	pre := strings.Fields(prefix)
	under := func(p []string) []act {
		var out []act
		for _, a := range acts {
			if len(a.toks) >= len(p) && slices.Equal(a.toks[:len(p)], p) {
				out = append(out, a)
			}
		}
		return out
	}
	cands := under(pre)
	if len(pre) > 0 && (len(cands) == 0 || len(actionID(id, ver, prefixMark+strings.Join(pre, " "))) > maxCustomID) {
		pre, cands = nil, acts // a prefix that leads nowhere now: start again
	}
	chosen := len(pre) // chosen by the user
	rows := maxRows
	if chosen > 0 {
		rows-- // for the Back button
	}
	parse := snap.Game.ParseAction
	label := func(toks []string, whole bool, from int) string {
		if r == nil {
			return strings.Join(toks, " ")
		}
		return render.StepLabel(r, l, v, nm, render.Step{Tokens: toks, Chosen: from, Whole: whole}, parse)
	}
	desc := func(toks []string, whole bool, from int) string {
		if r == nil {
			return ""
		}
		return render.StepDescription(r, l, v, render.Step{Tokens: toks, Chosen: from, Whole: whole})
	}

	var choices []treeChoice
	if len(cands) > maxSelectItems {
		// Take the tokens every remaining action shares.
		for {
			var next string
			shared := len(cands) > 0
			for _, a := range cands {
				if len(a.toks) <= len(pre) || (next != "" && a.toks[len(pre)] != next) {
					shared = false
					break
				}
				next = a.toks[len(pre)]
			}
			if !shared {
				break
			}
			pre = append(pre, next)
		}
	}
	if len(cands) <= maxSelectItems {
		for _, a := range cands {
			choices = append(choices, treeChoice{value: a.text, label: label(a.toks, true, len(pre)), desc: desc(a.toks, true, len(pre))})
		}
	} else {
		// The next token: an action that ends here, then each token in the
		// order the engine lists the actions.
		var order []string
		groups := map[string][]act{}
		for _, a := range cands {
			if len(a.toks) == len(pre) {
				choices = append(choices, treeChoice{value: a.text, label: label(a.toks, true, len(pre)), desc: desc(a.toks, true, len(pre))})
				continue
			}
			t := a.toks[len(pre)]
			if _, ok := groups[t]; !ok {
				order = append(order, t)
			}
			groups[t] = append(groups[t], a)
		}
		for _, t := range order {
			g := groups[t]
			if len(g) == 1 {
				choices = append(choices, treeChoice{value: g[0].text, label: label(g[0].toks, true, len(pre)), desc: desc(g[0].toks, true, len(pre))})
				continue
			}
			toks := append(slices.Clone(pre), t)
			value := prefixMark + strings.Join(toks, " ")
			if len(actionID(id, ver, value)) > maxCustomID || len(value) > maxOptionText {
				continue
			}
			choices = append(choices, treeChoice{value: value, label: label(toks, false, len(pre)), desc: desc(toks, false, len(pre))})
		}
	}

	var extra string
	if chosen > 0 {
		extra = l.T("bot.step.chosen", map[string]any{"Choice": label(pre, false, 0)})
	}
	described := false
	for _, c := range choices {
		described = described || c.desc != ""
	}
	var out []discordgo.MessageComponent
	if !described && len(choices) <= rows*maxRowButtons {
		var row []discordgo.MessageComponent
		for _, c := range choices {
			row = append(row, discordgo.Button{Label: clip(c.label, maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: actionID(id, ver, c.value)})
			if len(row) == maxRowButtons {
				out = append(out, discordgo.ActionsRow{Components: row})
				row = nil
			}
		}
		if len(row) > 0 {
			out = append(out, discordgo.ActionsRow{Components: row})
		}
	} else {
		for k := 0; k*maxSelectItems < len(choices); k++ {
			if k == rows {
				more := l.T("bot.too_many_actions", nil)
				if r != nil {
					if h := r.Hint(l, v); h != "" {
						more += "\n" + h
					}
				}
				extra = strings.TrimSpace(extra + "\n" + more)
				break
			}
			part := choices[k*maxSelectItems : min(len(choices), (k+1)*maxSelectItems)]
			opts := make([]discordgo.SelectMenuOption, 0, len(part))
			for _, c := range part {
				o := discordgo.SelectMenuOption{Label: clip(c.label, maxOptionText), Value: c.value}
				if c.desc != "" {
					o.Description = clip(c.desc, maxOptionText)
				}
				opts = append(opts, o)
			}
			out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				CustomID: actionID(id, ver, "~sel"+strconv.Itoa(k)), Placeholder: clip(l.T("bot.choose_placeholder", nil), maxPlaceholder),
				Options: opts, MinValues: ptr(1), MaxValues: 1,
			}}})
		}
	}
	if chosen > 0 {
		out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: l.T("bot.button.back", nil), Style: discordgo.SecondaryButton, CustomID: actionID(id, ver, "~hand"),
		}}})
	}
	return out, extra
}
