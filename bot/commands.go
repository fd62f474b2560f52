package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine/ai"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// The subcommands of /stolik: their default names, which Discord sends back
// whatever the user's language. They are the fallback language's
// cmd.<sub>.name (TestCommandNamesAreRouted), and also the key <sub>.
const (
	subOpen      = "open"
	subJoin      = "join"
	subLeave     = "leave"
	subStart     = "start"
	subHand      = "hand"
	subStatus    = "status"
	subRules     = "rules"
	subAbandon   = "abandon"
	subLanguage  = "language"
	subHistory   = "history"
	subStats     = "stats"
	subReminders = "reminders"
)

// The option names, as sent in interactions: the fallback language's
// cmd.opt.<key>.name.
const (
	optGame     = "game"
	optSeats    = "seats"
	optLang     = "language"
	optAI       = "ai"
	optDeadline = "deadline"
	optThread   = "thread"
	optLevel    = "ai_level"
	optTable    = "table"
	optExport   = "export"
	optPlayer   = "player"
	optDM       = "dm"
	optTopic    = "topic"
	optCard     = "card"
)

// localized is the text of one locale key in every language: the default
// (the fallback language, English) and the localizations of the other
// languages the bundle loaded, under each Discord locale their files name
// (meta.discord_locales).
type localized struct {
	def string
	loc map[discordgo.Locale]string
}

func text(b *locales.Bundle, key string) localized {
	return localizedFunc(b, func(l *locales.Localizer) string { return l.T(key, nil) })
}

func localizedFunc(b *locales.Bundle, f func(l *locales.Localizer) string) localized {
	t := localized{def: f(b.Lang(locales.Fallback)), loc: map[discordgo.Locale]string{}}
	for _, lang := range b.Languages() {
		if lang == locales.Fallback {
			continue // the default
		}
		s := f(b.Lang(lang))
		for _, code := range b.DiscordLocales(lang) {
			t.loc[discordgo.Locale(code)] = s
		}
	}
	return t
}

func (t localized) ptr() *map[discordgo.Locale]string { m := t.loc; return &m }

// option builds an option from the keys cmd.opt.<key>.name and .desc. Its
// default name, the fallback language's, is the one Discord sends back (the
// opt constants; TestCommandNamesAreRouted).
func option(b *locales.Bundle, key string, typ discordgo.ApplicationCommandOptionType, required bool) *discordgo.ApplicationCommandOption {
	n, d := text(b, "cmd.opt."+key+".name"), text(b, "cmd.opt."+key+".desc")
	return &discordgo.ApplicationCommandOption{
		Type: typ, Name: n.def, Description: d.def, Required: required,
		NameLocalizations: n.loc, DescriptionLocalizations: d.loc,
	}
}

func choice(b *locales.Bundle, key, value string) *discordgo.ApplicationCommandOptionChoice {
	t := text(b, key)
	return &discordgo.ApplicationCommandOptionChoice{Name: t.def, NameLocalizations: t.loc, Value: value}
}

func gameChoices(b *locales.Bundle) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, id := range engine.Games() {
		out = append(out, choice(b, "game."+id+".name", id))
	}
	return out
}

// seatRange is the smallest and largest seat count of any game.
func seatRange() (lo, hi int) {
	lo, hi = 100, 0
	for _, id := range engine.Games() {
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		a, b := g.Seats()
		lo, hi = min(lo, a), max(hi, b)
	}
	if hi == 0 {
		return 2, 6
	}
	return lo, hi
}

func langChoices(b *locales.Bundle, auto bool) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range b.Languages() {
		out = append(out, choice(b, "cmd.choice.lang."+l, l))
	}
	if auto {
		out = append(out, choice(b, "cmd.choice.lang.auto", "auto"))
	}
	return out
}

