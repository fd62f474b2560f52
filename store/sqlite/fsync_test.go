package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/engine/table"
)

// TestWriterSyncFull: the writer connection commits with synchronous=FULL
// (2), not go-sqlite3's NORMAL (1), with which a WAL commit is not synced.
func TestWriterSyncFull(t *testing.T) {
	db, _ := openTemp(t)
	var got int
	if err := db.w.QueryRowContext(context.Background(), `PRAGMA synchronous`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != 2 {
		t.Fatalf("PRAGMA synchronous on the writer = %d, want 2 (FULL)", got)
	}
}

// fsyncLogC is an LD_PRELOAD library: it wraps fsync and fdatasync, calls
// the real ones, and after each one that succeeds appends one byte to the
// file named by STOLIK_FSYNC_LOG (opened once, O_APPEND, written with the
// raw write syscall so that nothing else is interposed). SQLite calls
// fsync (this build of go-sqlite3 has no HAVE_FDATASYNC) through libc,
// which the preload replaces; Go's own os.File.Sync makes the system call
// directly and is not counted.
const fsyncLogC = `
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

static int log_fd = -1;

__attribute__((constructor)) static void fsynclog_init(void) {
	const char *p = getenv("STOLIK_FSYNC_LOG");
	if (p != NULL && *p != '\0')
		log_fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
}

static void note(void) {
	if (log_fd >= 0) {
		char c = 's';
		syscall(SYS_write, log_fd, &c, 1);
	}
}

int fsync(int fd) {
	static int (*real)(int);
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	int r = real(fd);
	if (r == 0)
		note();
	return r;
}

int fdatasync(int fd) {
	static int (*real)(int);
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	int r = real(fd);
	if (r == 0)
		note();
	return r;
}
`

// preloadLibrary builds the C source src into lib<name>.so in dir, for
// LD_PRELOAD; the test is skipped where there is no gcc.
func preloadLibrary(t *testing.T, dir, name, src string) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is needed to build the LD_PRELOAD library:", err)
	}
	c, lib := filepath.Join(dir, name+".c"), filepath.Join(dir, "lib"+name+".so")
	if err := os.WriteFile(c, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-o", lib, c, "-ldl").CombinedOutput(); err != nil {
		t.Fatalf("building the preload library: %v\n%s", err, out)
	}
	return lib
}

// fsyncReport is what the child process of TestDurableAppendsFsync
// measured.
type fsyncReport struct {
	// Sequential appends to one table, one at a time.
	Seq        int // appends
	SeqFsyncs  int // fsyncs during them
	SeqMissing int // appends that returned with no fsync since they began
	// Concurrent appends to many tables: group commit.
	Group        int
	GroupFsyncs  int
	GroupMissing int
	// Control: the same sequential appends with synchronous=NORMAL.
	NormalSeq     int
	NormalMissing int
	// Every fsync of the child, checkpoints and closes included.
	Total int
}

const (
	fsyncChildEnv  = "STOLIK_FSYNC_CHILD"
	fsyncLogEnv    = "STOLIK_FSYNC_LOG"
	fsyncReportEnv = "STOLIK_FSYNC_REPORT"
)

