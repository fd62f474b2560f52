package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestSweepAIMovesStillTables: a table whose AI seat must move, left still
// for minutes (the process moving it died), is moved on by the scheduler's
// sweep of another process; one that changed a moment ago (its process may
// be moving it now) is left alone until it too has been still long enough.
func TestSweepAIMovesStillTables(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	clock := discordtest.NewFakeClock(now)
	w := newWorldAt(t, clock)
	ctx := context.Background()
	// One open table with AI seats to move, changed a minute before "now".
	seedOpenTables(t, w.dbPath, 1, 1, 1, now)
	const id = "t0000000"
	stored := func() int {
		t.Helper()
		_, log, err := w.db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return len(log)
	}
	before := stored()
	w.bot.SweepAI(ctx)
	w.idle()
	if got := stored(); got != before {
		t.Fatalf("the sweep moved a table changed a minute ago: log %d -> %d", before, got)
	}
	clock.Advance(2 * time.Minute) // three minutes still
	w.bot.SweepAI(ctx)
	w.idle()
	if got := stored(); got <= before {
		t.Fatalf("the sweep left the still table's AI seats unmoved: log %d", got)
	}
}
