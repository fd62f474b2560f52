package bot_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// peer is a second bot process on the world's database: its own store
// handle, its own session on the fake Discord (for REST only: it is not
// run, its scheduler is driven by RunDue).
func (w *world) peer() *bot.Bot {
	t := w.t
	t.Helper()
	db, err := sqlite.Open(context.Background(), w.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	dg, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	w.fake.Configure(dg)
	cfg := bot.Defaults()
	cfg.Token, cfg.GuildID, cfg.Database = "test-token", guildID, w.dbPath
	cfg.PublishInterval = bot.Duration{}
	cfg.PingQuiet = bot.Duration{}
	b, err := bot.New(cfg, bot.Deps{Session: dg, Store: db, Clock: w.clock, SharedStore: true,
		Logger: slog.New(slog.NewJSONHandler(w.logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeadlinesAcrossProcesses: two bot processes on one database handle
// each reminder and each passed deadline once, whichever runs its
// scheduler; a deadline claimed by a process that then died is left alone
// while its claim's lease lasts and is taken over when it has passed.
func TestDeadlinesAcrossProcesses(t *testing.T) {
	clock := discordtest.NewFakeClock(day0)
	w := newWorldAt(t, clock)
	other := w.peer()
	ctx := context.Background()
	pl := w.loc.Lang("pl")

	id := w.openTableWith([]discordtest.Arg{discordtest.Opt("deadline", "24h")}, ala, olena, bob, zosia)
	thread := w.gameChannel(id)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, u := range []string{ala, olena, bob} {
		if !w.move(id, u, rng) {
			t.Fatalf("%s could not choose", u)
		}
	}
	due := day0.Add(24 * time.Hour)
	remind := pl.T("async.remind", map[string]any{"Name": "<@" + zosia + ">", "Time": stampOf(due, "R"), "ID": id})

	// A process claims zosia's reminder and dies before sending it.
	clock.Set(day0.Add(18*time.Hour + time.Minute))
	dls, err := w.db.ClaimDue(ctx, clock.Now(), "a-process-that-died", 3*time.Minute)
	if err != nil || len(dls) != 1 {
		t.Fatalf("claiming as a process that then dies: %+v, %v", dls, err)
	}
	both := func() {
		var wg sync.WaitGroup
		for _, b := range []*bot.Bot{w.bot, other} {
			wg.Go(func() { b.RunDue(ctx) })
		}
		wg.Wait()
		w.idle()
	}
	both()
	if n := len(w.posted(thread, remind)); n != 0 {
		t.Fatalf("%d reminders while another process's claim is live", n)
	}
	if next, ok, err := w.db.NextDue(ctx); err != nil || !ok || !next.Equal(clock.Now().Add(3*time.Minute)) {
		t.Errorf("NextDue under the dead process's claim = %v, %v, %v; want the end of its lease", next, ok, err)
	}
	clock.Advance(3 * time.Minute) // the lease passes
	both()
	both()
	if n := len(w.posted(thread, remind)); n != 1 {
		t.Fatalf("%d reminders once the dead process's lease passed, want 1", n)
	}

	// The deadline passes: both processes run their schedulers at once,
	// twice; the vote about the stalled seat is opened once.
	clock.Set(due.Add(time.Minute))
	both()
	both()
	stall := pl.T("async.stall", map[string]any{"Name": "<@" + zosia + ">", "Names": "<@" + ala + "> <@" + olena + "> <@" + bob + ">", "Needed": 2})
	if n := len(w.posted(thread, stall)); n != 1 {
		t.Fatalf("%d stall votes opened by two processes, want 1: %v", n, w.posted(thread))
	}
	if dls, err := w.db.Deadlines(ctx, id); err != nil || len(dls) != 1 || dls[0].ExpiredAt.IsZero() {
		t.Fatalf("deadlines after the expiry: %+v, %v", dls, err)
	}
	// No claim is left behind: another process could claim at once.
	if dls, err := w.db.ClaimDue(ctx, clock.Now(), "a-third-process", time.Minute); err != nil || len(dls) != 0 {
		t.Fatalf("after handling, ClaimDue = %+v, %v; want nothing due", dls, err)
	}
}
