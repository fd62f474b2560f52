package table_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// Two services on one database stand for two bot processes on one
// PostgreSQL database: what one appends, the other must see, and of two
// clicks on one table exactly one is appended first while the other is
// validated again against the table as it then stands.

// picks is a tiny test-only game of simultaneous decisions: every round
// each seat picks a number 1..3 once, in any order, and no two seats may
// pick the same number in one round; after "rounds" rounds (default 2) the
// game ends. Acting lists the seats that have not picked yet this round.
type picks struct{}

func init() { engine.Register(picks{}) }

func (picks) ID() string                   { return "picks" }
func (picks) Seats() (min, max int)        { return 2, 3 }
func (picks) Options() []engine.OptionSpec { return []engine.OptionSpec{{Key: "rounds", Default: "2"}} }

func (picks) New(opts engine.Options, seats int, _ *engine.Rand) (engine.State, error) {
	rounds := 2
	if v, ok := opts["rounds"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, engine.Errorf(engine.CodeBadOption, "key", "rounds", "value", v)
		}
		rounds = n
	}
	return &picksState{Rounds: rounds, Picked: make([]int, seats), Sums: make([]int, seats)}, nil
}

type pick struct{ N int }

func (p pick) String() string { return "pick " + strconv.Itoa(p.N) }

func (picks) ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(text)
	if len(f) == 2 && f[0] == "pick" {
		if n, err := strconv.Atoi(f[1]); err == nil {
			return pick{n}, nil
		}
	}
	return nil, engine.Errorf(engine.CodeUnknownAction, "text", text)
}

type picksState struct {
	Rounds, Round int
	Picked        []int // this round's pick of each seat; 0: not yet
	Sums          []int
}

func (st *picksState) Acting() []engine.Seat {
	var out []engine.Seat
	for s, p := range st.Picked {
		if p == 0 && st.Round < st.Rounds {
			out = append(out, engine.Seat(s))
		}
	}
	return out
}

func (st *picksState) Legal(s engine.Seat) []engine.Action {
	if !engine.IsActing(st, s) {
		return nil
	}
	var out []engine.Action
	for n := 1; n <= 3; n++ {
		if !slices.Contains(st.Picked, n) {
			out = append(out, pick{n})
		}
	}
	return out
}

func (st *picksState) Apply(s engine.Seat, a engine.Action, _ *engine.Rand) ([]engine.Event, error) {
	if st.Round >= st.Rounds {
		return nil, engine.Errorf(engine.CodeGameOver)
	}
	if !engine.IsActing(st, s) {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat", s)
	}
	p, ok := a.(pick)
	if !ok || p.N < 1 || p.N > 3 || slices.Contains(st.Picked, p.N) {
		return nil, engine.Errorf(engine.CodeIllegal, "action", a.String())
	}
	st.Picked[s] = p.N
	st.Sums[s] += p.N
	if !slices.Contains(st.Picked, 0) {
		st.Round++
		clear(st.Picked)
	}
	return []engine.Event{engine.Public("picked", map[string]any{"seat": s, "n": p.N})}, nil
}

type picksView struct{ Seat engine.Seat }

func (v picksView) ViewerSeat() engine.Seat { return v.Seat }

func (st *picksState) View(s engine.Seat) engine.View { return picksView{s} }

func (st *picksState) Result() (bool, engine.Result) {
	if st.Round < st.Rounds {
		return false, engine.Result{}
	}
	return true, engine.Result{Scores: slices.Clone(st.Sums)}
}

func (st *picksState) Clone() engine.State {
	c := *st
	c.Picked = slices.Clone(st.Picked)
	c.Sums = slices.Clone(st.Sums)
	return &c
}

// procs are two services, each on its own handle on one SQLite file, as two
// processes would be.
type procs struct {
	a, b   *table.Service
	da, db *sqlite.DB
}

func twoProcs(t *testing.T, opts ...table.Option) procs {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stolik.db")
	var p procs
	for _, d := range []**sqlite.DB{&p.da, &p.db} {
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		*d = db
	}
	c := newClock()
	p.a = table.New(p.da, append([]table.Option{table.WithClock(c.Now)}, opts...)...)
	p.b = table.New(p.db, append([]table.Option{table.WithClock(c.Now)}, opts...)...)
	return p
}

func picksRecord(seats int) table.Record {
	rec := counterRecord(seats, table.StatusPlaying)
	rec.Setup.Game = "picks"
	return rec
}

