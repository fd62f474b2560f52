package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// The second server, and a second channel of the first, for tables that a
// click must not reach from elsewhere.
const (
	guild2   = "100000000000000002"
	channel2 = "200000000000000002" // in guild2
	channel3 = "200000000000000003" // in guildID, besides channelID
)

// rigToken is the bot token of the rigs; no log line may hold it.
const rigToken = "rig-secret-token-Zq7xW3"

// logBuffer collects the bot's log lines (JSON, debug level and up).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// rig is a bot on a fake Discord with two servers, whose log is kept, and
// whose store may be wrapped (a slow store).
type rig struct {
	t    *testing.T
	fake *discordtest.Server
	db   *sqlite.DB
	bot  *bot.Bot
	dg   *discordgo.Session
	loc  *locales.Bundle
	logs *logBuffer

	cancel context.CancelFunc
	done   chan error
}

type rigOptions struct {
	fake     []discordtest.Option
	wrap     func(bot.Store) bot.Store // nil: the SQLite store as it is
	ackAfter time.Duration             // 0: the bot's default (1.5 s)
	clock    *discordtest.FakeClock    // nil: real time
	restRate int                       // the bot's rest_rate; 0: its default
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	fakeOpts := append([]discordtest.Option{discordtest.WithToken(rigToken)}, o.fake...)
	if o.clock != nil {
		fakeOpts = append(fakeOpts, discordtest.WithClock(o.clock))
	}
	fake := discordtest.New(t, fakeOpts...)
	fake.AddGuild(guildID, "Gry", "pl")
	fake.AddChannel(guildID, channelID)
	fake.AddChannel(guildID, channel3)
	fake.AddGuild(guild2, "Other", "uk")
	fake.AddChannel(guild2, channel2)
	fake.AddUser(ala, "ala", "pl")
	fake.AddUser(olena, "olena", "uk")
	fake.AddUser(bob, "bob", "en-US")
	fake.AddUser(zosia, "zosia", "pl")
	fake.AddUser(eve, "eve", "en-GB")

	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stolik.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	dg, err := discordgo.New("Bot " + rigToken)
	if err != nil {
		t.Fatal(err)
	}
	fake.Configure(dg)
	logs := &logBuffer{}
	cfg := bot.Defaults()
	cfg.Token, cfg.Database = rigToken, path // commands registered globally: both servers
	cfg.ShutdownTimeout = bot.Duration{Duration: 5 * time.Second}
	cfg.PublishInterval = bot.Duration{}
	cfg.PingQuiet = bot.Duration{}
	if o.restRate > 0 {
		cfg.RESTRate = o.restRate
	}
	var st bot.Store = db
	if o.wrap != nil {
		st = o.wrap(db)
	}
	deps := bot.Deps{Session: dg, Store: st, AckAfter: o.ackAfter,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if o.clock != nil {
		deps.Clock = o.clock
	}
	b, err := bot.New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, fake: fake, db: db, bot: b, dg: dg, loc: locales.MustLoad(), logs: logs, done: make(chan error, 1)}
	runCtx, cancel := context.WithCancel(ctx)
	r.cancel = cancel
	go func() { r.done <- b.Run(runCtx) }()
	select {
	case <-b.Ready():
	case err := <-r.done:
		t.Fatalf("Run: %v", err)
	case <-time.After(readyWait):
		t.Fatal("the bot did not get ready")
	}
	t.Cleanup(r.stop) // before the fake stops (registered after it)
	r.idle()
	return r
}

func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.dg.ShouldReconnectOnError = false // see discordtest.WithHeartbeatInterval
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Errorf("Run: %v", err)
	}
	r.cancel = nil
	if err := r.db.Close(); err != nil {
		r.t.Errorf("closing the database: %v", err)
	}
}

func (r *rig) idle() { r.t.Helper(); waitIdle(r.t, r.bot, idleWait()) }

