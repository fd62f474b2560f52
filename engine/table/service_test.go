package table_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// clock is a fake clock that ticks one second per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

type env struct {
	path  string
	db    *sqlite.DB
	svc   *table.Service
	clock *clock
}

func newEnv(t *testing.T, opts ...table.Option) *env {
	t.Helper()
	e := &env{path: filepath.Join(t.TempDir(), "stolik.db"), clock: newClock()}
	e.open(t, opts...)
	return e
}

// open (re)opens the store and starts a fresh service on it, as after a
// restart.
func (e *env) open(t *testing.T, opts ...table.Option) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), e.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	e.db = db
	e.svc = table.New(db, append([]table.Option{table.WithClock(e.clock.Now)}, opts...)...)
}

// raw runs SQL on the database file behind the store's back.
func (e *env) raw(t *testing.T, q string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite3", e.path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (e *env) logLen(t *testing.T, id string) int {
	t.Helper()
	_, log, err := e.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(log)
}

// channelSeq gives each table of the tests a channel of its own.
var channelSeq atomic.Int64

func counterRecord(seats int, status table.Status) table.Record {
	rec := table.Record{
		Setup:     engine.Setup{Game: "counter", Seats: seats},
		Status:    status,
		Lang:      "en",
		ChannelID: fmt.Sprintf("c%d", channelSeq.Add(1)), // one open table per channel
		CreatedBy: "u0",
	}
	for s := range seats {
		rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: fmt.Sprintf("u%d", s), Name: fmt.Sprintf("P%d", s)})
	}
	return rec
}

func (e *env) create(t *testing.T, rec table.Record) table.Record {
	t.Helper()
	rec, err := e.svc.Create(context.Background(), rec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return rec
}

func (e *env) get(t *testing.T, id string) *table.Snapshot {
	t.Helper()
	snap, err := e.svc.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get %s: %v", id, err)
	}
	return snap
}

// step plays "add n" for the seat whose turn it is, at the current version.
func (e *env) step(t *testing.T, id string, n int) []engine.Event {
	t.Helper()
	snap := e.get(t, id)
	evs, after, err := e.svc.Act(context.Background(), id, snap.State.Acting()[0], fmt.Sprintf("add %d", n), snap.Version)
	if err != nil {
		t.Fatalf("Act on %s at %d: %v", id, snap.Version, err)
	}
	if after.Version != snap.Version+1 {
		t.Fatalf("version after Act = %d, want %d", after.Version, snap.Version+1)
	}
	return evs
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("error %v, want a rule error %q", err, code)
	}
}

// replayed rebuilds a table's state straight from the store.
func (e *env) replayed(t *testing.T, id string) engine.State {
	t.Helper()
	rec, log, err := e.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		t.Fatal(err)
	}
	var moves []engine.Move
	for _, le := range log {
		moves = append(moves, engine.Move{Seat: le.Seat, Action: le.Action})
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestCreate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rec := e.create(t, counterRecord(3, ""))
	if !regexp.MustCompile(`^[a-z2-7]{8}$`).MatchString(rec.ID) {
		t.Errorf("generated id %q is not 8 lowercase base32 characters", rec.ID)
	}
	if rec.Setup.Seed == 0 {
		t.Error("no seed was generated")
	}
	if rec.Status != table.StatusLobby {
		t.Errorf("status %q, want lobby", rec.Status)
	}
	want := time.Date(2025, 6, 1, 12, 0, 1, 0, time.UTC)
	if !rec.CreatedAt.Equal(want) || !rec.UpdatedAt.Equal(want) {
		t.Errorf("timestamps %v %v, want the clock's %v", rec.CreatedAt, rec.UpdatedAt, want)
	}
	stored, log, err := e.db.Load(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stored, rec) || len(log) != 0 {
		t.Errorf("stored %+v (log %d), want %+v", stored, len(log), rec)
	}
	other := e.create(t, counterRecord(3, ""))
	if other.ID == rec.ID || other.Setup.Seed == rec.Setup.Seed {
		t.Error("two tables got the same id or seed")
	}

	// A given id and seed are kept; the id must be free.
	given := counterRecord(2, table.StatusPlaying)
	given.ID, given.Setup.Seed = "mytable", 42
	got := e.create(t, given)
	if got.ID != "mytable" || got.Setup.Seed != 42 || got.Status != table.StatusPlaying {
		t.Errorf("Create changed a given id/seed/status: %+v", got)
	}
	if _, err := e.svc.Create(ctx, given); !errors.Is(err, table.ErrExists) {
		t.Errorf("Create with a taken id: %v, want ErrExists", err)
	}
}

