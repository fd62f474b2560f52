//go:build linux

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// TestReadOnlyMount: on a read-only mount (as root: a read-only bind mount
// of a temporary directory; as another user: a directory without write
// permission) Open fails with store.ErrReadOnly saying what cannot be written,
// for an existing database and for a new one, instead of SQLite's "unable
// to open database file: no such file or directory".
func TestReadOnlyMount(t *testing.T) {
	src := t.TempDir()
	path := filepath.Join(src, "stolik.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro := src
	if os.Geteuid() == 0 {
		ro = t.TempDir()
		if out, err := exec.Command("mount", "--bind", src, ro).CombinedOutput(); err != nil {
			t.Skipf("no bind mount here (%v: %s)", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", ro).Run() })
		if out, err := exec.Command("mount", "-o", "remount,ro,bind", ro).CombinedOutput(); err != nil {
			t.Skipf("no read-only remount here (%v: %s)", err, out)
		}
	} else {
		if err := os.Chmod(src, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(src, 0o755) })
	}
	for _, name := range []string{"stolik.db", "new.db"} {
		p := filepath.Join(ro, name)
		_, err := Open(context.Background(), p)
		if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), p) {
			t.Errorf("Open(%s) = %v, want store.ErrReadOnly naming the file", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(src, "new.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Open created new.db: %v", err)
	}
}

// TestFreeBytes reads the space left on a small tmpfs as it fills, when this
// machine lets the test mount one (root); else on the temporary directory.
func TestFreeBytes(t *testing.T) {
	dir := t.TempDir()
	free, err := FreeBytes(filepath.Join(dir, "x.db"))
	if err != nil || free == 0 {
		t.Fatalf("FreeBytes = %d, %v", free, err)
	}
	if os.Geteuid() != 0 {
		return
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs here (%v: %s)", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	before, err := FreeBytes(filepath.Join(mnt, "x.db"))
	if err != nil || before > 4<<20 || before < 3<<20 {
		t.Fatalf("FreeBytes on a 4 MiB tmpfs = %d, %v", before, err)
	}
	if err := os.WriteFile(filepath.Join(mnt, "fill"), make([]byte, 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if after, err := FreeBytes(filepath.Join(mnt, "x.db")); err != nil || after > before-(2<<20)+(64<<10) {
		t.Errorf("after writing 2 MiB: %d of %d free, %v", after, before, err)
	}
}

// TestRealFullDisk fills a real 2 MiB tmpfs (root only; skipped elsewhere,
// where TestFullDatabase emulates it with max_page_count): the append that
// finds no room fails, every append that succeeded before is loaded back
// after reopening, and once room is made the log continues where it stopped.
func TestRealFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root; TestFullDatabase emulates a full disk")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs here (%v: %s)", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	ctx := context.Background()
	path := filepath.Join(mnt, "stolik.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Create(ctx, tableRecord("t", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	// Leave about 600 KiB of room, then append long entries until one fails.
	free, _ := FreeBytes(path)
	filler := filepath.Join(mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, free-600<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 2000)
	n := 0
	var failed error
	for ; n < 10000; n++ {
		e := table.Entry{N: n, Action: fmt.Sprintf("play %d %s", n, long), At: t0}
		if failed = db.Append(ctx, "t", e, ""); failed != nil {
			break
		}
	}
	if failed == nil {
		t.Fatal("10,000 appends of 2 KB fitted in 600 KiB")
	}
	t.Logf("append %d failed: %v", n, failed)
	_ = db.Close()
	db, err = Open(ctx, path)
	if err != nil {
		// Reopening a full disk may itself fail (the write probe): make room.
		_ = os.Remove(filler)
		if db, err = Open(ctx, path); err != nil {
			t.Fatal(err)
		}
	}
	defer db.Close()
	_, log, err := db.Load(ctx, "t")
	if err != nil || len(log) != n {
		t.Fatalf("after the full disk: %d entries loaded, %v; %d were acknowledged", len(log), err, n)
	}
	_ = os.Remove(filler)
	mustAppend(t, db, "t", n, "")
	if _, log, err := db.Load(ctx, "t"); err != nil || len(log) != n+1 {
		t.Fatalf("after making room: %d entries, %v", len(log), err)
	}
}
