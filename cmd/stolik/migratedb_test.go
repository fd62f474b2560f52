package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/record"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// playAI makes the table's acting seats play up to moves actions with the
// game's heuristic AI, through the table service; it stops early when the
// game ends.
func playAI(t *testing.T, svc *table.Service, id string, moves int) *table.Snapshot {
	t.Helper()
	ctx := context.Background()
	snap, err := svc.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	bot, err := snap.Game.(engine.Bots).Bot("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < moves; step++ {
		if done, _ := snap.State.Result(); done {
			break
		}
		seat := snap.State.Acting()[0]
		a := bot.Choose(snap.State.View(seat), snap.State.Legal(seat), engine.NewRand(uint64(step)+1, step))
		if _, snap, err = svc.Act(ctx, id, seat, a.String(), snap.Version); err != nil {
			t.Fatalf("table %s, move %d (%s): %v", id, step, a, err)
		}
	}
	return snap
}

// migrationSource stores, in a new SQLite file, a table of every game
// mid-play (seats of both kinds, settings, seat flags, deadlines with and
// without marks, votes), a game played to its end with its results, a
// lobby, a table marked corrupt and users' preferences. It returns the
// file's path and the ids of the tables.
func migrationSource(t *testing.T) (string, []string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stolik.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := table.New(db)
	var ids []string
	at := time.Date(2026, 2, 3, 4, 5, 6, 789123456, time.UTC)
	for i, game := range engine.Games() {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		lo, _ := g.Seats()
		n := max(lo, 3)
		if err := engine.ValidateSeats(g, n); err != nil {
			n = lo
		}
		rec := table.Record{ID: "mid-" + game, Status: table.StatusPlaying, Lang: "pl", GuildID: "g1",
			ChannelID: fmt.Sprintf("c%d", i), MessageID: "m", CreatedBy: "u0"}
		rec.Setup = engine.Setup{Game: game, Seats: n}
		for s := range n {
			si := table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: fmt.Sprintf("u%d", s), Name: fmt.Sprintf("Gracz %d", s)}
			if s == n-1 {
				si = table.SeatInfo{Seat: engine.Seat(s), Kind: table.AI, Name: "AI", Bot: "heuristic"}
			}
			rec.Seats = append(rec.Seats, si)
		}
		if _, err := svc.Create(ctx, rec); err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		if snap := playAI(t, svc, rec.ID, 25); snap.Version == 0 {
			t.Fatalf("%s: no move was played", game)
		}
		ids = append(ids, rec.ID)
		if err := db.SetMeta(ctx, rec.ID, record.Meta{Deadline: 36 * time.Hour, WantThread: true, ThreadID: "th" + game, StandIns: i%2 == 0}); err != nil {
			t.Fatal(err)
		}
		if err := db.SetSeatFlags(ctx, rec.ID, 1, record.SeatFlags{Vacant: true, StandIn: i%2 == 1}); err != nil {
			t.Fatal(err)
		}
		dl := record.Deadline{TableID: rec.ID, Seat: 0, StartedAt: at, RemindAt: at.Add(time.Hour), DueAt: at.Add(2 * time.Hour)}
		if i%2 == 0 {
			dl.RemindedAt = at.Add(time.Hour + time.Nanosecond)
		}
		if err := db.PutDeadline(ctx, dl); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Vote(ctx, rec.ID, "stall:0", "u1", "ai", at); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Vote(ctx, rec.ID, "abandon", "u0", "yes", at.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
	}

	// A whole game, to its end, with its results.
	done := table.Record{ID: "done", Status: table.StatusPlaying, GuildID: "g1", ChannelID: "c9",
		Setup: engine.Setup{Game: "lynx", Seats: 2}, Seats: []table.SeatInfo{
			{Seat: 0, Kind: table.Human, UserID: "u0", Name: "Ala"}, {Seat: 1, Kind: table.AI, Bot: "heuristic"}}}
	if _, err := svc.Create(ctx, done); err != nil {
		t.Fatal(err)
	}
	snap := playAI(t, svc, "done", 5000)
	over, res := snap.State.Result()
	if !over || snap.Record.Status != table.StatusFinished {
		t.Fatalf("the lynx game did not end in 5000 moves")
	}
	var rs []record.Result
	for s, score := range res.Scores {
		rs = append(rs, record.Result{TableID: "done", Seat: engine.Seat(s), UserID: done.Seats[s].UserID, Score: score,
			Won: s == int(res.Winners[0]), Game: "lynx", FinishedAt: snap.Record.UpdatedAt, StandIn: s == 0})
	}
	if err := db.RecordResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	ids = append(ids, "done")

	lobby := table.Record{ID: "lobby", GuildID: "g2", ChannelID: "c10", Setup: engine.Setup{Game: "chapters", Seats: 4, Options: engine.Options{}},
		Seats: []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "u7", Name: "Зоряна 🃏"}}}
	if _, err := svc.Create(ctx, lobby); err != nil {
		t.Fatal(err)
	}
	ids = append(ids, "lobby")

	bad := table.Record{ID: "bad", Status: table.StatusPlaying, Setup: engine.Setup{Game: "lynx", Seats: 2},
		Seats: []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "u0"}, {Seat: 1, Kind: table.AI, Bot: "random"}}}
	if _, err := svc.Create(ctx, bad); err != nil {
		t.Fatal(err)
	}
	playAI(t, svc, "bad", 3)
	if err := db.MarkCorrupt(ctx, "bad", "log does not replay at entry 2"); err != nil {
		t.Fatal(err)
	}
	ids = append(ids, "bad")

	for u, p := range map[string]struct {
		lang string
		dm   bool
	}{"u0": {"pl", true}, "u1": {"uk", false}, "u2": {"", true}} {
		if err := db.SetUserLang(ctx, u, p.lang); err != nil {
			t.Fatal(err)
		}
		if err := db.SetDMReminders(ctx, u, p.dm); err != nil {
			t.Fatal(err)
		}
	}
	return path, ids
}

