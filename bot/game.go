package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/record"
)

// recentMoves is how many public events the table message lists as its last
// moves (fewer when the message would grow too long).
const recentMoves = 5

// recentOf keeps the public events of evs that go to the list of last moves.
func recentOf(r render.Game, evs []engine.Event) []engine.Event {
	var out []engine.Event
	for _, e := range evs {
		if e.Audience == engine.Everyone && r.Where(e) == render.Recent {
			out = append(out, e)
		}
	}
	return out
}

// recentFromLog works out a table's last moves from its log, for a table
// whose moves this process has not seen (after a restart): the log up to
// snap's version is replayed and the events of the list kept.
func (b *Bot) recentFromLog(ctx context.Context, snap *table.Snapshot) ([]engine.Event, error) {
	r, ok := render.For(snap.Record.Setup.Game)
	if !ok || snap.Version == 0 {
		return nil, nil
	}
	rec, log, err := b.store.Load(ctx, snap.Record.ID)
	if err != nil {
		return nil, err
	}
	if len(log) < snap.Version {
		return nil, fmt.Errorf("table %s: log of %d entries for version %d", rec.ID, len(log), snap.Version)
	}
	st, err := engine.Start(snap.Game, rec.Setup, nil)
	if err != nil {
		return nil, err
	}
	var out []engine.Event
	for i, e := range log[:snap.Version] {
		evs, err := engine.Step(snap.Game, st, rec.Setup.Seed, i, engine.Move{Seat: e.Seat, Action: e.Action}, nil)
		if err != nil {
			return nil, err
		}
		out = lastN(append(out, recentOf(r, evs)...), recentMoves)
	}
	return out, nil
}

