//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// readOnlyDir is dir as the user may only read it: a read-only bind mount
// of it for root (whom file modes do not stop), dir without write
// permission and its files 0444 for anyone else.
func readOnlyDir(t *testing.T, dir string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			if err := os.Chmod(f, 0o444); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return dir
	}
	ro := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, ro).CombinedOutput(); err != nil {
		t.Skipf("no bind mount here (%v: %s)", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", ro).Run() })
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", ro).CombinedOutput(); err != nil {
		t.Skipf("no read-only remount here (%v: %s)", err, out)
	}
	return ro
}

// The tools that only read (replay, check) work on a database the user
// may only read; play --db refuses it, saying why; check on a file that is
// no database says so in the user's language.
func TestReadOnlyDatabase(t *testing.T) {
	l := locales.MustLoad().Lang("pl")
	g, _ := engine.Lookup("lynx")
	p := playRandom(t, g, engine.Setup{Game: "lynx", Seats: 3, Seed: 4}, 10)
	path, id := p.store(t, l)
	notDB := filepath.Join(filepath.Dir(path), "notes.db")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := readOnlyDir(t, filepath.Dir(path))
	roPath := filepath.Join(ro, filepath.Base(path))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", "--db", roPath, "--table", id}, 0, "1. "},
		{[]string{"check", "--db", roPath}, 0, "ok"},
		{[]string{"play", "lynx", "--db", roPath, "--lang", "pl"}, 1, l.T("cli.db.read_only", map[string]any{"Name": roPath})},
		{[]string{"play", "--db", roPath, "--table", id, "--lang", "pl"}, 1, l.T("cli.db.read_only", map[string]any{"Name": roPath})},
		{[]string{"check", "--db", filepath.Join(ro, "notes.db"), "--lang", "pl"}, 1, l.T("cli.db.not_a_database", map[string]any{"Name": filepath.Join(ro, "notes.db")})},
	} {
		var out bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader("quit\n"), &out, &out)
		if code != tc.code || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", tc.args[0:2], code, tc.code, tc.want, out.String())
		}
	}
}
