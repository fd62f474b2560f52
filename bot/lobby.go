package bot

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"

	"github.com/stolik-bot/stolik/engine/ai"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/record"
)

// cmdOpen opens a table in the channel and posts its lobby message.
func (b *Bot) cmdOpen(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	if !mayPost(i) {
		r.send(ctx, message{content: u.l.T("bot.cannot_post", nil)})
		return
	}
	// One open table per channel: the check and the creation hold the
	// channel's lock, so that opens at once make one table.
	unlockChannel := b.lock(channelLockKey(i.ChannelID))
	defer unlockChannel()
	if !b.channelFree(ctx, r, u, i.ChannelID) {
		return
	}
	gameID := "" // the option is required: none is an unknown game
	if o, ok := opts[optGame]; ok {
		gameID = o.StringValue()
	}
	g, err := engine.Lookup(gameID)
	if err != nil {
		r.send(ctx, message{content: render.Error(u.l, err)})
		return
	}
	lo, hi := g.Seats()
	seats := max(lo, min(4, hi))
	if o, ok := opts[optSeats]; ok {
		seats = int(o.IntValue())
	}
	// Every game option given goes to the engine, which rejects one that
	// this game does not have (mode for princesses) with a rule error.
	options := engine.Options{}
	keys, _, _ := gameOptionKeys()
	for _, key := range keys {
		if o, ok := opts[key]; ok {
			options[key] = o.StringValue()
		}
	}
	lang := b.guildLang(i)
	if o, ok := opts[optLang]; ok {
		lang = o.StringValue()
	}
	meta := record.Meta{WantThread: threadsAllowed(i)}
	if o, ok := opts[optThread]; ok {
		meta.WantThread = o.BoolValue() && meta.WantThread
	}
	if o, ok := opts[optDeadline]; ok {
		meta.Deadline = deadlineChoices[o.StringValue()]
	}
	if o, ok := opts[optLevel]; ok {
		if !ai.IsLevel(o.StringValue()) {
			r.send(ctx, message{content: u.l.T("error.bad_option", map[string]any{"Key": optLevel, "Value": inert(o.StringValue())})})
			return
		}
		meta.AILevel = o.StringValue()
	}
	rec, ok := b.openTable(ctx, r, u, table.Record{
		Setup:     engine.Setup{Game: g.ID(), Options: options, Seats: seats},
		Seats:     []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: u.id, Name: u.name}},
		Lang:      lang,
		GuildID:   i.GuildID,
		ChannelID: i.ChannelID,
		CreatedBy: u.id,
	}, meta)
	if ok {
		r.send(ctx, message{content: u.l.T("bot.opened", map[string]any{"ID": rec.ID})})
	}
}

// channelLockKey is the lock (Bot.lock) of a channel's open table: held
// from the check that the channel has none to the new table's creation.
func channelLockKey(channelID string) string { return "channel/" + channelID }

