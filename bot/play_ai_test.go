package bot

import (
	"context"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

func init() {
	// The tests read each answer right after the click, some under -race on
	// a busy machine: there the AI seats always move before the answer.
	aiBeforeAnswer = time.Minute
}

// TestRunAIUntilStops: the AI seats stop moving when the deadline has
// passed, and say that they have not finished.
func TestRunAIUntilStops(t *testing.T) {
	b := testBot(t)
	g, _ := engine.Lookup("lynx")
	su := engine.Setup{Game: "lynx", Seats: 2, Seed: 1}
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := table.Record{ID: "abcdefgh", Setup: su, Status: table.StatusPlaying, Seats: []table.SeatInfo{
		{Seat: 0, Kind: table.AI}, {Seat: 1, Kind: table.AI},
	}}
	snap := &table.Snapshot{Record: rec, Game: g, State: st}
	evs, after, done, err := b.runAIUntil(context.Background(), snap, time.Now().Add(-time.Second))
	if err != nil || done || len(evs) != 0 || after != snap {
		t.Errorf("past the deadline: %d events, done %v, err %v", len(evs), done, err)
	}
	// A table without AI seats to move is done at once.
	rec.Seats = []table.SeatInfo{{Seat: 0, Kind: table.Human}, {Seat: 1, Kind: table.Human}}
	snap = &table.Snapshot{Record: rec, Game: g, State: st}
	if _, _, done, err := b.runAIUntil(context.Background(), snap, time.Now().Add(-time.Second)); !done || err != nil {
		t.Errorf("no AI seat: done %v, err %v", done, err)
	}
}
