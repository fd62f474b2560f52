package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// The claims of deadlines (ClaimDue, ReleaseClaim) and the stamp of a
// table (Stamp): what several processes on one database rely on.

// testClaimDueExclusive: two owners (standing for two processes, on two
// handles when the backend can reopen) claim the same due deadlines from
// many goroutines at once: no deadline is handed to both, and every due
// deadline is handed to one of them.
func testClaimDueExclusive(t *testing.T, open Opener) {
	b := open(t)
	hs := handles(t, b, 2)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const tables, seats = 8, 3
	for i := range tables {
		id := fmt.Sprintf("t%d", i)
		create(t, b, Record(id, table.StatusPlaying))
		for s := range seats {
			start := t0.Add(time.Duration(i*seats+s) * time.Minute)
			dl := record.Deadline{TableID: id, Seat: engine.Seat(s), StartedAt: start, RemindAt: start.Add(time.Hour), DueAt: start.Add(2 * time.Hour)}
			if err := b.PutDeadline(ctx, dl); err != nil {
				t.Fatal(err)
			}
		}
	}
	now := t0.Add(3 * time.Hour) // everything due
	owners := []string{"process-a", "process-b"}
	const perOwner = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		got  = map[string]map[string]bool{} // deadline -> owners it was handed to
		gate = make(chan struct{})
	)
	for o, owner := range owners {
		for g := range perOwner {
			wg.Go(func() {
				<-gate
				h := hs[(o+g)%2]
				for range 3 {
					dls, err := h.ClaimDue(ctx, now, owner, time.Minute)
					if err != nil {
						t.Errorf("ClaimDue(%s): %v", owner, err)
						return
					}
					mu.Lock()
					for _, dl := range dls {
						k := fmt.Sprintf("%s/%d", dl.TableID, dl.Seat)
						if got[k] == nil {
							got[k] = map[string]bool{}
						}
						got[k][owner] = true
					}
					mu.Unlock()
				}
			})
		}
	}
	close(gate)
	wg.Wait()
	if len(got) != tables*seats {
		t.Errorf("%d deadlines were handed out, want all %d", len(got), tables*seats)
	}
	for k, os := range got {
		if len(os) != 1 {
			t.Errorf("deadline %s was handed to %d owners: %v", k, len(os), os)
		}
	}
}

