package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stolik.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, path
}

var t0 = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600))

func record(id string, status table.Status) table.Record {
	return table.Record{
		ID:     id,
		Setup:  engine.Setup{Game: "princesses", Options: engine.Options{"edition": "pl", "rounds": "8"}, Seats: 3, Seed: math.MaxUint64 - 41},
		Status: status,
		Seats: []table.SeatInfo{
			{Seat: 0, Kind: table.Human, UserID: "u100", Name: "Ala"},
			{Seat: 1, Kind: table.AI, Name: "Bot", Bot: "heuristic"},
			{Seat: 2, Kind: table.Human, UserID: "u200", Name: "Ołeh"},
		},
		Lang:      "pl",
		GuildID:   "g1",
		ChannelID: "c1",
		MessageID: "m1",
		CreatedBy: "u100",
		CreatedAt: t0,
		UpdatedAt: t0.Add(time.Second),
	}
}

// utc is how a record comes back: times in UTC.
func utc(r table.Record) table.Record {
	r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
	return r
}

func mustAppend(t *testing.T, db *DB, id string, n int, status table.Status) {
	t.Helper()
	e := table.Entry{N: n, Seat: engine.Seat(n % 3), Action: fmt.Sprintf("play %d", n), At: t0.Add(time.Duration(n) * time.Minute)}
	if err := db.Append(context.Background(), id, e, status); err != nil {
		t.Fatalf("Append %s #%d: %v", id, n, err)
	}
}

func TestDSNPragmas(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	for _, c := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"busy_timeout", "5000"},
		{"foreign_keys", "1"},
	} {
		var got string
		if err := db.w.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("PRAGMA %s = %q, want %q", c.pragma, got, c.want)
		}
	}
	// The reader pool cannot write.
	if _, err := db.r.ExecContext(ctx, `INSERT INTO user_prefs (user_id) VALUES ('x')`); err == nil {
		t.Error("the read pool accepted a write")
	}
}

func TestPathWithURICharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd ?#% name.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Create(context.Background(), record("t1", table.StatusLobby)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the database is not at the path given: %v", err)
	}
	db, err = Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, _, err := db.Load(context.Background(), "t1"); err != nil {
		t.Fatalf("reopening %q: %v", path, err)
	}
}

func TestCreateLoadRoundTrip(t *testing.T) {
	full := record("full", table.StatusPlaying)
	noOpts := record("noopts", table.StatusLobby)
	noOpts.Setup.Options = nil
	noOpts.Seats = nil
	emptyOpts := record("emptyopts", table.StatusLobby)
	emptyOpts.Setup.Options = engine.Options{}
	emptyOpts.Setup.Seed = 1
	zeroTimes := record("zerotimes", table.StatusAbandoned)
	zeroTimes.CreatedAt, zeroTimes.UpdatedAt = time.Time{}, time.Time{}
	unicode := record("unicode", table.StatusFinished)
	unicode.Seats[0].Name = "Зоряна 🃏 'quote\""
	unicode.Setup.Options = engine.Options{"note": "a=b; DROP TABLE tables;"}

	db, _ := openTemp(t)
	ctx := context.Background()
	for _, rec := range []table.Record{full, noOpts, emptyOpts, zeroTimes, unicode} {
		t.Run(rec.ID, func(t *testing.T) {
			if err := db.Create(ctx, rec); err != nil {
				t.Fatalf("Create: %v", err)
			}
			got, log, err := db.Load(ctx, rec.ID)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(log) != 0 {
				t.Errorf("new table has a log of %d", len(log))
			}
			if want := utc(rec); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
			if !got.CreatedAt.Equal(rec.CreatedAt) || got.CreatedAt.Location() != time.UTC {
				t.Errorf("CreatedAt %v, want %v in UTC", got.CreatedAt, rec.CreatedAt)
			}
		})
	}
}

func TestCreateDuplicate(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, record("dup", table.StatusLobby)); err != nil {
		t.Fatal(err)
	}
	err := db.Create(ctx, record("dup", table.StatusLobby))
	if !errors.Is(err, table.ErrExists) {
		t.Fatalf("second Create: %v, want ErrExists", err)
	}
}

