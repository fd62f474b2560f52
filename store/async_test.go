package store

import (
	"context"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine/table"
)

// TestDeadlinesFireOnce: a deadline's reminder and expiry are marked once
// each, survive reopening the file, and a new turn starts a new clock.
func TestDeadlinesFireOnce(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	if err := db.Create(ctx, record("t1", table.StatusPlaying)); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	dl := Deadline{TableID: "t1", Seat: 2, StartedAt: t0, RemindAt: t0.Add(18 * time.Hour), DueAt: t0.Add(24 * time.Hour)}
	if err := db.PutDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := db.NextDue(ctx); err != nil || !ok || !next.Equal(dl.RemindAt) {
		t.Fatalf("NextDue = %v, %v, %v", next, ok, err)
	}
	if due, err := db.DueDeadlines(ctx, t0.Add(17*time.Hour)); err != nil || len(due) != 0 {
		t.Fatalf("due after 17 h: %v, %v", due, err)
	}
	due, err := db.DueDeadlines(ctx, t0.Add(18*time.Hour))
	if err != nil || len(due) != 1 {
		t.Fatalf("due after 18 h: %v, %v", due, err)
	}
	for k, want := range []bool{true, false} {
		if got, err := db.MarkReminded(ctx, due[0], t0.Add(18*time.Hour)); err != nil || got != want {
			t.Fatalf("MarkReminded #%d = %v, %v", k+1, got, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if next, ok, err := db.NextDue(ctx); err != nil || !ok || !next.Equal(dl.DueAt) {
		t.Fatalf("NextDue after the reminder = %v, %v, %v", next, ok, err)
	}
	due, _ = db.DueDeadlines(ctx, t0.Add(25*time.Hour))
	if len(due) != 1 || due[0].RemindedAt.IsZero() {
		t.Fatalf("due after 25 h: %+v", due)
	}
	if ok, _ := db.MarkExpired(ctx, due[0], t0.Add(25*time.Hour)); !ok {
		t.Fatal("the first expiry was not marked")
	}
	if ok, _ := db.MarkExpired(ctx, due[0], t0.Add(25*time.Hour)); ok {
		t.Fatal("the expiry was marked twice")
	}
	if _, ok, _ := db.NextDue(ctx); ok {
		t.Fatal("a handled deadline is still due")
	}
	// A stale handle (an older turn) marks nothing.
	fresh := Deadline{TableID: "t1", Seat: 2, StartedAt: t0.Add(26 * time.Hour), RemindAt: t0.Add(40 * time.Hour), DueAt: t0.Add(50 * time.Hour)}
	if err := db.PutDeadline(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if ok, _ := db.MarkReminded(ctx, dl, t0.Add(41*time.Hour)); ok {
		t.Fatal("an old turn's reminder marked the new turn")
	}
}

func TestVotesPrefsMetaResults(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	rec := record("t1", table.StatusPlaying)
	if err := db.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if ch, _ := db.Vote(ctx, "t1", "stall:1", "u1", "ai", now); !ch {
		t.Error("a first vote did not count")
	}
	if ch, _ := db.Vote(ctx, "t1", "stall:1", "u1", "ai", now); ch {
		t.Error("a repeated vote counted")
	}
	if ch, _ := db.Vote(ctx, "t1", "stall:1", "u1", "wait", now); !ch {
		t.Error("a changed vote did not count")
	}
	if v, _ := db.Votes(ctx, "t1", "stall:1"); len(v) != 1 || v["u1"] != "wait" {
		t.Errorf("votes: %v", v)
	}
	if err := db.ClearVotes(ctx, "t1", "stall:1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Votes(ctx, "t1", "stall:1"); len(v) != 0 {
		t.Errorf("votes after clearing: %v", v)
	}
	// DM reminders are opt-in, and independent of the language.
	if err := db.SetUserLang(ctx, "u1", "pl"); err != nil {
		t.Fatal(err)
	}
	if on, _ := db.DMReminders(ctx, "u1"); on {
		t.Error("DM reminders on by default")
	}
	if err := db.SetDMReminders(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	if on, _ := db.DMReminders(ctx, "u1"); !on {
		t.Error("DM reminders not turned on")
	}
	if l, _ := db.UserLang(ctx, "u1"); l != "pl" {
		t.Errorf("language %q", l)
	}
	m := Meta{Deadline: 24 * time.Hour, WantThread: true, ThreadID: "55", StandIns: true}
	if err := db.SetMeta(ctx, "t1", m); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Meta(ctx, "t1"); got != m {
		t.Errorf("meta %+v", got)
	}
	if ids, _ := db.InChannel(ctx, "55"); len(ids) != 1 {
		t.Errorf("a table is not found by its thread: %v", ids)
	}
	if id, _ := db.LastInChannel(ctx, "55"); id != "t1" {
		t.Errorf("LastInChannel = %q", id)
	}
	rs := []Result{
		{TableID: "t1", Seat: 0, UserID: "u1", Score: 3, Won: true, Game: rec.Setup.Game, FinishedAt: now},
		{TableID: "t1", Seat: 1, UserID: "u2", Score: 7, Game: rec.Setup.Game, StandIn: true, FinishedAt: now},
	}
	for k := 0; k < 2; k++ {
		if err := db.RecordResults(ctx, rs); err != nil {
			t.Fatal(err)
		}
	}
	gs, err := db.GuildStats(ctx, rec.GuildID)
	if err != nil || len(gs) != 1 || gs[0].Games != 1 || gs[0].StandIns != 1 {
		t.Errorf("guild stats %+v, %v", gs, err)
	}
	ps, err := db.PlayerStats(ctx, rec.GuildID, "u1")
	if err != nil || len(ps) != 1 || ps[0].Played != 1 || ps[0].Won != 1 || ps[0].AvgScore != 3 {
		t.Errorf("player stats %+v, %v", ps, err)
	}
}
