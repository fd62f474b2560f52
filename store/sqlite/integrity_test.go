package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// seedLongLog creates table "long" with n actions and table "other" with 3
// at path, and closes the store, its WAL checkpointed into the file.
func seedLongLog(t *testing.T, path string, n int) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"long", "other"} {
		if err := db.Create(ctx, tableRecord(id, table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		mustAppend(t, db, "long", i, "")
	}
	for i := range 3 {
		mustAppend(t, db, "other", i, "")
	}
	if _, err := db.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Fatalf("the WAL still holds %d bytes after closing", fi.Size())
	}
}

// rawExec runs SQL on the file behind the store's back.
func rawExec(t *testing.T, path string, qs ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range qs {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestCorruptLogRowsLost: rows deleted from the log in the closed,
// checkpointed file (also with SQLite's triggers dropped and the recorded
// length lowered by hand) make Load fail with a CorruptError naming the
// table, never return a shorter log; the other table still loads; Check
// reports the table. The backend-neutral cases (rows lost from the tail,
// the head, the middle, the whole log, with the store open) are the
// conformance suite's LostRows (storetest, run by TestConformance).
func TestCorruptLogRowsLost(t *testing.T) {
	for _, c := range []struct {
		name string
		sql  []string
		want string // in the error
	}{
		{"tail deleted", []string{`DELETE FROM actions WHERE table_id = 'long' AND n >= 250`}, "holds 250 entries but its recorded length is 300"},
		{"triggers dropped, recorded length lowered", []string{
			`DROP TRIGGER actions_log_len`, `DROP TRIGGER actions_append_only`,
			`DELETE FROM actions WHERE table_id = 'long' AND n >= 200`,
			`UPDATE tables SET log_len = 250 WHERE id = 'long'`,
		}, "holds 200 entries but its recorded length is 250"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stolik.db")
			seedLongLog(t, path, 300)
			rawExec(t, path, c.sql...)
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			_, log, err := db.Load(ctx, "long")
			var ce *table.CorruptError
			if !errors.As(err, &ce) || ce.ID != "long" {
				t.Fatalf("Load: %d entries, %v; want a CorruptError for table long", len(log), err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			if _, log, err := db.Load(ctx, "other"); err != nil || len(log) != 3 {
				t.Errorf("the other table: %d entries, %v", len(log), err)
			}
			// Appending does not paper over the loss.
			if err := db.Append(ctx, "long", table.Entry{N: len(log), Action: "x", At: t0}, ""); err == nil {
				t.Error("an append to the damaged log was accepted")
			}
			problems, err := db.Check(ctx, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "table long") }) {
				t.Errorf("Check: %q, want a problem naming table long", problems)
			}
		})
	}
}

// indexLeaf returns the file offset of the left-most leaf page of the
// b-tree whose root is page root: the one that holds the smallest keys.
func indexLeaf(t *testing.T, file []byte, root, pageSize int) int {
	t.Helper()
	pg := root
	for range 10 {
		off := (pg - 1) * pageSize
		switch file[off] {
		case 0x0a: // leaf index page
			return off
		case 0x02: // interior index page: the first cell, after the 12-byte header, starts with its left child
			cell := int(binary.BigEndian.Uint16(file[off+12 : off+14]))
			pg = int(binary.BigEndian.Uint32(file[off+cell : off+cell+4]))
		default:
			t.Fatalf("page %d is not an index b-tree page (type %#x)", pg, file[off])
		}
	}
	t.Fatal("no leaf within 10 levels")
	return 0
}

// TestCorruptIndexPage: bytes flipped in the middle of the cells of a leaf
// of the actions primary-key index (the left-most, which holds the first
// entries of table "long"), in the closed file. Load of the table then
// fails with a CorruptError, never returning a shorter log with a nil
// error; the other table, whose entries are on another leaf, still loads;
// the full check reports the damage.
func TestCorruptIndexPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	seedLongLog(t, path, 300)
	ctx := context.Background()

	raw, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int
	err = raw.QueryRow(`SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'actions' AND name LIKE 'sqlite_autoindex_actions%'`).Scan(&root)
	if err == nil {
		err = raw.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	}
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	leaf := indexLeaf(t, file, root, pageSize)
	content := int(binary.BigEndian.Uint16(file[leaf+5 : leaf+7])) // start of the cell content area
	if content == 0 {
		content = 65536
	}
	mid := leaf + content + (pageSize-content)/2
	for i := mid - 32; i < mid+32; i++ {
		file[i] ^= 0xa5
	}
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("index root page %d, page size %d: flipped 64 bytes at offset %d (a leaf at %d, cells from %d)",
		root, pageSize, mid-32, leaf, leaf+content)

	db, err := Open(ctx, path)
	if err != nil {
		t.Logf("Open refused the damaged file: %v", err)
		return
	}
	defer db.Close()
	_, log, err := db.Load(ctx, "long")
	if err == nil {
		t.Fatalf("Load of the damaged table returned %d entries and no error", len(log))
	}
	if ce := (*table.CorruptError)(nil); !errors.As(err, &ce) || ce.ID != "long" {
		t.Errorf("Load: %v, want a CorruptError for table long", err)
	}
	if _, log, err := db.Load(ctx, "other"); err != nil || len(log) != 3 {
		t.Errorf("the other table: %d entries, %v", len(log), err)
	}
	t.Logf("Load: %v", err)
	problems, err := db.Check(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) == 0 {
		t.Error("the full check found nothing")
	}
	t.Logf("full check: %q", problems)
	if problems, err := db.Check(ctx, false); err != nil || len(problems) == 0 {
		t.Errorf("the quick check (serve's, at start): %q, %v", problems, err)
	}
}

