package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/scenario"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/record"
)

// deadlineChoices are the values of the open command's deadline option.
var deadlineChoices = map[string]time.Duration{
	"none": 0,
	"12h":  12 * time.Hour,
	"24h":  24 * time.Hour,
	"72h":  72 * time.Hour,
}

// deadlineOrder lists deadlineChoices in the order shown.
var deadlineOrder = []string{"none", "12h", "24h", "72h"}

// historyLines is how many events /stolik history shows.
const historyLines = 15

// showWatch answers "Watch": the public view of the table, as a spectator
// sees it, in the reader's language.
func (b *Bot) showWatch(ctx context.Context, r *reply, u user, id string) {
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	var dls []record.Deadline
	if snap.Record.Status == table.StatusPlaying {
		var err error
		if dls, err = b.store.Deadlines(ctx, id); err != nil {
			b.log.Warn("reading deadlines", "table", id, "err", err)
		}
	}
	r.send(ctx, b.readerMessage(u.l, snap, "", dls))
}

// findTable is the table a history command is about: the one named, or the
// newest of the channel (or thread). A table is found only from where it
// lives, as for its controls (reachable): its channel or its thread. A table
// elsewhere, in this server or another, gets the same answer as no table at
// all, so that /stolik history shows nothing of a channel the reader may
// not see, nor whether the id exists.
func (b *Bot) findTable(ctx context.Context, i *discordgo.Interaction, r *reply, u user, named string) (table.Record, []table.Entry, bool) {
	id := strings.TrimSpace(named)
	if id == "" {
		var err error
		if id, err = b.store.LastInChannel(ctx, i.ChannelID); err != nil {
			b.log.Error("finding the last table of a channel", "channel", i.ChannelID, "err", err)
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
			return table.Record{}, nil, false
		}
	}
	noTable := func() (table.Record, []table.Entry, bool) {
		r.send(ctx, message{content: u.l.T("bot.no_table", nil)})
		return table.Record{}, nil, false
	}
	if id == "" || len(id) > maxTableID || !utf8.ValidString(id) {
		return noTable()
	}
	rec, log, err := b.store.Load(ctx, id)
	switch {
	case errors.Is(err, table.ErrNotFound):
		return noTable()
	case err != nil:
		b.loadFailed(ctx, r, u, id, err)
		return table.Record{}, nil, false
	case !b.reachable(ctx, i, rec):
		b.log.Info("a table's history asked for outside its channel", "table", id, "user", u.id)
		return noTable()
	}
	return rec, log, true
}

// cmdHistory shows the last public events of a table in the reader's
// language, or exports a finished game as a scenario file (for its players
// and the server's managers only: see mayExport).
func (b *Bot) cmdHistory(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	named := ""
	if o, ok := opts[optTable]; ok {
		named = o.StringValue()
	}
	rec, log, ok := b.findTable(ctx, i, r, u, named)
	if !ok {
		return
	}
	if o, ok := opts[optExport]; ok && o.BoolValue() {
		if !mayExport(i, rec, u) {
			b.log.Info("an export refused: not a player, not a manager", "table", rec.ID, "user", u.id)
			r.send(ctx, message{content: u.l.T("async.export_not_allowed", nil)})
			return
		}
		b.export(ctx, r, u, rec, log)
		return
	}
	b.historyAnswer(ctx, r, u, rec, log)
}

