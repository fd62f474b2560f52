package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// user is who clicked or typed.
type user struct {
	id, name string
	l        *locales.Localizer // the language to answer them in
}

// who identifies the user of an interaction and their language: a saved
// preference wins over the interaction's locale.
func (b *Bot) who(ctx context.Context, i *discordgo.Interaction) user {
	var u *discordgo.User
	nick := ""
	if i.Member != nil {
		u, nick = i.Member.User, i.Member.Nick
	}
	if u == nil {
		u = i.User
	}
	var out user
	if u != nil {
		out.id = u.ID
		out.name = u.Username
		if u.GlobalName != "" {
			out.name = u.GlobalName
		}
	}
	if nick != "" {
		out.name = nick
	}
	out.name = inert(out.name) // shown in messages, controls and pictures
	lang := string(i.Locale)
	if out.id != "" {
		if pref, err := b.userLang(ctx, out.id); err != nil {
			b.log.Warn("reading a user's language", "user", out.id, "err", err)
		} else if pref != "" {
			lang = pref
		}
	}
	out.l = b.loc.Lang(lang)
	return out
}

// guildLang is the language of a new table when none is chosen: the
// server's preferred locale when it is one of ours, else the configured
// default.
func (b *Bot) guildLang(i *discordgo.Interaction) string {
	if i.GuildLocale != nil {
		if l, ok := supported(string(*i.GuildLocale)); ok {
			return l
		}
	}
	if b.cfg.DefaultLang != "" {
		return b.cfg.DefaultLang
	}
	return locales.Fallback
}

// supported maps a locale to one of our languages, reporting false for a
// language we do not have.
func supported(tag string) (string, bool) {
	l := locales.Normalize(tag)
	return l, strings.HasPrefix(strings.ToLower(strings.TrimSpace(tag)), l)
}

// route dispatches one interaction. Discord always says who acted (member
// in a server, user in a DM); an interaction that does not is dropped, since
// there is nobody to answer or to seat.
func (b *Bot) route(ctx context.Context, i *discordgo.Interaction) {
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionMessageComponent &&
		i.Type != discordgo.InteractionApplicationCommandAutocomplete {
		b.log.Debug("ignoring an interaction", "type", i.Type)
		return
	}
	if u := interactionUser(i); u == nil || u.ID == "" {
		b.log.Info("ignoring an interaction without a user", "type", i.Type, "interaction", i.ID)
		return
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.onAutocomplete(ctx, i)
	case discordgo.InteractionApplicationCommand:
		b.onCommand(ctx, i)
	case discordgo.InteractionMessageComponent:
		b.onComponent(ctx, i)
	}
}

// interactionUser is who acted: the member's user in a server, else the
// user.
func interactionUser(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	return i.User
}

// dmCommands are the subcommands that make sense outside a server: they are
// about the user, not a channel's table.
var dmCommands = []string{subLanguage, subReminders, subRules}

func (b *Bot) onCommand(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	u := b.who(ctx, i)
	if bad, ok := b.checkCommand(data); !ok {
		b.log.Info("a command that does not fit its registration", "command", clip(data.Name, 32), "option", bad.key, "user", u.id)
		b.newReply(i, false).send(ctx, message{content: b.badCommandText(u, bad)})
		return
	}
	sub := data.Options[0]
	if i.GuildID == "" && !slices.Contains(dmCommands, sub.Name) {
		// /stolik is registered for servers only; tables live in channels.
		b.newReply(i, false).send(ctx, message{content: u.l.T("bot.dm_server_only", nil)})
		return
	}
	opts := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	b.log.Debug("command", "sub", sub.Name, "user", u.id, "channel", i.ChannelID)
	switch sub.Name {
	case subOpen:
		b.cmdOpen(ctx, i, u, opts)
	case subRules:
		b.cmdRules(ctx, i, u, opts)
	case subLanguage:
		b.cmdLanguage(ctx, i, u, opts)
	case subHistory:
		b.cmdHistory(ctx, i, u, opts)
	case subStats:
		b.cmdStats(ctx, i, u, opts)
	case subReminders:
		b.cmdReminders(ctx, i, u, opts)
	default:
		r := b.newReply(i, false)
		id, ok := b.channelTable(ctx, i.ChannelID, u, r)
		if !ok {
			return
		}
		switch sub.Name {
		case subJoin:
			b.lobbyAction(ctx, r, u, id, "join")
		case subLeave:
			b.lobbyAction(ctx, r, u, id, "leave")
		case subStart:
			what := "start"
			if o, ok := opts[optAI]; ok && o.BoolValue() {
				what = "startai"
			}
			b.lobbyAction(ctx, r, u, id, what)
		case subHand:
			b.showHand(ctx, r, u, id, -1)
		case subStatus:
			b.showStatus(ctx, r, u, id)
		case subAbandon:
			b.abandon(ctx, r, u, id)
		default:
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
		}
	}
}

