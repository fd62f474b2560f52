//go:build linux

package sqlite

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// readOnlyDir is dir as the user may only read it: a read-only bind mount
// of it for root (whom file modes do not stop), dir without write
// permission (and its files 0444) for anyone else.
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

// OpenReadOnly reads a database the user may only read (file and
// directory), which Open refuses; it never writes it, refuses a missing
// file without creating it and tells a file that is no database.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	path := filepath.Join(src, "stolik.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	rec := table.Record{ID: "t1", Setup: engine.Setup{Game: "lynx", Seats: 2, Seed: 1}, Status: table.StatusPlaying,
		Seats: []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "u"}, {Seat: 1, Kind: table.AI, Bot: "random"}}}
	if err := db.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "notes.db"), []byte("not a database, just some text long enough to be read as a header by SQLite.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := readOnlyDir(t, src)
	p := filepath.Join(ro, "stolik.db")
	if _, err := Open(ctx, p); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("Open on a read-only file = %v, want store.ErrReadOnly", err)
	}
	rdb, err := OpenReadOnly(ctx, p)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	defer rdb.Close()
	got, _, err := rdb.Load(ctx, "t1")
	if err != nil || got.ID != "t1" {
		t.Errorf("Load = %v, %v", got.ID, err)
	}
	if problems, err := rdb.Check(ctx, true); err != nil || len(problems) > 0 {
		t.Errorf("Check = %v, %v", problems, err)
	}
	if err := rdb.MarkCorrupt(ctx, "t1", "test"); err == nil {
		t.Error("a read-only database took a write")
	}
	if _, err := OpenReadOnly(ctx, filepath.Join(ro, "none.db")); !errors.Is(err, store.ErrNoDatabase) {
		t.Errorf("OpenReadOnly of a missing file = %v, want store.ErrNoDatabase", err)
	}
	if _, err := os.Stat(filepath.Join(src, "none.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("OpenReadOnly created a file")
	}
	if _, err := OpenReadOnly(ctx, filepath.Join(ro, "notes.db")); !IsNotADatabase(err) {
		t.Errorf("OpenReadOnly of a text file = %v, want SQLite's not a database", err)
	}
}