func TestCreateRejects(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutate func(*table.Record)
		code   string // "" for a plain error
	}{
		{"unknown game", func(r *table.Record) { r.Setup.Game = "chess" }, engine.CodeUnknownGame},
		{"too few seats", func(r *table.Record) { r.Setup.Seats, r.Seats = 1, r.Seats[:1] }, engine.CodeBadSeats},
		{"too many seats", func(r *table.Record) { r.Setup.Seats = 5 }, engine.CodeBadSeats},
		{"bad option value", func(r *table.Record) { r.Setup.Options = engine.Options{"target": "lots"} }, engine.CodeBadOption},
		{"unknown option", func(r *table.Record) { r.Setup.Options = engine.Options{"speed": "2"} }, engine.CodeBadOption},
		{"seat out of range", func(r *table.Record) { r.Seats[2].Seat = 3 }, ""},
		{"seat twice", func(r *table.Record) { r.Seats[2].Seat = 1 }, ""},
		{"unknown seat kind", func(r *table.Record) { r.Seats[0].Kind = "ghost" }, ""},
		{"finished at birth", func(r *table.Record) { r.Status = table.StatusFinished }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rec := counterRecord(3, table.StatusLobby)
			rec.ID = "x"
			c.mutate(&rec)
			_, err := e.svc.Create(context.Background(), rec)
			if err == nil {
				t.Fatal("Create accepted a bad table")
			}
			if c.code != "" {
				wantCode(t, err, c.code)
			}
			if _, _, err := e.db.Load(context.Background(), "x"); !errors.Is(err, table.ErrNotFound) {
				t.Fatalf("a rejected table was stored (%v)", err)
			}
		})
	}
}

func TestActAndReloadAfterRestart(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(3, table.StatusPlaying))
	ctx := context.Background()

	evs := e.step(t, rec.ID, 2)
	if len(evs) != 2 || evs[0].Type != "added" || evs[0].Args["total"] != 2 || evs[1].Audience < 0 {
		t.Fatalf("events %+v", evs)
	}
	for _, n := range []int{1, 3, 1, 1} {
		e.step(t, rec.ID, n)
	}
	before := e.get(t, rec.ID)
	if before.Version != 5 || before.State.(*counterState).Total != 8 {
		t.Fatalf("version %d total %d, want 5 and 8", before.Version, before.State.(*counterState).Total)
	}
	if st := before.State.(*counterState); len(st.Draws) != 5 {
		t.Fatalf("draws %v", st.Draws)
	}
	if !before.Record.UpdatedAt.After(rec.UpdatedAt) {
		t.Errorf("UpdatedAt did not move: %v", before.Record.UpdatedAt)
	}

	// Restart: a fresh store handle and service rebuild the same table.
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	e.open(t)
	after := e.get(t, rec.ID)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("after restart:\n got %+v %+v\nwant %+v %+v", after, after.State, before, before.State)
	}
	if !reflect.DeepEqual(after.State, e.replayed(t, rec.ID)) {
		t.Fatal("the service's state differs from a replay of the stored log")
	}
	if _, _, err := e.svc.Act(ctx, rec.ID, after.State.Acting()[0], "add 1", after.Version); err != nil {
		t.Fatalf("acting after restart: %v", err)
	}
	// Entries are stored in canonical form with the clock's time.
	_, log, err := e.db.Load(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if log[0].Action != "add 2" || log[0].At.IsZero() || log[5].N != 5 {
		t.Fatalf("log %+v", log)
	}
}

