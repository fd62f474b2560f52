package loadtest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/store/postgres/pgtest"
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
	t.Logf("%d moves (%d by humans), %d My-hand presses (%d answers pictured in time), REST %v", rep.Actions, rep.HumanActions, rep.HandClicks, rep.AskedPictures, rep.RESTByKind)
	if len(rep.Errors) > 0 || rep.Unanswered > 0 {
		t.Fatalf("errors %v, unanswered %d", rep.Errors, rep.Unanswered)
	}
	// An acknowledgement as Discord sees it lies within the round trip
	// the simulated user saw, interaction by interaction, so every
	// percentile does too.
	if rep.AckP50 <= 0 || rep.AckP50 > rep.RoundP50 || rep.AckP99 > rep.RoundP99 {
		t.Errorf("acknowledgements p50 %v, p99 %v; round trips p50 %v, p99 %v", rep.AckP50, rep.AckP99, rep.RoundP50, rep.RoundP99)
	}
	if len(rep.TextViolations) > 0 {
		t.Errorf("the fake Discord found %d texts cut, controls alike or mentions not allowed: %q", len(rep.TextViolations), rep.TextViolations)
	}
	// The disk was timed beside the database through the window.
	if d := rep.Disk; d.Err != "" || d.Syncs < 10 || d.P50 <= 0 || d.P50 > d.P99 || d.P99 > d.Max {
		t.Errorf("disk probe %+v over a window of %v", d, rep.Window)
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
	// Hands asked for with My hand are a part of the hands shown (how
	// many get their picture in time depends on the machine: none under
	// the race detector, all of them on a quiet one).
	if rep.AskedAnswers == 0 || rep.AskedAnswers > rep.HandAnswers || rep.AskedAnswers > rep.HandClicks ||
		rep.AskedPictures > rep.AskedAnswers || rep.HandPictures < rep.AskedPictures || rep.HandPictures > rep.HandAnswers {
		t.Errorf("hands shown %d (%d pictured), asked for %d (%d pictured), My-hand presses %d",
			rep.HandAnswers, rep.HandPictures, rep.AskedAnswers, rep.AskedPictures, rep.HandClicks)
	}
}

// TestSeveralProcessesOnPostgres runs three bots, one shard each, on one
// PostgreSQL database (skipped without STOLIK_TEST_POSTGRES, see pgtest):
// every bot gets its shard's interactions only, so the run is clean and
// no append meets a conflict.
func TestSeveralProcessesOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("a load run")
	}
	url := pgtest.URL(t)
	rep, err := Run(context.Background(), Config{
		Tables: 9, Duration: 3 * time.Second, Think: 100 * time.Millisecond,
		Seed: 5, NoPictures: true, DB: url, Processes: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d moves, %d conflicts, p99 %v", rep.Actions, rep.Conflicts, rep.AckP99)
	if len(rep.Errors) > 0 || rep.Unanswered > 0 {
		t.Fatalf("errors %v, unanswered %d", rep.Errors, rep.Unanswered)
	}
	if rep.Database != "postgres" || rep.Processes != 3 || rep.Actions == 0 {
		t.Errorf("database %s, %d processes, %d moves", rep.Database, rep.Processes, rep.Actions)
	}
	if rep.Conflicts != 0 {
		t.Errorf("%d conflicts: each table has one process", rep.Conflicts)
	}
	// A second run on the same database is refused: its tables are open.
	if _, err := Run(context.Background(), Config{Tables: 1, Duration: time.Second, DB: url, Processes: 3}); err == nil || !strings.Contains(err.Error(), "open tables") {
		t.Errorf("a database with open tables: %v", err)
	}
	if _, err := Run(context.Background(), Config{Tables: 1, Duration: time.Second, Processes: 2}); err == nil {
		t.Error("two processes on SQLite: no error")
	}
}

func TestQuantiles(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 … 1, unsorted
	}
	for _, tt := range []struct {
		name          string
		in            []time.Duration
		p50, p99, max time.Duration
	}{
		{"none", nil, 0, 0, 0},
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"unsorted", ms(5, 1, 9, 3), 5 * time.Millisecond, 9 * time.Millisecond, 9 * time.Millisecond},
		{"a hundred", ms(hundred...), 51 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond},
	} {
		in := slices.Clone(tt.in)
		p50, p99, max := quantiles(tt.in)
		if p50 != tt.p50 || p99 != tt.p99 || max != tt.max {
			t.Errorf("%s: %v %v %v, want %v %v %v", tt.name, p50, p99, max, tt.p50, tt.p99, tt.max)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("%s: the input was reordered", tt.name)
		}
	}
}