// channelTable finds the open table of a channel, answering the user when
// there is none.
func (b *Bot) channelTable(ctx context.Context, channelID string, u user, r *reply) (string, bool) {
	ids, err := b.store.InChannel(ctx, channelID)
	if err != nil {
		b.log.Error("finding the table of a channel", "channel", channelID, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return "", false
	}
	if len(ids) == 0 {
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return "", false
	}
	return ids[len(ids)-1], true
}

// gameClick is a parsed game control: t/<table>/<version>/<action>.
type gameClick struct {
	table   string
	version int
	action  string
}

// parseGameID reads a game control's custom_id.
func parseGameID(cid string) (gameClick, bool) {
	rest, ok := strings.CutPrefix(cid, "t/")
	if !ok {
		return gameClick{}, false
	}
	id, rest, ok := strings.Cut(rest, "/")
	if !ok || id == "" {
		return gameClick{}, false
	}
	ver, action, ok := strings.Cut(rest, "/")
	if !ok || action == "" {
		return gameClick{}, false
	}
	n, err := strconv.Atoi(ver)
	if err != nil || n < 0 {
		return gameClick{}, false
	}
	return gameClick{table: id, version: n, action: action}, true
}

// clickable are the component types that send an interaction: buttons and
// the select menus.
var clickable = []discordgo.ComponentType{
	discordgo.ButtonComponent, discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent,
	discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent,
}

func (b *Bot) onComponent(ctx context.Context, i *discordgo.Interaction) {
	data := i.MessageComponentData()
	cid := data.CustomID
	u := b.who(ctx, i)
	if len(cid) > maxCustomID || !utf8.ValidString(cid) || !slices.Contains(clickable, data.ComponentType) || len(data.Values) > maxSelectItems {
		// Discord sends none of these: custom_ids are at most 100
		// characters, and only buttons and menus are clicked.
		b.log.Info("a component interaction Discord would not send", "component_type", int(data.ComponentType), "custom_id_length", len(cid), "user", u.id)
		b.newReply(i, false).send(ctx, message{content: u.l.T("error.bad_control", nil)})
		return
	}
	b.log.Debug("click", "custom_id", cid, "user", u.id)
	switch {
	case strings.HasPrefix(cid, "t/"):
		c, ok := parseGameID(cid)
		if !ok {
			b.newReply(i, false).send(ctx, message{content: u.l.T("error.bad_control", nil)})
			return
		}
		b.onGameClick(ctx, i, u, c, data.Values)
	case strings.HasPrefix(cid, "hand/"):
		r := b.newReply(i, false)
		id, version, ok := parseHandID(cid)
		if !ok {
			r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
			return
		}
		if !shownOn(i) {
			version = -1 // only a version Discord showed witnesses anything
		}
		b.showHand(ctx, r, u, id, version)
	case strings.HasPrefix(cid, rulesPrefix):
		b.onRulesClick(ctx, i, u, cid)
	case strings.HasPrefix(cid, "watch/"):
		b.showWatch(ctx, b.newReply(i, false), u, strings.TrimPrefix(cid, "watch/"))
	case strings.HasPrefix(cid, "rule/"):
		b.showRule(ctx, b.newReply(i, false), u, strings.TrimPrefix(cid, "rule/"))
	case strings.HasPrefix(cid, "again/"):
		b.rematch(ctx, b.newReply(i, false), u, strings.TrimPrefix(cid, "again/"))
	case strings.HasPrefix(cid, "hist/"):
		r := b.newReply(i, false)
		if rec, log, ok := b.findTable(ctx, i, r, u, strings.TrimPrefix(cid, "hist/")); ok {
			b.historyAnswer(ctx, r, u, rec, log)
		}
	case strings.HasPrefix(cid, "stall/"), strings.HasPrefix(cid, "seat/"):
		r := b.newReply(i, false)
		parts := strings.Split(cid, "/")
		n, err := strconv.Atoi(parts[min(2, len(parts)-1)])
		switch {
		case err != nil || n < 0:
			r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
		case parts[0] == "stall" && len(parts) == 4 && slices.Contains([]string{choiceWait, choiceStandIn, choiceReplace}, parts[3]):
			b.onStallVote(ctx, r, u, parts[1], engine.Seat(n), parts[3])
		case parts[0] == "seat" && len(parts) == 3:
			b.onTakeSeat(ctx, r, u, parts[1], engine.Seat(n))
		default:
			r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
		}
	case strings.HasPrefix(cid, "leave/"):
		r := b.newReply(i, false)
		parts := strings.Split(cid, "/")
		if len(parts) != 3 || (parts[2] != "ai" && parts[2] != "open") {
			r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
			return
		}
		b.onLeave(ctx, r, u, parts[1], parts[2])
	case strings.HasPrefix(cid, "lobby/"):
		parts := strings.Split(cid, "/")
		// Start with AI players, clicked on the private question whether
		// to: the answer replaces the question, so that its button cannot
		// be clicked again.
		r := b.newReply(i, len(parts) == 3 && parts[2] == "startai")
		if len(parts) != 3 || !slices.Contains(lobbyActions, parts[2]) {
			r.send(ctx, message{content: u.l.T("error.bad_control", nil)})
			return
		}
		b.lobbyAction(ctx, r, u, parts[1], parts[2])
	default:
		// Not one of Stolik's controls (another app's, or one this version
		// no longer draws): say so, rather than blame ourselves.
		b.newReply(i, false).send(ctx, message{content: u.l.T("error.bad_control", nil)})
	}
}

// lobbyActions are what a lobby control may do (lobby/<table>/<action>).
var lobbyActions = []string{"join", "leave", "ai", "start", "startai"}

// loadFor gets a table for a user's request, answering when it cannot. A
// table is reached only from where it lives: its server, and its channel or
// thread. A custom_id naming a table elsewhere (a client can send any) is
// answered as for no table, so that nothing of it, not even its public
// state, shows up where its channel is not visible.
func (b *Bot) loadFor(ctx context.Context, r *reply, u user, id string) (*table.Snapshot, bool) {
	if len(id) > maxTableID || !utf8.ValidString(id) {
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return nil, false
	}
	snap, err := b.tables.Get(ctx, id)
	if errors.Is(err, table.ErrNotFound) {
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return nil, false
	}
	if err != nil {
		b.loadFailed(ctx, r, u, id, err)
		return nil, false
	}
	if !b.reachable(ctx, r.i, snap.Record) {
		b.log.Info("a table's control used outside its channel", "table", id, "user", u.id)
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return nil, false
	}
	return snap, true
}

// maxTableID bounds the table ids worth looking up (they are short).
const maxTableID = 32

// reachable reports whether an interaction comes from where a table lives:
// the table's server, and its channel or the thread its game moved to.
// Tables stored without a server or channel (older rows) are not checked
// on that count.
func (b *Bot) reachable(ctx context.Context, i *discordgo.Interaction, rec table.Record) bool {
	if rec.GuildID != "" && i.GuildID != rec.GuildID {
		return false
	}
	if rec.ChannelID == "" || i.ChannelID == rec.ChannelID {
		return true
	}
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
		return false
	}
	return meta.ThreadID != "" && i.ChannelID == meta.ThreadID
}

