package postgres_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

var ctx = context.Background()

// rawConn is a connection of the test's own to the database at url.
func rawConn(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(ctx) })
	return conn
}

func exec1(t *testing.T, conn *pgx.Conn, q string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(ctx, q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestMigrationsMatchSQLite: the PostgreSQL migrations are SQLite's,
// number for number and name for name, so that a schema version means the
// same schema in both stores.
func TestMigrationsMatchSQLite(t *testing.T) {
	names := func(dir string) []string {
		ents, err := fs.ReadDir(os.DirFS(dir), ".")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".sql") {
				out = append(out, e.Name())
			}
		}
		return out
	}
	pg, lite := names("migrations"), names(filepath.Join("..", "sqlite", "migrations"))
	if len(pg) == 0 || !slices.Equal(pg, lite) {
		t.Fatalf("PostgreSQL migrations %v, SQLite migrations %v: they must match", pg, lite)
	}
}

// TestConcurrentOpen: processes starting at once on a new database (here:
// six pools, each its own sessions) all open it; the advisory lock makes
// each migration apply once.
func TestConcurrentOpen(t *testing.T) {
	url := pgtest.URL(t)
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			db, err := postgres.Open(ctx, url)
			if err == nil {
				err = db.Create(ctx, storetest.Record(fmt.Sprintf("t%d", i), table.StatusLobby))
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open #%d: %v", i, err)
		}
	}
	conn := rawConn(t, url)
	rows, _ := conn.Query(ctx, `SELECT version FROM schema_migrations ORDER BY version`)
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
	files, _ := filepath.Glob("migrations/*.sql")
	var want []int
	for i := range files {
		want = append(want, i+1)
	}
	if err != nil || len(want) < 6 || !slices.Equal(versions, want) {
		t.Fatalf("schema_migrations = %v, %v; want %v, each migration once", versions, err, want)
	}
	var tables int
	if err := conn.QueryRow(ctx, `SELECT COUNT(*) FROM tables`).Scan(&tables); err != nil || tables != n {
		t.Fatalf("%d tables, %v; want %d", tables, err, n)
	}
	// Reopening a migrated database writes no migration again.
	var at time.Time
	if err := conn.QueryRow(ctx, `SELECT max(applied_at) FROM schema_migrations`).Scan(&at); err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var again time.Time
	if err := conn.QueryRow(ctx, `SELECT max(applied_at) FROM schema_migrations`).Scan(&again); err != nil || !again.Equal(at) {
		t.Fatalf("reopening changed schema_migrations: %v, was %v (%v)", again, at, err)
	}
}