func lastN[T any](s []T, n int) []T {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// names are the seats' display names for a reader: players by their
// Discord name, AI seats as "Bot N".
func names(l *locales.Localizer, rec table.Record) render.Names {
	n := make(render.Names, rec.Setup.Seats)
	for i := range n {
		n[i] = l.T("ui.bot", map[string]any{"N": i + 1})
	}
	for _, si := range rec.Seats {
		if int(si.Seat) >= len(n) || si.Seat < 0 {
			continue
		}
		switch {
		case si.Kind == table.AI && si.Name == "":
			n[si.Seat] = render.BotName(l, int(si.Seat)+1, si.Bot)
		case si.Kind == table.Human:
			n[si.Seat] = inert(si.Name)
		case si.Name != "":
			// A player's seat played by an AI (a stand-in, or after they left).
			n[si.Seat] = l.T("async.standin_name", map[string]any{"Name": inert(si.Name)})
		}
	}
	return n
}

func header(l *locales.Localizer, rec table.Record) string {
	return l.T("bot.table_header", map[string]any{"Game": l.T("game."+rec.Setup.Game+".name", nil), "ID": rec.ID})
}

// mentions lists the Discord mentions of the human seats among seats.
func mentions(rec table.Record, seats []engine.Seat) []string {
	var out []string
	for _, s := range seats {
		for _, si := range rec.Seats {
			if si.Seat == s && si.Kind == table.Human && si.UserID != "" {
				out = append(out, "<@"+si.UserID+">")
			}
		}
	}
	return out
}

// seatOf finds the seat of a user at a table.
func seatOf(rec table.Record, userID string) (engine.Seat, bool) {
	for _, si := range rec.Seats {
		if si.Kind == table.Human && si.UserID == userID {
			return si.Seat, true
		}
	}
	return 0, false
}

func humans(rec table.Record) int {
	n := 0
	for _, si := range rec.Seats {
		if si.Kind == table.Human {
			n++
		}
	}
	return n
}

// tableLang is the localizer of a table's public messages.
func (b *Bot) tableLang(rec table.Record) *locales.Localizer { return b.loc.Lang(rec.Lang) }

// publicMessage is the table message of a table being played or over, in
// the table's language, from the spectator's view only, with whom the table
// waits for and until when.
func (b *Bot) publicMessage(snap *table.Snapshot, dls []record.Deadline) message {
	return b.publicMessageWith(snap, dls, nil)
}

// publicMessageWith is publicMessage with a list of the last moves (public
// events, oldest first), as many of the newest as the message has room for
// (composeScreen). A lobby is the lobby message.
func (b *Bot) publicMessageWith(snap *table.Snapshot, dls []record.Deadline, recent []engine.Event) message {
	rec := snap.Record
	if rec.Status == table.StatusLobby {
		return b.lobbyMessage(rec)
	}
	return b.composeScreen(snap, screenOpts{l: b.tableLang(rec), table: true, dls: dls, recent: recent, pictures: b.cfg.Pictures})
}

// statusMessage is the state of a table for one reader (ephemeral): the
// lobby, or the table as everyone sees it with its picture.
func (b *Bot) statusMessage(l *locales.Localizer, snap *table.Snapshot) message {
	return b.readerMessage(l, snap, "", nil)
}

// readerMessage is the state of a table for one reader, in their language:
// note first, then (once the game has started) whom the table waits for,
// the table's picture and its status, with the deadlines dls.
func (b *Bot) readerMessage(l *locales.Localizer, snap *table.Snapshot, note string, dls []record.Deadline) message {
	rec := snap.Record
	if rec.Status == table.StatusLobby {
		m := b.lobbyMessageIn(l, rec)
		m.components = nil
		if note != "" {
			m.content = note + "\n" + m.content
		}
		return m
	}
	return b.composeScreen(snap, screenOpts{l: l, note: note, dls: dls, pictures: b.cfg.Pictures})
}

// handMessage is seat's ephemeral message: only what is the seat's own —
// what it must do now (or whom the table waits for), its hand and secret
// cards, and the controls for exactly what it may do now (composeHand).
// note, when not empty, comes first. stage carries a partly made choice
// (the left card of a two-way pass).
func (b *Bot) handMessage(l *locales.Localizer, snap *table.Snapshot, seat engine.Seat, note, stage string) message {
	m := b.composeHand(l, snap, seat, note, stage, b.cfg.Pictures)
	m.hand = &handRef{table: snap.Record.ID, lang: l.Tag(), version: snap.Version}
	return m
}

// actionID is the custom_id of a game control: t/<table>/<version>/<action>.
func actionID(id string, version int, action string) string {
	return "t/" + id + "/" + strconv.Itoa(version) + "/" + action
}

func handID(id string) string { return "hand/" + id }

// handAtID is My hand on the table message, with the version the message
// shows: Discord keeps it, a witness of how far the table got
// (RELIABILITY.md, 16).
func handAtID(id string, version int) string { return "hand/" + id + "/" + strconv.Itoa(version) }

// parseHandID reads My hand's custom_id: the table, and the version the
// message showed (-1: none, an older message's button); ok is false for a
// malformed one.
func parseHandID(cid string) (id string, version int, ok bool) {
	rest, ok := strings.CutPrefix(cid, "hand/")
	if !ok {
		return "", 0, false
	}
	id, at, versioned := strings.Cut(rest, "/")
	if !versioned {
		return id, -1, true
	}
	n, err := strconv.Atoi(at)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return id, n, true
}

func watchID(id string) string { return "watch/" + id }

func lobbyID(id, what string) string { return "lobby/" + id + "/" + what }

// lobbyMessage is the lobby of a table, in the table's language.
func (b *Bot) lobbyMessage(rec table.Record) message {
	m := b.lobbyMessageIn(b.tableLang(rec), rec)
	return m
}

func (b *Bot) lobbyMessageIn(l *locales.Localizer, rec table.Record) message {
	lines := []string{header(l, rec)}
	if opts := optionsText(l, rec); opts != "" {
		lines = append(lines, l.T("bot.options", map[string]any{"List": opts}))
	}
	lines = append(lines, l.T("bot.lobby_seats", map[string]any{"N": len(rec.Seats), "Seats": rec.Setup.Seats}))
	nm := names(l, rec)
	for s := 0; s < rec.Setup.Seats; s++ {
		if s < len(rec.Seats) {
			lines = append(lines, l.T("bot.lobby_seat", map[string]any{"N": s + 1, "Name": nm.Of(engine.Seat(s))}))
		} else {
			lines = append(lines, l.T("bot.lobby_empty", map[string]any{"N": s + 1}))
		}
	}
	opener := rec.CreatedBy
	for _, si := range rec.Seats {
		if si.UserID == rec.CreatedBy {
			opener = si.Name
		}
	}
	lines = append(lines, l.T("bot.lobby_help", map[string]any{"Name": opener}))
	btn := func(what, key string, style discordgo.ButtonStyle) discordgo.MessageComponent {
		return discordgo.Button{Label: l.T("bot.button."+key, nil), Style: style, CustomID: lobbyID(rec.ID, what)}
	}
	return message{
		content: strings.Join(lines, "\n"),
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			btn("join", "join", discordgo.PrimaryButton),
			btn("leave", "leave", discordgo.SecondaryButton),
			btn("ai", "add_ai", discordgo.SecondaryButton),
			btn("start", "start", discordgo.SuccessButton),
		}}},
	}
}