// testClaimLease: a claimed deadline is not handed to another owner while
// its lease is live (it is to its owner again, the lease renewed), and NextDue
// points past the lease; a lease that passes is taken over; ReleaseClaim
// (by the owner only) and a new turn (PutDeadline) end a claim at once; a
// claim does not change what DueDeadlines lists or what the marks do.
func testClaimLease(t *testing.T, open Opener) {
	b := open(t)
	other := handles(t, b, 2)[1]
	create(t, b, Record("t1", table.StatusPlaying))
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	dl := record.Deadline{TableID: "t1", Seat: 2, StartedAt: t0, RemindAt: t0.Add(time.Hour), DueAt: t0.Add(2 * time.Hour)}
	if err := b.PutDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	claim := func(h Backend, owner string, at time.Time, want bool) {
		t.Helper()
		dls, err := h.ClaimDue(ctx, at, owner, 10*time.Minute)
		if err != nil {
			t.Fatalf("ClaimDue(%s, %v): %v", owner, at, err)
		}
		if got := len(dls) == 1; got != want || len(dls) > 1 {
			t.Fatalf("ClaimDue(%s, +%v) = %+v; want the deadline: %v", owner, at.Sub(t0), dls, want)
		}
		if want && !sameDeadline(dls[0], dl) {
			t.Fatalf("ClaimDue(%s) = %+v, want %+v", owner, dls[0], dl)
		}
	}
	if _, err := b.ClaimDue(ctx, t0, "", time.Minute); err == nil {
		t.Error("ClaimDue accepted an empty owner")
	}
	claim(b, "a", t0.Add(59*time.Minute), false) // nothing due yet
	at := t0.Add(time.Hour)
	claim(b, "a", at, true)
	claim(other, "b", at.Add(time.Minute), false)    // a's lease is live
	claim(b, "b", at.Add(9*time.Minute), false)      // on either handle
	claim(b, "a", at.Add(5*time.Minute), true)       // a's own: again, lease until +15 min
	claim(other, "b", at.Add(12*time.Minute), false) // the renewed lease holds
	if due, err := other.DueDeadlines(ctx, at.Add(time.Minute)); err != nil || len(due) != 1 {
		t.Errorf("DueDeadlines of a claimed deadline = %+v, %v; want it listed", due, err)
	}
	if next, ok, err := other.NextDue(ctx); err != nil || !ok || !next.Equal(at.Add(15*time.Minute)) {
		t.Errorf("NextDue of a claimed deadline = %v, %v, %v; want the end of its lease %v", next, ok, err, at.Add(15*time.Minute))
	}
	// The lease passes: b takes over, and a no longer gets it.
	claim(other, "b", at.Add(15*time.Minute), true)
	claim(b, "a", at.Add(16*time.Minute), false)
	// Only the owner's release counts.
	if err := b.ReleaseClaim(ctx, dl, "a"); err != nil {
		t.Fatal(err)
	}
	claim(b, "a", at.Add(17*time.Minute), false)
	if err := other.ReleaseClaim(ctx, dl, "b"); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := b.NextDue(ctx); err != nil || !ok || !next.Equal(dl.RemindAt) {
		t.Errorf("NextDue after the release = %v, %v, %v; want %v", next, ok, err, dl.RemindAt)
	}
	claim(b, "a", at.Add(17*time.Minute), true)
	// The marks work on a claimed deadline; a handled one is not handed out.
	if ok, err := other.MarkReminded(ctx, dl, at.Add(18*time.Minute)); err != nil || !ok {
		t.Fatalf("MarkReminded of a claimed deadline = %v, %v", ok, err)
	}
	dl.RemindedAt = at.Add(18 * time.Minute)
	if err := b.ReleaseClaim(ctx, dl, "a"); err != nil {
		t.Fatal(err)
	}
	claim(other, "b", at.Add(30*time.Minute), false) // reminded, not yet due
	due := t0.Add(2 * time.Hour)
	claim(other, "b", due, true)
	// A new turn of the seat ends the claim.
	fresh := record.Deadline{TableID: "t1", Seat: 2, StartedAt: due, RemindAt: due, DueAt: due.Add(time.Hour)}
	if err := b.PutDeadline(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	dl = fresh
	claim(b, "a", due.Add(time.Minute), true)
	// Deleting the deadline ends everything.
	if err := other.DeleteDeadline(ctx, "t1", 2); err != nil {
		t.Fatal(err)
	}
	claim(other, "b", due.Add(3*time.Hour), false)
	if err := b.ReleaseClaim(ctx, dl, "a"); err != nil {
		t.Errorf("releasing a deleted deadline: %v", err)
	}
}

// testStamp: a table's stamp follows every append (its log length) and
// every update of its record (its revision), as any handle on the database
// reads it; an unknown table is table.ErrNotFound.
func testStamp(t *testing.T, open Opener) {
	b := open(t)
	other := handles(t, b, 2)[1]
	if _, err := b.Stamp(ctx, "nope"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Stamp of an unknown table: %v, want table.ErrNotFound", err)
	}
	rec := Record("t1", table.StatusPlaying)
	create(t, b, rec)
	want := func(h Backend, ll int, rev int64, when string) {
		t.Helper()
		s, err := h.Stamp(ctx, "t1")
		if err != nil || s.LogLen != ll || s.Rev != rev {
			t.Fatalf("Stamp %s = %+v, %v; want log length %d, revision %d", when, s, err, ll, rev)
		}
	}
	want(other, 0, 0, "after Create")
	appendN(t, b, "t1", 0, 3)
	want(other, 3, 0, "after 3 appends")
	rec.MessageID = "m2"
	if err := other.Update(ctx, rec); err != nil {
		t.Fatal(err)
	}
	want(b, 3, 1, "after Update")
	appendN(t, other, "t1", 3, 4)
	want(b, 4, 1, "after another append")
	if err := b.MarkCorrupt(ctx, "t1", "test"); err != nil {
		t.Fatal(err)
	}
	s, err := other.Stamp(ctx, "t1")
	if err != nil || s.LogLen != 4 || s.Rev <= 1 {
		t.Fatalf("Stamp after MarkCorrupt = %+v, %v; want log length 4 and a new revision", s, err)
	}
}