// channelFree reports whether a channel has no open table, answering the
// user when it has one (or when the store cannot tell).
func (b *Bot) channelFree(ctx context.Context, r *reply, u user, channelID string) bool {
	ids, err := b.store.InChannel(ctx, channelID)
	switch {
	case err != nil:
		b.log.Error("finding the table of a channel", "channel", channelID, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return false
	case len(ids) > 0:
		r.send(ctx, message{content: u.l.T("bot.table_exists", map[string]any{"ID": ids[len(ids)-1]})})
		return false
	}
	return true
}

// openTable creates a table in its lobby with its settings and posts its
// lobby message, answering the user when it cannot (the table is then
// abandoned).
func (b *Bot) openTable(ctx context.Context, r *reply, u user, rec table.Record, meta record.Meta) (table.Record, bool) {
	channelID := rec.ChannelID
	rec, err := b.tables.Create(ctx, rec)
	if errors.Is(err, table.ErrChannelTaken) {
		// Another open came first (here or in another process): the
		// database holds one open table per channel.
		if b.channelFree(ctx, r, u, channelID) {
			r.send(ctx, message{content: u.l.T("error.internal", nil)}) // it has ended meanwhile
		}
		return rec, false
	}
	if err != nil {
		if engine.Code(err) == "" {
			b.log.Error("creating a table", "err", err)
		}
		r.send(ctx, message{content: render.Error(u.l, err)})
		return rec, false
	}
	unlock := b.lock(rec.ID)
	defer unlock()
	if err := b.store.SetMeta(ctx, rec.ID, meta); err != nil {
		b.log.Error("saving a table's settings", "table", rec.ID, "err", err)
	}
	msg, err := b.send(ctx, rec.ChannelID, b.lobbyMessage(rec))
	if err != nil {
		b.log.Error("posting a lobby", "table", rec.ID, "err", err)
		rec.Status = table.StatusAbandoned
		if _, err := b.tables.Update(ctx, rec); err != nil {
			b.log.Error("abandoning a table whose lobby could not be posted", "table", rec.ID, "err", err)
		}
		if restStatus(err) == http.StatusForbidden {
			// The channel's permissions keep the bot out after all.
			r.send(ctx, message{content: u.l.T("bot.cannot_post", nil)})
		} else {
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
		}
		return rec, false
	}
	rec.MessageID = msg.ID
	if _, err := b.tables.Update(ctx, rec); err != nil {
		b.log.Error("saving the lobby message id", "table", rec.ID, "err", err)
	}
	b.log.Info("table opened", "table", rec.ID, "game", rec.Setup.Game, "seats", rec.Setup.Seats, "channel", rec.ChannelID)
	return rec, true
}

// rematch opens a new table after a finished game, in the game's channel,
// with the same seats (the players, and AI players where AI played at the
// end) and the same options, language and settings, in its lobby: its
// presser starts it when everyone is ready. Only a player of the game may
// ask, and only while the channel has no open table, so that a second
// press opens nothing.
func (b *Bot) rematch(ctx context.Context, r *reply, u user, id string) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	old := snap.Record
	if old.Status != table.StatusFinished {
		r.send(ctx, message{content: u.l.T("bot.rematch_not_over", nil)})
		return
	}
	if !slices.ContainsFunc(old.Seats, func(si table.SeatInfo) bool { return si.UserID == u.id }) {
		r.send(ctx, message{content: u.l.T("bot.rematch_not_player", nil)})
		return
	}
	unlockChannel := b.lock(channelLockKey(old.ChannelID))
	defer unlockChannel()
	if !b.channelFree(ctx, r, u, old.ChannelID) {
		return
	}
	meta, err := b.store.Meta(ctx, old.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", old.ID, "err", err)
	}
	seats := make([]table.SeatInfo, 0, len(old.Seats))
	for _, si := range old.Seats {
		if si.UserID != "" {
			// A player, or a player an AI stood in for: they play again.
			seats = append(seats, table.SeatInfo{Seat: si.Seat, Kind: table.Human, UserID: si.UserID, Name: si.Name})
		} else {
			seats = append(seats, table.SeatInfo{Seat: si.Seat, Kind: table.AI, Bot: cmp.Or(si.Bot, b.cfg.AIBot)})
		}
	}
	slices.SortFunc(seats, func(a, c table.SeatInfo) int { return int(a.Seat) - int(c.Seat) })
	rec, ok := b.openTable(ctx, r, u, table.Record{
		Setup:     engine.Setup{Game: old.Setup.Game, Options: maps.Clone(old.Setup.Options), Seats: old.Setup.Seats},
		Seats:     seats,
		Lang:      old.Lang,
		GuildID:   old.GuildID,
		ChannelID: old.ChannelID,
		CreatedBy: u.id,
	}, record.Meta{WantThread: meta.WantThread, Deadline: meta.Deadline, AILevel: meta.AILevel})
	if ok {
		b.log.Info("rematch", "table", rec.ID, "after", old.ID, "by", u.id)
		r.send(ctx, message{content: u.l.T("bot.rematch_opened", map[string]any{"ID": rec.ID})})
	}
}

