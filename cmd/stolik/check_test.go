package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// checkDB stores two tables with a few log entries in a new file and
// returns its path.
func checkDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stolik.db")
	fillCheckDB(t, path)
	return path
}

// fillCheckDB stores two tables, t1 and t2, of five log entries each in
// the database dsn names (a SQLite file, created when missing, or a
// PostgreSQL URL).
func fillCheckDB(t *testing.T, dsn string) {
	t.Helper()
	db, err := open.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storeTables(t, db, 5, "t1", "t2")
}

// storeTables stores lynx tables ids of n log entries each in db.
func storeTables(t *testing.T, db open.Backend, n int, ids ...string) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, id := range ids {
		rec := table.Record{ID: id, Status: table.StatusPlaying, CreatedAt: at, UpdatedAt: at}
		rec.Setup.Game, rec.Setup.Seats = "lynx", 2
		if err := db.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		for k := range n {
			if err := db.Append(ctx, id, table.Entry{N: k, Action: fmt.Sprintf("play %d", k), At: at}, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// loseRows deletes log rows behind the store's back.
func loseRows(t *testing.T, path, q string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	const lost = "table t2: its log holds 3 entries but its recorded length is 5"
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T) string // returns the --db path
		args    []string
		code    int
		stdout  []string // lines, exactly
		stderr  string   // in stderr
	}{
		{
			name:    "healthy",
			prepare: checkDB,
			code:    0,
			stdout:  []string{"ok"},
		},
		{
			name: "log rows lost",
			prepare: func(t *testing.T) string {
				path := checkDB(t)
				loseRows(t, path, `DELETE FROM actions WHERE table_id = 't2' AND n >= 3`)
				return path
			},
			code:   1,
			stdout: []string{lost},
			stderr: "1 problem(s) found",
		},
		{
			name: "log rows lost, marked corrupt",
			prepare: func(t *testing.T) string {
				path := checkDB(t)
				loseRows(t, path, `DELETE FROM actions WHERE table_id = 't2' AND n >= 3`)
				return path
			},
			args:   []string{"--mark-corrupt"},
			code:   0,
			stdout: []string{"marked corrupt: " + lost, "ok", "table t2 is marked corrupt and not served: " + lost},
		},
		{
			name: "not a database",
			prepare: func(t *testing.T) string {
				path := filepath.Join(t.TempDir(), "junk.db")
				if err := os.WriteFile(path, bytes.Repeat([]byte("not a database\n"), 400), 0o600); err != nil {
					t.Fatal(err)
				}
				return path
			},
			code:   1,
			stderr: "is not a Stolik database: SQLite cannot read it",
		},
		{
			name:    "no such database",
			prepare: func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing.db") },
			code:    2,
			stderr:  "There is no database",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := c.prepare(t)
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"check", "--db", path}, c.args...), strings.NewReader(""), &out, &errOut)
			if code != c.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out.String(), errOut.String())
			}
			var lines []string
			if s := strings.TrimSuffix(out.String(), "\n"); s != "" {
				lines = strings.Split(s, "\n")
			}
			if fmt.Sprint(lines) != fmt.Sprint(c.stdout) {
				t.Errorf("stdout %q, want %q", lines, c.stdout)
			}
			if !strings.Contains(errOut.String(), c.stderr) {
				t.Errorf("stderr %q does not say %q", errOut.String(), c.stderr)
			}
			if c.code == 2 {
				if _, err := os.Stat(path); !os.IsNotExist(err) {
					t.Errorf("check created %s (%v)", path, err)
				}
				if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 0 {
					t.Errorf("check left %d files beside the missing database", len(ents))
				}
			}
		})
	}
}

// pgSecret is the password the PostgreSQL tests put in the URLs they pass
// (the test server trusts local connections and ignores it): no output may
// show it.
const pgSecret = "s3cret-pw"

// pgCheckDB is checkDB on a new PostgreSQL database: its URL, with
// pgSecret as the password. It skips the test when no server is configured
// (pgtest).
func pgCheckDB(t *testing.T) string {
	t.Helper()
	dsn := withPassword(pgtest.URL(t), pgSecret)
	fillCheckDB(t, dsn)
	return dsn
}