// optionsText describes a table's options: seat count, the game's options
// and the language.
func optionsText(l *locales.Localizer, rec table.Record) string {
	parts := []string{l.T("bot.opt.seats", nil) + ": " + strconv.Itoa(rec.Setup.Seats)}
	g, err := engine.Lookup(rec.Setup.Game)
	if err == nil {
		for _, spec := range g.Options() {
			v, ok := rec.Setup.Options[spec.Key]
			if !ok {
				v = spec.Default
			}
			name := spec.Key
			if l.Has("bot.opt." + spec.Key) {
				name = l.T("bot.opt."+spec.Key, nil)
			} else if l.Has("cmd.opt." + spec.Key + ".name") {
				name = l.T("cmd.opt."+spec.Key+".name", nil)
			}
			switch named, ok := render.OptionValue(l, rec.Setup.Game, spec.Key, v, rec.Setup.Options); {
			case v == "on" || v == "off":
				// In a line, not a menu: "powers: on", as every switch; an
				// option may have its own word (Polish agrees in gender:
				// "Księżniczka promocyjna: wyłączona").
				key := "bot." + v
				if l.Has("bot.switch." + spec.Key + "." + v) {
					key = "bot.switch." + spec.Key + "." + v
				}
				v = l.T(key, nil)
			case ok:
				v = named
			default:
				v = optionValue(l, rec.Setup.Game, spec.Key, v)
			}
			if strings.Contains(strings.ToLower(v), strings.ToLower(name)) {
				// The value names its option ("Deluxe edition"): once.
				parts = append(parts, v)
			} else {
				parts = append(parts, name+": "+v)
			}
		}
	}
	lang := l.T("cmd.choice.lang."+locales.Normalize(rec.Lang), nil) // a language's own name, as a menu shows it
	if locales.Normalize(rec.Lang) == l.Tag() {
		lang = l.T("bot.lang_self", nil) // the reader's own language, as a line writes it: "język: polski"
	}
	parts = append(parts, l.T("bot.opt.lang", nil)+": "+lang)
	return strings.Join(parts, " · ")
}

func optionValue(l *locales.Localizer, game, key, v string) string {
	for _, k := range []string{game + ".edition." + v, "cmd.choice." + key + "." + v, "bot." + v} {
		if (key == "edition") != strings.HasPrefix(k, game+".edition.") {
			continue
		}
		if l.Has(k) {
			return l.T(k, nil)
		}
	}
	return v
}

// refresh edits a table's public message to show it as it stands, posting
// a new one (and remembering it) when the old one is gone. It waits for
// the table's output in flight and skips an edit that would change nothing.
func (b *Bot) refresh(ctx context.Context, snap *table.Snapshot) {
	if snap.Record.ChannelID == "" {
		return
	}
	b.outbox(snap.Record.ID).push(ctx, b, snap, "", nil, 0, true, false)
}

