//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/stolik-bot/stolik/store"
)

// writable checks, before SQLite opens the file, that the database file
// (when it exists) and its directory can be written: SQLite needs both, for
// the file and for the -wal and -shm files beside it. On a read-only mount
// SQLite itself only says "unable to open database file: no such file or
// directory", which sends a host looking for the wrong problem.
func writable(path string) error {
	dir := filepath.Dir(path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case err == nil:
		_ = f.Close()
	case errors.Is(err, fs.ErrNotExist):
	case deniedWrite(err):
		return fmt.Errorf("%w: %s: the file cannot be opened for writing (%v)", store.ErrReadOnly, path, errors.Unwrap(err))
	}
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil && deniedWrite(err) {
		return fmt.Errorf("%w: %s: its directory %s cannot be written (%v); SQLite keeps %s-wal and %s-shm there",
			store.ErrReadOnly, path, dir, err, filepath.Base(path), filepath.Base(path))
	}
	return nil
}

func deniedWrite(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM)
}

// FreeBytes is the space left for the database's directory, for a
// start-up warning: SQLite needs room beyond the file for its write-ahead
// log (about 4 MiB between checkpoints at the default 1,000 pages of
// 4 KiB) and for the file to grow; without it every append fails.
func FreeBytes(path string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