func TestCreateRejectsBadRecords(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	for name, mutate := range map[string]func(*table.Record){
		"empty id":     func(r *table.Record) { r.ID = "" },
		"bad status":   func(r *table.Record) { r.Status = "dancing" },
		"bad kind":     func(r *table.Record) { r.Seats[1].Kind = "robot" },
		"negative":     func(r *table.Record) { r.Seats[1].Seat = -1 },
		"seat twice":   func(r *table.Record) { r.Seats[1].Seat = 0 },
		"nil status":   func(r *table.Record) { r.Status = "" },
		"dup in batch": func(r *table.Record) { r.Seats = append(r.Seats, r.Seats[2]) },
	} {
		t.Run(name, func(t *testing.T) {
			rec := record("bad", table.StatusLobby)
			mutate(&rec)
			if err := db.Create(ctx, rec); err == nil {
				t.Fatal("Create accepted a bad record")
			}
			// Nothing was left behind by the failed transaction.
			if _, _, err := db.Load(ctx, "bad"); !errors.Is(err, table.ErrNotFound) {
				t.Fatalf("Load after failed Create: %v", err)
			}
		})
	}
}

func TestLoadUnknown(t *testing.T) {
	db, _ := openTemp(t)
	_, _, err := db.Load(context.Background(), "nope")
	if !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Load: %v, want ErrNotFound", err)
	}
}

func TestAppend(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, "t", 0, "")
	mustAppend(t, db, "t", 1, "")

	for _, c := range []struct {
		name string
		id   string
		n    int
		want error
	}{
		{"same position again", "t", 1, table.ErrConflict},
		{"behind", "t", 0, table.ErrConflict},
		{"gap", "t", 3, table.ErrConflict},
		{"negative", "t", -1, table.ErrConflict},
		{"unknown table", "nope", 0, table.ErrNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := db.Append(ctx, c.id, table.Entry{N: c.n, Action: "x", At: t0}, table.StatusFinished)
			if !errors.Is(err, c.want) {
				t.Fatalf("Append: %v, want %v", err, c.want)
			}
		})
	}

	rec, log, err := db.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 || rec.Status != table.StatusPlaying {
		t.Fatalf("after failed appends: log %d, status %s; want 2, playing", len(log), rec.Status)
	}

	// A status is stored with the entry; updated_at always follows it.
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if err := db.Append(ctx, "t", table.Entry{N: 2, Seat: 1, Action: "play Q7", At: at}, table.StatusFinished); err != nil {
		t.Fatal(err)
	}
	rec, log, err = db.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	want := table.Entry{N: 2, Seat: 1, Action: "play Q7", At: at}
	if rec.Status != table.StatusFinished || !rec.UpdatedAt.Equal(at) || log[2] != want {
		t.Fatalf("after final append: status %s, updated %v, entry %+v", rec.Status, rec.UpdatedAt, log[2])
	}
	if !rec.CreatedAt.Equal(t0) {
		t.Errorf("CreatedAt changed to %v", rec.CreatedAt)
	}
	if err := db.Append(ctx, "t", table.Entry{N: 3, At: at}, "bogus"); err == nil {
		t.Error("Append accepted an unknown status")
	}
}

func TestActionsAreAppendOnly(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, "t", 0, "")
	if _, err := db.w.ExecContext(ctx, `UPDATE actions SET action = 'cheat' WHERE table_id = 't'`); err == nil ||
		!strings.Contains(err.Error(), "append-only") {
		t.Fatalf("UPDATE actions: %v, want the append-only trigger", err)
	}
}

func TestUpdate(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	rec := record("t", table.StatusLobby)
	if err := db.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Status = table.StatusPlaying
	rec.MessageID = "m2"
	rec.Lang = "uk"
	rec.Seats = []table.SeatInfo{{Seat: 2, Kind: table.AI, Bot: "random"}, {Seat: 0, Kind: table.Human, UserID: "u9", Name: "Ewa"}}
	rec.UpdatedAt = t0.Add(time.Hour)
	rec.CreatedAt = t0.Add(-time.Hour) // ignored: the creation time is kept
	if err := db.Update(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, _, err := db.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	want := utc(rec)
	want.CreatedAt = t0.UTC()
	want.Seats = []table.SeatInfo{rec.Seats[1], rec.Seats[0]} // loaded in seat order
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after Update:\n got %+v\nwant %+v", got, want)
	}

	rec.ID = "nope"
	if err := db.Update(ctx, rec); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Update unknown: %v, want ErrNotFound", err)
	}
}

