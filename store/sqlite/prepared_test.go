package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// TestPreparedQueries: a read is prepared once and kept; a query that
// cannot be prepared is not kept and reports its error; past maxPrepared
// texts the queries still run, unkept; Close closes the kept statements.
func TestPreparedQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openWithTable(t, "t1")
	for range 5 {
		if _, err := db.Meta(ctx, "t1"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Deadlines(ctx, "t1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(db.r.stmts); n != 2 {
		t.Errorf("%d statements kept after two queries run five times each, want 2", n)
	}
	if _, err := db.r.QueryContext(ctx, `SELECT nothing FROM nowhere`); err == nil {
		t.Error("a query of a missing table ran")
	}
	if n := len(db.r.stmts); n != 2 {
		t.Errorf("%d statements kept after a failed one, want 2", n)
	}
	for i := range maxPrepared + 10 {
		var got int
		if err := db.r.QueryRowContext(ctx, fmt.Sprintf(`SELECT %d + ?`, i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("query %d: %d, %v", i, got, err)
		}
	}
	if n := len(db.r.stmts); n != maxPrepared {
		t.Errorf("%d statements kept, want at most %d", n, maxPrepared)
	}
	// The writer's statements, met inside a transaction (which holds its
	// one connection), are prepared before the next one begins, then used.
	for range 3 {
		if err := db.PutDeadline(ctx, record.Deadline{TableID: "t1", Seat: 1, StartedAt: time.Now(), DueAt: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	db.w.mu.Lock()
	kept, pending := len(db.w.stmts), len(db.w.pending)
	db.w.mu.Unlock()
	if kept < 1 || pending != 0 {
		t.Errorf("the writer keeps %d statements with %d to prepare after three writes of one text, want 1 or more and 0", kept, pending)
	}
	if err := db.r.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(db.r.stmts); n != 0 {
		t.Errorf("%d statements kept after Close", n)
	}
}

// BenchmarkTableReads is what the bot reads of a table at an interaction
// that publishes it: its meta and its deadlines.
//
//	go test -run XXX -bench TableReads ./store/
func BenchmarkTableReads(b *testing.B) {
	ctx := context.Background()
	db := openWithTable(b, "t1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := db.Meta(ctx, "t1"); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Deadlines(ctx, "t1"); err != nil {
			b.Fatal(err)
		}
	}
}

// openWithTable is a new database holding one table being played, closed
// at the end of the test.
func openWithTable(tb testing.TB, id string) *DB {
	tb.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(tb.TempDir(), "stolik.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	if err := db.Create(ctx, tableRecord(id, table.StatusPlaying)); err != nil {
		tb.Fatal(err)
	}
	return db
}
