package sqlite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine/table"
)

// eioC is an LD_PRELOAD library: fsync and fdatasync fail with EIO on a
// file whose path ends in -wal while the file named by STOLIK_EIO_FLAG
// exists (a disk that fails its syncs, then recovers).
const eioC = `
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int armed(int fd) {
	const char *flag = getenv("STOLIK_EIO_FLAG");
	if (flag == NULL || access(flag, F_OK) != 0)
		return 0;
	char link[64], path[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n <= 4)
		return 0;
	path[n] = 0;
	return strcmp(path + n - 4, "-wal") == 0;
}

int fsync(int fd) {
	static int (*real)(int);
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	if (armed(fd)) { errno = EIO; return -1; }
	return real(fd);
}

int fdatasync(int fd) {
	static int (*real)(int);
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	if (armed(fd)) { errno = EIO; return -1; }
	return real(fd);
}
`

const (
	eioChildEnv = "STOLIK_EIO_CHILD"
	eioFlagEnv  = "STOLIK_EIO_FLAG"
	eioDBEnv    = "STOLIK_EIO_DB"
	eioSeenEnv  = "STOLIK_EIO_SEEN"
)

// TestFailedSyncToldAsARestartReadsIt: when the write-ahead log's sync
// fails (EIO) at a move's commit, SQLite rolls the transaction back in
// the process, yet its frames may be in the log, and a restart's recovery
// would take them: the move would then be in the log after the process
// had read it as absent. The store settles the log after such a failure
// (a TRUNCATE checkpoint, which drops those frames); until that succeeds
// its loads fail rather than say something a restart could contradict.
// The test binary runs itself again with a preloaded library that fails
// the log's syncs on demand; the child dies without closing the database
// after reading the table, and the parent, as the restarted process, must
// read the same log.
func TestFailedSyncToldAsARestartReadsIt(t *testing.T) {
	if os.Getenv(eioChildEnv) == "1" {
		eioChild(t)
		return
	}
	dir := t.TempDir()
	lib := preloadLibrary(t, dir, "eio", eioC)
	for round := range 3 {
		path, seen := filepath.Join(dir, "r"+strconv.Itoa(round)+".db"), filepath.Join(dir, "seen"+strconv.Itoa(round))
		cmd := exec.Command(os.Args[0], "-test.run=^TestFailedSyncToldAsARestartReadsIt$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), eioChildEnv+"=1", "LD_PRELOAD="+lib,
			eioFlagEnv+"="+filepath.Join(dir, "flag"), eioDBEnv+"="+path, eioSeenEnv+"="+seen)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("round %d: child: %v\n%s", round, err, out)
		}
		raw, err := os.ReadFile(seen)
		if err != nil {
			t.Fatalf("round %d: the child read nothing: %v\n%s", round, err, out)
		}
		before, _ := strconv.Atoi(string(raw))
		d, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		_, log, err := d.Load(context.Background(), "t1")
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != before {
			t.Fatalf("round %d: the process read %d entries after the failed sync, a restart reads %d", round, before, len(log))
		}
	}
}

// eioChild runs in the child process, with the preload library.
func eioChild(t *testing.T) {
	ctx := context.Background()
	flag := os.Getenv(eioFlagEnv)
	d, err := Open(ctx, os.Getenv(eioDBEnv))
	if err != nil {
		t.Fatal(err)
	}
	rec := table.Record{ID: "t1", Status: table.StatusPlaying, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	rec.Setup.Game, rec.Setup.Seats = "lynx", 2
	if err := d.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if err := d.Append(ctx, "t1", table.Entry{N: 0, Action: "a0", At: at}, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.Append(ctx, "t1", table.Entry{N: 1, Action: "a1", At: at}, ""); err == nil {
		t.Fatal("the append whose sync failed returned no error")
	}
	if _, _, err := d.Load(ctx, "t1"); err == nil {
		t.Fatal("while the disk still fails its syncs, a load answered")
	}
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	_, log, err := d.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv(eioSeenEnv), []byte(strconv.Itoa(len(log))), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Exit(0) // a crash: the database is not closed
}
