package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

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
	lang := string(i.Locale)
	if out.id != "" {
		if pref, err := b.store.UserLang(ctx, out.id); err != nil {
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

// route dispatches one interaction.
func (b *Bot) route(ctx context.Context, i *discordgo.Interaction) {
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		b.onCommand(ctx, i)
	case discordgo.InteractionMessageComponent:
		b.onComponent(ctx, i)
	default:
		b.log.Debug("ignoring an interaction", "type", i.Type)
	}
}

func (b *Bot) onCommand(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	u := b.who(ctx, i)
	if data.Name != "stolik" || len(data.Options) == 0 {
		r := b.newReply(i, false)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	sub := data.Options[0]
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
			b.showHand(ctx, r, u, id)
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

func (b *Bot) onComponent(ctx context.Context, i *discordgo.Interaction) {
	data := i.MessageComponentData()
	cid := data.CustomID
	u := b.who(ctx, i)
	b.log.Debug("click", "custom_id", cid, "user", u.id)
	switch {
	case strings.HasPrefix(cid, "t/"):
		c, ok := parseGameID(cid)
		if !ok {
			b.newReply(i, false).send(ctx, message{content: u.l.T("error.internal", nil)})
			return
		}
		b.onGameClick(ctx, i, u, c, data.Values)
	case strings.HasPrefix(cid, "hand/"):
		r := b.newReply(i, false)
		b.showHand(ctx, r, u, strings.TrimPrefix(cid, "hand/"))
	case strings.HasPrefix(cid, rulesPrefix):
		b.onRulesClick(ctx, i, u, cid)
	case strings.HasPrefix(cid, "watch/"):
		b.showWatch(ctx, b.newReply(i, false), u, strings.TrimPrefix(cid, "watch/"))
	case strings.HasPrefix(cid, "stall/"), strings.HasPrefix(cid, "seat/"):
		r := b.newReply(i, false)
		parts := strings.Split(cid, "/")
		n, err := strconv.Atoi(parts[min(2, len(parts)-1)])
		switch {
		case err != nil || n < 0:
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
		case parts[0] == "stall" && len(parts) == 4 && slices.Contains([]string{choiceWait, choiceStandIn, choiceReplace}, parts[3]):
			b.onStallVote(ctx, r, u, parts[1], engine.Seat(n), parts[3])
		case parts[0] == "seat" && len(parts) == 3:
			b.onTakeSeat(ctx, r, u, parts[1], engine.Seat(n))
		default:
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
		}
	case strings.HasPrefix(cid, "leave/"):
		r := b.newReply(i, false)
		parts := strings.Split(cid, "/")
		if len(parts) != 3 || (parts[2] != "ai" && parts[2] != "open") {
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
			return
		}
		b.onLeave(ctx, r, u, parts[1], parts[2])
	case strings.HasPrefix(cid, "lobby/"):
		parts := strings.Split(cid, "/")
		r := b.newReply(i, false)
		if len(parts) != 3 {
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
			return
		}
		b.lobbyAction(ctx, r, u, parts[1], parts[2])
	default:
		b.newReply(i, false).send(ctx, message{content: u.l.T("error.internal", nil)})
	}
}

// loadFor gets a table for a user's request, answering when it cannot.
func (b *Bot) loadFor(ctx context.Context, r *reply, u user, id string) (*table.Snapshot, bool) {
	snap, err := b.tables.Get(ctx, id)
	if errors.Is(err, table.ErrNotFound) {
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return nil, false
	}
	if err != nil {
		b.log.Error("loading a table", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return nil, false
	}
	return snap, true
}