// answer waits for an interaction's answer and returns the message the
// user then sees: the response, or @original once a deferral was filled.
func (r *rig) answer(in *discordtest.Interaction) *discordtest.Message {
	r.t.Helper()
	return answered(r.t, in, r.idle)
}

func (r *rig) slash(user, guild, channel, sub string, args ...discordtest.Arg) *discordtest.Message {
	r.t.Helper()
	return r.answer(r.fake.SlashCommand(user, guild, channel, "stolik", discordtest.Sub(sub, args...)))
}

// tableIn is the open table of a channel.
func (r *rig) tableIn(channel string) string {
	r.t.Helper()
	ids, err := r.db.InChannel(context.Background(), channel)
	if err != nil || len(ids) != 1 {
		r.t.Fatalf("open tables in %s: %v, %v", channel, ids, err)
	}
	return ids[0]
}

func (r *rig) tableMessage(id string) *discordtest.Message {
	r.t.Helper()
	return tableMessageIn(r.t, r.db, r.fake, id)
}

// open opens a table of game in a channel with the users (the first opens
// it), AI players taking the empty seats, and starts it.
func (r *rig) open(guild, channel, game string, seats int, extra []discordtest.Arg, users ...string) string {
	r.t.Helper()
	args := append([]discordtest.Arg{discordtest.Opt("game", game), discordtest.Opt("seats", seats)}, extra...)
	r.slash(users[0], guild, channel, "open", args...)
	id := r.tableIn(channel)
	for _, u := range users[1:] {
		r.answer(r.fake.Click(u, r.tableMessage(id), "lobby/"+id+"/join"))
	}
	m := r.answer(r.fake.Click(users[0], r.tableMessage(id), "lobby/"+id+"/start"))
	if len(users) < seats {
		r.answer(r.fake.Click(users[0], m, "lobby/"+id+"/startai"))
	}
	if rec, _, err := r.db.Load(context.Background(), id); err != nil || rec.Status != table.StatusPlaying {
		r.t.Fatalf("the %s table did not start: %v", game, err)
	}
	return id
}

// refusedCalls counts the requests the fake refused with status (and,
// unless 0, the Discord error code).
func (r *rig) refusedCalls(status, code int) int {
	n := 0
	for _, c := range r.fake.Calls() {
		if c.Status == status && (code == 0 || c.Error != nil && c.Error.Code == code) {
			n++
		}
	}
	return n
}

// moveWithButton makes one move at table id: the first of users whose
// hand, asked for with My hand, has a button for a move presses it. It
// returns that hand as it stood once its picture had the time to be
// edited in.
func (r *rig) moveWithButton(id string, users ...string) *discordtest.Message {
	r.t.Helper()
	_, log0, _ := r.db.Load(context.Background(), id)
	for _, u := range users {
		hand := r.answer(r.fake.Click(u, r.tableMessage(id), r.tableMessage(id).Control("hand/"+id)))
		r.idle()
		shown := r.fake.Message(hand.ID)
		for _, c := range moveControls(hand) {
			if !c.IsSelect() {
				r.answer(r.fake.Click(u, hand, c.CustomID))
				break
			}
		}
		if _, log1, _ := r.db.Load(context.Background(), id); len(log1) > len(log0) {
			return shown
		}
	}
	r.t.Fatal("nobody could move with a button")
	return nil
}

// checkLogs fails the test if a log line holds the token or a table's seed
// (in decimal, signed or not, or hex), or tells of a panic.
func (r *rig) checkLogs(ids ...string) {
	r.t.Helper()
	out := r.logs.String()
	if strings.Contains(out, rigToken) {
		r.t.Error("a log line holds the bot token")
	}
	for _, id := range ids {
		rec, _, err := r.db.Load(context.Background(), id)
		if err != nil {
			r.t.Fatal(err)
		}
		s := rec.Setup.Seed
		for _, form := range []string{strconv.FormatUint(s, 10), strconv.FormatInt(int64(s), 10), strconv.FormatUint(s, 16)} {
			if len(form) >= 6 && strings.Contains(out, form) {
				r.t.Errorf("a log line holds the seed of table %s (%s)", id, form)
			}
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "panic") {
			r.t.Errorf("panic: %s", line)
		}
	}
}

