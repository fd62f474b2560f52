package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/bot/logthrottle"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

// refusedConnect is a real pgx connection error: an attempt to connect to
// a port nobody listens on.
func refusedConnect(t *testing.T) error {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, "postgres://stolik:pw@"+addr+"/stolik?sslmode=disable")
	if err == nil {
		c.Close(ctx)
		t.Fatalf("a connection to %s, where nobody listens, succeeded", addr)
	}
	return err
}

// TestPostgresKind: the log kind of a PostgreSQL error is its SQLSTATE
// code, or that it is a failed connection and why, whatever the words
// wrapped around it (a table id, a host) say; other errors are left to the
// rest of logKind.
func TestPostgresKind(t *testing.T) {
	pg := func(code, msg string) error {
		return &pgconn.PgError{Severity: "FATAL", Code: code, Message: msg}
	}
	refused := refusedConnect(t)
	refusedKind := "postgres connect " + logthrottle.ErrorKind(refused)
	if !strings.Contains(refusedKind, "Errno") {
		t.Errorf("a refused connection is of kind %q, not its errno", refusedKind)
	}
	for _, c := range []struct {
		name string
		err  error
		want string // "" when not a PostgreSQL error
	}{
		{"server error", fmt.Errorf("store/postgres: loading table a1: %w", pg("57P01", "terminating connection due to administrator command")), "postgres 57P01"},
		{"same code, other words", fmt.Errorf("store/postgres: appending to table b2: %w", pg("57P01", "terminating connection")), "postgres 57P01"},
		{"read only", fmt.Errorf("store/postgres: appending to table a1: %w", pg("25006", "cannot execute INSERT in a read-only transaction")), "postgres 25006"},
		{"joined", errors.Join(fmt.Errorf("saving: %w", pg("53100", "could not extend file")), errors.New("and more")), "postgres 53100"},
		{"refused connection", fmt.Errorf("store/postgres: loading table a1: %w", refused), refusedKind},
		{"refused connection, other words", errors.Join(errors.New("store/postgres: u@h/db: connecting"), refused), refusedKind},
		{"connection closed", fmt.Errorf("store/postgres: loading table a1: %w", pgconn.ErrConnClosed), "postgres connection closed"},
		{"SQLite", fmt.Errorf("store: %w", sqlite3.Error{Code: sqlite3.ErrFull}), ""},
		{"damaged table", &table.CorruptError{ID: "t1", Err: errors.New("bad options")}, ""},
		{"words only", errors.New("connection refused (SQLSTATE 57P01)"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := postgresKind(c.err); got != c.want {
				t.Errorf("postgresKind(%v) = %q, want %q", c.err, got, c.want)
			}
			if c.want != "" {
				if got := logKind(c.err); got != c.want {
					t.Errorf("logKind(%v) = %q, want %q", c.err, got, c.want)
				}
			}
		})
	}
}

// proxy forwards TCP connections to a server until it is stopped: then it
// closes them all and no longer listens, as a database server that went
// away.
type proxy struct {
	l       net.Listener
	mu      sync.Mutex
	conns   []net.Conn
	stopped bool
	wg      sync.WaitGroup
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.stopped {
				p.mu.Unlock()
				c.Close()
				s.Close()
				return
			}
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			p.wg.Add(2)
			go func() { defer p.wg.Done(); _, _ = io.Copy(s, c); s.Close() }()
			go func() { defer p.wg.Done(); _, _ = io.Copy(c, s); c.Close() }()
		}
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *proxy) stop() {
	p.l.Close()
	p.mu.Lock()
	p.stopped = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}

// TestLoggerThrottlesPostgresOutage: the errors of a PostgreSQL database
// that goes away are of a few kinds (the server ending a session, the
// failed reconnections), so that the logger writes a line for each and
// then counts, as it does for SQLite's full disk.
func TestLoggerThrottlesPostgresOutage(t *testing.T) {
	base := pgtest.URL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	p := startProxy(t, u.Host)
	u.Host = p.l.Addr().String()
	ctx := context.Background()
	db, err := postgres.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, storetest.Record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}

	now := time.Date(2026, 8, 7, 12, 0, 0, 0, time.UTC)
	var buf strings.Builder
	cfg := Defaults()
	cfg.LogFormat = "json"
	log := cfg.loggerAt(&buf, func() time.Time { return now })
	kinds := map[string]int{}
	fail := func(err error) {
		kinds[logKind(err)]++
		log.Error("loading a table", "table", "t", "err", err)
	}

	// The server ends the session: a real server error with its code.
	if err := pgExec(ctx, base, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, _, err := db.Load(ctx, "t"); err != nil {
			fail(err)
		}
	}
	// The server goes away.
	p.stop()
	const attempts = 200
	for range attempts {
		_, _, err := db.Load(ctx, "t")
		if err == nil {
			t.Fatal("a table loaded from a database that went away")
		}
		fail(err)
	}
	t.Logf("kinds: %v", kinds)
	if n := len(kinds); n > 3 {
		t.Errorf("%d kinds of error from one outage, want at most 3: %v", n, kinds)
	}
	for k := range kinds {
		if !strings.HasPrefix(k, "postgres ") {
			t.Errorf("kind %q is not a PostgreSQL kind", k)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(kinds) {
		t.Errorf("%d lines for %d errors of %d kinds, want one a kind:\n%s", len(lines), attempts, len(kinds), buf.String())
	}
	// After the interval the next line of the outage says how many were
	// held back.
	now = now.Add(logthrottle.DefaultInterval)
	_, _, err = db.Load(ctx, "t")
	fail(err)
	lines = strings.Split(strings.TrimSpace(buf.String()), "\n")
	var last map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if want := kinds[logKind(err)] - 2; fmt.Sprint(last[logthrottle.SuppressedKey]) != fmt.Sprint(want) {
		t.Errorf("the line after the interval says %v held back, want %d: %s", last[logthrottle.SuppressedKey], want, lines[len(lines)-1])
	}
}

// pgExec runs a statement on the database at dsn.
func pgExec(ctx context.Context, dsn, stmt string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, stmt)
	return err
}