func TestOpenListsLobbyAndPlaying(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	for i, st := range []table.Status{table.StatusLobby, table.StatusFinished, table.StatusPlaying, table.StatusAbandoned, table.StatusLobby} {
		rec := record(fmt.Sprintf("t%d", i), st)
		rec.CreatedAt = t0.Add(time.Duration(i) * time.Second)
		if err := db.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	mustAppend(t, db, "t4", 0, table.StatusFinished)
	ids, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"t0", "t2"}; !slices.Equal(ids, want) {
		t.Fatalf("Open = %v, want %v", ids, want)
	}
}

func TestReopenKeepsLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Create(ctx, record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	for n := range 5 {
		mustAppend(t, db, "t", n, "")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rec, log, err := db.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	want := utc(record("t", table.StatusPlaying))
	want.UpdatedAt = t0.Add(4 * time.Minute).UTC() // follows the last append
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("after reopening:\n got %+v\nwant %+v", rec, want)
	}
	if len(log) != 5 {
		t.Fatalf("log has %d entries after reopening, want 5", len(log))
	}
	for i, e := range log {
		want := table.Entry{N: i, Seat: engine.Seat(i % 3), Action: fmt.Sprintf("play %d", i), At: t0.Add(time.Duration(i) * time.Minute).UTC()}
		if e != want {
			t.Errorf("entry %d = %+v, want %+v", i, e, want)
		}
	}
	mustAppend(t, db, "t", 5, "")
}

func TestMigrationsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	ms, err := loadMigrations(embedded, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	read := func(db *DB) [][2]string {
		rows, err := db.r.QueryContext(ctx, `SELECT version, applied_at FROM schema_migrations ORDER BY version`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out [][2]string
		for rows.Next() {
			var v, at string
			if err := rows.Scan(&v, &at); err != nil {
				t.Fatal(err)
			}
			out = append(out, [2]string{v, at})
		}
		return out
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	first := read(db)
	if len(first) != len(ms) {
		t.Fatalf("%d migrations recorded, want %d", len(first), len(ms))
	}
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(ms) {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, len(ms))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		db, err = Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		if again := read(db); !reflect.DeepEqual(again, first) {
			t.Fatalf("reopening changed schema_migrations: %v, was %v", again, first)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '0999_future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open: %v, want ErrSchemaTooNew", err)
	}
	for _, s := range []string{"999", path} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

func TestMigrationFiles(t *testing.T) {
	sql := &fstest.MapFile{Data: []byte("CREATE TABLE x (a INTEGER);")}
	for _, c := range []struct {
		name  string
		files []string
		ok    bool
	}{
		{"in order", []string{"0001_a.sql", "0002_b.sql", "README.md"}, true},
		{"gap", []string{"0001_a.sql", "0003_c.sql"}, false},
		{"repeat", []string{"0001_a.sql", "0001_b.sql"}, false},
		{"zero", []string{"0000_a.sql"}, false},
		{"no number", []string{"init.sql"}, false},
		{"not a number", []string{"one_init.sql"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range c.files {
				fsys["m/"+f] = sql
			}
			_, err := loadMigrations(fsys, "m")
			if (err == nil) != c.ok {
				t.Fatalf("loadMigrations(%v): %v", c.files, err)
			}
		})
	}
}

func TestMigrationsApplyInOrderAndFailAtomically(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", dsn(filepath.Join(t.TempDir(), "m.db"), true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms := []migration{
		{1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"},
		{2, "0002_b.sql", "ALTER TABLE a ADD COLUMN y INTEGER; CREATE TABLE b (z INTEGER);"},
	}
	if err := migrate(ctx, db, ms); err != nil {
		t.Fatal(err)
	}
	bad := append(ms, migration{3, "0003_bad.sql", "CREATE TABLE c (x INTEGER); THIS IS NOT SQL;"})
	err = migrate(ctx, db, bad)
	if err == nil || !strings.Contains(err.Error(), "0003_bad.sql") {
		t.Fatalf("bad migration: %v", err)
	}
	if v, _ := schemaVersion(ctx, db); v != 2 {
		t.Fatalf("version after failed migration = %d, want 2", v)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'c'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the failed migration left table c behind (%d, %v)", n, err)
	}
}

func TestCorruptRows(t *testing.T) {
	for _, c := range []struct {
		name, sql, want string
	}{
		{"options not json", `UPDATE tables SET options = 'not json' WHERE id = 'bad'`, "options"},
		{"options not an object", `UPDATE tables SET options = '[1,2]' WHERE id = 'bad'`, "options"},
		{"options not strings", `UPDATE tables SET options = '{"a":1}' WHERE id = 'bad'`, "options"},
		{"unknown seat kind", `UPDATE seats SET kind = 'robot' WHERE table_id = 'bad' AND seat = 1`, "robot"},
		{"unknown status", `UPDATE tables SET status = 'dancing' WHERE id = 'bad'`, "dancing"},
		{"bad time", `UPDATE tables SET created_at = 'yesterday' WHERE id = 'bad'`, "yesterday"},
		{"gap in the log", `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('bad', 5, 0, 'x', '2025-01-01T00:00:00Z')`, "entry 5"},
		{"bad action time", `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('bad', 2, 0, 'x', 'soon')`, "soon"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTemp(t)
			ctx := context.Background()
			if err := db.Create(ctx, record("bad", table.StatusPlaying)); err != nil {
				t.Fatal(err)
			}
			mustAppend(t, db, "bad", 0, "")
			mustAppend(t, db, "bad", 1, "")
			if _, err := db.w.ExecContext(ctx, c.sql); err != nil {
				t.Fatal(err)
			}
			_, _, err := db.Load(ctx, "bad")
			var ce *table.CorruptError
			if !errors.As(err, &ce) || ce.ID != "bad" {
				t.Fatalf("Load: %v, want a CorruptError for table bad", err)
			}
			for _, s := range []string{"table bad", c.want} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestConcurrentAppendsSameTable(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, "t", 0, "")
	const workers = 8
	errs := make([]error, workers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		wg.Go(func() {
			<-start
			errs[i] = db.Append(ctx, "t", table.Entry{N: 1, Seat: engine.Seat(i), Action: fmt.Sprintf("w%d", i), At: t0}, "")
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, table.ErrConflict):
		default:
			t.Errorf("worker %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d appends won, want exactly 1", won)
	}
	_, log, err := db.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 {
		t.Fatalf("log has %d entries, want 2", len(log))
	}
}

func TestConcurrentAppendsDifferentTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	// Two handles on one file stand for two processes: their writers meet
	// in SQLite's locks, not in a Go connection pool.
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	const tables, appends = 8, 25
	for i := range tables {
		if err := dbs[0].Create(ctx, record(fmt.Sprintf("t%d", i), table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables*appends)
	for i := range tables {
		wg.Go(func() {
			db, id := dbs[i%2], fmt.Sprintf("t%d", i)
			for n := range appends {
				e := table.Entry{N: n, Seat: engine.Seat(n % 3), Action: fmt.Sprintf("play %d", n), At: t0}
				if err := db.Append(ctx, id, e, ""); err != nil {
					errs <- fmt.Errorf("%s #%d: %w", id, n, err)
					return
				}
				if _, _, err := db.Load(ctx, id); err != nil {
					errs <- fmt.Errorf("%s load: %w", id, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range tables {
		_, log, err := dbs[1].Load(ctx, fmt.Sprintf("t%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != appends {
			t.Errorf("t%d has %d entries, want %d", i, len(log), appends)
		}
	}
}

func TestInChannel(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	a, b, c := record("a", table.StatusLobby), record("b", table.StatusPlaying), record("c", table.StatusFinished)
	b.CreatedAt = t0.Add(time.Hour)
	d := record("d", table.StatusPlaying)
	d.ChannelID = "c2"
	for _, r := range []table.Record{a, b, c, d} {
		if err := db.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.InChannel(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("InChannel(c1) = %v, want [a b]", got)
	}
	if got, err := db.InChannel(ctx, "none"); err != nil || len(got) != 0 {
		t.Errorf("InChannel(none) = %v, %v", got, err)
	}
}

func TestUserLang(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if got, err := db.UserLang(ctx, "u1"); err != nil || got != "" {
		t.Fatalf("UserLang before = %q, %v", got, err)
	}
	for _, lang := range []string{"pl", "uk", ""} {
		if err := db.SetUserLang(ctx, "u1", lang); err != nil {
			t.Fatal(err)
		}
		if got, err := db.UserLang(ctx, "u1"); err != nil || got != lang {
			t.Errorf("UserLang = %q, %v; want %q", got, err, lang)
		}
	}
	if got, _ := db.UserLang(ctx, "u2"); got != "" {
		t.Errorf("another user: %q", got)
	}
}
