package loadtest

import (
	"context"
	"testing"
	"time"
)

// TestSmallRun plays a few tables of Courtisans (three placements a turn),
// half of them with AI players, and checks that the run is clean and that
// what it measures holds together.
func TestSmallRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a load run")
	}
	rep, err := Run(context.Background(), Config{
		Tables: 6, Duration: 3 * time.Second, Think: 100 * time.Millisecond,
		Games: []string{"courtiers"}, AITables: 0.5, Seed: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d moves (%d by humans), %d My-hand presses, REST %v", rep.Actions, rep.HumanActions, rep.HandClicks, rep.RESTByKind)
	if len(rep.Errors) > 0 || rep.Unanswered > 0 {
		t.Fatalf("errors %v, unanswered %d", rep.Errors, rep.Unanswered)
	}
	if rep.AITables == 0 || rep.AITables == rep.Tables {
		t.Errorf("%d of %d tables with AI players", rep.AITables, rep.Tables)
	}
	if rep.HumanActions == 0 || rep.HumanActions >= rep.Actions {
		t.Errorf("%d moves, %d by humans", rep.Actions, rep.HumanActions)
	}
	// Every human move is one interaction, and a "My hand" press only comes
	// when the table has moved on: never more presses than moves.
	if rep.HandClicks > rep.HumanActions {
		t.Errorf("%d My-hand presses for %d human moves", rep.HandClicks, rep.HumanActions)
	}
	if rep.Handovers == 0 || rep.HandoverMoves > rep.HumanActions {
		t.Errorf("%d handovers in %d moves, %d human moves", rep.Handovers, rep.HandoverMoves, rep.HumanActions)
	}
	// The three placements of a turn share one table-message edit.
	if e := rep.RESTByKind["table-edit"]; e*2 > rep.HumanActions {
		t.Errorf("%d table-message edits for %d human moves", e, rep.HumanActions)
	}
	if rep.RESTByKind["post"]*2 > rep.HumanActions {
		t.Errorf("%d posts for %d human moves", rep.RESTByKind["post"], rep.HumanActions)
	}
}
