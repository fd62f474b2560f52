package bot_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/scenario"
	"github.com/stolik-bot/stolik/engine/table"
)

var day0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// advance moves the fake clock and lets the bot handle what became due.
func (w *world) advance(d time.Duration) {
	w.t.Helper()
	w.clock.Advance(d)
	w.bot.RunDue(context.Background())
	w.idle()
}

// posted lists the texts of the public messages in a channel that contain
// all of the parts.
func (w *world) posted(channel string, parts ...string) []string {
	var out []string
	for _, m := range w.fake.Messages(channel) {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(shownText(m), p)
		}
		if ok {
			out = append(out, shownText(m))
		}
	}
	return out
}

func stampOf(t time.Time, style string) string {
	return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":" + style + ">"
}

// findClick finds the newest public message in a channel with a component
// whose custom_id starts with prefix.
func (w *world) findClick(channel, prefix string) (*discordtest.Message, string) {
	w.t.Helper()
	msgs := w.fake.Messages(channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		for _, cid := range msgs[k].CustomIDs() {
			if strings.HasPrefix(cid, prefix) {
				return msgs[k], cid
			}
		}
	}
	w.t.Fatalf("no message in %s with a %q control", channel, prefix)
	return nil, ""
}

// TestGameAcrossDays: a 4-player game with a 24-hour deadline, spread over
// simulated days: reminders at the right moments (in the channel and by DM,
// with a user who blocks DMs), a restart across the deadline, a persisted
// vote for a stand-in, the stand-in playing only while the player is away,
// a spectator, and a finished game exported as a scenario that replays to
// the same scores.
func TestGameAcrossDays(t *testing.T) {
	clock := discordtest.NewFakeClock(day0)
	w := newWorldAt(t, clock)
	ctx := context.Background()
	pl, uk, en := w.loc.Lang("pl"), w.loc.Lang("uk"), w.loc.Lang("en")

	// Reminder choices: bob by DM; zosia too, but she does not accept DMs.
	if m := w.slash(bob, "reminders", discordtest.Opt("dm", true)); shownText(m) != en.T("async.dm_on", nil) {
		t.Errorf("reminders on: %q", shownText(m))
	}
	w.slash(zosia, "reminders", discordtest.Opt("dm", true))
	w.fake.CloseDMs(zosia)

	id := w.openTableWith([]discordtest.Arg{discordtest.Opt("deadline", "24h")}, ala, olena, bob, zosia)
	thread := w.gameChannel(id)
	if thread == channelID {
		t.Fatal("the game did not move to a thread")
	}
	rec, _, err := w.db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if lobby := w.posted(channelID, pl.T("async.in_thread", map[string]any{"Thread": "<#" + thread + ">"})); len(lobby) != 1 {
		t.Errorf("the lobby message does not point to the thread: %v", w.posted(channelID))
	}
	if w.tableMessage(id).ChannelID != thread {
		t.Errorf("the table message is not in the thread")
	}
	if before := w.posted(channelID, stampOf(day0, "f")); len(before) != 0 {
		t.Errorf("game messages in the channel: %v", before)
	}
	due := day0.Add(24 * time.Hour)
	if tm := shownText(w.tableMessage(id)); !strings.Contains(tm, stampOf(due, "f")) || !strings.Contains(tm, stampOf(due, "R")) {
		t.Errorf("the table message does not show the deadline: %q", tm)
	}
	if len(w.fake.DMs(bob)) == 0 {
		t.Error("bob opted in but got no DM when his turn started")
	}

	// Day 1: three players choose their princess; zosia does not.
	rng := rand.New(rand.NewPCG(7, 8))
	w.clock.Advance(2 * time.Hour)
	for _, u := range []string{ala, olena, bob} {
		if !w.move(id, u, rng) {
			t.Fatalf("%s could not choose", u)
		}
	}
	if got := toAct(w.tableMessage(id)); !slices.Equal(got, []string{zosia}) {
		t.Fatalf("to act: %v", got)
	}
	remind := pl.T("async.remind", map[string]any{"Name": "<@" + zosia + ">", "Time": stampOf(due, "R"), "ID": id})
	w.advance(15 * time.Hour) // 17 h: too early for the reminder (at 18 h)
	if n := len(w.posted(thread, remind)); n != 0 {
		t.Fatalf("a reminder after 17 h: %d", n)
	}
	w.advance(time.Hour + time.Minute) // 18 h 1 min
	if n := len(w.posted(thread, remind)); n != 1 {
		t.Fatalf("%d reminders after 18 h", n)
	}
	w.advance(time.Minute) // firing again does nothing
	if n := len(w.posted(thread, remind)); n != 1 {
		t.Fatalf("%d reminders after firing twice", n)
	}
	// zosia's DMs are closed: her DM reminders are turned off, and the thread is told once.
	if on, _ := w.db.DMReminders(ctx, zosia); on {
		t.Error("zosia's DM reminders are still on")
	}
	if n := len(w.posted(thread, pl.T("async.dm_blocked", map[string]any{"Name": "<@" + zosia + ">"}))); n != 1 {
		t.Errorf("%d notices about zosia's DMs", n)
	}

	// The bot is down when the deadline passes; it opens the vote when it starts.
	w.stop()
	w.clock.Set(due.Add(3 * time.Hour))
	w.start()
	w.bot.RunDue(ctx)
	w.idle()
	w.bot.RunDue(ctx)
	w.idle()
	stall := pl.T("async.stall", map[string]any{"Name": "<@" + zosia + ">", "Names": "<@" + ala + "> <@" + olena + "> <@" + bob + ">", "Needed": 2})
	if n := len(w.posted(thread, stall)); n != 1 {
		t.Fatalf("%d stall votes opened: %v", n, w.posted(thread))
	}
	if tm := shownText(w.tableMessage(id)); !strings.Contains(tm, pl.T("async.deadline_passed", map[string]any{"Name": "zosia"})) {
		t.Errorf("the table message does not say the time is up: %q", tm)
	}

	// A spectator watches: the public view only, in her language.
	watch := w.do(w.fake.Click(eve, w.tableMessage(id), "watch/"+id))
	if !watch.Ephemeral() || !strings.Contains(shownText(watch), en.T("bot.table_header", map[string]any{"Game": en.T("game.princesses.name", nil), "ID": id})) || len(watch.CustomIDs()) != 0 {
		t.Errorf("watching: %s", watch)
	}
	w.checkLeaks(id)

	// The vote: ala wants a stand-in (twice: counted once), olena would wait;
	// a restart forgets no vote; bob's vote for a stand-in makes a majority.
	voteMsg, _ := w.findClick(thread, "stall/")
	v := w.version(id)
	if m := w.do(w.fake.Click(ala, voteMsg, "stall/"+id+"/3/ai")); shownText(m) != pl.T("async.vote_counted", nil) {
		t.Errorf("ala's vote: %q", shownText(m))
	}
	if m := w.do(w.fake.Click(ala, voteMsg, "stall/"+id+"/3/ai")); shownText(m) != pl.T("async.vote_already", nil) {
		t.Errorf("ala's second vote: %q", shownText(m))
	}
	w.do(w.fake.Click(olena, voteMsg, "stall/"+id+"/3/wait"))
	if m := w.do(w.fake.Click(eve, voteMsg, "stall/"+id+"/3/ai")); shownText(m) != en.T("bot.not_seated", nil) {
		t.Errorf("a spectator's vote: %q", shownText(m))
	}
	if w.version(id) != v {
		t.Fatal("the table moved before the vote was decided")
	}
	w.stop()
	w.start()
	voteMsg, _ = w.findClick(thread, "stall/")
	w.do(w.fake.Click(bob, voteMsg, "stall/"+id+"/3/ai"))
	rec, _, _ = w.db.Load(ctx, id)
	if si := rec.Seats[3]; si.Kind != table.AI || si.UserID != zosia {
		t.Fatalf("zosia's seat after the vote: %+v", si)
	}
	if _, log, _ := w.db.Load(ctx, id); len(log) <= v || log[v].Seat != 3 || !strings.HasPrefix(log[v].Action, "choose ") {
		t.Errorf("the stand-in did not choose zosia's princess: %v", log[v:])
	}
	if len(w.posted(thread, pl.T("async.standin", map[string]any{"Name": "zosia", "N": 4}))) != 1 {
		t.Error("no message about the stand-in")
	}
	if m := w.do(w.fake.Click(olena, voteMsg, "stall/"+id+"/3/wait")); shownText(m) != uk.T("async.vote_closed", nil) {
		t.Errorf("a vote after the decision: %q", shownText(m))
	}

	// The stand-in plays zosia's seat whenever it must, for a day or so.
	for k := 0; k < 6; k++ {
		w.clock.Advance(3 * time.Hour)
		if slices.Contains(toAct(w.tableMessage(id)), zosia) {
			t.Fatal("zosia is asked to move while her stand-in plays")
		}
		w.play(id, rng, 1)
	}
	_, log, _ := w.db.Load(ctx, id)
	standInMoves := 0
	for _, e := range log[v:] {
		if e.Seat == 3 {
			standInMoves++
		}
	}
	if standInMoves < 2 {
		t.Errorf("the stand-in made %d moves", standInMoves)
	}
	// Exporting a running game is refused: its seed is secret.
	if m := w.do(w.fake.SlashCommand(ala, guildID, thread, "stolik", discordtest.Sub("history", discordtest.Opt("export", true)))); shownText(m) != pl.T("async.export_unfinished", nil) {
		t.Errorf("exporting a running game: %q", shownText(m))
	}

	// zosia comes back: "My hand" gives her the seat back; from then on she plays it.
	back := w.do(w.fake.Click(zosia, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	if !strings.HasPrefix(shownText(back), pl.T("async.welcome_back", nil)) {
		t.Errorf("zosia's return: %q", shownText(back))
	}
	rec, _, _ = w.db.Load(ctx, id)
	if si := rec.Seats[3]; si.Kind != table.Human || si.UserID != zosia {
		t.Fatalf("zosia's seat after her return: %+v", si)
	}
	returned := w.version(id)
	w.play(id, rng, 500)
	rec, log, _ = w.db.Load(ctx, id)
	if rec.Status != table.StatusFinished {
		t.Fatalf("status %s", rec.Status)
	}
	if !slices.ContainsFunc(log[returned:], func(e table.Entry) bool { return e.Seat == 3 }) {
		t.Error("zosia made no move after her return")
	}
	w.checkLeaks(id)

	// History, in the reader's language, marks the stand-in.
	h := w.slash(olena, "history")
	if !strings.Contains(shownText(h), uk.T("async.history_standins", nil)) || !strings.Contains(shownText(h), uk.T("async.history_status.finished", nil)) {
		t.Errorf("history: %q", shownText(h))
	}
	// The export replays to the same final scores.
	x := w.slash(bob, "history", discordtest.Opt("table", id), discordtest.Opt("export", true))
	if len(x.Attachments) != 1 || !strings.HasSuffix(x.Attachments[0].Filename, ".scenario") {
		t.Fatalf("export attachments: %+v", x.Attachments)
	}
	body := string(x.Attachments[0].Data)
	if _, inline, ok := strings.Cut(shownText(x), "```\n"); ok && !strings.HasPrefix(inline, body) {
		t.Errorf("the export's text differs from its file:\n%s\n---\n%s", inline, body)
	}
	if err := scenario.Run(strings.NewReader(body)); err != nil {
		t.Errorf("the export does not replay: %v\n%s", err, body)
	}
	g, _ := engine.Lookup("princesses")
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	_, res := st.Result()
	for s, score := range res.Scores {
		if line := "expect score " + strconv.Itoa(s) + " " + strconv.Itoa(score) + "\n"; !strings.Contains(body, line) {
			t.Errorf("the export lacks %q", line)
		}
	}
	if !strings.Contains(body, "\nexpect over\nexpect winner ") || !strings.Contains(body, "seed "+strconv.FormatUint(rec.Setup.Seed, 10)+"\n") {
		t.Errorf("the export: %s", body)
	}

	// Statistics: the server's and zosia's, with the stand-in marked.
	stats := w.slash(zosia, "stats")
	for _, want := range []string{
		pl.T("async.stats.game", map[string]any{"Game": pl.T("game.princesses.name", nil), "Games": pl.N("async.stats.games", 1, nil), "StandIns": pl.N("async.stats.standins", 1, nil)}),
		pl.N("async.stats.current", 0, nil),
	} {
		if !strings.Contains(shownText(stats), want) {
			t.Errorf("stats lack %q: %q", want, shownText(stats))
		}
	}
	if !strings.Contains(shownText(stats), pl.N("async.stats.games", 1, nil)+", ") {
		t.Errorf("zosia's stats: %q", shownText(stats))
	}
	// The one refused request: the first DM to zosia (then her DMs were off).
	blocked := 0
	for _, c := range w.fake.Errors() {
		if c.Error.Code == 50007 {
			blocked++
			continue
		}
		t.Errorf("discordtest: rejected request: %s", c)
	}
	if blocked != 1 {
		t.Errorf("%d DMs refused with 50007, want 1", blocked)
	}
}

// TestHandOverAndVacantSeat: a player leaves during play and leaves the
// seat free; a spectator takes it; abandon votes survive a restart.
func TestHandOverAndVacantSeat(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	pl, uk, en := w.loc.Lang("pl"), w.loc.Lang("uk"), w.loc.Lang("en")
	id := w.openTableWith([]discordtest.Arg{discordtest.Opt("thread", false)}, ala, olena, bob)
	if w.gameChannel(id) != channelID {
		t.Fatal("a thread was started although thread:false")
	}
	offer := w.slash(olena, "leave")
	if shownText(offer) != uk.T("async.leave_offer", nil) {
		t.Fatalf("leave offer: %q", shownText(offer))
	}
	w.do(w.fake.Click(olena, offer, "leave/"+id+"/open"))
	rec, _, _ := w.db.Load(ctx, id)
	if si := rec.Seats[1]; si.Kind != table.AI || si.UserID != "" {
		t.Fatalf("olena's seat: %+v", si)
	}
	// olena cannot come back through "My hand": the seat is free for anyone.
	if m := w.do(w.fake.Click(olena, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id))); !strings.HasPrefix(shownText(m), uk.T("bot.not_player", nil)) {
		t.Errorf("olena after leaving: %q", shownText(m))
	}
	msg, cid := w.findClick(channelID, "seat/")
	m := w.do(w.fake.Click(eve, msg, cid))
	if !strings.HasPrefix(shownText(m), en.T("async.seat_taken_you", nil)) {
		t.Errorf("eve takes the seat: %q", shownText(m))
	}
	if m := w.do(w.fake.Click(zosia, msg, cid)); shownText(m) != pl.T("async.seat_taken_already", nil) {
		t.Errorf("a second taker: %q", shownText(m))
	}
	rec, _, _ = w.db.Load(ctx, id)
	if si := rec.Seats[1]; si.Kind != table.Human || si.UserID != eve {
		t.Fatalf("seat 1: %+v", si)
	}
	// Abandon by vote: bob votes, the bot restarts, eve's vote makes the majority (2 of 3).
	if m := w.slash(bob, "abandon"); shownText(m) != en.T("bot.abandon_voted", nil) {
		t.Errorf("bob's vote: %q", shownText(m))
	}
	w.stop()
	w.start()
	if m := w.slash(eve, "abandon"); shownText(m) != en.T("bot.abandoned", nil) {
		t.Errorf("eve's vote: %q", shownText(m))
	}
	rec, _, _ = w.db.Load(ctx, id)
	if rec.Status != table.StatusAbandoned {
		t.Errorf("status %s", rec.Status)
	}
	w.checkLeaks(id)
	w.fake.AssertNoErrors(t)
}