// pgExec runs statements on the PostgreSQL database at dsn behind the
// store's back.
func pgExec(t *testing.T, dsn string, stmts ...string) error {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// TestCheckCommandPostgres: stolik check --db postgres://… runs the
// PostgreSQL store's full check (log lengths, log positions, indexes when
// amcheck is installed), says what it checked and what it did not, finds
// lost and displaced log rows, marks tables corrupt, and never shows the
// URL's password.
func TestCheckCommandPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Server(t)
	const lost = "table t2: its log holds 3 entries but its recorded length is 5"
	scope := func(dsn string, amcheck bool) []string {
		indexes := "indexes: not checked (the amcheck extension is not installed in the database; CREATE EXTENSION amcheck lets check verify them)"
		if amcheck {
			indexes = "indexes: every B-tree index of the store's tables checked with amcheck (bt_index_check)"
		}
		return []string{
			"PostgreSQL database " + open.Describe(dsn) + " (SQLite's integrity_check has no PostgreSQL equivalent a client may run):",
			"logs: every table's log checked against its recorded length, and for positions 0, 1, 2… without gaps (tables marked corrupt left out)",
			indexes,
			"data pages: not checked (page checksums are the server's: initdb --data-checksums, pg_checksums)",
		}
	}
	lines := func(groups ...[]string) []string {
		var out []string
		for _, g := range groups {
			out = append(out, g...)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T) string // returns the --db URL
		args    []string
		code    int
		stdout  func(dsn string) []string // lines, exactly
		stderr  []string                  // in stderr; "DB" stands for open.Describe(dsn)
	}{
		{
			name:    "healthy",
			prepare: pgCheckDB,
			stdout:  func(dsn string) []string { return lines(scope(dsn, false), []string{"ok"}) },
		},
		{
			name: "log rows lost",
			prepare: func(t *testing.T) string {
				dsn := pgCheckDB(t)
				if err := pgExec(t, dsn, `DELETE FROM actions WHERE table_id = 't2' AND n >= 3`); err != nil {
					t.Fatal(err)
				}
				return dsn
			},
			code:   1,
			stdout: func(dsn string) []string { return lines(scope(dsn, false), []string{lost}) },
			stderr: []string{"DB: 1 problem(s) found"},
		},
		{
			name: "log rows lost, marked corrupt",
			prepare: func(t *testing.T) string {
				dsn := pgCheckDB(t)
				if err := pgExec(t, dsn, `DELETE FROM actions WHERE table_id = 't2' AND n >= 3`); err != nil {
					t.Fatal(err)
				}
				return dsn
			},
			args: []string{"--mark-corrupt"},
			stdout: func(dsn string) []string {
				return lines([]string{"marked corrupt: " + lost}, scope(dsn, false),
					[]string{"ok", "table t2 is marked corrupt and not served: " + lost})
			},
		},
		{
			name: "a log entry moved",
			prepare: func(t *testing.T) string {
				dsn := pgCheckDB(t)
				if err := pgExec(t, dsn, `ALTER TABLE actions DISABLE TRIGGER ALL`,
					`DELETE FROM actions WHERE table_id = 't1' AND n = 4`,
					`INSERT INTO actions (table_id, n, seat, action, at) VALUES ('t1', 7, 0, 'play 4', now())`,
					`ALTER TABLE actions ENABLE TRIGGER ALL`); err != nil {
					t.Fatal(err)
				}
				return dsn
			},
			code: 1,
			stdout: func(dsn string) []string {
				return lines(scope(dsn, false), []string{"table t1: its log holds 5 entries at positions 0 to 7, not 0 to 4"})
			},
			stderr: []string{"DB: 1 problem(s) found"},
		},
		{
			name: "amcheck installed",
			prepare: func(t *testing.T) string {
				dsn := pgCheckDB(t)
				err := pgExec(t, dsn, `CREATE EXTENSION amcheck`)
				var pe *pgconn.PgError
				if errors.As(err, &pe) && (pe.Code == "58P01" || pe.Code == "0A000") {
					t.Skipf("the test server has no amcheck: %v", err)
				}
				if err != nil {
					t.Fatal(err)
				}
				return dsn
			},
			stdout: func(dsn string) []string { return lines(scope(dsn, true), []string{"ok"}) },
		},
		{
			name: "no such database",
			prepare: func(t *testing.T) string {
				u, err := url.Parse(withPassword(pgtest.Server(t), pgSecret))
				if err != nil {
					t.Fatal(err)
				}
				u.Path = "/stolik_test_missing"
				return u.String()
			},
			code:   1,
			stderr: []string{"DB", "3D000"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dsn := c.prepare(t)
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"check", "--db", dsn}, c.args...), strings.NewReader(""), &out, &errOut)
			if code != c.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out.String(), errOut.String())
			}
			var got, want []string
			if s := strings.TrimSuffix(out.String(), "\n"); s != "" {
				got = strings.Split(s, "\n")
			}
			if c.stdout != nil {
				want = c.stdout(dsn)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("stdout:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, s := range c.stderr {
				s = strings.ReplaceAll(s, "DB", open.Describe(dsn))
				if !strings.Contains(errOut.String(), s) {
					t.Errorf("stderr %q does not say %q", errOut.String(), s)
				}
			}
			if all := out.String() + errOut.String(); strings.Contains(all, pgSecret) {
				t.Errorf("the output shows the URL's password:\n%s", all)
			}
		})
	}
}

func TestCheckCommandUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"check"}, {"check", "--db", "x.db", "extra"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errOut); code != 2 {
			t.Errorf("%q: exit code %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}

// TestServeCheckRefusesDamagedDatabase: serve runs the quick check after opening
// the store and stops with one line naming the file and the problem,
// before it talks to Discord.
func TestServeCheckRefusesDamagedDatabase(t *testing.T) {
	path := checkDB(t)
	loseRows(t, path, `DELETE FROM actions WHERE table_id = 't1' AND n = 4`)
	cfg := filepath.Join(t.TempDir(), "stolik.toml")
	if err := os.WriteFile(cfg, []byte("token = \"check-test-token\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DISCORD_TOKEN", "check-test-token")
	t.Setenv("STOLIK_DB", path)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"serve", "--config", cfg}, strings.NewReader(""), &out, &errOut)
	if code != 1 {
		t.Fatalf("exit code %d, want 1\nstderr: %s", code, errOut.String())
	}
	msg := strings.TrimSuffix(errOut.String(), "\n")
	if strings.Contains(msg, "\n") {
		t.Errorf("more than one line: %q", msg)
	}
	for _, s := range []string{path, "damaged", "table t1: its log holds 4 entries but its recorded length is 5", "stolik check --db"} {
		if !strings.Contains(msg, s) {
			t.Errorf("%q does not say %q", msg, s)
		}
	}
}

// TestServeRefusesAHeldShard: a second process given the shard another
// live process serves stops before it talks to Discord, saying so in one
// line, without the token.
func TestServeRefusesAHeldShard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	release, err := db.HoldShard(context.Background(), 0, nil) // the other process
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DISCORD_TOKEN", "shard-test-token")
	t.Setenv("STOLIK_DB", path)
	cfg := filepath.Join(t.TempDir(), "stolik.toml")
	if err := os.WriteFile(cfg, []byte("shards = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serve := func() (int, string) {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		code := run(ctx, []string{"serve", "--config", cfg}, strings.NewReader(""), &out, &errOut)
		return code, errOut.String()
	}
	code, msg := serve()
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	last := lines[len(lines)-1]
	if code != 1 || !strings.Contains(last, "shard 0 of 1 is served by another live process") {
		t.Fatalf("exit %d, last line %q:\n%s", code, last, msg)
	}
	if strings.Contains(msg, "connected to Discord") || strings.Contains(msg, "shard-test-token") {
		t.Errorf("it went on, or printed the token:\n%s", msg)
	}
	release()
	// Free again, it is taken at once (serve would now go on to Discord,
	// which this test does not reach; TestKillUnderLoad restarts serve
	// after SIGKILL without a wait).
	again, err := db.HoldShard(context.Background(), 0, nil)
	if err != nil {
		t.Fatalf("the shard once free: %v", err)
	}
	again()
}

// TestDamagedWriteAheadLog: a bit flipped in a committed frame of the
// write-ahead log (the file copied as a crash leaves it, the log not yet
// checkpointed) is reported by check and refused by serve, each in one
// line, before SQLite opens the file and drops the moves after it; check
// --mark-corrupt keeps the sound frames, and the file then checks ok.
func TestDamagedWriteAheadLog(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "live.db")
	db, err := open.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storeTables(t, db, 20, "t1", "t2", "t3")
	path := filepath.Join(dir, "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if suffix == "-wal" {
			if len(b) < 32+60*(24+4096) {
				t.Fatalf("the log holds %d bytes: too few frames to damage one in the middle", len(b))
			}
			b[32+39*(24+4096)+24+200] ^= 0x04 // a byte of frame 40's page
		}
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	checkOut := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := run(ctx, append([]string{"check", "--db", path}, args...), strings.NewReader(""), &out, &out)
		return code, out.String()
	}
	if code, out := checkOut(); code != 1 || !strings.Contains(out, "frame 40 of") || !strings.Contains(out, "committed transaction") {
		t.Fatalf("check: exit %d:\n%s", code, out)
	}
	t.Setenv("DISCORD_TOKEN", "wal-test-token")
	t.Setenv("STOLIK_DB", path)
	cfg := filepath.Join(dir, "stolik.toml")
	if err := os.WriteFile(cfg, []byte("shards = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"serve", "--config", cfg}, strings.NewReader(""), &out, &errOut); code != 1 ||
		strings.Count(strings.TrimSpace(errOut.String()), "\n") != 0 || !strings.Contains(errOut.String(), "write-ahead log") {
		t.Fatalf("serve: exit %d:\n%s", code, errOut.String())
	}
	if code, out := checkOut("--mark-corrupt"); !strings.Contains(out, "sound frames are kept") {
		t.Fatalf("check --mark-corrupt: exit %d:\n%s", code, out)
	}
	if code, out := checkOut(); code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("check after --mark-corrupt: exit %d:\n%s", code, out)
	}
}