func mustGet(t *testing.T, s *table.Service, id string) *table.Snapshot {
	t.Helper()
	snap, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// storedLog is the table's log as the store holds it, as "seat:action".
func storedLog(t *testing.T, db *sqlite.DB, id string) []string {
	t.Helper()
	_, log, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, le := range log {
		out = append(out, fmt.Sprintf("%d:%s", le.Seat, le.Action))
	}
	return out
}

// TestSharedStoreSeesOtherProcess: WithSharedStore, a table cached in B is
// loaded again when A appends to it or updates its record; without the
// option B keeps serving its copy (the service trusts it is the only
// writer).
func TestSharedStoreSeesOtherProcess(t *testing.T) {
	ctx := context.Background()
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			var opts []table.Option
			if shared {
				opts = append(opts, table.WithSharedStore())
			}
			p := twoProcs(t, opts...)
			rec, err := p.a.Create(ctx, counterRecord(2, table.StatusPlaying))
			if err != nil {
				t.Fatal(err)
			}
			before := mustGet(t, p.b, rec.ID) // cached in B
			snap := mustGet(t, p.a, rec.ID)
			if _, _, err := p.a.Act(ctx, rec.ID, snap.State.Acting()[0], "add 2", snap.Version); err != nil {
				t.Fatal(err)
			}
			rec.MessageID = "m-new"
			if _, err := p.a.Update(ctx, rec); err != nil {
				t.Fatal(err)
			}
			got := mustGet(t, p.b, rec.ID)
			mine := mustGet(t, p.a, rec.ID)
			if !shared {
				if got.Version != before.Version || got.Record.MessageID == "m-new" {
					t.Fatalf("without the option B reloaded: version %d", got.Version)
				}
				return
			}
			if got.Version != 1 || !reflect.DeepEqual(got.State, mine.State) {
				t.Fatalf("B's Get after A's click: version %d, state %+v; want version 1, %+v", got.Version, got.State, mine.State)
			}
			if got.Record.MessageID != "m-new" {
				t.Fatalf("B's Get after A's update: message %q, want m-new", got.Record.MessageID)
			}
			// And back: B's click is seen by A.
			if _, _, err := p.b.Act(ctx, rec.ID, got.State.Acting()[0], "add 1", got.Version); err != nil {
				t.Fatal(err)
			}
			if again := mustGet(t, p.a, rec.ID); again.Version != 2 {
				t.Fatalf("A's Get after B's click: version %d, want 2", again.Version)
			}
		})
	}
}

// TestConflictingClicksTwoProcesses: A and B hold a table at the same
// version and each gets a click on it. A's is appended; B's append is
// refused as a conflict, and B validates its click again against the table
// as it now stands: applied when it is still legal (another seat's move in
// a simultaneous decision), refused with a rule error when not (the same
// seat moved meanwhile: stale; the game's rules forbid it now: illegal).
// Without WithSharedStore B finds out from the conflict; with it, from the
// stamp before validating.
func TestConflictingClicksTwoProcesses(t *testing.T) {
	ctx := context.Background()
	for _, shared := range []bool{false, true} {
		var opts []table.Option
		if shared {
			opts = append(opts, table.WithSharedStore())
		}
		cases := []struct {
			name   string
			bSeat  engine.Seat
			bPick  string
			code   string   // B's rule error; "" when B's click applies
			stored []string // the log afterwards
		}{
			{"other seat still legal", 1, "pick 3", "", []string{"0:pick 2", "1:pick 3"}},
			{"other seat now illegal", 1, "pick 2", engine.CodeIllegal, []string{"0:pick 2"}},
			{"same seat twice", 0, "pick 1", engine.CodeStale, []string{"0:pick 2"}},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("shared=%v/%s", shared, c.name), func(t *testing.T) {
				p := twoProcs(t, opts...)
				rec, err := p.a.Create(ctx, picksRecord(2))
				if err != nil {
					t.Fatal(err)
				}
				sa, sb := mustGet(t, p.a, rec.ID), mustGet(t, p.b, rec.ID) // both at version 0
				if _, _, err := p.a.Act(ctx, rec.ID, 0, "pick 2", sa.Version); err != nil {
					t.Fatalf("A's click: %v", err)
				}
				_, after, err := p.b.Act(ctx, rec.ID, c.bSeat, c.bPick, sb.Version)
				if c.code == "" {
					if err != nil {
						t.Fatalf("B's click, still legal, was refused: %v", err)
					}
					if after.Version != 2 {
						t.Fatalf("B's click applied at version %d, want 2", after.Version)
					}
				} else {
					wantCode(t, err, c.code)
				}
				if got := storedLog(t, p.da, rec.ID); !slices.Equal(got, c.stored) {
					t.Fatalf("stored log %q, want %q", got, c.stored)
				}
				// B serves the stored table (and A too with the option;
				// without it A trusts its copy until its next conflict).
				b := mustGet(t, p.b, rec.ID)
				if b.Version != len(c.stored) || !reflect.DeepEqual(b.State, replayedIn(t, p.db, rec.ID)) {
					t.Fatalf("after the clicks B is at %d; want %d, as stored", b.Version, len(c.stored))
				}
				if a := mustGet(t, p.a, rec.ID); shared && (a.Version != b.Version || !reflect.DeepEqual(a.State, b.State)) {
					t.Fatalf("after the clicks A is at %d, B at %d; want one table", a.Version, b.Version)
				}
			})
		}
	}
}