// TestCheck: a healthy file passes OpenChecked (SQLite's quick_check and
// the log lengths) and both checks; a lost log row makes OpenChecked refuse
// the file in one line naming it and the table. What follows (LogMismatches,
// marking the table, the checks clean again, the table no longer resumed)
// is the conformance suite's Check (storetest, run by TestConformance).
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	seedLongLog(t, path, 20)
	ctx := context.Background()
	db, err := OpenChecked(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		if problems, err := db.Check(ctx, full); err != nil || problems != nil {
			t.Errorf("Check(full=%v) of a healthy database: %q, %v", full, problems, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	rawExec(t, path, `DELETE FROM actions WHERE table_id = 'long' AND n = 19`)
	db, err = OpenChecked(ctx, path)
	var de *store.DamagedError
	if !errors.As(err, &de) {
		if db != nil {
			db.Close()
		}
		t.Fatalf("OpenChecked of a damaged database: %v, want a store.DamagedError", err)
	}
	if want := "table long: its log holds 19 entries but its recorded length is 20"; !slices.Equal(de.Problems, []string{want}) {
		t.Errorf("problems %q, want [%q]", de.Problems, want)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, path) || !strings.Contains(msg, "table long") {
		t.Errorf("error is not one line naming the file and the table: %q", msg)
	}
}

// TestCorruptMigrationBackfill: migration 0003 records the length of the
// logs already stored.
func TestCorruptMigrationBackfill(t *testing.T) {
	ctx := context.Background()
	db := migratedFrom(t, 2,
		`INSERT INTO tables (id, game, seats, seed, status, created_at, updated_at) VALUES
			('a', 'princesses', 3, 1, 'playing', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
			('b', 'princesses', 3, 1, 'lobby', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`,
		`INSERT INTO actions (table_id, n, seat, action, at) VALUES
			('a', 0, 0, 'x', '2025-01-01T00:00:00Z'), ('a', 1, 1, 'y', '2025-01-01T00:00:00Z')`)
	for id, want := range map[string]int{"a": 2, "b": 0} {
		_, log, err := db.Load(ctx, id)
		if err != nil || len(log) != want {
			t.Errorf("table %s after the migration: %d entries, %v; want %d", id, len(log), err, want)
		}
	}
	mustAppend(t, db, "a", 2, "")
	if err := db.Append(ctx, "a", table.Entry{N: 2, Seat: engine.Seat(0), Action: "z", At: t0}, ""); !errors.Is(err, table.ErrConflict) {
		t.Errorf("append at a taken position after the migration: %v", err)
	}
}

// TestReadOnlyDatabase: Open refuses a database it cannot write with
// store.ErrReadOnly naming the file, found by the write probe (the schema is
// current, so migrating writes nothing) or by the migration of an older
// file. Root ignores file modes, so the file that cannot be written is
// stood for by the writer's open mode (mode=ro, what SQLite falls back to
// for a file it may not write or a read-only mount) or query_only.
func TestReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		params url.Values
		old    bool // the file is at schema 2: the migration is what fails
		want   string
	}{
		{"mode=ro", url.Values{"mode": {"ro"}}, false, "write probe"},
		{"query_only", url.Values{"_query_only": {"on"}}, false, "write probe"},
		{"mode=ro, schema to migrate", url.Values{"mode": {"ro"}}, true, "migrating"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stolik.db")
			if c.old {
				ms, err := store.LoadMigrations(embedded, "migrations")
				if err != nil {
					t.Fatal(err)
				}
				raw, err := sql.Open("sqlite3", dsn(path, true))
				if err != nil {
					t.Fatal(err)
				}
				if err := migrate(ctx, raw, ms[:2]); err != nil {
					t.Fatal(err)
				}
				raw.Close()
			} else {
				seedLongLog(t, path, 3)
			}
			db, err := open(ctx, path, openOptions{writer: c.params})
			if err == nil {
				db.Close()
				t.Fatal("a database that cannot be written was opened")
			}
			if !errors.Is(err, store.ErrReadOnly) {
				t.Fatalf("Open: %v, want store.ErrReadOnly", err)
			}
			for _, s := range []string{path, c.want, "readonly"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			t.Log(err)
			// The same file opens for writing.
			db, err = Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
		})
	}
}