// lobbyAction handles join, leave, ai (add an AI player), start and
// startai (start, filling empty seats with AI players), from a button or a
// command.
func (b *Bot) lobbyAction(ctx context.Context, r *reply, u user, id, what string) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	rec := snap.Record
	switch rec.Status {
	case table.StatusPlaying:
		if _, seated := seatOf(rec, u.id); seated && what == "leave" {
			b.offerLeave(ctx, r, u, rec)
			return
		}
		if what == "join" || what == "leave" || what == "ai" || what == "start" || what == "startai" {
			r.send(ctx, message{content: u.l.T("bot.not_lobby", nil)})
			return
		}
	case table.StatusFinished:
		r.send(ctx, message{content: u.l.T("bot.finished", nil)})
		return
	case table.StatusAbandoned:
		r.send(ctx, message{content: u.l.T("bot.abandoned", nil)})
		return
	}
	_, seated := seatOf(rec, u.id)
	opener := rec.CreatedBy == u.id
	say := func(key string, data map[string]any) { r.send(ctx, message{content: u.l.T(key, data)}) }
	notOpener := func() {
		name := rec.CreatedBy
		for _, si := range rec.Seats {
			if si.UserID == rec.CreatedBy {
				name = si.Name
			}
		}
		say("bot.not_opener", map[string]any{"Name": name})
	}
	var note string
	switch what {
	case "join":
		switch {
		case seated:
			say("bot.already_seated", nil)
			return
		case len(rec.Seats) >= rec.Setup.Seats:
			say("bot.table_full", nil)
			return
		}
		rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(len(rec.Seats)), Kind: table.Human, UserID: u.id, Name: u.name})
		note = u.l.T("bot.joined", map[string]any{"ID": rec.ID})
	case "leave":
		switch {
		case !seated:
			say("bot.not_seated", nil)
			return
		case opener:
			say("bot.opener_cannot_leave", nil)
			return
		}
		rec.Seats = slices.DeleteFunc(rec.Seats, func(si table.SeatInfo) bool { return si.Kind == table.Human && si.UserID == u.id })
		for k := range rec.Seats {
			rec.Seats[k].Seat = engine.Seat(k)
		}
		note = u.l.T("bot.left", map[string]any{"ID": rec.ID})
	case "ai":
		switch {
		case !opener:
			notOpener()
			return
		case len(rec.Seats) >= rec.Setup.Seats:
			say("bot.table_full", nil)
			return
		}
		rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(len(rec.Seats)), Kind: table.AI, Bot: b.aiKind(ctx, rec.ID)})
		note = u.l.T("bot.ai_added", nil)
	case "start", "startai":
		if !opener {
			notOpener()
			return
		}
		empty := rec.Setup.Seats - len(rec.Seats)
		if empty > 0 && what == "start" {
			r.send(ctx, message{
				content: u.l.N("bot.seats_empty", empty, nil),
				components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: u.l.T("bot.button.start_ai", nil), Style: discordgo.SuccessButton, CustomID: lobbyID(rec.ID, "startai")},
				}}},
			})
			return
		}
		kind := b.aiKind(ctx, rec.ID)
		for len(rec.Seats) < rec.Setup.Seats {
			rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(len(rec.Seats)), Kind: table.AI, Bot: kind})
		}
		rec.Status = table.StatusPlaying
		b.start(ctx, r, u, rec)
		return
	default:
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	rec, err := b.tables.Update(ctx, rec)
	if err != nil {
		b.log.Error("updating a lobby", "table", id, "err", err)
		r.send(ctx, message{content: render.Error(u.l, err)})
		return
	}
	r.send(ctx, message{content: note})
	b.refresh(ctx, &table.Snapshot{Record: rec})
}