// TestDurableAppendsFsync proves at the level of fsync that an append is on
// disk when Append returns: the test binary runs itself again with a
// preloaded library that logs every successful fsync, and the child checks
// after each Append that at least one fsync happened between the start of
// that Append and its return.
//
// That is enough: in WAL mode with synchronous=FULL, SQLite syncs the WAL
// at every commit, before the commit returns, and the commit record is in
// the frames synced; Append returns after the commit of the transaction
// holding its entry (with group commit as well), and the bot acknowledges a
// move only after Append has returned. The sequential appends have no other
// writer, so the fsync seen between an Append's start and its return is
// its own transaction's. A control run with synchronous=NORMAL shows that
// the measure tells the two apart (there most appends return unsynced).
func TestDurableAppendsFsync(t *testing.T) {
	if os.Getenv(fsyncChildEnv) == "1" {
		fsyncChild(t)
		return
	}
	dir := t.TempDir()
	lib := preloadLibrary(t, dir, "fsynclog", fsyncLogC)
	logPath, reportPath := filepath.Join(dir, "fsync.log"), filepath.Join(dir, "report.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestDurableAppendsFsync$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(),
		fsyncChildEnv+"=1",
		"LD_PRELOAD="+lib,
		fsyncLogEnv+"="+logPath,
		fsyncReportEnv+"="+reportPath,
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatalf("child wrote no report: %v\n%s", err, out)
	}
	var r fsyncReport
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("sequential: %d appends, %d fsyncs (%.2f per append), %d returned without one",
		r.Seq, r.SeqFsyncs, float64(r.SeqFsyncs)/float64(r.Seq), r.SeqMissing)
	t.Logf("group commit: %d appends, %d fsyncs (%.2f per append), %d returned without one",
		r.Group, r.GroupFsyncs, float64(r.GroupFsyncs)/float64(r.Group), r.GroupMissing)
	t.Logf("control, synchronous=NORMAL: %d of %d appends returned without an fsync", r.NormalMissing, r.NormalSeq)
	if r.Seq != fsyncSeq || r.Group != fsyncGroupTables*fsyncGroupAppends {
		t.Fatalf("the child made %d and %d appends, want %d and %d", r.Seq, r.Group, fsyncSeq, fsyncGroupTables*fsyncGroupAppends)
	}
	if r.Total == 0 {
		t.Fatal("no fsync was counted at all: the preload library did not take effect")
	}
	if r.SeqMissing != 0 {
		t.Errorf("%d of %d sequential appends returned without an fsync", r.SeqMissing, r.Seq)
	}
	if r.GroupMissing != 0 {
		t.Errorf("%d of %d concurrent appends returned without an fsync", r.GroupMissing, r.Group)
	}
	if per := float64(r.GroupFsyncs) / float64(r.Group); per <= 0 || per >= 1 {
		t.Errorf("group commit: %.2f fsyncs per append, want more than 0 and fewer than 1", per)
	}
	if r.NormalMissing == 0 {
		t.Error("with synchronous=NORMAL every append still saw an fsync: the measure cannot tell NORMAL from FULL")
	}
}

const (
	fsyncSeq          = 200
	fsyncGroupTables  = 32
	fsyncGroupAppends = 20
)

// fsyncChild runs in the child process, with the preload library.
func fsyncChild(t *testing.T) {
	logPath := os.Getenv(fsyncLogEnv)
	synced := func() int {
		fi, err := os.Stat(logPath)
		if os.IsNotExist(err) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return int(fi.Size())
	}
	ctx := context.Background()
	var r fsyncReport

	// sequential appends to one table; missing counts the appends that
	// returned with no fsync since they began.
	sequential := func(db *DB, id string, n int) (fsyncs, missing int) {
		if err := db.Create(ctx, tableRecord(id, table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
		start := synced()
		for i := range n {
			before := synced()
			if err := db.Append(ctx, id, table.Entry{N: i, Action: fmt.Sprintf("play %d", i), At: t0}, ""); err != nil {
				t.Fatal(err)
			}
			if synced() == before {
				missing++
			}
		}
		return synced() - start, missing
	}

	db, err := Open(ctx, filepath.Join(t.TempDir(), "stolik.db"))
	if err != nil {
		t.Fatal(err)
	}
	r.Seq = fsyncSeq
	r.SeqFsyncs, r.SeqMissing = sequential(db, "seq", fsyncSeq)

	for i := range fsyncGroupTables {
		if err := db.Create(ctx, tableRecord(fmt.Sprintf("g%d", i), table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		missing int
	)
	gate := make(chan struct{})
	start := synced()
	for i := range fsyncGroupTables {
		wg.Go(func() {
			<-gate
			id := fmt.Sprintf("g%d", i)
			for n := range fsyncGroupAppends {
				before := synced()
				if err := db.Append(ctx, id, table.Entry{N: n, Action: "play 1", At: t0}, ""); err != nil {
					t.Error(err)
					return
				}
				if synced() == before {
					mu.Lock()
					missing++
					mu.Unlock()
				}
			}
		})
	}
	close(gate)
	wg.Wait()
	r.Group, r.GroupFsyncs, r.GroupMissing = fsyncGroupTables*fsyncGroupAppends, synced()-start, missing
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	normal, err := open(ctx, filepath.Join(t.TempDir(), "normal.db"),
		openOptions{writer: url.Values{"_synchronous": {"NORMAL"}}})
	if err != nil {
		t.Fatal(err)
	}
	r.NormalSeq = fsyncSeq
	_, r.NormalMissing = sequential(normal, "seq", fsyncSeq)
	if err := normal.Close(); err != nil {
		t.Fatal(err)
	}

	r.Total = synced()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv(fsyncReportEnv), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}
