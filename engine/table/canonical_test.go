package table_test

import (
	"context"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
)

// An action spelled otherwise than Legal spells it (a two-card pass to one
// side in reverse card order) is accepted, and the log keeps the canonical
// spelling.
func TestActStoresTheCanonicalSpelling(t *testing.T) {
	e := newEnv(t)
	rec := counterRecord(4, table.StatusPlaying)
	rec.Setup = engine.Setup{Game: "princesses", Seats: 4, Seed: 9, Options: engine.Options{"powers": "off", "rounds": "crystal-clear"}}
	rec = e.create(t, rec)
	snap := e.get(t, rec.ID)
	hand := snap.State.View(0).(*princesses.View).Hand
	first, second := hand[0].String(), hand[1].String()
	if _, _, err := e.svc.Act(context.Background(), rec.ID, 0, "pass "+second+" "+first, snap.Version); err != nil {
		t.Fatalf("a reversed two-card pass: %v", err)
	}
	_, log, err := e.db.Load(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := "pass " + first + " " + second; len(log) != 1 || log[0].Action != want {
		t.Fatalf("log %+v, want %q", log, want)
	}
}
