package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stolik-bot/stolik/engine/table"
)

// TestPreparedQueries: a read is prepared once and kept; a query that
// cannot be prepared is not kept and reports its error; past maxPrepared
// texts the queries still run, unkept; Close closes the kept statements.
func TestPreparedQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "stolik.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, tableRecord("t1", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
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
	db, err := Open(ctx, filepath.Join(b.TempDir(), "stolik.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Create(ctx, tableRecord("t1", table.StatusPlaying)); err != nil {
		b.Fatal(err)
	}
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
