package open_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/sqlite"
	"github.com/stolik-bot/stolik/store/storetest"
)

// Every backend is what the bot needs (storetest.Backend is open.Backend).
var _ bot.Store = open.Backend(nil)

func TestDescribe(t *testing.T) {
	for dsn, want := range map[string]string{
		"stolik.db":       "stolik.db",
		"/data/stolik.db": "/data/stolik.db",
		"postgres://stolik:hunter2@db.example:5432/stolik?sslmode=require": "stolik@db.example:5432/stolik",
		"postgresql://db.example/stolik":                                   "db.example/stolik",
		"POSTGRES://u:pw@h/d":                                              "u@h/d",
		"mysql://stolik:hunter2@db.example/stolik":                         "mysql://…",
	} {
		if got := open.Describe(dsn); got != want {
			t.Errorf("Describe(%q) = %q, want %q", dsn, got, want)
		}
	}
}

// A URL of a database Stolik does not know is refused, never taken for a
// SQLite file name, and never repeated (it may hold a password).
func TestOpenUnknownURL(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Chdir(dir)
	for _, dsn := range []string{"mysql://stolik:hunter2@db.example/stolik", "postgress://u:hunter2@h/d", "sqlite://stolik.db"} {
		for name, f := range map[string]func(context.Context, string) (open.Backend, error){
			"Open": open.Open, "OpenExisting": open.OpenExisting, "OpenChecked": open.OpenChecked,
		} {
			db, err := f(ctx, dsn)
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, open.ErrUnknownScheme) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s(%q) = %v", name, dsn, err)
			}
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files made: %v", left)
	}
}

func TestOpenSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stolik.db")
	if _, err := open.OpenExisting(ctx, path); !errors.Is(err, store.ErrNoDatabase) {
		t.Fatalf("OpenExisting of a missing file: %v", err)
	}
	b, err := open.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*sqlite.DB); !ok {
		t.Fatalf("a path opened a %T", b)
	}
	if err := b.Create(ctx, storetest.Record("t", table.StatusLobby)); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	b, err = open.OpenChecked(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
}

func TestOpenPostgres(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	b, err := open.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*postgres.DB); !ok {
		t.Fatalf("a URL opened a %T", b)
	}
	if err := b.Create(ctx, storetest.Record("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if err := b.Append(ctx, "t", storetest.Entry(n), ""); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	b, err = open.OpenChecked(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()

	// A log that lost a row: serve's OpenChecked refuses the database in
	// one line naming it (without its parameters) and the table.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DELETE FROM actions WHERE table_id = 't' AND n = 2`); err != nil {
		t.Fatal(err)
	}
	_, err = open.OpenChecked(ctx, url)
	var de *store.DamagedError
	if !errors.As(err, &de) {
		t.Fatalf("OpenChecked of a damaged database: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, open.Describe(url)) || !strings.Contains(msg, "table t") || strings.Contains(msg, "sslmode") {
		t.Errorf("error %q does not name the database as %s and table t", msg, open.Describe(url))
	}
}