// TestMigrationBackfill: migration 0003 records the length of the logs
// stored before it.
func TestMigrationBackfill(t *testing.T) {
	url := pgtest.URL(t)
	conn := rawConn(t, url)
	exec1(t, conn, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`)
	for _, f := range []string{"0001_init.sql", "0002_async_play.sql"} {
		body, err := os.ReadFile(filepath.Join("migrations", f))
		if err != nil {
			t.Fatal(err)
		}
		exec1(t, conn, string(body))
		v, _ := strconv.Atoi(f[:4])
		exec1(t, conn, `INSERT INTO schema_migrations VALUES ($1, $2, now())`, v, f)
	}
	exec1(t, conn, `INSERT INTO tables (id, game, seats, seed, status, created_at, updated_at) VALUES
		('a', 'princesses', 3, 1, 'playing', now(), now()), ('b', 'princesses', 3, 1, 'lobby', now(), now())`)
	exec1(t, conn, `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('a', 0, 0, 'x', now()), ('a', 1, 1, 'y', now())`)
	exec1(t, conn, `INSERT INTO user_prefs (user_id, lang) VALUES ('u1', 'pl')`)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, want := range map[string]int{"a": 2, "b": 0} {
		if _, log, err := db.Load(ctx, id); err != nil || len(log) != want {
			t.Errorf("table %s after the migration: %d entries, %v; want %d", id, len(log), err, want)
		}
	}
	if err := db.Append(ctx, "a", storetest.Entry(2), ""); err != nil {
		t.Fatal(err)
	}
	if err := db.Append(ctx, "a", storetest.Entry(2), ""); !errors.Is(err, table.ErrConflict) {
		t.Errorf("append at a taken position after the migration: %v", err)
	}
	if on, err := db.DMReminders(ctx, "u1"); err != nil || on {
		t.Errorf("DM reminders of a user stored before 0002: %v, %v; want off", on, err)
	}
	if problems, err := db.Check(ctx, true); err != nil || problems != nil {
		t.Errorf("Check = %q, %v", problems, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	url := pgtest.URL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	exec1(t, rawConn(t, url), `INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '0999_future.sql', now())`)
	_, err = postgres.Open(ctx, url)
	if !errors.Is(err, store.ErrSchemaTooNew) {
		t.Fatalf("Open: %v, want store.ErrSchemaTooNew", err)
	}
	for _, s := range []string{"999", postgres.Redact(url)} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

// TestReadOnlyRefused: a database whose transactions are read-only (what a
// standby serves) is refused at Open with store.ErrReadOnly.
func TestReadOnlyRefused(t *testing.T) {
	url := pgtest.URL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	name := strings.TrimPrefix(url[strings.LastIndex(url, "/"):strings.Index(url, "?")], "/")
	exec1(t, rawConn(t, url), `ALTER DATABASE `+name+` SET default_transaction_read_only = on`)
	_, err = postgres.Open(ctx, url)
	if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), "write probe") {
		t.Fatalf("Open of a read-only database: %v, want store.ErrReadOnly at the write probe", err)
	}
	t.Log(err)
}

// TestPasswordNeverShown: whatever fails, an error names the database as
// user@host:port/database and never shows the password, wherever the URL
// holds it.
func TestPasswordNeverShown(t *testing.T) {
	const pw = "S3cr3t-Pw"
	cases := []struct {
		name, url, says string
	}{
		{"nobody listening", "postgres://stolik:" + pw + "@127.0.0.1:1/stolik?sslmode=disable&connect_timeout=5", "stolik@127.0.0.1:1/stolik"},
		{"password in the query", "postgres://stolik@127.0.0.1:1/stolik?sslmode=disable&password=" + pw, "stolik@127.0.0.1:1/stolik"},
		{"escaped password", "postgres://stolik:" + strings.ReplaceAll(pw, "-", "%2D") + "@127.0.0.1:1/db?sslmode=disable", "stolik@127.0.0.1:1/db"},
		{"not a port", "postgres://stolik:" + pw + "@127.0.0.1:port/db", "cannot be parsed"},
		{"bad sslmode", "postgres://stolik:" + pw + "@127.0.0.1:5432/db?sslmode=" + pw, "stolik@127.0.0.1:5432/db"},
		{"space in the host", "postgres://stolik:" + pw + "@bad host/db", "cannot be parsed"},
	}
	if server := os.Getenv(pgtest.Env); server != "" {
		u := strings.Replace(server, "://", "://", 1)
		if i := strings.Index(u, "@"); i > 0 {
			// The test server with a password added and a database that
			// does not exist: the server answers, and refuses.
			u = u[:i] + ":" + pw + u[i:]
			u = u[:strings.LastIndex(u, "/")] + "/no_such_database_here?sslmode=disable"
			cases = append(cases, struct{ name, url, says string }{"no such database", u, "no_such_database_here"})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			db, err := postgres.Open(cctx, c.url)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			if strings.Contains(msg, pw) || strings.Contains(msg, strings.ReplaceAll(pw, "-", "%2D")) {
				t.Fatalf("the error shows the password: %s", msg)
			}
			if !strings.Contains(msg, c.says) {
				t.Errorf("error %q does not say %q", msg, c.says)
			}
			if r := postgres.Redact(c.url); strings.Contains(r, pw) {
				t.Errorf("Redact shows the password: %s", r)
			}
			t.Log(msg)
		})
	}
	if got := postgres.Redact("postgres://u:" + pw + "@h:5/d?sslmode=disable"); got != "u@h:5/d" {
		t.Errorf("Redact = %q, want u@h:5/d", got)
	}
}

// TestLogLenCoversInsertedRows: the deferred constraint trigger that stands
// for SQLite's log_len trigger: a transaction that inserts an entry at or
// beyond its table's recorded length without raising it is refused at
// commit; one that raises the length with it is accepted.
func TestLogLenCoversInsertedRows(t *testing.T) {
	url := pgtest.URL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, storetest.Record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	conn := rawConn(t, url)
	_, err = conn.Exec(ctx, `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('t', 0, 0, 'x', now())`)
	if err == nil || !strings.Contains(err.Error(), "beyond its recorded log length") {
		t.Fatalf("an entry beyond the recorded length: %v", err)
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('t', 0, 0, 'x', now())`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE tables SET log_len = 1 WHERE id = 't'`)
		return err
	})
	if err != nil {
		t.Fatalf("an entry with its length: %v", err)
	}
	if _, log, err := db.Load(ctx, "t"); err != nil || len(log) != 1 {
		t.Fatalf("Load = %d entries, %v", len(log), err)
	}
}

// TestCheckFull: the full check finds a log whose positions do not run 0,
// 1, 2… although it is as long as recorded (possible only with the
// triggers off), and runs amcheck when it is installed.
func TestCheckFull(t *testing.T) {
	url := pgtest.URL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn := rawConn(t, url)
	exec1(t, conn, `CREATE EXTENSION IF NOT EXISTS amcheck`)
	for _, id := range []string{"a", "b"} {
		if err := db.Create(ctx, storetest.Record(id, table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
		for n := range 20 {
			if err := db.Append(ctx, id, storetest.Entry(n), ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, full := range []bool{false, true} {
		if problems, err := db.Check(ctx, full); err != nil || problems != nil {
			t.Fatalf("Check(full=%v) of a healthy database (amcheck installed) = %q, %v", full, problems, err)
		}
	}
	exec1(t, conn, `ALTER TABLE actions DISABLE TRIGGER ALL`)
	exec1(t, conn, `DELETE FROM actions WHERE table_id = 'a' AND n = 5`)
	exec1(t, conn, `INSERT INTO actions (table_id, n, seat, action, at) VALUES ('a', 20, 0, 'x', now())`)
	exec1(t, conn, `ALTER TABLE actions ENABLE TRIGGER ALL`)
	if problems, err := db.Check(ctx, false); err != nil || problems != nil {
		t.Errorf("Check(quick) = %q, %v; the log is as long as recorded", problems, err)
	}
	want := []string{"table a: its log holds 20 entries at positions 0 to 20, not 0 to 19"}
	if problems, err := db.Check(ctx, true); err != nil || !slices.Equal(problems, want) {
		t.Errorf("Check(full) = %q, %v; want %q", problems, err, want)
	}
	_, _, err = db.Load(ctx, "a")
	var ce *table.CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "entry 6 found where entry 5 was expected") {
		t.Errorf("Load = %v", err)
	}
}

// TestAppendCancelled: an append whose context has ended before it starts
// stores nothing and says so.
func TestAppendCancelled(t *testing.T) {
	db, err := postgres.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, storetest.Record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.Append(cctx, "t", storetest.Entry(0), ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("Append with an ended context: %v", err)
	}
	if _, log, err := db.Load(ctx, "t"); err != nil || len(log) != 0 {
		t.Fatalf("Load = %d entries, %v", len(log), err)
	}
}

// childEnv makes the test binary a writer process of TestTwoProcesses.
const childEnv = "STOLIK_PG_APPEND_CHILD"

// TestTwoProcesses: two operating-system processes append to the same
// table's log as fast as they can, each reading the log and appending the
// next entry, until it holds 200 entries. Every entry is won by exactly one of them: the wins
// they report add up to 200 and the log holds 200 entries, each written by
// the process that reported it.
func TestTwoProcesses(t *testing.T) {
	if url := os.Getenv(childEnv); url != "" {
		appendChild(url)
		return
	}
	url := pgtest.URL(t)
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, storetest.Record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	const total = 200
	type result struct {
		wins, conflicts int
		won             []int
		err             error
	}
	results := make([]result, 2)
	// Both start at the same moment, once both are running.
	start := strconv.FormatInt(time.Now().Add(2*time.Second).UnixNano(), 10)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"="+url, "STOLIK_PG_CHILD_NAME=p"+strconv.Itoa(i),
				"STOLIK_PG_CHILD_TOTAL="+strconv.Itoa(total), "STOLIK_PG_CHILD_START="+start)
			out, err := cmd.CombinedOutput()
			r := &results[i]
			if err != nil {
				r.err = fmt.Errorf("child %d: %v: %s", i, err, out)
				return
			}
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) == 2 && f[0] == "won" {
					n, _ := strconv.Atoi(f[1])
					r.won = append(r.won, n)
				}
				if len(f) == 2 && f[0] == "conflicts" {
					r.conflicts, _ = strconv.Atoi(f[1])
				}
			}
			r.wins = len(r.won)
		})
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
	}
	t.Logf("process 0 won %d entries (%d conflicts), process 1 won %d (%d conflicts)",
		results[0].wins, results[0].conflicts, results[1].wins, results[1].conflicts)
	if results[0].wins+results[1].wins != total {
		t.Fatalf("the processes report %d + %d wins, want %d in all", results[0].wins, results[1].wins, total)
	}
	_, log, err := db.Load(ctx, "t")
	if err != nil || len(log) != total {
		t.Fatalf("Load = %d entries, %v", len(log), err)
	}
	for i, r := range results {
		for _, n := range r.won {
			if want := fmt.Sprintf("p%d %d", i, n); log[n].Action != want {
				t.Errorf("entry %d is %q, but process %d reported winning it", n, log[n].Action, i)
			}
		}
	}
}

// appendChild is one writer process of TestTwoProcesses.
func appendChild(url string) {
	name, total := os.Getenv("STOLIK_PG_CHILD_NAME"), 0
	total, _ = strconv.Atoi(os.Getenv("STOLIK_PG_CHILD_TOTAL"))
	db, err := postgres.Open(ctx, url)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	defer db.Close()
	if start, err := strconv.ParseInt(os.Getenv("STOLIK_PG_CHILD_START"), 10, 64); err == nil {
		time.Sleep(time.Until(time.Unix(0, start)))
	}
	// As the table service does: read the log, append the next entry; on a
	// conflict, read again.
	conflicts := 0
	for {
		_, log, err := db.Load(ctx, "t")
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		n := len(log)
		if n >= total {
			break
		}
		err = db.Append(ctx, "t", table.Entry{N: n, Action: fmt.Sprintf("%s %d", name, n), At: time.Now()}, "")
		switch {
		case err == nil:
			fmt.Println("won", n)
		case errors.Is(err, table.ErrConflict):
			conflicts++
		default:
			fmt.Println("error", err)
			os.Exit(1)
		}
	}
	fmt.Println("conflicts", conflicts)
}
