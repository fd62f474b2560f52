package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// checkDB stores two tables with a few log entries in a new file and
// returns its path.
func checkDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stolik.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"t1", "t2"} {
		rec := table.Record{ID: id, Status: table.StatusPlaying, CreatedAt: at, UpdatedAt: at}
		rec.Setup.Game, rec.Setup.Seats = "lynx", 2
		if err := db.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		for n := range 5 {
			if err := db.Append(ctx, id, table.Entry{N: n, Action: fmt.Sprintf("play %d", n), At: at}, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	return path
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
			stderr: "not a database",
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