func TestSameSeedSameGame(t *testing.T) {
	e := newEnv(t)
	var states []engine.State
	for _, seed := range []uint64{7, 7, 8} {
		rec := counterRecord(4, table.StatusPlaying)
		rec.Setup.Seed = seed
		rec = e.create(t, rec)
		for _, n := range []int{1, 2, 3} {
			e.step(t, rec.ID, n)
		}
		states = append(states, e.get(t, rec.ID).State)
	}
	if !reflect.DeepEqual(states[0], states[1]) {
		t.Error("two tables with one seed and one log differ")
	}
	if reflect.DeepEqual(states[0], states[2]) {
		t.Error("tables with different seeds drew the same chance")
	}
}

func TestStaleVersion(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	e.step(t, rec.ID, 1)
	snap := e.get(t, rec.ID)
	seat := snap.State.Acting()[0]
	for _, v := range []int{0, 2, 7} {
		_, _, err := e.svc.Act(context.Background(), rec.ID, seat, "add 1", v)
		wantCode(t, err, engine.CodeStale)
	}
	if n := e.logLen(t, rec.ID); n != 1 {
		t.Fatalf("log has %d entries, want 1", n)
	}
	if after := e.get(t, rec.ID); !reflect.DeepEqual(after, snap) {
		t.Fatal("a stale action changed the table")
	}
	// A negative version skips the check.
	if _, _, err := e.svc.Act(context.Background(), rec.ID, seat, "add 1", -1); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentActsOneTable(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	snap := e.get(t, rec.ID)
	seat := snap.State.Acting()[0]

	const workers = 20
	errs := make([]error, workers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			<-start
			_, _, errs[i] = e.svc.Act(context.Background(), rec.ID, seat, fmt.Sprintf("add %d", 1+i%3), snap.Version)
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for i, err := range errs {
		if err == nil {
			won++
		} else if engine.Code(err) != engine.CodeStale {
			t.Errorf("worker %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d actions succeeded, want exactly 1", won)
	}
	if n := e.logLen(t, rec.ID); n != 1 {
		t.Fatalf("log has %d entries, want 1", n)
	}
	if !reflect.DeepEqual(e.get(t, rec.ID).State, e.replayed(t, rec.ID)) {
		t.Fatal("cached state differs from the stored log")
	}
}

func TestRejectedActionsChangeNothing(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(3, table.StatusPlaying))
	e.step(t, rec.ID, 2)
	snap := e.get(t, rec.ID)
	acting := snap.State.Acting()[0]
	idle := (acting + 1) % 3
	for _, c := range []struct {
		name   string
		seat   engine.Seat
		action string
		code   string
	}{
		{"not an action", acting, "jump 3", engine.CodeUnknownAction},
		{"empty", acting, "", engine.CodeUnknownAction},
		{"illegal amount", acting, "add 4", engine.CodeIllegal},
		{"not your turn", idle, "add 1", engine.CodeNotYourTurn},
		{"spectator", engine.Spectator, "add 1", engine.CodeNotYourTurn},
		{"no such seat", 9, "add 1", engine.CodeNotYourTurn},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := e.svc.Act(context.Background(), rec.ID, c.seat, c.action, snap.Version)
			wantCode(t, err, c.code)
			if n := e.logLen(t, rec.ID); n != 1 {
				t.Fatalf("log has %d entries, want 1", n)
			}
			if after := e.get(t, rec.ID); !reflect.DeepEqual(after, snap) {
				t.Fatal("a rejected action changed the table")
			}
		})
	}
	t.Run("game code panics", func(t *testing.T) {
		_, _, err := e.svc.Act(context.Background(), rec.ID, acting, "boom", snap.Version)
		if err == nil || !strings.Contains(err.Error(), "panic") {
			t.Fatalf("Act boom: %v", err)
		}
		if n := e.logLen(t, rec.ID); n != 1 {
			t.Fatalf("log has %d entries, want 1", n)
		}
		if after := e.get(t, rec.ID); !reflect.DeepEqual(after, snap) {
			t.Fatal("a panicking action changed the table")
		}
	})
}