// badOption is what is wrong with a command's payload: an option's name and
// value, or neither when the command or subcommand itself is unknown.
type badOption struct{ key, value string }

// checkCommand checks a command against what the bot registered: the
// command and one subcommand by their names, and each option known, given
// once, of its declared type with a value of that type, one of its choices
// if it has any (a free-form option has none: it is autocompleted, and the
// engine validates it), within its length and value bounds; and the
// required ones
// given. Discord's client sends nothing else; a broken or hostile client
// may, and the handlers need not then guess (discordgo's IntValue and
// StringValue panic on a value of another type).
func (b *Bot) checkCommand(data discordgo.ApplicationCommandInteractionData) (badOption, bool) {
	var cmd *discordgo.ApplicationCommand
	for _, c := range b.commands {
		if c.Name == data.Name {
			cmd = c
		}
	}
	if cmd == nil || len(data.Options) != 1 || data.Options[0] == nil || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return badOption{}, false
	}
	var schema *discordgo.ApplicationCommandOption
	for _, o := range cmd.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand && o.Name == data.Options[0].Name {
			schema = o
		}
	}
	if schema == nil {
		return badOption{}, false
	}
	given := map[string]bool{}
	for _, o := range data.Options[0].Options {
		if o == nil {
			return badOption{}, false
		}
		bad := badOption{key: clip(o.Name, 32), value: shown(o.Value)}
		var want *discordgo.ApplicationCommandOption
		for _, so := range schema.Options {
			if so.Name == o.Name {
				want = so
			}
		}
		if want == nil || given[o.Name] || o.Type != want.Type || !fits(want, o.Value) {
			return bad, false
		}
		given[o.Name] = true
	}
	for _, so := range schema.Options {
		if so.Required && !given[so.Name] {
			return badOption{key: so.Name}, false
		}
	}
	return badOption{}, true
}