// editTable is refresh without the outbox: ob.flushMu is held. It reports
// what it showed ("" when unknown), and the error when Discord took neither
// the edit nor a new message. The table's picture is drawn only when the
// message changes.
func (b *Bot) editTable(ctx context.Context, snap *table.Snapshot, shown string) (string, error) {
	rec := snap.Record
	var dls []record.Deadline
	if rec.Status == table.StatusPlaying {
		var err error
		if dls, err = b.store.Deadlines(ctx, rec.ID); err != nil {
			b.log.Warn("reading deadlines", "table", rec.ID, "err", err)
		}
	}
	where := b.where(ctx, rec)
	m := b.publicMessageWith(snap, dls, b.outbox(rec.ID).recentFor(ctx, b, snap))
	key := rec.MessageID + "\x00" + m.key()
	if rec.MessageID != "" && key == shown {
		return shown, nil // the message already shows exactly this
	}
	drawn, pics := b.drawFor(where, m)
	if m.pic != nil && len(pics) == 0 {
		key = "" // drawn without its picture: the next edit tries again
	}
	if rec.MessageID != "" && b.editClicked(ctx, where, rec.MessageID, drawn, pics) {
		return key, nil
	}
	if rec.MessageID != "" {
		err := b.retry(ctx, func() error { return b.edit(ctx, where, rec.MessageID, drawn, pics) })
		switch {
		case err == nil:
			return key, nil
		case where != rec.ChannelID && channelGone(err):
			where = b.leaveThread(ctx, rec, where) // and the message is posted there
		case !isCode(err, discordgo.ErrCodeUnknownMessage):
			b.log.Warn("editing the table message", "table", rec.ID, "err", err)
			return "", err
		}
	}
	msg, err := b.sendDrawn(ctx, where, drawn, pics)
	if err != nil && where != rec.ChannelID && channelGone(err) {
		where = b.leaveThread(ctx, rec, where)
		msg, err = b.sendDrawn(ctx, where, drawn, pics)
	}
	if err != nil {
		b.log.Warn("posting the table message", "table", rec.ID, "err", err)
		return "", err
	}
	// The record may have moved on meanwhile: store the new message id on
	// the table as it stands now.
	if cur, err := b.tables.Get(ctx, rec.ID); err == nil {
		rec = cur.Record
	}
	rec.MessageID = msg.ID
	if _, err := b.tables.Update(ctx, rec); err != nil {
		b.log.Warn("saving the table message id", "table", rec.ID, "err", err)
	}
	return "", nil
}

// edit replaces a channel message with m (drawn, with its pictures; in
// words where the bot may not attach files), reopening its thread when it
// was archived.
func (b *Bot) edit(ctx context.Context, channelID, messageID string, m message, pics []drawnPicture) error {
	return b.withFiles(channelID, m, pics, func(m message, pics []drawnPicture) error {
		err := b.editOnce(ctx, channelID, messageID, m, pics)
		if archivedThread(err) && b.reopen(ctx, channelID) {
			err = b.editOnce(ctx, channelID, messageID, m, pics)
		}
		return err
	})
}

// editClicked edits the public message msgID through the webhook of the
// newest interaction clicked on it (clickedTokens), which Discord does not
// count against the bot token's global rate limit, and reports whether it
// did. It does not when there is none that fits, nor when Discord refuses
// it (the message is then edited through the bot token, and the
// interaction forgotten).
func (b *Bot) editClicked(ctx context.Context, where, msgID string, m message, pics []drawnPicture) bool {
	t, ok := b.clicked.get(msgID, b.clock.Now())
	if !ok {
		return false
	}
	endpoint := discordgo.EndpointWebhookMessage(t.appID, t.token, "@original")
	once := func() error {
		if m.v2 {
			_, err := b.v2Request(ctx, http.MethodPatch, endpoint, endpoint, m.v2Payload(true, 0), m.uploads(pics))
			return err
		}
		content, comps := m.text(), m.comps()
		edit := &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: m.allowed(), Files: m.attachments()}
		_, err := b.s.WebhookMessageEdit(t.appID, t.token, "@original", edit, discordgo.WithContext(ctx))
		return err
	}
	err := b.retry(ctx, func() error {
		err := once()
		if archivedThread(err) && b.reopen(ctx, where) {
			err = once()
		}
		return err
	})
	if err != nil {
		b.log.Debug("editing a message through a click's webhook", "message", msgID, "err", err)
		b.clicked.drop(msgID, t.token)
		return false
	}
	return true
}

func (b *Bot) editOnce(ctx context.Context, channelID, messageID string, m message, pics []drawnPicture) error {
	if m.v2 {
		_, err := b.v2Request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(channelID, messageID),
			discordgo.EndpointChannelMessage(channelID, ""), m.v2Payload(true, 0), m.uploads(pics))
		return err
	}
	content, comps := m.text(), m.comps()
	_, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Content: &content, Components: &comps,
		AllowedMentions: m.allowed(),
	}, discordgo.WithContext(ctx))
	return err
}

// send posts a channel message (drawing its picture first).
func (b *Bot) send(ctx context.Context, channelID string, m message) (*discordgo.Message, error) {
	m, pics := b.drawFor(channelID, m)
	return b.sendDrawn(ctx, channelID, m, pics)
}