// start begins play at a full table: the lobby message becomes the table
// message, and the AI seats make their first moves.
func (b *Bot) start(ctx context.Context, r *reply, u user, rec table.Record) {
	if _, err := b.tables.Update(ctx, rec); err != nil {
		b.log.Error("starting a table", "table", rec.ID, "err", err)
		r.send(ctx, message{content: render.Error(u.l, err)})
		return
	}
	snap, err := b.tables.Get(ctx, rec.ID)
	if err != nil {
		b.log.Error("loading a started table", "table", rec.ID, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	b.log.Info("table started", "table", rec.ID)
	snap = b.moveToThread(ctx, snap)
	evs, after, err := b.runAI(ctx, snap)
	if err != nil {
		b.log.Error("AI move", "table", rec.ID, "err", err)
	}
	r.send(ctx, message{content: u.l.T("bot.started", nil)})
	b.publish(ctx, after, evs, nil, true)
}

// abandon ends a table without a result: at once when its opener asks,
// else when a majority of its human players have voted for it.
func (b *Bot) abandon(ctx context.Context, r *reply, u user, id string) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	rec := snap.Record
	if rec.Status == table.StatusFinished || rec.Status == table.StatusAbandoned {
		r.send(ctx, message{content: u.l.T("bot.finished", nil)})
		return
	}
	if _, seated := seatOf(rec, u.id); !seated && rec.CreatedBy != u.id {
		r.send(ctx, message{content: u.l.T("bot.not_seated", nil)})
		return
	}
	if rec.CreatedBy != u.id {
		// Votes are kept in the store: a restart forgets none.
		needed := humans(rec)/2 + 1
		var seated []string
		for _, si := range rec.Seats {
			if si.Kind == table.Human && si.UserID != "" {
				seated = append(seated, si.UserID)
			}
		}
		count, changed, ok := b.tally(ctx, r, u, id, topicAbandon, "yes", seated)
		if !ok {
			return
		}
		if !changed {
			r.send(ctx, message{content: u.l.T("bot.abandon_already", nil)})
			return
		}
		if count < needed {
			r.send(ctx, message{content: u.l.T("bot.abandon_voted", nil)})
			l := b.tableLang(rec)
			if _, err := b.post(ctx, rec, message{content: l.T("bot.abandon_vote", map[string]any{"Name": u.name, "N": count, "Needed": needed})}); err != nil {
				b.log.Warn("posting a vote", "table", id, "err", err)
			}
			return
		}
	}
	rec.Status = table.StatusAbandoned
	rec, err := b.tables.Update(ctx, rec)
	if err != nil {
		b.log.Error("abandoning a table", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	if err := b.store.ClearVotes(ctx, id, topicAbandon); err != nil {
		b.log.Error("clearing votes", "table", id, "err", err)
	}
	b.log.Info("table abandoned", "table", id, "by", u.id)
	r.send(ctx, message{content: u.l.T("bot.abandoned", nil)})
	snap.Record = rec
	b.syncDeadlines(ctx, snap, record.Meta{})
	b.refresh(ctx, snap)
	if _, err := b.post(ctx, rec, message{content: b.tableLang(rec).T("bot.abandoned", nil)}); err != nil {
		b.log.Warn("posting the end of a table", "table", id, "err", err)
	}
}

func (b *Bot) showStatus(ctx context.Context, r *reply, u user, id string) {
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	r.send(ctx, b.statusMessage(u.l, snap))
}

// showHand answers with a new ephemeral hand message. A player whose seat
// a stand-in kept gets it back.
func (b *Bot) showHand(ctx context.Context, r *reply, u user, id string, version int) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	if version > snap.Version {
		b.rolledBack(ctx, r, u, id, version, snap.Version)
		return
	}
	if next, seat, back := b.reclaim(ctx, snap, u); back {
		r.send(ctx, askedFor(b.handMessage(u.l, next, seat, u.l.T("async.welcome_back", nil), "")))
		return
	}
	seat, seated := seatOf(snap.Record, u.id)
	switch {
	case snap.Record.Status == table.StatusLobby:
		r.send(ctx, b.statusMessage(u.l, snap))
	case !seated:
		r.send(ctx, b.readerMessage(u.l, snap, u.l.T("bot.not_player", nil), nil))
	default:
		r.send(ctx, askedFor(b.handMessage(u.l, snap, seat, "", "")))
	}
}

func (b *Bot) cmdLanguage(ctx context.Context, i *discordgo.Interaction, u user, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	r := b.newReply(i, false)
	lang := ""
	if o, ok := opts[optLang]; ok && o.StringValue() != "auto" {
		lang, _ = supported(o.StringValue())
	}
	if err := b.setUserLang(ctx, u.id, lang); err != nil {
		b.log.Error("saving a language", "user", u.id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	if lang == "" {
		r.send(ctx, message{content: b.loc.Lang(string(i.Locale)).T("bot.lang_auto", nil)})
		return
	}
	l := b.loc.Lang(lang)
	r.send(ctx, message{content: l.T("bot.lang_set", map[string]any{"Name": l.T("cmd.choice.lang."+lang, nil)})})
}

// aiKind is the AI player a table adds: the level its opener chose, else
// the host's ai_bot. A store that cannot say gives the host's.
func (b *Bot) aiKind(ctx context.Context, id string) string {
	m, err := b.store.Meta(ctx, id)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", id, "err", err)
	}
	return cmp.Or(m.AILevel, b.cfg.AIBot)
}