func migrate(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"migrate-db"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// withPassword is url with a password added (the test server trusts local
// connections and ignores it): no output may show it.
func withPassword(url, pw string) string {
	i := strings.Index(url, "@")
	return url[:i] + ":" + pw + url[i:]
}

// TestMigrateDB copies a SQLite database holding a table of every game
// mid-play into PostgreSQL, and checks that every table loads there with
// the same record and log, replays to the same version, and keeps its
// settings, seat flags, deadlines, votes and results; that a second copy
// is refused unless --resume, which skips the tables already there and
// copies a missing one; and that the password is never printed.
func TestMigrateDB(t *testing.T) {
	const pw = "Pa55-w0rd-do-not-print"
	url := withPassword(pgtest.URL(t), pw)
	src, ids := migrationSource(t)
	ctx := context.Background()

	code, out, errOut := migrate("--from", src, "--to", url)
	if code != 0 {
		t.Fatalf("migrate-db: exit %d\n%s%s", code, out, errOut)
	}
	t.Log(strings.TrimSpace(out))
	if !strings.Contains(out, fmt.Sprintf("copied %d table(s)", len(ids))) || !strings.Contains(out, "1 marked corrupt") ||
		!strings.Contains(out, "3 user preference(s)") {
		t.Errorf("unexpected summary: %s", out)
	}

	lite, err := sqlite.OpenExisting(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	pg, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	trunc := func(tm time.Time) time.Time { return tm.UTC().Truncate(time.Microsecond) }
	for _, id := range ids {
		srec, slog, serr := lite.Load(ctx, id)
		drec, dlog, derr := pg.Load(ctx, id)
		if id == "bad" {
			if !errorsIsMarked(serr) || !errorsIsMarked(derr) || !strings.Contains(derr.Error(), "does not replay at entry 2") {
				t.Errorf("the table marked corrupt: source %v, copy %v", serr, derr)
			}
			continue
		}
		if serr != nil || derr != nil {
			t.Fatalf("table %s: source %v, copy %v", id, serr, derr)
		}
		srec.CreatedAt, srec.UpdatedAt = trunc(srec.CreatedAt), trunc(srec.UpdatedAt)
		if !reflect.DeepEqual(drec, srec) {
			t.Errorf("table %s:\n copy   %+v\n source %+v", id, drec, srec)
		}
		if len(dlog) != len(slog) {
			t.Fatalf("table %s: %d entries copied of %d", id, len(dlog), len(slog))
		}
		for i := range slog {
			want := slog[i]
			want.At = trunc(want.At)
			if dlog[i] != want {
				t.Errorf("table %s, entry %d: %+v, want %+v", id, i, dlog[i], want)
			}
		}
		ss, err := table.New(lite).Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := table.New(pg).Get(ctx, id)
		if err != nil {
			t.Fatalf("table %s does not replay from the copy: %v", id, err)
		}
		if ds.Version != ss.Version || !reflect.DeepEqual(ds.State.View(engine.Spectator), ss.State.View(engine.Spectator)) {
			t.Errorf("table %s replays to version %d, the source to %d (or the views differ)", id, ds.Version, ss.Version)
		}
		for _, check := range []func(metaReader) (any, error){
			func(b metaReader) (any, error) { return b.Meta(ctx, id) },
			func(b metaReader) (any, error) { return b.SeatFlags(ctx, id) },
			func(b metaReader) (any, error) { return b.Votes(ctx, id, "stall:0") },
			func(b metaReader) (any, error) { return b.Votes(ctx, id, "abandon") },
		} {
			a, aerr := check(lite)
			b, berr := check(pg)
			if aerr != nil || berr != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("table %s: copy %+v (%v), source %+v (%v)", id, b, berr, a, aerr)
			}
		}
		sd, _ := lite.Deadlines(ctx, id)
		dd, _ := pg.Deadlines(ctx, id)
		if len(sd) != len(dd) {
			t.Errorf("table %s: %d deadlines copied of %d", id, len(dd), len(sd))
		}
		for i := range min(len(sd), len(dd)) {
			w := sd[i]
			w.StartedAt, w.RemindAt, w.DueAt = trunc(w.StartedAt), trunc(w.RemindAt), trunc(w.DueAt)
			if !w.RemindedAt.IsZero() {
				w.RemindedAt = trunc(w.RemindedAt)
			}
			if dd[i] != w {
				t.Errorf("table %s: deadline %+v, want %+v", id, dd[i], w)
			}
		}
	}
	for _, g := range []string{"g1", "g2"} {
		a, _ := lite.GuildStats(ctx, g)
		b, err := pg.GuildStats(ctx, g)
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("GuildStats(%s): copy %+v (%v), source %+v", g, b, err, a)
		}
		for _, u := range []string{"u0", "u1"} {
			a, _ := lite.PlayerStats(ctx, g, u)
			b, err := pg.PlayerStats(ctx, g, u)
			if err != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("PlayerStats(%s, %s): copy %+v (%v), source %+v", g, u, b, err, a)
			}
		}
	}
	for _, u := range []string{"u0", "u1", "u2", "u3"} {
		l1, _ := lite.UserLang(ctx, u)
		l2, _ := pg.UserLang(ctx, u)
		d1, _ := lite.DMReminders(ctx, u)
		d2, _ := pg.DMReminders(ctx, u)
		if l1 != l2 || d1 != d2 {
			t.Errorf("user %s: copy %q %v, source %q %v", u, l2, d2, l1, d1)
		}
	}
	a, _ := lite.OpenTables(ctx)
	b, _ := pg.OpenTables(ctx)
	if len(a) != len(b) {
		t.Errorf("OpenTables: copy %+v, source %+v", b, a)
	}
	if problems, err := pg.Check(ctx, true); err != nil || problems != nil {
		t.Errorf("Check of the copy = %q, %v", problems, err)
	}

	// Again: refused; with --resume: every table skipped.
	code, out, errOut = migrate("--from", src, "--to", url)
	if code != 1 || !strings.Contains(errOut, "--resume") {
		t.Errorf("a second copy: exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = migrate("--from", src, "--to", url, "--resume")
	if code != 0 || !strings.Contains(out, "copied 0 table(s)") || !strings.Contains(out, fmt.Sprintf("%d table(s) were there already", len(ids))) {
		t.Errorf("--resume over a whole copy: exit %d: %s%s", code, out, errOut)
	}
	// A copy that stopped before the last table: --resume copies it.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DELETE FROM tables WHERE id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = migrate("--from", src, "--to", url, "--resume")
	if code != 0 || !strings.Contains(out, "copied 1 table(s)") {
		t.Errorf("--resume after a lost table: exit %d: %s%s", code, out, errOut)
	}
	if _, log, err := pg.Load(ctx, ids[0]); err != nil || len(log) == 0 {
		t.Errorf("the table copied on resume: %d entries, %v", len(log), err)
	}
	// A table that differs in the target is not overwritten.
	if _, err := conn.Exec(ctx, `UPDATE votes SET choice = 'wait' WHERE table_id = $1 AND topic = 'stall:0'`, ids[1]); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = migrate("--from", src, "--to", url, "--resume")
	if code != 1 || !strings.Contains(errOut, "differs from the source") || !strings.Contains(errOut, "votes") {
		t.Errorf("--resume over a table that differs: exit %d: %s%s", code, out, errOut)
	}
	for _, s := range []string{out, errOut} {
		if strings.Contains(s, pw) {
			t.Fatalf("migrate-db printed the password: %s", s)
		}
	}
}

// metaReader is what both stores answer about a table besides its log.
type metaReader interface {
	Meta(ctx context.Context, id string) (record.Meta, error)
	SeatFlags(ctx context.Context, id string) (map[engine.Seat]record.SeatFlags, error)
	Votes(ctx context.Context, id, topic string) (map[string]string, error)
}

func errorsIsMarked(err error) bool {
	var ce *table.CorruptError
	return errors.As(err, &ce) && errors.Is(err, store.ErrMarkedCorrupt)
}

// TestMigrateDBRefusals: the command line, a missing source, a source with
// a log shorter than recorded; no message shows the password.
func TestMigrateDBRefusals(t *testing.T) {
	const pw = "hunter2-secret"
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	db, err := sqlite.Open(context.Background(), good)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	short := checkDB(t)
	raw, err := sql.Open("sqlite3", short)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM actions WHERE table_id = 't2' AND n = 4`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	url := "postgres://stolik:" + pw + "@127.0.0.1:1/stolik?sslmode=disable&connect_timeout=5"
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no --to", []string{"--from", good}, 2, "--to"},
		{"no --from", []string{"--to", url}, 2, "--from"},
		{"not a URL", []string{"--from", good, "--to", "other.db"}, 2, "postgres://"},
		{"unknown flag", []string{"--from", good, "--to", url, "--password=" + pw}, 2, "unknown flag"},
		{"stray argument", []string{"--from", good, "--to", url, pw}, 2, "unexpected argument"},
		{"no such source", []string{"--from", filepath.Join(dir, "none.db"), "--to", url}, 2, "no such database"},
		{"short log", []string{"--from", short, "--to", url}, 1, "table t2: its log holds 4 entries but its recorded length is 5"},
		{"nobody listening", []string{"--from", good, "--to", url}, 1, "stolik@127.0.0.1:1/stolik"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := migrate(c.args...)
			if code != c.code || !strings.Contains(errOut, c.says) {
				t.Errorf("exit %d, want %d; stderr %q does not say %q", code, c.code, errOut, c.says)
			}
			if strings.Contains(out+errOut, pw) {
				t.Errorf("the password was printed: %s%s", out, errOut)
			}
		})
	}
}