// Commands returns the application commands: /stolik with its
// subcommands, names and descriptions from the locale files, localized for
// every language of the bundle but the fallback.
func Commands(b *locales.Bundle) []*discordgo.ApplicationCommand {
	sub := func(key string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		n, d := text(b, "cmd."+key+".name"), text(b, "cmd."+key+".desc")
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: n.def, Description: d.def,
			NameLocalizations: n.loc, DescriptionLocalizations: d.loc, Options: opts,
		}
	}
	game := func() *discordgo.ApplicationCommandOption {
		o := option(b, "game", discordgo.ApplicationCommandOptionString, true)
		o.Choices = gameChoices(b)
		return o
	}
	lo, hi := seatRange()
	seats := option(b, "seats", discordgo.ApplicationCommandOptionInteger, false)
	minSeats := float64(lo)
	seats.MinValue, seats.MaxValue = &minSeats, float64(hi)
	lang := option(b, "lang", discordgo.ApplicationCommandOptionString, false)
	lang.Choices = langChoices(b, false)
	mylang := option(b, "mylang", discordgo.ApplicationCommandOptionString, true)
	mylang.Choices = langChoices(b, true)
	deadline := option(b, "deadline", discordgo.ApplicationCommandOptionString, false)
	for _, v := range deadlineOrder {
		deadline.Choices = append(deadline.Choices, choice(b, "cmd.choice.deadline."+v, v))
	}
	thread := option(b, "thread", discordgo.ApplicationCommandOptionBoolean, false)
	level := option(b, "level", discordgo.ApplicationCommandOptionString, false)
	for _, v := range ai.Levels() {
		level.Choices = append(level.Choices, choice(b, "cmd.choice.level."+v, v))
	}
	tableOpt := option(b, "table", discordgo.ApplicationCommandOptionString, false)
	tableOpt.MaxLength = 16
	export := option(b, "export", discordgo.ApplicationCommandOptionBoolean, false)
	player := option(b, "player", discordgo.ApplicationCommandOptionUser, false)
	dm := option(b, "dm", discordgo.ApplicationCommandOptionBoolean, true)
	topic := option(b, "topic", discordgo.ApplicationCommandOptionString, false)
	topic.Choices = topicChoices(b)
	card := option(b, "card", discordgo.ApplicationCommandOptionString, false)
	card.MaxLength = maxOptionText

	// Tables live in server channels: the command is offered there only
	// (contexts: guild), installed with the bot into a server
	// (integration types: guild install).
	guildOnly := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	guildInstall := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	n, d := text(b, "cmd.stolik.name"), text(b, "cmd.stolik.desc")
	return []*discordgo.ApplicationCommand{{
		Type:                     discordgo.ChatApplicationCommand,
		Name:                     n.def,
		NameLocalizations:        n.ptr(),
		Description:              d.def,
		DescriptionLocalizations: d.ptr(),
		Contexts:                 &guildOnly,
		IntegrationTypes:         &guildInstall,
		Options: []*discordgo.ApplicationCommandOption{
			sub(subOpen, append(append([]*discordgo.ApplicationCommandOption{game(), seats}, gameOptions(b)...), lang, deadline, thread, level)...),
			sub(subJoin),
			sub(subLeave),
			sub(subStart, option(b, "ai", discordgo.ApplicationCommandOptionBoolean, false)),
			sub(subHand),
			sub(subStatus),
			sub(subRules, game(), topic, card),
			sub(subAbandon),
			sub(subLanguage, mylang),
			sub(subHistory, tableOpt, export),
			sub(subStats, player),
			sub(subReminders, dm),
		},
	}}
}

// gameOptionKeys lists, in order, the keys of every registered game's table
// options, each once, with the games that have it and its values (none for
// a free-form option).
func gameOptionKeys() (keys []string, games map[string][]string, values map[string][]string) {
	games, values = map[string][]string{}, map[string][]string{}
	for _, id := range engine.Games() {
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		for _, spec := range g.Options() {
			if _, ok := games[spec.Key]; !ok {
				keys = append(keys, spec.Key)
			}
			games[spec.Key] = append(games[spec.Key], id)
			for _, v := range spec.Values {
				if !slices.Contains(values[spec.Key], v) {
					values[spec.Key] = append(values[spec.Key], v)
				}
			}
		}
	}
	return keys, games, values
}

// freeOptions are the keys of the table options whose values are free-form
// in some game (an OptionSpec without Values: Rebel Princess's rounds).
// /stolik open offers them with autocomplete instead of choices; the engine
// validates whatever is sent.
func freeOptions() map[string]bool {
	free := map[string]bool{}
	for _, id := range engine.Games() {
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		for _, spec := range g.Options() {
			if len(spec.Values) == 0 {
				free[spec.Key] = true
			}
		}
	}
	return free
}

// choiceKey is the locale key naming value v of game option key:
// cmd.choice.<key>.<v>, else <game>.<key>.<v> (a game's own edition names),
// else cmd.choice.any.<v> (on, off).
func choiceKey(b *locales.Bundle, games []string, key, v string) string {
	en := b.Lang(locales.Fallback)
	cands := []string{"cmd.choice." + key + "." + v}
	for _, g := range games {
		cands = append(cands, g+"."+key+"."+v)
	}
	cands = append(cands, "cmd.choice.any."+v)
	for _, k := range cands {
		if en.Has(k) {
			return k
		}
	}
	return cands[0]
}

// gameOptions are /stolik open's options for the games' table options,
// built from Game.Options(): one string option per key (named from
// cmd.opt.<key>), its choices the union of the games' values, or, for a
// free-form option, no choices but autocomplete (answered by
// onAutocomplete from the game's renderer). Discord allows 25 options and
// 25 choices: the rest are left out.
func gameOptions(b *locales.Bundle) []*discordgo.ApplicationCommandOption {
	keys, games, values := gameOptionKeys()
	free := freeOptions()
	var out []*discordgo.ApplicationCommandOption
	for _, key := range keys {
		if len(out) == maxGameOptions {
			break
		}
		o := option(b, key, discordgo.ApplicationCommandOptionString, false)
		if free[key] {
			o.Autocomplete, o.MaxLength = true, maxOptionText
			out = append(out, o)
			continue
		}
		for _, v := range values[key] {
			if len(o.Choices) == maxSelectItems {
				break
			}
			o.Choices = append(o.Choices, choice(b, choiceKey(b, games[key], key, v), v))
		}
		out = append(out, o)
	}
	return out
}

