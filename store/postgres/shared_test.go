package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	_ "github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

// TestTwoServicesOneDatabase: two table services on two handles on one
// PostgreSQL database stand for two bot processes. Every seat of a game's
// first, simultaneous decision clicks in both at once: each seat's choice
// is stored exactly once (the other click is validated again and refused
// as stale), nothing else fails, and both services then serve the stored
// table — with WithSharedStore from the stamp, without it after the
// conflict of their next action. As in the bot, a click reads the table
// and acts at the version it read under a lock of its process (the bot's
// table lock), which the other process does not share.
func TestTwoServicesOneDatabase(t *testing.T) {
	pgtest.Server(t)
	ctx := context.Background()
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			url := pgtest.URL(t)
			var opts []table.Option
			if shared {
				opts = append(opts, table.WithSharedStore())
			}
			da, db := openPG(t, url), openPG(t, url)
			a, b := table.New(da, opts...), table.New(db, opts...)
			rec := table.Record{Setup: engine.Setup{Game: "princesses", Seats: 3}, Status: table.StatusPlaying, Lang: "en", ChannelID: "c1", CreatedBy: "u0"}
			for s := range 3 {
				rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: fmt.Sprint("u", s), Name: fmt.Sprint("P", s)})
			}
			rec, err := a.Create(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			snaps := map[*table.Service]*table.Snapshot{}
			for _, svc := range []*table.Service{a, b} {
				if snaps[svc], err = svc.Get(ctx, rec.ID); err != nil {
					t.Fatal(err)
				}
			}
			acting := snaps[a].State.Acting()
			if len(acting) != 3 {
				t.Fatalf("the first decision is not simultaneous: acting %v", acting)
			}
			var (
				wg      sync.WaitGroup
				mu      sync.Mutex
				applied = map[engine.Seat]int{}
				gate    = make(chan struct{})
			)
			for _, svc := range []*table.Service{a, b} {
				snap := snaps[svc]
				var lock sync.Mutex // the process's table lock
				for _, seat := range acting {
					action := snap.State.Legal(seat)[0].String()
					wg.Go(func() {
						<-gate
						lock.Lock()
						defer lock.Unlock()
						now, err := svc.Get(ctx, rec.ID)
						if err != nil {
							t.Error(err)
							return
						}
						if !fresh(t, da, now, snap.Version, seat) {
							return // the bot answers "stale" without acting
						}
						_, _, err = svc.Act(ctx, rec.ID, seat, action, now.Version)
						var re *engine.RuleError
						switch {
						case err == nil:
							mu.Lock()
							applied[seat]++
							mu.Unlock()
						case !errors.As(err, &re):
							t.Errorf("seat %d: %v", seat, err)
						case re.Code != engine.CodeStale:
							t.Errorf("seat %d refused with %q, want stale (its own other click applied)", seat, re.Code)
						}
					})
				}
			}
			close(gate)
			wg.Wait()
			for _, seat := range acting {
				if applied[seat] != 1 {
					t.Errorf("seat %d's choice applied %d times, want once", seat, applied[seat])
				}
			}
			_, log, err := da.Load(ctx, rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(log) != 3 {
				t.Fatalf("stored log has %d entries, want 3", len(log))
			}
			if !shared {
				return
			}
			sa, err := a.Get(ctx, rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			sb, err := b.Get(ctx, rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sa.Version != 3 || sb.Version != 3 || !reflect.DeepEqual(sa.State, sb.State) {
				t.Fatalf("A at %d, B at %d; want both at 3 with one state", sa.Version, sb.Version)
			}
		})
	}
}

// fresh is the bot's check of a click drawn at version on the table as it
// now stands: current, or older while the seat still has to act and has
// not acted since (other seats' moves in a simultaneous decision).
func fresh(t *testing.T, db storetest.Backend, now *table.Snapshot, version int, seat engine.Seat) bool {
	if now.Version == version {
		return true
	}
	if !engine.IsActing(now.State, seat) {
		return false
	}
	_, log, err := db.Load(context.Background(), now.Record.ID)
	if err != nil {
		t.Error(err)
		return false
	}
	for _, le := range log[version:] {
		if le.Seat == seat {
			return false
		}
	}
	return true
}

// BenchmarkGetCached measures a Get served from the cache on PostgreSQL,
// trusting the cache and, WithSharedStore, reading the stored stamp first
// (one round trip to the server).
func BenchmarkGetCached(b *testing.B) {
	pgtest.Server(b)
	ctx := context.Background()
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", shared), func(b *testing.B) {
			db, err := postgres.Open(ctx, pgtest.URL(b))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			var opts []table.Option
			if shared {
				opts = append(opts, table.WithSharedStore())
			}
			svc := table.New(db, opts...)
			rec := table.Record{Setup: engine.Setup{Game: "princesses", Seats: 3}, Status: table.StatusPlaying, Lang: "en", ChannelID: "c1", CreatedBy: "u0"}
			for s := range 3 {
				rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: fmt.Sprint("u", s), Name: fmt.Sprint("P", s)})
			}
			if rec, err = svc.Create(ctx, rec); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := svc.Get(ctx, rec.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
