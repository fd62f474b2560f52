package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
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

func tableRecord(id string, status table.Status) table.Record {
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
		ChannelID: "c-" + id, // one open table per channel
		MessageID: "m1",
		CreatedBy: "u100",
		CreatedAt: t0,
		UpdatedAt: t0.Add(time.Second),
	}
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
	if err := db.Create(context.Background(), tableRecord("t1", table.StatusLobby)); err != nil {
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

func TestMigrationsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	ms, err := store.LoadMigrations(embedded, "migrations")
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
	if !errors.Is(err, store.ErrSchemaTooNew) {
		t.Fatalf("Open: %v, want store.ErrSchemaTooNew", err)
	}
	for _, s := range []string{"999", path} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

func TestMigrationsApplyInOrderAndFailAtomically(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", dsn(filepath.Join(t.TempDir(), "m.db"), true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms := []store.Migration{
		{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER);"},
		{Version: 2, Name: "0002_b.sql", SQL: "ALTER TABLE a ADD COLUMN y INTEGER; CREATE TABLE b (z INTEGER);"},
	}
	if err := migrate(ctx, db, ms); err != nil {
		t.Fatal(err)
	}
	bad := append(ms, store.Migration{Version: 3, Name: "0003_bad.sql", SQL: "CREATE TABLE c (x INTEGER); THIS IS NOT SQL;"})
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
			if err := db.Create(ctx, tableRecord("bad", table.StatusPlaying)); err != nil {
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
