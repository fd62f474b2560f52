package bot_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// seedOpenTables writes n open tables of every game straight into the
// database (one transaction), each some random moves into its game: a share
// with AI seats, a share changed recently, the rest idle all-human tables.
func seedOpenTables(t testing.TB, path string, n int, aiShare, recentShare float64, now time.Time) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	games := engine.Games()
	ts := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z07:00") }
	old := now.Add(-48 * time.Hour)
	for i := range n {
		g, _ := engine.Lookup(games[i%len(games)])
		lo, _ := g.Seats()
		su := engine.Setup{Game: g.ID(), Seats: lo, Seed: uint64(i + 1), Options: engine.Options{}}
		st, err := engine.Start(g, su, nil)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("t%07d", i)
		hasAI := float64(i%100) < aiShare*100
		updated := old
		if float64((i/3)%100) < recentShare*100 {
			updated = now.Add(-time.Minute)
		}
		opts, _ := json.Marshal(su.Options)
		ch := strconv.FormatUint(200000000000000001+uint64(i), 10)
		if _, err := tx.Exec(`INSERT INTO tables (id, game, options, seats, seed, status, lang, guild_id, channel_id,
			message_id, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'playing', 'en', ?, ?, ?, ?, ?, ?)`,
			id, su.Game, string(opts), su.Seats, int64(su.Seed), guildID, ch, strconv.Itoa(900000000+i), ala, ts(old), ts(updated)); err != nil {
			t.Fatal(err)
		}
		for s := range su.Seats {
			kind, user, botKind := "human", strconv.FormatUint(300000000000000001+uint64(i*8+s), 10), ""
			if hasAI && s > 0 {
				kind, user, botKind = "ai", "", "random"
			}
			if _, err := tx.Exec(`INSERT INTO seats (table_id, seat, kind, user_id, name, bot) VALUES (?, ?, ?, ?, ?, ?)`,
				id, s, kind, user, "p"+strconv.Itoa(s), botKind); err != nil {
				t.Fatal(err)
			}
		}
		pick := engine.NewRand(uint64(i), 99)
		for k := 0; k < 30; k++ {
			if done, _ := st.Result(); done {
				break
			}
			acting := st.Acting()
			if hasAI && !containsSeat(acting, 0) {
				break // the AI seats are to move: resume must let them
			}
			s := acting[pick.IntN(len(acting))]
			legal := st.Legal(s)
			a := legal[pick.IntN(len(legal))]
			if _, err := engine.Step(g, st, su.Seed, k, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(`INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)`,
				id, k, int(s), a.String(), ts(old)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func containsSeat(ss []engine.Seat, s engine.Seat) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestResumeManyTables restarts the bot over many open tables (2,000; 200
// under -short; STOLIK_RESUME_TABLES overrides): it becomes ready, the
// background resume pass ends, the tables kept in memory stay within the
// cache bound, and Discord rejects nothing but the seeded message ids it
// never had. BenchmarkResume measures the time with 10,000.
func TestResumeManyTables(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	if v := os.Getenv("STOLIK_RESUME_TABLES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	ready, resumed, rest := resumeTables(t, n)
	t.Logf("%d open tables: ready after %v, resume pass done after %v; %d REST calls", n, ready.Round(time.Millisecond), resumed.Round(time.Millisecond), rest)
}

// BenchmarkResume is the restart cost with 10,000 open tables: the time
// from Run to Ready and to the end of the background resume pass (goal:
// under 2 s), and the REST calls the pass makes.
//
//	go test -run XXX -bench Resume -benchtime 1x ./bot/
func BenchmarkResume(b *testing.B) {
	for b.Loop() {
		ready, resumed, rest := resumeTables(b, 10000)
		b.ReportMetric(float64(ready.Milliseconds()), "ms-ready")
		b.ReportMetric(float64(resumed.Milliseconds()), "ms-resumed")
		b.ReportMetric(float64(rest), "rest-calls")
	}
}

// resumeTables seeds n open tables of every game, starts a bot over them
// and waits until its resume pass is over.
func resumeTables(t testing.TB, n int) (ready, resumed time.Duration, rest int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stolik.db")
	now := time.Now()
	t0 := time.Now()
	seedOpenTables(t, path, n, 0.05, 0.02, now)
	t.Logf("seeded %d open tables in %v", n, time.Since(t0).Round(time.Millisecond))

	fake := discordtest.New(t, discordtest.WithoutCallBodies())
	fake.AddGuild(guildID, "Gry", "pl")
	for i := range n {
		fake.AddChannel(guildID, strconv.FormatUint(200000000000000001+uint64(i), 10))
	}
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dg, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	fake.Configure(dg)
	cfg := bot.Defaults()
	cfg.Token, cfg.GuildID = "test-token", guildID
	b, err := bot.New(cfg, bot.Deps{Session: dg, Store: db, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	rest0 := fake.RESTCalls()
	start := time.Now()
	go func() { done <- b.Run(runCtx) }()
	defer func() {
		cancel()
		dg.ShouldReconnectOnError = false
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-b.Ready():
	case err := <-done:
		t.Fatal(err)
	}
	ready = time.Since(start)
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer wcancel()
	if err := b.WaitIdle(wctx); err != nil {
		t.Fatal(err)
	}
	resumed = time.Since(start)
	cached, bound := b.CachedTables()
	if cached > bound {
		t.Errorf("%d tables in memory, bound %d", cached, bound)
	}
	// The seeded message ids are not on the fake: the refreshed tables post
	// a new message after a 404, which is all the fake may have rejected.
	for _, c := range fake.Errors() {
		if c.Status != 404 {
			t.Errorf("rejected request: %s", c)
		}
	}
	return ready, resumed, fake.RESTCalls() - rest0
}

// endedStore is the SQLite store with the query resume uses to find the
// tables that ended lately (the bot's endedLister), run here on a
// connection of its own with the SQL *sqlite.DB is expected to run:
// finished or abandoned tables whose updated_at is after since.
type endedStore struct {
	*sqlite.DB
	path string
}

func (s endedStore) EndedSince(ctx context.Context, since time.Time) ([]string, error) {
	raw, err := sql.Open("sqlite3", "file:"+s.path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	rows, err := raw.QueryContext(ctx, `SELECT id FROM tables WHERE status IN ('finished', 'abandoned') AND updated_at > ?
		ORDER BY updated_at, id`, since.UTC().Format("2006-01-02T15:04:05.000000000Z07:00"))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// TestResumeRefreshesEndedTables: a table abandoned while Discord refused
// every edit of its message, and then the bot stopped, has a stale public
// message (it still offers "My hand"). After a restart within
// resume_window the message shows the table's end; a table that ended
// before the window is left alone.
func TestResumeRefreshesEndedTables(t *testing.T) {
	clock := discordtest.NewFakeClock(day0)
	w := newWorldAt(t, clock)
	w.wrap = func(db *sqlite.DB) bot.Store { return endedStore{DB: db, path: w.dbPath} }
	ctx := context.Background()
	pl := w.loc.Lang("pl")

	// endUnseen abandons a new table while every edit of a message fails,
	// then stops the bot: its last output could not go out.
	endUnseen := func() (string, *discordtest.Message) {
		t.Helper()
		id := w.openTable(ala, olena)
		before := w.tableMessage(id)
		w.fake.FailNext(routeEdit, 1000, 500)
		in := w.fake.SlashCommand(ala, guildID, channelID, "stolik", discordtest.Sub("abandon"))
		in.Wait(ctx)
		if m := in.Original(); m == nil || shownText(m) != pl.T("bot.abandoned", nil) {
			t.Fatalf("abandoning: %v", m)
		}
		if rec, _, err := w.db.Load(ctx, id); err != nil || rec.Status != table.StatusAbandoned {
			t.Fatalf("status %s, %v", rec.Status, err)
		}
		w.stop() // waits for the abandon to be handled, and tries the edit once more
		w.fake.ClearFaults()
		if m := w.fake.Message(before.ID); m.Edits != before.Edits || shownText(m) != shownText(before) {
			t.Fatalf("the table message was edited although Discord refused: %s", m)
		}
		return id, before
	}
	// showsEnd reports whether the table message of id shows its end.
	showsEnd := func(id string) bool {
		m := w.tableMessage(id)
		return strings.Contains(shownText(m), pl.T("bot.abandoned", nil)) && len(m.CustomIDs()) == 0
	}

	old, oldBefore := endUnseen()
	clock.Advance(20 * time.Minute) // past resume_window (15 minutes)
	w.start()
	if m := w.tableMessage(old); m.Edits != oldBefore.Edits || showsEnd(old) {
		t.Errorf("a table that ended before resume_window was refreshed: %s", m)
	}

	recent, recentBefore := endUnseen()
	clock.Advance(time.Minute)
	w.start()
	m := w.tableMessage(recent)
	if m.ID != recentBefore.ID || m.Edits != recentBefore.Edits+1 || !showsEnd(recent) {
		t.Errorf("the table that ended just before the stop: %s (edits %d, was %d)", m, m.Edits, recentBefore.Edits)
	}
	if m := w.tableMessage(old); m.Edits != oldBefore.Edits {
		t.Errorf("the older table was refreshed: %s", m)
	}
	// Past the window, a restart leaves it alone.
	edits := w.tableMessage(recent).Edits
	w.stop()
	clock.Advance(20 * time.Minute)
	w.start()
	if m := w.tableMessage(recent); m.Edits != edits {
		t.Errorf("refreshed past the window: %d edits, was %d", m.Edits, edits)
	}
}