// maxGameOptions leaves room in /stolik open (25 options) for game, seats,
// language, deadline and thread.
const maxGameOptions = 20

// topicChoices are /stolik rules' topics: the union of every game's rules
// topics (render.RulesTopics), each named by the first game that has it.
func topicChoices(b *locales.Bundle) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	var seen []string
	for _, id := range engine.Games() {
		for _, t := range render.RulesTopics(id) {
			if slices.Contains(seen, t) || len(out) == maxSelectItems {
				continue
			}
			seen = append(seen, t)
			out = append(out, choice(b, render.RulesTopicKey(id, t), t))
		}
	}
	return out
}

// The rules command answers with one page of a topic at a time: a message's
// content holds 2000 characters, and a topic such as Rebel Princess's round
// cards is several times that. Each page is an ephemeral message whose
// buttons (previous, next, and the game's other topics) carry everything
// needed to draw the page they lead to, rules/<game>/<topic>/<page>, so
// paging is stateless like every other control and survives restarts; the
// reader's language is looked up from the clicker, as always.
const rulesPrefix = "rules/"

func rulesID(gameID, topic string, page int) string {
	return rulesPrefix + gameID + "/" + topic + "/" + strconv.Itoa(page)
}

// cmdRules answers /stolik rules game:<g> [topic:<t>] [card:<name or id>].
func (b *Bot) cmdRules(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	gameID := "" // the option is required: none is an unknown game
	if o, ok := opts[optGame]; ok {
		gameID = o.StringValue()
	}
	if _, err := engine.Lookup(gameID); err != nil || !u.l.Has(gameID+".rules") {
		r.send(ctx, message{content: u.l.T("error.unknown_game", map[string]any{"Game": gameID})})
		return
	}
	if o, ok := opts[optCard]; ok && strings.TrimSpace(o.StringValue()) != "" {
		q := o.StringValue()
		if text, found := render.RulesLookup(u.l, gameID, q, maxContent); found {
			r.send(ctx, message{content: text})
			return
		}
		r.send(ctx, message{content: u.l.T("ui.rules.no_card", map[string]any{
			"Game": u.l.T("game."+gameID+".name", nil), "Name": clip(q, maxOptionText), "List": render.RulesTopicList(u.l, gameID),
		})})
		return
	}
	topic := render.RulesBase
	if o, ok := opts[optTopic]; ok {
		topic = o.StringValue()
	}
	r.send(ctx, rulesMessage(u.l, gameID, topic, 0))
}

// onRulesClick turns the page of a rules message: the clicked message is
// replaced by the page the button names.
func (b *Bot) onRulesClick(ctx context.Context, i *discordgo.Interaction, u user, cid string) {
	r := b.newReply(i, true)
	parts := strings.Split(strings.TrimPrefix(cid, rulesPrefix), "/")
	if len(parts) != 3 {
		r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
		return
	}
	page, err := strconv.Atoi(parts[2])
	if _, lerr := engine.Lookup(parts[0]); err != nil || lerr != nil || page < 0 {
		r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
		return
	}
	r.send(ctx, rulesMessage(u.l, parts[0], parts[1], page))
}

// rulesMessage is one page of a topic of a game's rules with its buttons: a
// row to turn the page when there are several, and a row (or two) to open
// the game's other topics. A page past the end (the texts changed since the
// button was drawn) shows the last one.
func rulesMessage(l *locales.Localizer, gameID, topic string, page int) message {
	pages, ok := render.RulesPages(l, gameID, topic, maxContent)
	if !ok {
		return message{content: l.T("ui.rules.no_topic", map[string]any{
			"Game": l.T("game."+gameID+".name", nil), "List": render.RulesTopicList(l, gameID),
		})}
	}
	page = min(page, len(pages)-1)
	m := message{content: pages[page]}
	if len(pages) > 1 {
		prev, next := max(page-1, 0), min(page+1, len(pages)-1)
		m.components = append(m.components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: clip(l.T("ui.rules.prev", nil), maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: rulesID(gameID, topic, prev), Disabled: prev == page},
			discordgo.Button{Label: clip(l.T("ui.rules.next", nil), maxButtonLabel), Style: discordgo.PrimaryButton, CustomID: rulesID(gameID, topic, next), Disabled: next == page},
		}})
	}
	var row []discordgo.MessageComponent
	for _, t := range render.RulesTopics(gameID) {
		if t == topic || len(m.components) == maxRows {
			continue
		}
		row = append(row, discordgo.Button{Label: clip(l.T(render.RulesTopicKey(gameID, t), nil), maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: rulesID(gameID, t, 0)})
		if len(row) == maxRowButtons {
			m.components = append(m.components, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 && len(m.components) < maxRows {
		m.components = append(m.components, discordgo.ActionsRow{Components: row})
	}
	return m
}
