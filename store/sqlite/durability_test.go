package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestFullDatabase emulates a full disk with PRAGMA max_page_count: appends
// fail with a clear error, every acknowledged entry is kept, and once there
// is room again the log goes on where it stopped.
func TestFullDatabase(t *testing.T) {
	db, path := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, tableRecord("full", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// The writer pool has one connection, so the limit stays on it.
	if _, err := db.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+2)); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 600)
	acked := 0
	var failure error
	for n := 0; n < 10000; n++ {
		e := table.Entry{N: n, Seat: 0, Action: fmt.Sprintf("play %d %s", n, long), At: t0}
		if err := db.Append(ctx, "full", e, ""); err != nil {
			failure = err
			break
		}
		acked++
	}
	if failure == nil {
		t.Fatal("the database never filled up")
	}
	if !strings.Contains(failure.Error(), "full") {
		t.Errorf("the error does not say the database is full: %v", failure)
	}
	if errors.Is(failure, table.ErrConflict) || engine.Code(failure) != "" {
		t.Errorf("a full database looks like a rule or conflict error: %v", failure)
	}
	t.Logf("after %d appends: %v", acked, failure)
	_, log, err := db.Load(ctx, "full")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != acked {
		t.Fatalf("log holds %d entries, %d were acknowledged", len(log), acked)
	}
	// Room again (a fresh connection has no limit): the next append fits.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if err := db2.Append(ctx, "full", table.Entry{N: acked, Action: "play again", At: t0}, ""); err != nil {
		t.Fatalf("append after freeing space: %v", err)
	}
	if _, log, err = db2.Load(ctx, "full"); err != nil || len(log) != acked+1 {
		t.Fatalf("after freeing space: %d entries, %v", len(log), err)
	}
}

// TestLockedDatabase: another process holding the write lock past the busy
// timeout makes an append fail with "database is locked", and nothing is
// half-written.
func TestLockedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 5 s busy timeout")
	}
	t.Parallel()
	db, path := openTemp(t)
	ctx := context.Background()
	if err := db.Create(ctx, tableRecord("locked", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, "locked", 0, "")
	other, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = db.Append(ctx, "locked", table.Entry{N: 1, Action: "play 1", At: t0}, "")
	if err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("append under another writer's lock: %v", err)
	}
	t.Logf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
	_ = tx.Rollback()
	mustAppend(t, db, "locked", 1, "")
	if _, log, err := db.Load(ctx, "locked"); err != nil || len(log) != 2 {
		t.Fatalf("after the lock: %d entries, %v", len(log), err)
	}
}

// TestCorruptDatabaseFile: a file that is not a SQLite database is refused
// at open with an error naming it, and is left as it was.
func TestCorruptDatabaseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stolik.db")
	junk := []byte(strings.Repeat("this is not a database\n", 500))
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("a junk file opened as a database")
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a database") {
		t.Errorf("unclear error: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(junk) {
		t.Error("opening changed the junk file")
	}
}

// TestGroupCommitIsolation: in one batch, a conflicting append fails alone
// and the others commit.
func TestGroupCommitIsolation(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	for i := range 8 {
		if err := db.Create(ctx, tableRecord(fmt.Sprintf("g%d", i), table.StatusPlaying)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for k := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two appends of entry 0 per table: one wins, one conflicts.
			errs[k] = db.Append(ctx, fmt.Sprintf("g%d", k%8), table.Entry{N: 0, Action: "play 0", At: t0}, "")
		}()
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, table.ErrConflict):
			conflicts++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 8 || conflicts != 8 {
		t.Errorf("%d committed, %d conflicts; want 8 and 8", ok, conflicts)
	}
	for i := range 8 {
		if _, log, err := db.Load(ctx, fmt.Sprintf("g%d", i)); err != nil || len(log) != 1 {
			t.Errorf("table g%d: %d entries, %v", i, len(log), err)
		}
	}
}

// walCommit is the size of a one-append commit in the WAL: three frames of
// 4,096+24 bytes (the log row's page, its index page, the table's row).
const walCommit = 3 * (4096 + 24)

// walFile is the size of the WAL that the raw overwrite cycles through:
// SQLite starts the WAL over from its beginning after a checkpoint (every
// 1,000 pages), so most commits overwrite blocks already written rather
// than grow the file, which an fsync of ext4 finds cheaper.
const walFile = 1000 * (4096 + 24)