// stored is everything the store holds about some tables, to tell that an
// interaction changed nothing.
func (r *rig) stored(ids ...string) string {
	r.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, id := range ids {
		rec, log, err := r.db.Load(ctx, id)
		if err != nil {
			r.t.Fatal(err)
		}
		meta, err := r.db.Meta(ctx, id)
		if err != nil {
			r.t.Fatal(err)
		}
		flags, err := r.db.SeatFlags(ctx, id)
		if err != nil {
			r.t.Fatal(err)
		}
		js, _ := json.Marshal([]any{rec, log, meta, flags})
		b.Write(js)
	}
	for _, u := range []string{ala, olena, bob, zosia, eve} {
		lang, _ := r.db.UserLang(ctx, u)
		dm, _ := r.db.DMReminders(ctx, u)
		b.WriteString(u + lang + strconv.FormatBool(dm))
	}
	return b.String()
}

// crafted is one hand-made interaction and what must come of it.
type crafted struct {
	name    string
	payload map[string]any
	// want is the start of the ephemeral answer, in the user's language;
	// "" means the interaction is dropped unanswered (Discord could never
	// send it: nobody to answer).
	// Several acceptable starts are joined by either.
	want string
}

// TestCraftedInteractions dispatches hand-made INTERACTION_CREATE payloads
// through the fake gateway, as a broken or hostile client could make
// Discord send them (or as Discord could never send them): each is answered
// with a clear ephemeral message in the user's language, or dropped when
// there is nobody to answer, and none changes the store, edits a public
// message, panics or logs a secret.
func TestCraftedInteractions(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	a := r.open(guildID, channelID, "princesses", 4, []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "on")}, ala, olena, bob)
	b := r.open(guild2, channel2, "lynx", 2, nil, zosia, eve)
	pl, uk, en := r.loc.Lang("pl"), r.loc.Lang("uk"), r.loc.Lang("en")

	// Ala's hand and its controls: the princesses she may choose.
	hand := r.answer(r.fake.Click(ala, r.tableMessage(a), r.tableMessage(a).Control("hand/"+a)))
	if len(hand.CustomIDs()) == 0 {
		t.Fatalf("ala has no controls: %s", hand)
	}
	control := hand.CustomIDs()[0] // t/<a>/<version>/<action>
	parts := strings.SplitN(control, "/", 4)
	version, action := parts[2], parts[3]
	publicA, publicB := r.tableMessage(a), r.tableMessage(b)

	click := func(user, channel, cid string, msg *discordtest.Message) map[string]any {
		return r.fake.InteractionPayload(discordtest.InteractionComponent, user, channel,
			map[string]any{"custom_id": cid, "component_type": discordtest.ComponentButton}, msg)
	}
	command := func(user, channel string, name string, options ...map[string]any) map[string]any {
		cmd := r.fake.Commands("")[0]
		data := map[string]any{"id": cmd.ID, "name": name, "type": 1}
		if options != nil {
			data["options"] = options
		}
		return r.fake.InteractionPayload(discordtest.InteractionCommand, user, channel, data, nil)
	}
	sub := func(name string, options ...map[string]any) map[string]any {
		s := map[string]any{"type": 1, "name": name}
		if options != nil {
			s["options"] = options
		}
		return s
	}
	opt := func(name string, typ int, v any) map[string]any {
		return map[string]any{"name": name, "type": typ, "value": v}
	}
	with := func(p map[string]any, change func(map[string]any)) map[string]any { change(p); return p }
	badOption := func(l *locales.Localizer, key, value string) string {
		return l.T("error.bad_option", map[string]any{"Key": key, "Value": value})
	}
	internal := func(l *locales.Localizer) string { return l.T("error.internal", nil) }
	badControl := func(l *locales.Localizer) string { return l.T("error.bad_control", nil) }
	noTable := func(l *locales.Localizer) string { return l.T("bot.no_table", nil) }
	serverOnly := func(l *locales.Localizer) string { return l.T("bot.dm_server_only", nil) }
	unknownAction := pl.T("error.unknown_action", map[string]any{"Text": ""})[:20]
	badForm := pl.T("error.princesses.bad_form", map[string]any{"Text": "", "Form": ""})[:15] // a known action misspelt

	cases := []crafted{
		// custom_ids no message offered.
		{"over-long custom_id", click(ala, channelID, "t/"+a+"/"+version+"/"+strings.Repeat("x", 200), hand), badControl(pl)},
		{"over-long table id", click(ala, channelID, "hand/"+strings.Repeat("9", 90), publicA), noTable(pl)},
		{"invalid UTF-8", click(ala, channelID, "hand/"+a+"\xff\xfe", publicA), noTable(pl)},
		{"empty custom_id", click(olena, channelID, "", publicA), badControl(uk)},
		{"no prefix", click(olena, channelID, "drop table", publicA), badControl(uk)},
		{"game control without a version", click(ala, channelID, "t/"+a+"/"+action, hand), badControl(pl)},
		{"game control without a table", click(ala, channelID, "t//"+version+"/"+action, hand), badControl(pl)},
		{"negative version", click(ala, channelID, "t/"+a+"/-1/"+action, hand), badControl(pl)},
		{"version past int64", click(ala, channelID, "t/"+a+"/99999999999999999999/"+action, hand), badControl(pl)},
		{"future version", click(ala, channelID, "t/"+a+"/99999/"+action, hand), pl.T("error.stale", nil)},
		{"unicode action", click(ala, channelID, "t/"+a+"/"+version+"/choose Ｒａｐｕｎｚｅｌ", hand), pl.T("error.princesses.unknown_princess", map[string]any{"Princess": ""})[:20]},
		{"unicode table id", click(ala, channelID, "hand/stół", publicA), noTable(pl)},
		{"SQL in the table id", click(ala, channelID, "hand/"+a+"' OR '1'='1", publicA), noTable(pl)},
		{"SQL in the action", click(ala, channelID, "t/"+a+"/"+version+"/"+action+"'; DROP TABLE tables;--", hand), badForm},
		{"mention in the action", click(ala, channelID, "t/"+a+"/"+version+"/@everyone <@&1>", hand), unknownAction},
		{"path in a lobby control", click(ala, channelID, "lobby/"+a+"/../start", publicA), badControl(pl)},
		{"unknown lobby action", click(ala, channelID, "lobby/"+a+"/delete", publicA), badControl(pl)},
		{"malformed stall vote", click(ala, channelID, "stall/"+a+"/x/wait", publicA), badControl(pl)},
		{"stall vote with no vote running", click(ala, channelID, "stall/"+a+"/3/replace", publicA), pl.T("async.vote_closed", nil)},
		{"seat that is not vacant", click(eve, channelID, "seat/"+a+"/3", publicA), en.T("async.seat_taken_already", nil)},
		{"malformed leave", click(ala, channelID, "leave/"+a+"/everyone", publicA), badControl(pl)},
		// Another seat's action, another table's, a user not seated.
		{"another seat's princess", click(olena, channelID, control, publicA), uk.T("error.princesses.not_offered", nil)},
		{"a spectator's game click", click(eve, channelID, control, publicA), en.T("bot.not_player", nil)},
		{"another server's table", click(ala, channelID, "hand/"+b, publicA), noTable(pl)},
		{"another server's table, seated there", click(eve, channelID, "t/"+b+"/0/take", publicA), noTable(en)},
		{"a table's button from another server", click(ala, channel2, "hand/"+a, nil), noTable(pl)},
		{"a table's button from another channel", click(ala, channel3, "hand/"+a, nil), noTable(pl)},
		{"a table's game control from another channel", click(ala, channel3, control, nil), noTable(pl)},
		{"a DM click", click(ala, "", "hand/"+a, nil), noTable(pl)},
		{"a DM game control", click(ala, "", control, nil), noTable(pl)},
		// Components Discord does not send.
		{"unknown component type", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) {
			p["data"].(map[string]any)["component_type"] = 99
		}), badControl(pl)},
		{"text input as a component", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) {
			p["data"].(map[string]any)["component_type"] = discordtest.ComponentTextInput
		}), badControl(pl)},
		{"too many select values", with(click(ala, channelID, "t/"+a+"/"+version+"/~sel", hand), func(p map[string]any) {
			d := p["data"].(map[string]any)
			d["component_type"] = discordtest.ComponentStringSelect
			d["values"] = strings.Split(strings.Repeat("v,", 30)+"v", ",")
		}), badControl(pl)},
		{"select with an injected value", with(click(ala, channelID, "t/"+a+"/"+version+"/~sel", hand), func(p map[string]any) {
			d := p["data"].(map[string]any)
			d["component_type"] = discordtest.ComponentStringSelect
			d["values"] = []string{"choose x'); DELETE FROM seats;--"}
		}), badForm},
		// Nobody to answer: dropped.
		{"no member and no user", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) { delete(p, "member") }), ""},
		{"a member without a user", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) { p["member"] = map[string]any{"nick": "x"} }), ""},
		{"no id", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) { delete(p, "id") }), ""},
		{"no token", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) { delete(p, "token") }), ""},
		{"ping", with(click(ala, channelID, "hand/"+a, publicA), func(p map[string]any) { p["type"] = discordtest.InteractionPing; delete(p, "data") }), ""},
		{"autocomplete", with(command(ala, channelID, "stolik", sub("open", opt("game", 3, "pr"))), func(p map[string]any) { p["type"] = discordtest.InteractionAutocomplete }), ""},
		// Commands that do not fit their registration.
		{"unknown command", command(ala, channelID, "drop"), internal(pl)},
		{"no subcommand", command(ala, channelID, "stolik"), internal(pl)},
		{"unknown subcommand", command(ala, channelID, "stolik", sub("destroy")), internal(pl)},
		{"two subcommands", command(ala, channelID, "stolik", sub("status"), sub("hand")), internal(pl)},
		{"seats as text", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("seats", 3, "four"))), badOption(pl, "seats", "four")},
		{"seats with a text value", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("seats", 4, "four"))), badOption(pl, "seats", "four")},
		{"seats not whole", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("seats", 4, 2.5))), badOption(pl, "seats", "2.5")},
		{"seats huge", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("seats", 4, 1e300))), badOption(pl, "seats", "1e+300")},
		{"seats negative", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("seats", 4, -3))), badOption(pl, "seats", "-3")},
		{"an AI level that is not one", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("ai_level", 3, "insane"))), badOption(pl, "ai_level", "insane")},
		{"a game that is not a choice", command(ala, channel3, "stolik", sub("open", opt("game", 3, "chess"))), badOption(pl, "game", "chess")},
		{"no game", command(ala, channel3, "stolik", sub("open", opt("seats", 4, 3))), badOption(pl, "game", "")},
		{"thread as text", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("thread", 3, "yes"))), badOption(pl, "thread", "yes")},
		{"an option given twice", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("game", 3, "lynx"))), badOption(pl, "game", "lynx")},
		{"an unknown option", command(ala, channel3, "stolik", sub("open", opt("game", 3, "lynx"), opt("owner", 6, eve))), badOption(pl, "owner", eve)},
		{"an option without a value", command(olena, channelID, "stolik", sub("start", map[string]any{"name": "ai", "type": 5})), badOption(uk, "ai", "<nil>")},
		{"oversized table option", command(olena, channelID, "stolik", sub("history", opt("table", 3, strings.Repeat("ж", 7000)))), badOption(uk, "table", strings.Repeat("ж", 37)+"…")},
		{"oversized card option", command(olena, channelID, "stolik", sub("rules", opt("game", 3, "princesses"), opt("card", 3, strings.Repeat("Q", 500)))), badOption(uk, "card", strings.Repeat("Q", 37)+"…")},
		{"a language that is not a choice", command(olena, channelID, "stolik", sub("language", opt("language", 3, "xx"))), badOption(uk, "language", "xx")},
		{"a user option that is not an id", command(olena, channelID, "stolik", sub("stats", opt("player", 6, "<@"+ala+">"))), badOption(uk, "player", "<@"+ala+">")},
		// From a DM, where /stolik is not offered.
		{"status in a DM", command(ala, "", "stolik", sub("status")), serverOnly(pl)},
		{"open in a DM", command(ala, "", "stolik", sub("open", opt("game", 3, "lynx"))), serverOnly(pl)},
		{"abandon in a DM", command(ala, "", "stolik", sub("abandon")), serverOnly(pl)},
	}
	for _, c := range cases {
		before := r.stored(a, b)
		msgsA, msgsB := r.fake.Messages(channelID), r.fake.Messages(channel2)
		calls := r.fake.RESTCalls()
		in, err := r.fake.DispatchInteraction(c.payload)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.want == "" {
			time.Sleep(100 * time.Millisecond)
			r.idle()
			if _, acked := in.Response(); acked || r.fake.RESTCalls() != calls {
				t.Errorf("%s: answered although it should be dropped: %v", c.name, r.fake.Calls()[calls:])
			}
		} else {
			m := r.answer(in)
			ok := false
			for _, w := range strings.Split(c.want, "\x00") {
				ok = ok || strings.HasPrefix(shownText(m), w)
			}
			if !m.Ephemeral() || m.EphemeralTo != in.UserID || !ok {
				t.Errorf("%s: answer %s, want an ephemeral answer starting %q", c.name, m, c.want)
			}
		}
		if after := r.stored(a, b); after != before {
			t.Errorf("%s: the store changed", c.name)
		}
		if !reflect.DeepEqual(r.fake.Messages(channelID), msgsA) || !reflect.DeepEqual(r.fake.Messages(channel2), msgsB) {
			t.Errorf("%s: a public message changed", c.name)
		}
	}
	if m := r.fake.Message(publicA.ID); shownText(m) != shownText(publicA) {
		t.Error("the public table message changed")
	}
	r.fake.AssertNoErrors(t)
	r.checkLogs(a, b)
	_ = publicB
}