// TestReadOnlyFileMode: a file mode or a directory that forbids writing
// makes Open fail with store.ErrReadOnly (not as root, whom modes do not stop).
func TestReadOnlyFileMode(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which file modes do not stop; TestReadOnlyDatabase stands for it")
	}
	ctx := context.Background()
	t.Run("file 0444", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "stolik.db")
		seedLongLog(t, path, 3)
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, path)
		if err == nil {
			db.Close()
			t.Fatal("a read-only file was opened")
		}
		if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open: %v, want store.ErrReadOnly naming the file", err)
		}
		t.Log(err)
	})
	t.Run("directory 0555", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "stolik.db")
		seedLongLog(t, path, 3)
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		db, err := Open(ctx, path)
		if err == nil {
			db.Close()
			t.Fatal("a database in a read-only directory was opened")
		}
		if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open: %v, want store.ErrReadOnly naming the file", err)
		}
		t.Log(err)
	})
}

// TestOpenExistingNeverCreates: OpenExisting of a missing file fails with
// store.ErrNoDatabase and creates nothing.
func TestOpenExistingNeverCreates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "missing.db")
	_, err := OpenExisting(context.Background(), path)
	if !errors.Is(err, store.ErrNoDatabase) || !strings.Contains(err.Error(), path) {
		t.Fatalf("OpenExisting: %v, want store.ErrNoDatabase naming the file", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("OpenExisting left %d files behind", len(ents))
	}
	seedLongLog(t, path, 1)
	db, err := OpenExisting(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCheck is the cost of the checks on a database of 10,000 tables
// of 30 log entries each: quick is what serve runs at every start.
//
//	go test -run XXX -bench Check -benchtime 1x ./store/
func BenchmarkCheck(b *testing.B) {
	path := filepath.Join(b.TempDir(), "stolik.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	const tables, entries = 10000, 30
	for i := range tables {
		id := fmt.Sprintf("t%05d", i)
		if _, err := tx.Exec(`INSERT INTO tables (id, game, seats, seed, status, created_at, updated_at)
			VALUES (?, 'lynx', 2, 1, 'playing', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`, id); err != nil {
			b.Fatal(err)
		}
		for n := range entries {
			if _, err := tx.Exec(`INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, 0, 'play 1', '2025-01-01T00:00:00Z')`, id, n); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		b.Run(map[bool]string{false: "quick", true: "full"}[full], func(b *testing.B) {
			for b.Loop() {
				if problems, err := db.Check(ctx, full); err != nil || problems != nil {
					b.Fatal(problems, err)
				}
			}
			b.ReportMetric(float64(fi.Size())/1e6, "MB")
		})
	}
}

// TestOneOpenTableMigration: a database of an older version where a
// channel got two open tables migrates; the newer holds the channel, the
// older is still played, and once the newer ends a new table opens there.
func TestOneOpenTableMigration(t *testing.T) {
	ctx := context.Background()
	db := migratedFrom(t, 4, `INSERT INTO tables (id, game, seats, seed, status, channel_id, created_at, updated_at) VALUES
		('old', 'lynx', 3, 1, 'playing', 'c', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
		('new', 'lynx', 3, 1, 'lobby', 'c', '2025-01-02T00:00:00Z', '2025-01-02T00:00:00Z'),
		('gone', 'lynx', 3, 1, 'finished', 'd', '2025-01-02T00:00:00Z', '2025-01-02T00:00:00Z')`)
	if ids, err := db.InChannel(ctx, "c"); err != nil || len(ids) != 2 {
		t.Fatalf("the two open tables after the migration: %v, %v", ids, err)
	}
	again := tableRecord("third", table.StatusLobby)
	again.ChannelID = "c"
	if err := db.Create(ctx, again); !errors.Is(err, table.ErrChannelTaken) {
		t.Fatalf("a third open table in the channel: %v, want table.ErrChannelTaken", err)
	}
	other := tableRecord("elsewhere", table.StatusLobby)
	other.ChannelID = "d"
	if err := db.Create(ctx, other); err != nil {
		t.Fatalf("an open table beside a finished one: %v", err)
	}
	if err := db.Append(ctx, "new", table.Entry{N: 0, Seat: 0, Action: "x", At: t0}, table.StatusAbandoned); err != nil {
		t.Fatal(err)
	}
	if err := db.Create(ctx, again); err != nil {
		t.Errorf("an open table once the newer one ended: %v", err)
	}
}

// migratedFrom makes a database file at schema version n (its first n
// migrations), runs stmts on it, and opens it with the store, which
// migrates it to the current version; the store is closed when the test
// ends.
func migratedFrom(t *testing.T, n int, stmts ...string) *DB {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stolik.db")
	ms, err := store.LoadMigrations(embedded, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, raw, ms[:n]); err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenChecked(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