// sendDrawn posts a channel message whose picture is drawn (in words
// where the bot may not attach files).
func (b *Bot) sendDrawn(ctx context.Context, channelID string, m message, pics []drawnPicture) (*discordgo.Message, error) {
	var msg *discordgo.Message
	err := b.withFiles(channelID, m, pics, func(m message, pics []drawnPicture) error {
		var err error
		msg, err = b.sendOnce(ctx, channelID, m, pics)
		return err
	})
	return msg, err
}

func (b *Bot) sendOnce(ctx context.Context, channelID string, m message, pics []drawnPicture) (*discordgo.Message, error) {
	var msg *discordgo.Message
	err := b.retry(ctx, func() error {
		if m.v2 {
			body, err := b.v2Request(ctx, http.MethodPost, discordgo.EndpointChannelMessages(channelID),
				discordgo.EndpointChannelMessages(channelID), m.v2Payload(false, 0), m.uploads(pics))
			if err != nil {
				return err
			}
			msg = &discordgo.Message{}
			return json.Unmarshal(body, msg)
		}
		var err error
		msg, err = b.s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
			Content: m.text(), Components: m.components, AllowedMentions: m.allowed(),
		}, discordgo.WithContext(ctx))
		return err
	})
	return msg, err
}

// publish shows what a batch of moves did: the table message is edited,
// listing the moves among its last moves, and the public events that
// deserve a message (trick and round results, the end; render.Words.Where)
// are posted with a mention of the players who must now act and did not
// have to before.
//
// Before that, the deadlines follow the seats that must act, and a game
// that has just ended is recorded for the statistics and shown in every
// player's open hand message; after it, players who
// opted in get a direct message when their turn starts.
func (b *Bot) publish(ctx context.Context, snap *table.Snapshot, events []engine.Event, before []engine.Seat, moved bool) {
	rec := snap.Record
	defer b.Wake()
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
	}
	dls := b.syncDeadlines(ctx, snap, meta)
	if rec.Status == table.StatusFinished {
		b.recordResults(ctx, snap)
		// Every player's open hand message ends with the game: who won,
		// and the player's own place.
		seats := make([]engine.Seat, rec.Setup.Seats)
		for s := range seats {
			seats[s] = engine.Seat(s)
		}
		b.refreshHands(ctx, snap, seats)
	}
	if rec.Status != table.StatusPlaying {
		b.hands.forget(rec.ID)
	}
	if rec.ChannelID == "" {
		return
	}
	where := rec.ChannelID
	if meta.ThreadID != "" {
		where = meta.ThreadID
	}
	l := b.tableLang(rec)
	nm := names(l, rec)
	var lines []string
	pings := 0 // the last lines that are turn pings
	ob := b.outbox(rec.ID)
	if r, ok := render.For(rec.Setup.Game); ok {
		for _, e := range events {
			if e.Audience != engine.Everyone || r.Where(e) != render.Posted {
				continue
			}
			if t := r.Event(l, e, nm); t != "" {
				lines = append(lines, t)
			}
		}
		ob.addRecent(ctx, b, snap, recentOf(r, events))
	}
	if rec.Status == table.StatusPlaying && moved {
		var fresh []engine.Seat
		for _, s := range snap.State.Acting() {
			if !slices.Contains(before, s) {
				fresh = append(fresh, s)
			}
		}
		// Whoever's turn has come with an open hand message sees it
		// brought up to date, ready to act.
		b.refreshHands(ctx, snap, fresh)
		switch ms := mentions(rec, ob.toPing(b, fresh)); {
		case len(ms) == 1:
			lines, pings = append(lines, l.T("bot.turn_ping", map[string]any{"Names": ms[0]})), 1
		case len(ms) > 1:
			lines, pings = append(lines, l.T("bot.turn_you_all", map[string]any{"Names": strings.Join(ms, " ")})), 1
		}
		defer func() {
			for _, s := range fresh {
				si, ok := seatInfo(rec, s)
				if !ok || si.Kind != table.Human {
					continue
				}
				data := map[string]any{"ID": rec.ID, "Channel": "<#" + where + ">", "Time": "—"}
				key := "async.dm_turn"
				for _, dl := range dls {
					if dl.Seat == s {
						data["Time"], key = stamp(dl.DueAt, "R"), "async.dm_turn_deadline"
					}
				}
				b.dm(ctx, rec, si.UserID, key, data)
			}
		}()
	}
	ob.push(ctx, b, snap, where, lines, pings, true, moved)
}