func TestFinishedAndLobbyTablesReject(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	for range 3 {
		e.step(t, rec.ID, 3)
	}
	snap := e.get(t, rec.ID)
	_, last, err := e.svc.Act(ctx, rec.ID, snap.State.Acting()[0], "add 1", snap.Version)
	if err != nil {
		t.Fatal(err)
	}
	if last.Record.Status != table.StatusFinished {
		t.Fatalf("status after the winning move = %s", last.Record.Status)
	}
	if done, res := last.State.Result(); !done || len(res.Winners) != 1 {
		t.Fatalf("Result = %v %+v", done, res)
	}
	stored, _, err := e.db.Load(ctx, rec.ID)
	if err != nil || stored.Status != table.StatusFinished {
		t.Fatalf("stored status %s (%v), want finished", stored.Status, err)
	}
	_, _, err = e.svc.Act(ctx, rec.ID, 0, "add 1", last.Version)
	wantCode(t, err, table.CodeNotPlaying)
	if n := e.logLen(t, rec.ID); n != 4 {
		t.Fatalf("log has %d entries, want 4", n)
	}

	lobby := e.create(t, counterRecord(2, table.StatusLobby))
	_, _, err = e.svc.Act(ctx, lobby.ID, 0, "add 1", 0)
	wantCode(t, err, table.CodeNotPlaying)

	ids, err := e.db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 1 || ids[0] != lobby.ID {
		t.Fatalf("open tables %v, want only %s", ids, lobby.ID)
	}
}

func TestCorruptLog(t *testing.T) {
	for _, c := range []struct {
		name   string
		action string
		seat   int
		replay bool // the error wraps an *engine.ReplayError
	}{
		{"garbage", "%%garbage%%", 0, true},
		{"illegal move", "add 9", -1, true},
		{"wrong seat", "add 1", -2, true},
		{"game code panics", "boom", -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rec := e.create(t, counterRecord(3, table.StatusPlaying))
			e.step(t, rec.ID, 1)
			st := e.get(t, rec.ID).State
			seat := c.seat
			switch seat {
			case -1:
				seat = int(st.Acting()[0])
			case -2:
				seat = int(st.Acting()[0]+1) % 3
			}
			e.raw(t, `INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, 1, ?, ?, '2025-06-01T12:00:00Z')`, rec.ID, seat, c.action)

			e.open(t) // a fresh service loads from the store
			for _, op := range []func() error{
				func() error { _, err := e.svc.Get(context.Background(), rec.ID); return err },
				func() error {
					_, _, err := e.svc.Act(context.Background(), rec.ID, 0, "add 1", -1)
					return err
				},
			} {
				err := op()
				var ce *table.CorruptError
				if !errors.As(err, &ce) || ce.ID != rec.ID || !strings.Contains(err.Error(), rec.ID) {
					t.Fatalf("error %v, want a CorruptError naming %s", err, rec.ID)
				}
				var re *engine.ReplayError
				if errors.As(err, &re) != c.replay {
					t.Fatalf("error %v: wraps a ReplayError = %v, want %v", err, !c.replay, c.replay)
				}
				if c.replay && re.Index != 1 {
					t.Fatalf("replay error at entry %d, want 1", re.Index)
				}
			}
			if n := e.svc.CacheLen(); n != 0 {
				t.Fatalf("a table that failed to load stays cached (%d)", n)
			}
		})
	}
}

func TestUnknownTable(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Get(ctx, "nope"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Get: %v", err)
	}
	if _, _, err := e.svc.Act(ctx, "nope", 0, "add 1", 0); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Act: %v", err)
	}
	if _, err := e.svc.Update(ctx, table.Record{ID: "nope"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Update: %v", err)
	}
	if n := e.svc.CacheLen(); n != 0 {
		t.Fatalf("unknown tables are cached (%d)", n)
	}
}

