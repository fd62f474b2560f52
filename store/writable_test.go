//go:build linux

package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyMount: on a read-only mount (as root: a read-only bind mount
// of a temporary directory; as another user: a directory without write
// permission) Open fails with ErrReadOnly saying what cannot be written,
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
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), p) {
			t.Errorf("Open(%s) = %v, want ErrReadOnly naming the file", name, err)
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
