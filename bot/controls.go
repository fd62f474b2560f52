package bot

import (
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// controls builds the components for a seat's legal actions, and a line of
// text to go with them when needed.
func (b *Bot) controls(l *locales.Localizer, r render.Game, snap *table.Snapshot, seat engine.Seat, v engine.View, legal []engine.Action, stage string) ([]discordgo.MessageComponent, string) {
	if p, ok := r.Pick(l, v, legal); ok {
		return pickControls(l, snap, p, stage)
	}
	return treeControls(l, r, snap, v, legal, stage)
}

func ptr[T any](v T) *T { return &v }

// pickFirst is the custom_id action of the first part of a two-part pick:
// the values chosen come back as the stage of the second part.
const pickFirst = "~pick"

// pickControls offers a pick (render.Pick) as multi-selects of exactly the
// number of cards to take: a one-part pick as one menu whose values complete
// the action; a two-part one as a first menu, then (with the first values
// carried in the custom_id) a second one over the cards left.
func pickControls(l *locales.Localizer, snap *table.Snapshot, p render.Pick, stage string) ([]discordgo.MessageComponent, string) {
	id, ver := snap.Record.ID, snap.Version
	options := func(skip []string) []discordgo.SelectMenuOption {
		var opts []discordgo.SelectMenuOption
		for _, o := range p.Options {
			if !slices.Contains(skip, o.Value) && len(opts) < maxSelectItems {
				opts = append(opts, discordgo.SelectMenuOption{Label: clip(o.Label, maxOptionText), Value: o.Value})
			}
		}
		return opts
	}
	sel := func(cid string, part render.PickPart, opts []discordgo.SelectMenuOption) discordgo.MessageComponent {
		n := min(part.N, len(opts))
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: cid, Placeholder: clip(part.Placeholder, maxPlaceholder), Options: opts,
			MinValues: ptr(n), MaxValues: n,
		}}}
	}
	if len(p.Parts) < 2 {
		return []discordgo.MessageComponent{sel(actionID(id, ver, p.Prefix+" *"), p.Parts[0], options(nil))}, ""
	}
	if stage == "" {
		return []discordgo.MessageComponent{sel(actionID(id, ver, pickFirst), p.Parts[0], options(nil))}, ""
	}
	taken := strings.Fields(stage)
	var labels []string
	for _, o := range p.Options {
		if slices.Contains(taken, o.Value) {
			labels = append(labels, o.Label)
		}
	}
	note := ""
	if p.Taken != nil {
		note = p.Taken(labels)
	}
	return []discordgo.MessageComponent{
		sel(actionID(id, ver, p.Prefix+" "+stage+" *"), p.Parts[1], options(taken)),
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: l.T("bot.button.back", nil), Style: discordgo.SecondaryButton, CustomID: actionID(id, ver, "~hand"),
		}}},
	}, note
}