// historyAnswer answers with the last public events of a table (its
// /stolik history), in the reader's language.
func (b *Bot) historyAnswer(ctx context.Context, r *reply, u user, rec table.Record, log []table.Entry) {
	lines, err := publicHistory(u.l, rec, log)
	if err != nil {
		b.log.Error("replaying a table's history", "table", rec.ID, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	head := []string{header(u.l, rec), u.l.T("async.history_status."+string(rec.Status), nil)}
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
	}
	if meta.StandIns {
		head = append(head, u.l.T("async.history_standins", nil))
	}
	if len(lines) == 0 {
		head = append(head, u.l.T("async.history_empty", nil))
	} else {
		head = append(head, u.l.N("async.history_last", min(len(lines), historyLines), nil))
	}
	lines = lines[max(0, len(lines)-historyLines):]
	for len(lines) > 0 && len(strings.Join(append(slices.Clone(head), lines...), "\n")) > maxContent {
		lines = lines[1:]
	}
	r.send(ctx, message{content: strings.Join(append(head, lines...), "\n")})
}

// mayExport reports whether a user may export a table: a finished game's
// export holds its seed and every hand dealt, which is for the players of
// the table (a seat kept for them by a stand-in counts) and for whoever
// manages the server (Manage Server or Administrator in the interaction's
// channel, as Discord computes them), not for every member who can read
// the channel.
func mayExport(i *discordgo.Interaction, rec table.Record, u user) bool {
	for _, si := range rec.Seats {
		if si.UserID != "" && si.UserID == u.id {
			return true
		}
	}
	const manage = discordgo.PermissionManageGuild | discordgo.PermissionAdministrator
	return i.Member != nil && i.Member.Permissions&manage != 0
}

// publicHistory replays a table and renders its public events.
func publicHistory(l *locales.Localizer, rec table.Record, log []table.Entry) ([]string, error) {
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return nil, err
	}
	rg, ok := render.For(g.ID())
	if !ok {
		return nil, nil
	}
	st, err := engine.Start(g, rec.Setup, nil)
	if err != nil {
		return nil, err
	}
	nm := names(l, rec)
	var out []string
	for n, e := range log {
		evs, err := engine.Step(g, st, rec.Setup.Seed, n, engine.Move{Seat: e.Seat, Action: e.Action}, nil)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if ev.Audience != engine.Everyone {
				continue
			}
			if t := rg.Event(l, ev, nm); t != "" {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// export answers with a finished game as a scenario file that replays it
// exactly. A running game is not exported: its seed is secret.
func (b *Bot) export(ctx context.Context, r *reply, u user, rec table.Record, log []table.Entry) {
	if rec.Status != table.StatusFinished {
		r.send(ctx, message{content: u.l.T("async.export_unfinished", nil)})
		return
	}
	text, err := Scenario(rec, log)
	if err == nil {
		err = scenario.Run(strings.NewReader(text))
	}
	if err != nil {
		b.log.Error("exporting a table", "table", rec.ID, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	content := u.l.T("async.export_ready", map[string]any{"ID": rec.ID})
	if full := content + "\n```\n" + text + "```"; len([]rune(full)) <= maxContent {
		content = full
	}
	r.send(ctx, message{content: content, files: map[string]string{"stolik-" + rec.ID + ".scenario": text}})
}

// Scenario writes a finished table as a scenario file (see SCENARIOS.md):
// its game, seats, options and seed, every action, and the final scores and
// winners to expect.
func Scenario(rec table.Record, log []table.Entry) (string, error) {
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return "", err
	}
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		return "", err
	}
	done, res := st.Result()
	if !done {
		return "", fmt.Errorf("table %s: the game is not over", rec.ID)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Stolik table %s, finished %s\n", rec.ID, rec.UpdatedAt.UTC().Format(time.RFC3339))
	for _, si := range rec.Seats {
		who := "AI"
		if si.Kind == table.Human || si.Name != "" {
			who = strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, si.Name)
		}
		fmt.Fprintf(&sb, "# seat %d: %s\n", si.Seat, who)
	}
	fmt.Fprintf(&sb, "game %s\nseats %d\n", g.ID(), rec.Setup.Seats)
	var opts []string
	for k, v := range rec.Setup.Options {
		opts = append(opts, k+"="+v)
	}
	slices.Sort(opts)
	if len(opts) > 0 {
		fmt.Fprintf(&sb, "option %s\n", strings.Join(opts, " "))
	}
	fmt.Fprintf(&sb, "seed %d\n", rec.Setup.Seed)
	for _, e := range log {
		fmt.Fprintf(&sb, "%d: %s\n", e.Seat, e.Action)
	}
	for s, score := range res.Scores {
		fmt.Fprintf(&sb, "expect score %d %d\n", s, score)
	}
	sb.WriteString("expect over\n")
	ws := make([]string, len(res.Winners))
	for i, w := range res.Winners {
		ws[i] = w.String()
	}
	fmt.Fprintf(&sb, "expect winner %s\n", strings.Join(ws, " "))
	return sb.String(), nil
}

// cmdStats shows the server's statistics and a player's (the reader's, or
// the one named), in the reader's language.
func (b *Bot) cmdStats(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	who := u.id
	if o, ok := opts[optPlayer]; ok {
		if pu := o.UserValue(nil); pu != nil {
			who = pu.ID
		}
	}
	l := u.l
	gs, err := b.store.GuildStats(ctx, i.GuildID)
	var ps []record.PlayerStat
	var cur, mine int
	if err == nil {
		ps, err = b.store.PlayerStats(ctx, i.GuildID, who)
	}
	if err == nil {
		cur, err = b.store.CurrentTables(ctx, i.GuildID, "")
	}
	if err == nil {
		mine, err = b.store.CurrentTables(ctx, i.GuildID, who)
	}
	if err != nil {
		b.log.Error("statistics", "guild", i.GuildID, "err", err)
		r.send(ctx, message{content: l.T("error.internal", nil)})
		return
	}
	lines := []string{l.T("async.stats.server", nil), l.N("async.stats.current", cur, nil)}
	if len(gs) == 0 {
		lines = append(lines, l.T("async.stats.none", nil))
	}
	for _, g := range gs {
		lines = append(lines, l.T("async.stats.game", map[string]any{
			"Game": l.T("game."+g.Game+".name", nil), "Games": l.N("async.stats.games", g.Games, nil),
			"StandIns": l.N("async.stats.standins", g.StandIns, nil),
		}))
	}
	lines = append(lines, "", l.T("async.stats.player", map[string]any{"Name": "<@" + who + ">"}), l.N("async.stats.current", mine, nil))
	if len(ps) == 0 {
		lines = append(lines, l.T("async.stats.none", nil))
	}
	for _, p := range ps {
		lines = append(lines, l.T("async.stats.player_game", map[string]any{
			"Game": l.T("game."+p.Game+".name", nil), "Games": l.N("async.stats.games", p.Played, nil),
			"Won": l.N("async.stats.won", p.Won, nil), "Score": strconv.FormatFloat(p.AvgScore, 'f', 1, 64),
			"StandIns": l.N("async.stats.standins", p.StandIns, nil),
		}))
	}
	r.send(ctx, message{content: strings.Join(lines, "\n")})
}

// cmdReminders turns a player's direct-message reminders on or off.
func (b *Bot) cmdReminders(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	on := false
	if o, ok := opts[optDM]; ok {
		on = o.BoolValue()
	}
	if err := b.store.SetDMReminders(ctx, u.id, on); err != nil {
		b.log.Error("saving a reminder choice", "user", u.id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	key := "async.dm_off"
	if on {
		key = "async.dm_on"
	}
	r.send(ctx, message{content: u.l.T(key, nil)})
}