// syncPairs writes buf and fsyncs, n times: appending to f, or, with
// overwrite, over f's first walFile bytes in turn.
func syncPairs(b *testing.B, f *os.File, buf []byte, overwrite bool, n int) {
	b.Helper()
	off := int64(0)
	for range n {
		var err error
		if overwrite {
			if off+int64(len(buf)) > walFile {
				off = 0
			}
			_, err = f.WriteAt(buf, off)
			off += int64(len(buf))
		} else {
			_, err = f.Write(buf)
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// rawFile creates the file a raw fsync measure writes in dir; for an
// overwrite measure it is filled and synced first.
func rawFile(b *testing.B, dir string, overwrite bool) *os.File {
	b.Helper()
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("fsync-%v", overwrite)))
	if err != nil {
		b.Fatal(err)
	}
	if overwrite {
		if _, err := f.Write(make([]byte, walFile)); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// BenchmarkFsync is the disk's raw rate of write+fsync pairs in a
// temporary directory like BenchmarkAppend's database: the bound for
// committed transactions per second. 128B-append is a small record at the
// end of a growing file; 12KiB-append and 12KiB-overwrite are the shape of a
// one-append WAL commit, growing the file or (as in the WAL's steady state)
// over blocks already written. SQLite calls fsync, not fdatasync, in this
// build, as os.File.Sync does.
//
//	go test -run XXX -bench 'Fsync|Append' -benchtime 3s ./store/
func BenchmarkFsync(b *testing.B) {
	for _, c := range []struct {
		name      string
		size      int
		overwrite bool
	}{{"128B-append", 128, false}, {"12KiB-append", walCommit, false}, {"12KiB-overwrite", walCommit, true}} {
		b.Run(c.name, func(b *testing.B) {
			f := rawFile(b, b.TempDir(), c.overwrite)
			defer f.Close()
			buf := make([]byte, c.size)
			n := 0
			for b.Loop() {
				syncPairs(b, f, buf, c.overwrite, 1)
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "fsyncs/s")
		})
	}
}

// rawFsyncRate measures the disk's rate of 12KiB overwrite+fsync pairs in
// dir (300 pairs), so that a benchmark can set its rate beside the disk's
// of the same moment: the disk of a shared machine drifts by 2x and more
// within a minute.
func rawFsyncRate(b *testing.B, dir string) float64 {
	b.Helper()
	f := rawFile(b, dir, true)
	defer f.Close()
	const pairs = 300
	start := time.Now()
	syncPairs(b, f, make([]byte, walCommit), true, pairs)
	return pairs / time.Since(start).Seconds()
}

// BenchmarkAppend is committed actions per second, with the writer's
// synchronous=FULL (every commit synced before Append returns): one table
// at a time (one transaction, so at least one fsync, per append), and 64
// tables at once with and without group commit (TestDurableAppendsFsync
// counts the fsyncs per append). Each reports actions/s, the disk's raw
// 12KiB overwrite+fsync rate measured untimed in the same directory just
// before and just after (raw-fsyncs/s-before, -after), and actions/s over
// the mean of the two (x-raw-fsync).
//
//	go test -run XXX -bench 'Fsync|Append' -benchtime 3s ./store/
func BenchmarkAppend(b *testing.B) {
	for _, c := range []struct {
		name     string
		parallel bool
		group    bool
	}{{"serial", false, true}, {"64tables-one-tx-each", true, false}, {"64tables-group-commit", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			db, err := Open(context.Background(), filepath.Join(dir, "stolik.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.noGroup = !c.group
			ctx := context.Background()
			var mu sync.Mutex
			next := 0
			newTable := func() string {
				mu.Lock()
				id := fmt.Sprintf("b%d", next)
				next++
				mu.Unlock()
				if err := db.Create(ctx, tableRecord(id, table.StatusPlaying)); err != nil {
					b.Fatal(err)
				}
				return id
			}
			before := rawFsyncRate(b, dir)
			b.ResetTimer()
			report := func(actions int) {
				b.StopTimer()
				perSec := float64(actions) / b.Elapsed().Seconds()
				after := rawFsyncRate(b, dir)
				raw := (before + after) / 2
				b.ReportMetric(perSec, "actions/s")
				b.ReportMetric(before, "raw-fsyncs/s-before")
				b.ReportMetric(after, "raw-fsyncs/s-after")
				b.ReportMetric(perSec/raw, "x-raw-fsync")
			}
			if !c.parallel {
				id := newTable()
				n := 0
				for b.Loop() {
					if err := db.Append(ctx, id, table.Entry{N: n, Action: "play 1", At: t0}, ""); err != nil {
						b.Fatal(err)
					}
					n++
				}
				report(n)
				return
			}
			b.SetParallelism(32) // 64 goroutines on 2 cores
			b.RunParallel(func(pb *testing.PB) {
				id := newTable()
				n := 0
				for pb.Next() {
					if err := db.Append(ctx, id, table.Entry{N: n, Action: "play 1", At: t0}, ""); err != nil {
						b.Error(err)
						return
					}
					n++
				}
			})
			report(b.N)
		})
	}
}