// TestCraftedUpdateOfAPublicMessage: a game or rules control claimed from
// the public table message answers with a new ephemeral message; the table
// message is not replaced by one user's hand.
func TestCraftedUpdateOfAPublicMessage(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	a := r.open(guildID, channelID, "princesses", 4, []discordtest.Arg{discordtest.Opt("rounds", "a")}, ala, olena, bob)
	hand := r.answer(r.fake.Click(ala, r.tableMessage(a), r.tableMessage(a).Control("hand/"+a)))
	public := r.tableMessage(a)
	_, log, _ := r.db.Load(context.Background(), a)
	for _, cid := range []string{"t/" + a + "/" + strconv.Itoa(len(log)) + "/~hand", hand.CustomIDs()[0], "rules/princesses/base/0"} {
		p := r.fake.InteractionPayload(discordtest.InteractionComponent, ala, channelID,
			map[string]any{"custom_id": cid, "component_type": discordtest.ComponentButton}, public)
		in, err := r.fake.DispatchInteraction(p)
		if err != nil {
			t.Fatal(err)
		}
		m := r.answer(in)
		if m.ID == public.ID || !m.Ephemeral() {
			t.Errorf("%s from the public message: answered in %s", cid, m)
		}
		if now := r.fake.Message(public.ID); shownText(now) == shownText(m) {
			t.Errorf("%s: the table message shows ala's answer: %s", cid, now)
		}
	}
	r.fake.AssertNoErrors(t)
}