func TestSnapshotsAreCopies(t *testing.T) {
	e := newEnv(t)
	rec := counterRecord(2, table.StatusPlaying)
	rec.Setup.Options = engine.Options{"target": "12"}
	rec = e.create(t, rec)
	want := e.get(t, rec.ID)

	got := e.get(t, rec.ID)
	if _, err := got.State.Apply(got.State.Acting()[0], add{3}, engine.NewRand(1, 1)); err != nil {
		t.Fatal(err)
	}
	got.Record.Seats[0].Name = "Mallory"
	got.Record.Setup.Options["target"] = "1"
	rec.Seats[1].Name = "Eve" // the record Create returned

	if again := e.get(t, rec.ID); !reflect.DeepEqual(again, want) {
		t.Fatalf("changing a snapshot changed the table:\n got %+v\nwant %+v", again, want)
	}
}

func TestConflictWithAnotherWriter(t *testing.T) {
	// Two services on one database stand for two processes.
	e := newEnv(t)
	ctx := context.Background()
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	other := table.New(e.db)
	snap, err := other.Get(ctx, rec.ID) // cached in both
	if err != nil {
		t.Fatal(err)
	}
	e.step(t, rec.ID, 2)

	_, _, err = other.Act(ctx, rec.ID, snap.State.Acting()[0], "add 1", -1)
	wantCode(t, err, engine.CodeStale)
	if n := e.logLen(t, rec.ID); n != 1 {
		t.Fatalf("log has %d entries, want 1", n)
	}
	caught, err := other.Get(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if mine := e.get(t, rec.ID); caught.Version != 1 || !reflect.DeepEqual(caught.State, mine.State) {
		t.Fatalf("the other service did not catch up: version %d", caught.Version)
	}
	if _, _, err := other.Act(ctx, rec.ID, caught.State.Acting()[0], "add 1", caught.Version); err != nil {
		t.Fatalf("acting after catching up: %v", err)
	}
}

func TestUpdate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rec := e.create(t, counterRecord(2, table.StatusLobby))

	// In the lobby, seats and setup may change; the state is rebuilt.
	rec.Setup.Seats = 3
	rec.Seats = append(rec.Seats, table.SeatInfo{Seat: 2, Kind: table.AI, Bot: "random"})
	rec.Status = table.StatusPlaying
	rec.MessageID = "m42"
	upd, err := e.svc.Update(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	if !upd.CreatedAt.Equal(rec.CreatedAt) || !upd.UpdatedAt.After(rec.UpdatedAt) {
		t.Errorf("timestamps %v %v", upd.CreatedAt, upd.UpdatedAt)
	}
	snap := e.get(t, rec.ID)
	if !reflect.DeepEqual(snap.Record, upd) || len(snap.State.(*counterState).Order) != 3 {
		t.Fatalf("cache after Update: %+v", snap.Record)
	}
	stored, _, err := e.db.Load(ctx, rec.ID)
	if err != nil || !reflect.DeepEqual(stored, upd) {
		t.Fatalf("stored after Update: %+v (%v)", stored, err)
	}
	if !reflect.DeepEqual(snap.State, e.replayed(t, rec.ID)) {
		t.Fatal("cached state differs from a replay")
	}

	bad := upd
	bad.Setup.Seats = 9
	if _, err := e.svc.Update(ctx, bad); engine.Code(err) != engine.CodeBadSeats {
		t.Fatalf("Update to 9 seats: %v", err)
	}

	e.step(t, rec.ID, 1)
	locked := upd
	locked.Setup.Options = engine.Options{"target": "20"}
	if _, err := e.svc.Update(ctx, locked); !errors.Is(err, table.ErrSetupLocked) {
		t.Fatalf("changing options after the first move: %v", err)
	}
	// Other fields may still change; the state and version are kept.
	upd.MessageID = "m43"
	upd.Status = ""
	if upd, err = e.svc.Update(ctx, upd); err != nil || upd.Status != table.StatusPlaying {
		t.Fatalf("Update: %+v %v", upd, err)
	}
	if snap := e.get(t, rec.ID); snap.Version != 1 || snap.Record.MessageID != "m43" {
		t.Fatalf("after Update: version %d, message %q", snap.Version, snap.Record.MessageID)
	}

	upd.Status = table.StatusAbandoned
	if _, err := e.svc.Update(ctx, upd); err != nil {
		t.Fatal(err)
	}
	upd.Status = table.StatusPlaying
	if _, err := e.svc.Update(ctx, upd); err == nil {
		t.Fatal("an abandoned table was reopened")
	}
	_, _, err = e.svc.Act(ctx, rec.ID, 0, "add 1", -1)
	wantCode(t, err, table.CodeNotPlaying)
}

func TestCacheEviction(t *testing.T) {
	e := newEnv(t, table.WithCacheSize(2))
	var ids []string
	for range 6 {
		ids = append(ids, e.create(t, counterRecord(3, table.StatusPlaying)).ID)
		if n := e.svc.CacheLen(); n > 2 {
			t.Fatalf("cache holds %d tables, bound 2", n)
		}
	}
	for round := range 3 {
		for _, id := range ids {
			e.step(t, id, 1+round)
			if n := e.svc.CacheLen(); n > 2 {
				t.Fatalf("cache holds %d tables, bound 2", n)
			}
		}
	}
	for _, id := range ids {
		snap := e.get(t, id)
		if snap.Version != 3 || !reflect.DeepEqual(snap.State, e.replayed(t, id)) {
			t.Fatalf("table %s: version %d, state differs from replay", id, snap.Version)
		}
	}
}

func TestCacheEvictionConcurrent(t *testing.T) {
	e := newEnv(t, table.WithCacheSize(1))
	const tables, moves, players = 6, 8, 3
	var ids []string
	for range tables {
		ids = append(ids, e.create(t, counterRecord(2, table.StatusPlaying)).ID)
	}
	// Several players race on every table: each plays when it may, and the
	// per-table lock and version check must keep every log consistent.
	var wg sync.WaitGroup
	for _, id := range ids {
		for range players {
			wg.Go(func() {
				ctx := context.Background()
				for {
					snap, err := e.svc.Get(ctx, id)
					if err != nil {
						t.Error(err)
						return
					}
					if snap.Version >= moves {
						return
					}
					_, _, err = e.svc.Act(ctx, id, snap.State.Acting()[0], "add 1", snap.Version)
					if err != nil && engine.Code(err) != engine.CodeStale {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	if n := e.svc.CacheLen(); n > 1 {
		t.Fatalf("idle cache holds %d tables, bound 1", n)
	}
	for _, id := range ids {
		snap := e.get(t, id)
		if snap.Version != moves || !reflect.DeepEqual(snap.State, e.replayed(t, id)) {
			t.Fatalf("table %s: version %d, want %d and the replayed state", id, snap.Version, moves)
		}
	}
}

func TestActWaitsForContext(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// A cancelled context may win or lose the race for a free lock, but an
	// action must never be half done.
	_, _, err := e.svc.Act(ctx, rec.ID, 0, "add 1", 0)
	if err != nil && !errors.Is(err, context.Canceled) && engine.Code(err) == "" {
		t.Fatalf("Act with a cancelled context: %v", err)
	}
	snap := e.get(t, rec.ID)
	if snap.Version != e.logLen(t, rec.ID) {
		t.Fatalf("cached version %d, stored %d", snap.Version, e.logLen(t, rec.ID))
	}
}

// Stands is the staleness rule of every front end: the current version
// stands; an older one stands only for a seat that must act and has not
// moved since; a version the table never had, or a seat that need not act,
// does not.
func TestStands(t *testing.T) {
	e := newEnv(t)
	rec := e.create(t, counterRecord(2, table.StatusPlaying))
	first := e.get(t, rec.ID).State.Acting()[0]
	e.step(t, rec.ID, 1) // the first seat moves: version 1
	e.step(t, rec.ID, 1) // the other seat moves: version 2
	snap := e.get(t, rec.ID)
	if snap.Version != 2 || snap.State.Acting()[0] != first {
		t.Fatalf("version %d, acting %v", snap.Version, snap.State.Acting())
	}
	other := 1 - first
	for _, tc := range []struct {
		name    string
		seat    engine.Seat
		version int
		want    bool
	}{
		{"the current version", first, 2, true},
		{"only the other seat moved since", first, 1, true},
		{"drawn before the seat's own last move", first, 0, false},
		{"a version the table never had", first, 3, false},
		{"a negative version", first, -1, false},
		{"a seat that need not act", other, 1, false},
		{"a seat that need not act, current version", other, 2, true},
	} {
		got, err := e.svc.Stands(context.Background(), snap, tc.seat, tc.version)
		if err != nil || got != tc.want {
			t.Errorf("%s: Stands(seat %d, version %d) = %v, %v; want %v", tc.name, tc.seat, tc.version, got, err, tc.want)
		}
	}
}

// unsureStore makes the next Append fail as a failed sync or a cut
// connection does: after writing (landed) or before.
type unsureStore struct {
	table.Store
	mu     sync.Mutex
	armed  bool
	landed bool
	down   bool // Load fails too, as a store that does not answer yet
}

var errSync = errors.New("disk I/O error (fsync)")

func (s *unsureStore) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	s.mu.Lock()
	armed, landed := s.armed, s.landed
	s.armed = false
	s.mu.Unlock()
	if !armed {
		return s.Store.Append(ctx, id, e, status)
	}
	if landed {
		if err := s.Store.Append(ctx, id, e, status); err != nil {
			return err
		}
	}
	return errSync
}

func (s *unsureStore) Load(ctx context.Context, id string) (table.Record, []table.Entry, error) {
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down {
		return table.Record{}, nil, errSync
	}
	return s.Store.Load(ctx, id)
}

// TestUnsureAppendSettled: an append that fails without saying whether it
// was stored is reported as ErrUnsure (never as a rule error or as
// nothing done), with the entry it tried; Settle then reads the log and
// tells which it was — with the move's events when it was stored — and
// the table goes on from what the store holds.
func TestUnsureAppendSettled(t *testing.T) {
	for _, landed := range []bool{true, false} {
		t.Run(fmt.Sprintf("landed=%v", landed), func(t *testing.T) {
			e := newEnv(t)
			us := &unsureStore{Store: e.db}
			svc := table.New(us, table.WithClock(e.clock.Now))
			ctx := context.Background()
			rec, err := svc.Create(ctx, counterRecord(2, table.StatusPlaying))
			if err != nil {
				t.Fatal(err)
			}
			snap, _ := svc.Get(ctx, rec.ID)
			us.armed, us.landed = true, landed
			_, _, err = svc.Act(ctx, rec.ID, snap.State.Acting()[0], "add 2", snap.Version)
			var unsure *table.UnsureError
			if !errors.Is(err, table.ErrUnsure) || !errors.Is(err, errSync) || !errors.As(err, &unsure) {
				t.Fatalf("Act: %v, want an unsure outcome", err)
			}
			if unsure.Entry.N != 0 || unsure.Entry.Action != "add 2" || unsure.Table != rec.ID {
				t.Fatalf("the unsure entry: %+v", unsure)
			}
			// The store does not answer yet: Settle says nothing.
			us.down = true
			if _, _, _, err := svc.Settle(ctx, unsure); err == nil {
				t.Fatal("Settle answered while the store could not be read")
			}
			us.down = false
			stored, evs, after, err := svc.Settle(ctx, unsure)
			if err != nil {
				t.Fatal(err)
			}
			if stored != landed || after.Version != map[bool]int{true: 1, false: 0}[landed] {
				t.Fatalf("Settle: stored %v at version %d, the append landed: %v", stored, after.Version, landed)
			}
			if landed && (len(evs) == 0 || evs[0].Type != "added") {
				t.Errorf("the stored move's events: %+v", evs)
			}
			// The table goes on from the store: the next move is at the
			// version the store has.
			if _, next, err := svc.Act(ctx, rec.ID, after.State.Acting()[0], "add 1", after.Version); err != nil || next.Version != after.Version+1 {
				t.Fatalf("the next move: %v", err)
			}
		})
	}
}