// TestConcurrentClicksTwoProcesses: many clicks at once on one table in two
// processes sharing the store, every seat clicking in both, round after
// round: each seat's pick is stored once per round (no click applies twice),
// every refused click is a rule error, and both services serve the stored
// table.
func TestConcurrentClicksTwoProcesses(t *testing.T) {
	ctx := context.Background()
	p := twoProcs(t, table.WithSharedStore())
	rec := picksRecord(3)
	rec.Setup.Options = engine.Options{"rounds": "6"}
	rec, err := p.a.Create(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 6 {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			applied = map[engine.Seat]int{}
			gate    = make(chan struct{})
		)
		for i, svc := range []*table.Service{p.a, p.b, p.a, p.b} {
			snap := mustGet(t, svc, rec.ID)
			for seat := range engine.Seat(3) {
				wg.Go(func() {
					<-gate
					_, _, err := svc.Act(ctx, rec.ID, seat, fmt.Sprintf("pick %d", 1+(int(seat)+i)%3), snap.Version)
					var re *engine.RuleError
					switch {
					case err == nil:
						mu.Lock()
						applied[seat]++
						mu.Unlock()
					case !errors.As(err, &re):
						t.Errorf("round %d, seat %d: %v", round, seat, err)
					}
				})
			}
		}
		close(gate)
		wg.Wait()
		for seat, n := range applied {
			if n > 1 {
				t.Fatalf("round %d: seat %d's pick applied %d times", round, seat, n)
			}
		}
		// Finish the round with what is left (clicks that were all illegal).
		now := mustGet(t, p.b, rec.ID)
		for now.Version < 3*(round+1) {
			seat := now.State.Acting()[0]
			if _, now, err = p.b.Act(ctx, rec.ID, seat, now.State.Legal(seat)[0].String(), now.Version); err != nil {
				t.Fatal(err)
			}
		}
	}
	log := storedLog(t, p.da, rec.ID)
	if len(log) != 18 {
		t.Fatalf("stored log has %d entries, want 18: %q", len(log), log)
	}
	for r := range 6 {
		seats := map[byte]bool{}
		for _, le := range log[3*r : 3*r+3] {
			seats[le[0]] = true
		}
		if len(seats) != 3 {
			t.Fatalf("round %d stored %q: a seat picked twice", r, log[3*r:3*r+3])
		}
	}
	a, b := mustGet(t, p.a, rec.ID), mustGet(t, p.b, rec.ID)
	if a.Version != 18 || b.Version != 18 || a.Record.Status != table.StatusFinished || b.Record.Status != table.StatusFinished {
		t.Fatalf("after six rounds: A at %d (%s), B at %d (%s); want 18, finished", a.Version, a.Record.Status, b.Version, b.Record.Status)
	}
	if !reflect.DeepEqual(a.State, b.State) || !reflect.DeepEqual(a.State, replayedIn(t, p.da, rec.ID)) {
		t.Fatal("A, B and the stored log differ")
	}
}

// replayedIn rebuilds a table's state straight from a store.
func replayedIn(t *testing.T, db *sqlite.DB, id string) engine.State {
	t.Helper()
	return (&env{db: db}).replayed(t, id)
}

// BenchmarkGetCached measures a Get served from the cache on SQLite,
// trusting the cache and, WithSharedStore, checking the stored stamp first.
func BenchmarkGetCached(b *testing.B) {
	ctx := context.Background()
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", shared), func(b *testing.B) {
			db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "stolik.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			var opts []table.Option
			if shared {
				opts = append(opts, table.WithSharedStore())
			}
			svc := table.New(db, opts...)
			rec, err := svc.Create(ctx, counterRecord(2, table.StatusPlaying))
			if err != nil {
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