// maxOptionString is the longest string option value Discord sends.
const maxOptionString = 6000

// fits reports whether an option's value has its declared type and keeps
// to its choices and bounds.
func fits(o *discordgo.ApplicationCommandOption, v any) bool {
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		s, ok := v.(string)
		n := utf8.RuneCountInString(s)
		if !ok || !utf8.ValidString(s) || n > maxOptionString || (o.MaxLength > 0 && n > o.MaxLength) || (o.MinLength != nil && n < *o.MinLength) {
			return false
		}
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
			return false
		}
		if o.Type == discordgo.ApplicationCommandOptionInteger && f != math.Trunc(f) {
			return false
		}
		if (o.MinValue != nil && f < *o.MinValue) || (o.MaxValue != 0 && f > o.MaxValue) {
			return false
		}
	case discordgo.ApplicationCommandOptionBoolean:
		if _, ok := v.(bool); !ok {
			return false
		}
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionChannel,
		discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable:
		s, ok := v.(string)
		if !ok || s == "" || len(s) > 20 || strings.Trim(s, "0123456789") != "" {
			return false
		}
	default:
		return false
	}
	if len(o.Choices) == 0 {
		return true
	}
	return slices.ContainsFunc(o.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool {
		if f, ok := v.(float64); ok {
			return number(c.Value) == f
		}
		return c.Value == v
	})
}

// number is a choice's value as a float64 (NaN if it is not a number).
func number(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case float64:
		return n
	}
	return math.NaN()
}

// shown is an option's value as it may be repeated to the user who sent
// it: on one line, and short.
func shown(v any) string {
	s := strings.Join(strings.Fields(fmt.Sprint(v)), " ")
	return clip(s, 40)
}

// badCommandText answers a command that does not fit its registration.
func (b *Bot) badCommandText(u user, bad badOption) string {
	if bad.key == "" {
		return u.l.T("error.internal", nil)
	}
	return u.l.T("error.bad_option", map[string]any{"Key": bad.key, "Value": bad.value})
}
