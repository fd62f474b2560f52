package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/record"
)

// Opener returns a new, empty store for one test; it closes the store when
// the test ends (Close may have been called already by then).
type Opener func(t *testing.T) Backend

// Run runs the conformance suite: every subtest gets a store of its own
// from open. Subtests that need RawDeleter, RawEditor or Reopener skip
// when the backend's adapter does not offer them.
func Run(t *testing.T, open Opener) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, open)
		})
	}
}

var cases = []struct {
	name string
	run  func(t *testing.T, open Opener)
}{
	{"CreateLoadRoundTrip", testCreateLoadRoundTrip},
	{"CreateDuplicate", testCreateDuplicate},
	{"OneOpenTablePerChannel", testOneOpenTablePerChannel},
	{"OneProcessAShard", testOneProcessAShard},
	{"CreateRejectsBadRecords", testCreateRejectsBadRecords},
	{"LoadUnknown", testLoadUnknown},
	{"Append", testAppend},
	{"AppendUnknownTable", testAppendUnknownTable},
	{"AppendRace", testAppendRace},
	{"ConcurrentAppendsSameTable", testConcurrentAppendsSameTable},
	{"ConflictFailsAlone", testConflictFailsAlone},
	{"ConcurrentAppendsDifferentTables", testConcurrentAppendsDifferentTables},
	{"TimePrecision", testTimePrecision},
	{"Update", testUpdate},
	{"OpenListsLobbyAndPlaying", testOpenListsLobbyAndPlaying},
	{"InChannel", testInChannel},
	{"LastInChannel", testLastInChannel},
	{"OpenTables", testOpenTables},
	{"EndedSince", testEndedSince},
	{"UserPrefs", testUserPrefs},
	{"MetaAndSeatFlags", testMetaAndSeatFlags},
	{"Deadlines", testDeadlines},
	{"DeadlinesFireOnce", testDeadlinesFireOnce},
	{"DeadlineClaimedOnce", testDeadlineClaimedOnce},
	{"ClaimDueExclusive", testClaimDueExclusive},
	{"ClaimLease", testClaimLease},
	{"Stamp", testStamp},
	{"Votes", testVotes},
	{"ResultsAndStats", testResultsAndStats},
	{"UnknownTableRefused", testUnknownTableRefused},
	{"MarkCorrupt", testMarkCorrupt},
	{"MarkCorruptFirstReasonWins", testMarkCorruptFirstReasonWins},
	{"LostRows", testLostRows},
	{"Check", testCheck},
	{"AppendOnly", testAppendOnly},
	{"LogLenBehindLog", testLogLenBehindLog},
	{"Reopen", testReopen},
	{"SchemaVersion", testSchemaVersion},
	{"Closed", testClosed},
}

var ctx = context.Background()

// T0 is the time of the records the suite stores: nanoseconds included, in
// a zone other than UTC.
var T0 = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600))

// Record returns a table record of three seats (two humans, one AI) in
// guild g1, channel c1, created at T0.
func Record(id string, status table.Status) table.Record {
	return table.Record{
		ID:     id,
		Setup:  engine.Setup{Game: "game-b", Options: engine.Options{"edition": "pl", "rounds": "8"}, Seats: 3, Seed: math.MaxUint64 - 41},
		Status: status,
		Seats: []table.SeatInfo{
			{Seat: 0, Kind: table.Human, UserID: "u100", Name: "Ala"},
			{Seat: 1, Kind: table.AI, Name: "Bot", Bot: "heuristic"},
			{Seat: 2, Kind: table.Human, UserID: "u200", Name: "Ołeh"},
		},
		Lang:      "pl",
		GuildID:   "g1",
		ChannelID: "c-" + id, // one open table per channel: a channel of its own
		MessageID: "m1",
		CreatedBy: "u100",
		CreatedAt: T0,
		UpdatedAt: T0.Add(time.Second),
	}
}

// Entry is entry n as the suite appends it.
func Entry(n int) table.Entry {
	return table.Entry{N: n, Seat: engine.Seat(n % 3), Action: fmt.Sprintf("play %d", n), At: T0.Add(time.Duration(n)*time.Minute + time.Duration(n)*time.Nanosecond)}
}

// Trunc is t as a backend keeping Precision returns it: in UTC, truncated.
func Trunc(t time.Time) time.Time { return t.UTC().Truncate(Precision) }

// NormRecord is rec with its times as Trunc makes them.
func NormRecord(rec table.Record) table.Record {
	rec.CreatedAt, rec.UpdatedAt = Trunc(rec.CreatedAt), Trunc(rec.UpdatedAt)
	return rec
}

// NormEntry is e with its time as Trunc makes it.
func NormEntry(e table.Entry) table.Entry {
	e.At = Trunc(e.At)
	return e
}

// NormLog is a log with its times as Trunc makes them.
func NormLog(log []table.Entry) []table.Entry {
	if log == nil {
		return nil
	}
	out := make([]table.Entry, len(log))
	for i, e := range log {
		out[i] = NormEntry(e)
	}
	return out
}

// returned checks that a time came back in UTC and as Trunc makes want:
// equal at Precision, never later than want, at most Precision earlier.
func returned(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if got.Location() != time.UTC {
		t.Errorf("%s: %v is not in UTC", what, got)
	}
	if !Trunc(got).Equal(Trunc(want)) || got.After(want) || want.Sub(got) >= Precision {
		t.Errorf("%s = %v, want %v (kept to at least %v, truncated)", what, got, want.UTC(), Precision)
	}
}

func create(t *testing.T, b Backend, recs ...table.Record) {
	t.Helper()
	for _, rec := range recs {
		if err := b.Create(ctx, rec); err != nil {
			t.Fatalf("Create %s: %v", rec.ID, err)
		}
	}
}

func appendN(t *testing.T, b Backend, id string, from, to int) {
	t.Helper()
	for n := from; n < to; n++ {
		if err := b.Append(ctx, id, Entry(n), ""); err != nil {
			t.Fatalf("Append %s #%d: %v", id, n, err)
		}
	}
}

func load(t *testing.T, b Backend, id string) (table.Record, []table.Entry) {
	t.Helper()
	rec, log, err := b.Load(ctx, id)
	if err != nil {
		t.Fatalf("Load %s: %v", id, err)
	}
	return rec, log
}

func wantCorrupt(t *testing.T, err error, id string, says ...string) {
	t.Helper()
	var ce *table.CorruptError
	if !errors.As(err, &ce) || ce.ID != id {
		t.Fatalf("%v; want a *table.CorruptError for table %s", err, id)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
}

// handles returns n handles on one new database: b itself, then handles
// from Reopen when the backend offers it (else b again).
func handles(t *testing.T, b Backend, n int) []Backend {
	hs := []Backend{b}
	for len(hs) < n {
		if r, ok := b.(Reopener); ok {
			hs = append(hs, r.Reopen(t))
		} else {
			hs = append(hs, b)
		}
	}
	return hs
}

func testCreateLoadRoundTrip(t *testing.T, open Opener) {
	full := Record("full", table.StatusPlaying)
	noOpts := Record("noopts", table.StatusLobby)
	noOpts.Setup.Options = nil
	noOpts.Seats = nil
	emptyOpts := Record("emptyopts", table.StatusLobby)
	emptyOpts.Setup.Options = engine.Options{}
	emptyOpts.Setup.Seed = 1
	zeroTimes := Record("zerotimes", table.StatusAbandoned)
	zeroTimes.CreatedAt, zeroTimes.UpdatedAt = time.Time{}, time.Time{}
	unicode := Record("unicode", table.StatusFinished)
	unicode.Seats[0].Name = "Зоряна 🃏 'quote\"\\ %_"
	unicode.Setup.Options = engine.Options{"note": "a=b; DROP TABLE tables; -- ' \" $1"}
	highSeed := Record("highseed", table.StatusPlaying)
	highSeed.Setup.Seed = 1 << 63
	maxSeed := Record("maxseed", table.StatusPlaying)
	maxSeed.Setup.Seed = math.MaxUint64
	shuffled := Record("shuffled", table.StatusLobby)
	shuffled.Seats = []table.SeatInfo{shuffled.Seats[2], shuffled.Seats[0], shuffled.Seats[1]}

	b := open(t)
	for _, rec := range []table.Record{full, noOpts, emptyOpts, zeroTimes, unicode, highSeed, maxSeed, shuffled} {
		t.Run(rec.ID, func(t *testing.T) {
			create(t, b, rec)
			got, log := load(t, b, rec.ID)
			if len(log) != 0 {
				t.Errorf("a new table has a log of %d", len(log))
			}
			want := NormRecord(rec)
			if rec.ID == "shuffled" {
				want.Seats = Record("x", "").Seats // loaded in seat order
			}
			if !reflect.DeepEqual(NormRecord(got), want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
			returned(t, "CreatedAt", got.CreatedAt, rec.CreatedAt)
			returned(t, "UpdatedAt", got.UpdatedAt, rec.UpdatedAt)
		})
	}
}

func testCreateDuplicate(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("dup", table.StatusLobby))
	other := Record("dup", table.StatusPlaying)
	other.Seats = other.Seats[:1]
	if err := b.Create(ctx, other); !errors.Is(err, table.ErrExists) {
		t.Fatalf("second Create: %v, want table.ErrExists", err)
	}
	if got, _ := load(t, b, "dup"); got.Status != table.StatusLobby || len(got.Seats) != 3 {
		t.Errorf("the failed Create changed the table: %+v", got)
	}
}

// testOneOpenTablePerChannel: a channel holds one open table (in the
// lobby or played): another is refused with table.ErrChannelTaken, from
// many goroutines at once (and handles, where the backend reopens) one
// gets it; once the table ends (by an entry, an update, or a corrupt
// mark) the channel takes a new one. An ended table never holds it.
func testOneOpenTablePerChannel(t *testing.T, open Opener) {
	b := open(t)
	hs := handles(t, b, 2)
	in := func(id string, st table.Status) table.Record {
		r := Record(id, st)
		r.ChannelID = "shared"
		return r
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, taken := 0, 0
	for k := range 8 {
		wg.Go(func() {
			err := hs[k%2].Create(ctx, in(fmt.Sprintf("race%d", k), table.StatusLobby))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made++
			case errors.Is(err, table.ErrChannelTaken):
				taken++
			default:
				t.Errorf("Create: %v", err)
			}
		})
	}
	wg.Wait()
	if made != 1 || taken != 7 {
		t.Fatalf("8 opens at once in one channel: %d made, %d refused; want 1 and 7", made, taken)
	}
	ids, err := b.InChannel(ctx, "shared")
	if err != nil || len(ids) != 1 {
		t.Fatalf("InChannel = %v, %v", ids, err)
	}
	// Ended tables do not hold the channel: finished ones, made so.
	create(t, b, in("done", table.StatusFinished))
	if err := b.Create(ctx, in("late", table.StatusPlaying)); !errors.Is(err, table.ErrChannelTaken) {
		t.Fatalf("a second open table: %v, want table.ErrChannelTaken", err)
	}
	first := ids[0]
	if err := b.Append(ctx, first, Entry(0), table.StatusAbandoned); err != nil {
		t.Fatal(err)
	}
	create(t, b, in("next", table.StatusLobby))
	rec, _ := load(t, b, "next")
	rec.Status = table.StatusAbandoned
	if err := b.Update(ctx, rec); err != nil {
		t.Fatal(err)
	}
	create(t, b, in("third", table.StatusPlaying))
	if err := b.MarkCorrupt(ctx, "third", "test"); err != nil {
		t.Fatal(err)
	}
	create(t, b, in("fourth", table.StatusLobby))
	if ids, err := b.InChannel(ctx, "shared"); err != nil || !slices.Equal(ids, []string{"fourth"}) {
		t.Errorf("InChannel at the end = %v, %v; want fourth", ids, err)
	}
}

func testCreateRejectsBadRecords(t *testing.T, open Opener) {
	b := open(t)
	for _, c := range []struct {
		name   string
		mutate func(*table.Record)
	}{
		{"empty id", func(r *table.Record) { r.ID = "" }},
		{"bad status", func(r *table.Record) { r.Status = "dancing" }},
		{"no status", func(r *table.Record) { r.Status = "" }},
		{"bad kind", func(r *table.Record) { r.Seats[1].Kind = "robot" }},
		{"negative seat", func(r *table.Record) { r.Seats[1].Seat = -1 }},
		{"seat twice", func(r *table.Record) { r.Seats[1].Seat = 0 }},
		{"seat repeated at the end", func(r *table.Record) { r.Seats = append(r.Seats, r.Seats[2]) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := Record("bad", table.StatusLobby)
			c.mutate(&rec)
			if err := b.Create(ctx, rec); err == nil {
				t.Fatal("Create accepted a bad record")
			}
			// Nothing was left behind by the failed transaction.
			if _, _, err := b.Load(ctx, "bad"); !errors.Is(err, table.ErrNotFound) {
				t.Fatalf("Load after a failed Create: %v, want table.ErrNotFound", err)
			}
		})
	}
}

func testLoadUnknown(t *testing.T, open Opener) {
	b := open(t)
	if _, _, err := b.Load(ctx, "nope"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Load: %v, want table.ErrNotFound", err)
	}
}

func testAppend(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t", table.StatusPlaying))
	appendN(t, b, "t", 0, 2)
	for _, c := range []struct {
		name string
		id   string
		n    int
		want error
	}{
		{"same position again", "t", 1, table.ErrConflict},
		{"behind", "t", 0, table.ErrConflict},
		{"gap", "t", 3, table.ErrConflict},
		{"negative", "t", -1, table.ErrConflict},
		{"unknown table", "nope", 0, table.ErrNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := b.Append(ctx, c.id, table.Entry{N: c.n, Action: "x", At: T0}, table.StatusFinished)
			if !errors.Is(err, c.want) {
				t.Fatalf("Append: %v, want %v", err, c.want)
			}
		})
	}
	rec, log := load(t, b, "t")
	if len(log) != 2 || rec.Status != table.StatusPlaying {
		t.Fatalf("after failed appends: log %d, status %s; want 2, playing", len(log), rec.Status)
	}
	if want := []table.Entry{NormEntry(Entry(0)), NormEntry(Entry(1))}; !reflect.DeepEqual(NormLog(log), want) {
		t.Errorf("log = %+v, want %+v", log, want)
	}

	// A status is stored with the entry; updated_at always follows it.
	at := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	if err := b.Append(ctx, "t", table.Entry{N: 2, Seat: 1, Action: "play Q7", At: at}, ""); err != nil {
		t.Fatal(err)
	}
	rec, _ = load(t, b, "t")
	if rec.Status != table.StatusPlaying {
		t.Errorf("an append without a status changed it to %s", rec.Status)
	}
	returned(t, "UpdatedAt after an append", rec.UpdatedAt, at)
	at = at.Add(time.Hour)
	if err := b.Append(ctx, "t", table.Entry{N: 3, Seat: 2, Action: "play Q8", At: at}, table.StatusFinished); err != nil {
		t.Fatal(err)
	}
	rec, log = load(t, b, "t")
	want := table.Entry{N: 3, Seat: 2, Action: "play Q8", At: at}
	if rec.Status != table.StatusFinished || len(log) != 4 || NormEntry(log[3]) != NormEntry(want) {
		t.Fatalf("after the final append: status %s, log %+v", rec.Status, log)
	}
	returned(t, "UpdatedAt after the final append", rec.UpdatedAt, at)
	returned(t, "CreatedAt after appends", rec.CreatedAt, T0)
	if err := b.Append(ctx, "t", table.Entry{N: 4, At: at}, "bogus"); err == nil {
		t.Error("Append accepted an unknown status")
	}
	if _, log := load(t, b, "t"); len(log) != 4 {
		t.Errorf("the refused append left %d entries, want 4", len(log))
	}
}

func testAppendUnknownTable(t *testing.T, open Opener) {
	b := open(t)
	for n := range 2 {
		if err := b.Append(ctx, "ghost", table.Entry{N: n, Action: "x", At: T0}, table.StatusPlaying); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("Append #%d to an unknown table: %v, want table.ErrNotFound", n, err)
		}
	}
	if _, _, err := b.Load(ctx, "ghost"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Load after appends to an unknown table: %v", err)
	}
	if ids, err := b.Open(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("Open = %v, %v", ids, err)
	}
}

// testAppendRace: two writers (two handles on the database, standing for
// two processes, when the backend can reopen) append the same entry at the
// same moment, 50 rounds: exactly one wins each round, the other fails with
// table.ErrConflict, and the log holds the winners' entries.
func testAppendRace(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t", table.StatusPlaying))
	hs := handles(t, b, 2)
	const rounds = 50
	winners := make([]string, rounds)
	for n := range rounds {
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			errs  [2]error
		)
		for i := range 2 {
			wg.Go(func() {
				<-start
				errs[i] = hs[i].Append(ctx, "t", table.Entry{N: n, Seat: engine.Seat(i), Action: fmt.Sprintf("w%d r%d", i, n), At: T0}, "")
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
				winners[n] = fmt.Sprintf("w%d r%d", i, n)
			case errors.Is(err, table.ErrConflict):
			default:
				t.Fatalf("round %d, writer %d: %v", n, i, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d appends won, want exactly 1 (%v)", n, won, errs)
		}
	}
	for _, h := range hs {
		_, log := load(t, h, "t")
		if len(log) != rounds {
			t.Fatalf("the log holds %d entries, want %d", len(log), rounds)
		}
		for n, e := range log {
			if e.N != n || e.Action != winners[n] {
				t.Fatalf("entry %d = %+v, want the winner's %q", n, e, winners[n])
			}
		}
	}
}

func testConcurrentAppendsSameTable(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t", table.StatusPlaying))
	appendN(t, b, "t", 0, 1)
	hs := handles(t, b, 2)
	const workers = 8
	errs := make([]error, workers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		wg.Go(func() {
			<-start
			errs[i] = hs[i%2].Append(ctx, "t", table.Entry{N: 1, Seat: engine.Seat(i), Action: fmt.Sprintf("w%d", i), At: T0}, "")
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, table.ErrConflict):
		default:
			t.Errorf("worker %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d appends won, want exactly 1", won)
	}
	if _, log := load(t, b, "t"); len(log) != 2 {
		t.Fatalf("log has %d entries, want 2", len(log))
	}
}

// testConflictFailsAlone: appends arriving together for several tables
// (one transaction for all of them, when the backend groups commits): a
// conflicting append fails alone and the others are stored.
func testConflictFailsAlone(t *testing.T, open Opener) {
	b := open(t)
	for i := range 8 {
		create(t, b, Record(fmt.Sprintf("g%d", i), table.StatusPlaying))
	}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for k := range 16 {
		wg.Go(func() {
			// Two appends of entry 0 per table: one wins, one conflicts.
			errs[k] = b.Append(ctx, fmt.Sprintf("g%d", k%8), table.Entry{N: 0, Action: fmt.Sprintf("play %d", k), At: T0}, "")
		})
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, table.ErrConflict):
			conflicts++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 8 || conflicts != 8 {
		t.Errorf("%d stored, %d conflicts; want 8 and 8", ok, conflicts)
	}
	for i := range 8 {
		if _, log := load(t, b, fmt.Sprintf("g%d", i)); len(log) != 1 {
			t.Errorf("table g%d: %d entries, want 1", i, len(log))
		}
	}
}

func testConcurrentAppendsDifferentTables(t *testing.T, open Opener) {
	b := open(t)
	hs := handles(t, b, 2)
	const tables, appends = 8, 25
	for i := range tables {
		create(t, b, Record(fmt.Sprintf("t%d", i), table.StatusPlaying))
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables*appends)
	for i := range tables {
		wg.Go(func() {
			h, id := hs[i%2], fmt.Sprintf("t%d", i)
			for n := range appends {
				if err := h.Append(ctx, id, Entry(n), ""); err != nil {
					errs <- fmt.Errorf("%s #%d: %w", id, n, err)
					return
				}
				if _, log, err := h.Load(ctx, id); err != nil || len(log) != n+1 {
					errs <- fmt.Errorf("%s load after #%d: %d entries, %v", id, n, len(log), err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range tables {
		if _, log := load(t, hs[1], fmt.Sprintf("t%d", i)); len(log) != appends {
			t.Errorf("t%d has %d entries, want %d", i, len(log), appends)
		}
	}
}

// testTimePrecision: every stored time comes back in UTC, equal to what
// was stored at Precision and truncated, never rounded up.
func testTimePrecision(t *testing.T, open Opener) {
	b := open(t)
	rec := Record("t", table.StatusPlaying)
	rec.CreatedAt = time.Date(2025, 12, 31, 23, 59, 59, 999999999, time.FixedZone("X", -7*3600))
	rec.UpdatedAt = time.Date(1999, 1, 1, 0, 0, 0, 1, time.UTC)
	create(t, b, rec)
	at := time.Date(2030, 6, 30, 12, 0, 0, 123456789, time.FixedZone("Y", 5*3600+1800))
	if err := b.Append(ctx, "t", table.Entry{N: 0, Action: "x", At: at}, ""); err != nil {
		t.Fatal(err)
	}
	got, log := load(t, b, "t")
	returned(t, "CreatedAt", got.CreatedAt, rec.CreatedAt)
	returned(t, "entry time", log[0].At, at)
	returned(t, "UpdatedAt", got.UpdatedAt, at)
	dl := record.Deadline{TableID: "t", Seat: 1, StartedAt: at, RemindAt: at.Add(time.Nanosecond), DueAt: at.Add(2 * time.Hour)}
	if err := b.PutDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	dls, err := b.Deadlines(ctx, "t")
	if err != nil || len(dls) != 1 {
		t.Fatalf("Deadlines = %+v, %v", dls, err)
	}
	returned(t, "StartedAt", dls[0].StartedAt, dl.StartedAt)
	returned(t, "RemindAt", dls[0].RemindAt, dl.RemindAt)
	// The deadline as stored still claims its turn (started_at matches).
	if ok, err := b.MarkReminded(ctx, dl, at); err != nil || !ok {
		t.Fatalf("MarkReminded with the nanosecond start = %v, %v", ok, err)
	}
	if ok, err := b.MarkExpired(ctx, dls[0], at); err != nil || !ok {
		t.Fatalf("MarkExpired with the start as loaded = %v, %v", ok, err)
	}
}

func testUpdate(t *testing.T, open Opener) {
	b := open(t)
	rec := Record("t", table.StatusLobby)
	create(t, b, rec)
	rec.Status = table.StatusPlaying
	rec.MessageID = "m2"
	rec.Lang = "uk"
	rec.ChannelID = "c9"
	rec.Setup.Options = engine.Options{"edition": "uk"}
	rec.Setup.Seed = 7
	rec.Seats = []table.SeatInfo{{Seat: 2, Kind: table.AI, Bot: "random"}, {Seat: 0, Kind: table.Human, UserID: "u9", Name: "Ewa"}}
	rec.UpdatedAt = T0.Add(time.Hour)
	rec.CreatedAt = T0.Add(-time.Hour) // ignored: the creation time is kept
	if err := b.Update(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, _ := load(t, b, "t")
	want := NormRecord(rec)
	want.CreatedAt = Trunc(T0)
	want.Seats = []table.SeatInfo{rec.Seats[1], rec.Seats[0]} // loaded in seat order
	if !reflect.DeepEqual(NormRecord(got), want) {
		t.Fatalf("after Update:\n got %+v\nwant %+v", got, want)
	}
	bad := rec
	bad.Seats = append(bad.Seats, table.SeatInfo{Seat: 0, Kind: table.Human})
	if err := b.Update(ctx, bad); err == nil {
		t.Error("Update accepted a seat listed twice")
	}
	if again, _ := load(t, b, "t"); !reflect.DeepEqual(NormRecord(again), want) {
		t.Errorf("a failed Update changed the table: %+v", again)
	}
	rec.ID = "nope"
	if err := b.Update(ctx, rec); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Update of an unknown table: %v, want table.ErrNotFound", err)
	}
}

func testOpenListsLobbyAndPlaying(t *testing.T, open Opener) {
	b := open(t)
	for i, st := range []table.Status{table.StatusLobby, table.StatusFinished, table.StatusPlaying, table.StatusAbandoned, table.StatusLobby, table.StatusPlaying} {
		rec := Record(fmt.Sprintf("t%d", i), st)
		rec.CreatedAt = T0.Add(time.Duration(10-i) * time.Second)
		if i == 5 {
			rec.CreatedAt = T0.Add(8 * time.Second) // as old as t2: the id decides
		}
		create(t, b, rec)
	}
	if err := b.Append(ctx, "t4", Entry(0), table.StatusFinished); err != nil {
		t.Fatal(err)
	}
	ids, err := b.Open(ctx)
	if want := []string{"t2", "t5", "t0"}; err != nil || !slices.Equal(ids, want) {
		t.Fatalf("Open = %v, %v; want %v (oldest first, then by id)", ids, err, want)
	}
}

func testInChannel(t *testing.T, open Opener) {
	b := open(t)
	// c1 holds a in its lobby, c (finished) and, in a thread of c3, e.
	a, c := Record("a", table.StatusLobby), Record("c", table.StatusFinished)
	a.ChannelID, c.ChannelID = "c1", "c1"
	d := Record("d", table.StatusPlaying)
	d.ChannelID = "c2"
	e := Record("e", table.StatusPlaying)
	e.ChannelID = "c3"
	e.CreatedAt = T0.Add(-time.Hour)
	create(t, b, a, c, d, e)
	if err := b.SetMeta(ctx, "e", record.Meta{ThreadID: "c1"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		channel string
		want    []string
	}{{"c1", []string{"e", "a"}}, {"c2", []string{"d"}}, {"c3", []string{"e"}}, {"none", nil}} {
		if got, err := b.InChannel(ctx, c.channel); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("InChannel(%s) = %v, %v; want %v", c.channel, got, err, c.want)
		}
	}
}

func testLastInChannel(t *testing.T, open Opener) {
	b := open(t)
	if id, err := b.LastInChannel(ctx, "c1"); err != nil || id != "" {
		t.Fatalf("LastInChannel of an empty store = %q, %v", id, err)
	}
	old, newer, other := Record("old", table.StatusPlaying), Record("newer", table.StatusAbandoned), Record("other", table.StatusLobby)
	old.ChannelID, newer.ChannelID = "c1", "c1"
	newer.CreatedAt = T0.Add(time.Minute)
	other.ChannelID = "c2"
	other.CreatedAt = T0.Add(time.Hour)
	create(t, b, old, newer, other)
	if id, err := b.LastInChannel(ctx, "c1"); err != nil || id != "newer" {
		t.Errorf("LastInChannel(c1) = %q, %v; want newer (whatever its status)", id, err)
	}
	if err := b.SetMeta(ctx, "other", record.Meta{ThreadID: "th"}); err != nil {
		t.Fatal(err)
	}
	if id, err := b.LastInChannel(ctx, "th"); err != nil || id != "other" {
		t.Errorf("LastInChannel(thread) = %q, %v; want other", id, err)
	}
	same := Record("same", table.StatusFinished)
	same.ChannelID = "c1"
	same.CreatedAt = newer.CreatedAt
	create(t, b, same)
	if id, err := b.LastInChannel(ctx, "c1"); err != nil || id != "same" {
		t.Errorf("LastInChannel with two tables as new = %q, %v; want the greater id, same", id, err)
	}
}

func testOpenTables(t *testing.T, open Opener) {
	b := open(t)
	humans := Record("humans", table.StatusPlaying)
	humans.Seats = []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "u1"}, {Seat: 1, Kind: table.Human, UserID: "u2"}}
	humans.CreatedAt = T0.Add(time.Second)
	withAI := Record("withai", table.StatusLobby)
	done := Record("done", table.StatusFinished)
	create(t, b, humans, withAI, done)
	at := T0.Add(time.Hour + 789*time.Nanosecond)
	if err := b.Append(ctx, "humans", table.Entry{N: 0, Action: "x", At: at}, ""); err != nil {
		t.Fatal(err)
	}
	ts, err := b.OpenTables(ctx)
	if err != nil || len(ts) != 2 {
		t.Fatalf("OpenTables = %+v, %v", ts, err)
	}
	if ts[0].ID != "withai" || !ts[0].HasAI || ts[1].ID != "humans" || ts[1].HasAI {
		t.Errorf("OpenTables = %+v; want withai (AI), then humans (no AI)", ts)
	}
	returned(t, "withai UpdatedAt", ts[0].UpdatedAt, withAI.UpdatedAt)
	returned(t, "humans UpdatedAt", ts[1].UpdatedAt, at)
}

// testEndedSince lists the tables that ended after a time, finished or
// abandoned, never open or corrupt ones.
func testEndedSince(t *testing.T, open Opener) {
	b := open(t)
	at := func(m int) time.Time { return T0.Add(time.Duration(m) * time.Minute) }
	for _, c := range []struct {
		id     string
		status table.Status
		min    int
	}{{"old", table.StatusFinished, 1}, {"done", table.StatusFinished, 10}, {"gone", table.StatusAbandoned, 12},
		{"open", table.StatusPlaying, 11}, {"bad", table.StatusFinished, 13}, {"a-tie", table.StatusFinished, 12}} {
		rec := Record(c.id, c.status)
		rec.UpdatedAt = at(c.min)
		create(t, b, rec)
	}
	if err := b.MarkCorrupt(ctx, "bad", "test"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		since int
		want  []string
	}{{0, []string{"old", "done", "a-tie", "gone"}}, {5, []string{"done", "a-tie", "gone"}}, {10, []string{"a-tie", "gone"}}, {12, nil}, {20, nil}} {
		got, err := b.EndedSince(ctx, at(c.since))
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("EndedSince(+%dm) = %v, %v; want %v", c.since, got, err, c.want)
		}
	}
	// The last move of a game ends it: the table's update time is the move's.
	create(t, b, Record("late", table.StatusPlaying))
	if err := b.Append(ctx, "late", table.Entry{N: 0, Action: "x", At: at(30)}, table.StatusFinished); err != nil {
		t.Fatal(err)
	}
	if got, err := b.EndedSince(ctx, at(29)); err != nil || !slices.Equal(got, []string{"late"}) {
		t.Errorf("EndedSince after a finishing move = %v, %v", got, err)
	}
}

func testUserPrefs(t *testing.T, open Opener) {
	b := open(t)
	if got, err := b.UserLang(ctx, "u1"); err != nil || got != "" {
		t.Fatalf("UserLang before = %q, %v", got, err)
	}
	if on, err := b.DMReminders(ctx, "u1"); err != nil || on {
		t.Fatalf("DMReminders before = %v, %v; want off", on, err)
	}
	for _, lang := range []string{"pl", "uk", ""} {
		if err := b.SetUserLang(ctx, "u1", lang); err != nil {
			t.Fatal(err)
		}
		if got, err := b.UserLang(ctx, "u1"); err != nil || got != lang {
			t.Errorf("UserLang = %q, %v; want %q", got, err, lang)
		}
	}
	// DM reminders are opt-in, and independent of the language.
	if err := b.SetUserLang(ctx, "u1", "pl"); err != nil {
		t.Fatal(err)
	}
	if on, _ := b.DMReminders(ctx, "u1"); on {
		t.Error("DM reminders on by default")
	}
	if err := b.SetDMReminders(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	if on, _ := b.DMReminders(ctx, "u1"); !on {
		t.Error("DM reminders not turned on")
	}
	if l, _ := b.UserLang(ctx, "u1"); l != "pl" {
		t.Errorf("turning reminders on changed the language to %q", l)
	}
	if err := b.SetDMReminders(ctx, "u3", true); err != nil {
		t.Fatal(err)
	}
	if l, _ := b.UserLang(ctx, "u3"); l != "" {
		t.Errorf("a user known only by reminders has language %q", l)
	}
	if err := b.SetDMReminders(ctx, "u1", false); err != nil {
		t.Fatal(err)
	}
	if on, _ := b.DMReminders(ctx, "u1"); on {
		t.Error("DM reminders not turned off")
	}
	if got, _ := b.UserLang(ctx, "u2"); got != "" {
		t.Errorf("another user: %q", got)
	}
}

func testMetaAndSeatFlags(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t1", table.StatusPlaying), Record("t2", table.StatusPlaying))
	if m, err := b.Meta(ctx, "t1"); err != nil || m != (record.Meta{}) {
		t.Fatalf("Meta before = %+v, %v; want zero", m, err)
	}
	for _, m := range []record.Meta{
		{Deadline: 24 * time.Hour, WantThread: true, ThreadID: "55", StandIns: true, AILevel: "hard"},
		{Deadline: 90 * time.Second},
		{},
	} {
		if err := b.SetMeta(ctx, "t1", m); err != nil {
			t.Fatal(err)
		}
		if got, err := b.Meta(ctx, "t1"); err != nil || got != m {
			t.Errorf("Meta = %+v, %v; want %+v", got, err, m)
		}
	}
	if m, _ := b.Meta(ctx, "t2"); m != (record.Meta{}) {
		t.Errorf("another table's meta: %+v", m)
	}
	if fs, err := b.SeatFlags(ctx, "t1"); err != nil || len(fs) != 0 {
		t.Fatalf("SeatFlags before = %v, %v", fs, err)
	}
	for _, f := range []struct {
		seat engine.Seat
		f    record.SeatFlags
	}{{1, record.SeatFlags{Vacant: true}}, {2, record.SeatFlags{StandIn: true}}, {1, record.SeatFlags{Vacant: true, StandIn: true}}} {
		if err := b.SetSeatFlags(ctx, "t1", f.seat, f.f); err != nil {
			t.Fatal(err)
		}
	}
	want := map[engine.Seat]record.SeatFlags{1: {Vacant: true, StandIn: true}, 2: {StandIn: true}}
	if fs, err := b.SeatFlags(ctx, "t1"); err != nil || !reflect.DeepEqual(fs, want) {
		t.Errorf("SeatFlags = %v, %v; want %v", fs, err, want)
	}
	if fs, _ := b.SeatFlags(ctx, "t2"); len(fs) != 0 {
		t.Errorf("another table's flags: %v", fs)
	}
}

func sameDeadline(a, b record.Deadline) bool {
	n := func(d record.Deadline) record.Deadline {
		d.StartedAt, d.RemindAt, d.DueAt = Trunc(d.StartedAt), Trunc(d.RemindAt), Trunc(d.DueAt)
		if !d.RemindedAt.IsZero() {
			d.RemindedAt = Trunc(d.RemindedAt)
		}
		if !d.ExpiredAt.IsZero() {
			d.ExpiredAt = Trunc(d.ExpiredAt)
		}
		return d
	}
	return n(a) == n(b)
}

func testDeadlines(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t1", table.StatusPlaying), Record("t2", table.StatusPlaying))
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id string, seat engine.Seat, start time.Duration) record.Deadline {
		s := base.Add(start)
		return record.Deadline{TableID: id, Seat: seat, StartedAt: s, RemindAt: s.Add(18 * time.Hour), DueAt: s.Add(24 * time.Hour)}
	}
	if _, ok, err := b.NextDue(ctx); err != nil || ok {
		t.Fatalf("NextDue with no deadline: %v, %v", ok, err)
	}
	if dls, err := b.Deadlines(ctx, "t1"); err != nil || len(dls) != 0 {
		t.Fatalf("Deadlines before = %v, %v", dls, err)
	}
	d2, d0, d1 := mk("t1", 2, 0), mk("t1", 0, time.Hour), mk("t2", 1, 2*time.Hour)
	d0.RemindedAt = d0.RemindAt // stored already reminded
	for _, dl := range []record.Deadline{d2, d0, d1} {
		if err := b.PutDeadline(ctx, dl); err != nil {
			t.Fatal(err)
		}
	}
	dls, err := b.Deadlines(ctx, "t1")
	if err != nil || len(dls) != 2 || !sameDeadline(dls[0], d0) || !sameDeadline(dls[1], d2) {
		t.Fatalf("Deadlines(t1) = %+v, %v; want seat 0 then seat 2", dls, err)
	}
	if next, ok, err := b.NextDue(ctx); err != nil || !ok || !next.Equal(d2.RemindAt) {
		t.Fatalf("NextDue = %v, %v, %v; want %v", next, ok, err, d2.RemindAt)
	}
	for _, c := range []struct {
		at   time.Duration
		want []record.Deadline
	}{
		{17 * time.Hour, nil},
		{18 * time.Hour, []record.Deadline{d2}},                   // t1/2's reminder; t1/0 was reminded
		{20 * time.Hour, []record.Deadline{d2, d1}},               // by table, then seat
		{25 * time.Hour, []record.Deadline{d0, d2, d1}},           // t1/0 is due
		{27 * time.Hour, []record.Deadline{d0, d2, d1}},           // all due
		{-time.Hour, nil},                                         // before everything
		{24*time.Hour + time.Hour - 1, []record.Deadline{d2, d1}}, // t1/0 due a nanosecond later
	} {
		due, err := b.DueDeadlines(ctx, base.Add(c.at))
		if err != nil || len(due) != len(c.want) {
			t.Errorf("DueDeadlines(+%v) = %+v, %v; want %d", c.at, due, err, len(c.want))
			continue
		}
		for i := range due {
			if !sameDeadline(due[i], c.want[i]) {
				t.Errorf("DueDeadlines(+%v)[%d] = %+v, want %+v", c.at, i, due[i], c.want[i])
			}
		}
	}
	// Putting a seat's deadline again replaces it, reminder mark included.
	fresh := mk("t1", 0, 3*time.Hour)
	if err := b.PutDeadline(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if dls, _ := b.Deadlines(ctx, "t1"); len(dls) != 2 || !sameDeadline(dls[0], fresh) || !dls[0].RemindedAt.IsZero() {
		t.Errorf("after replacing seat 0's deadline: %+v", dls)
	}
	if err := b.DeleteDeadline(ctx, "t1", 2); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteDeadline(ctx, "t1", 5); err != nil {
		t.Errorf("deleting a deadline that does not exist: %v", err)
	}
	if dls, _ := b.Deadlines(ctx, "t1"); len(dls) != 1 || dls[0].Seat != 0 {
		t.Errorf("after deleting seat 2's deadline: %+v", dls)
	}
	if next, ok, _ := b.NextDue(ctx); !ok || !next.Equal(d1.RemindAt) {
		t.Errorf("NextDue = %v, %v; want %v (t2's reminder)", next, ok, d1.RemindAt)
	}
}

// testDeadlinesFireOnce: a deadline's reminder and expiry are marked once
// each, survive reopening the database, and a new turn starts a new clock.
func testDeadlinesFireOnce(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t1", table.StatusPlaying))
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	dl := record.Deadline{TableID: "t1", Seat: 2, StartedAt: t0, RemindAt: t0.Add(18 * time.Hour), DueAt: t0.Add(24 * time.Hour)}
	if err := b.PutDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := b.NextDue(ctx); err != nil || !ok || !next.Equal(dl.RemindAt) {
		t.Fatalf("NextDue = %v, %v, %v", next, ok, err)
	}
	due, err := b.DueDeadlines(ctx, t0.Add(18*time.Hour))
	if err != nil || len(due) != 1 {
		t.Fatalf("due after 18 h: %v, %v", due, err)
	}
	for k, want := range []bool{true, false} {
		if got, err := b.MarkReminded(ctx, due[0], t0.Add(18*time.Hour)); err != nil || got != want {
			t.Fatalf("MarkReminded #%d = %v, %v", k+1, got, err)
		}
	}
	if r, ok := b.(Reopener); ok {
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		b = r.Reopen(t)
	}
	if next, ok, err := b.NextDue(ctx); err != nil || !ok || !next.Equal(dl.DueAt) {
		t.Fatalf("NextDue after the reminder = %v, %v, %v", next, ok, err)
	}
	due, _ = b.DueDeadlines(ctx, t0.Add(25*time.Hour))
	if len(due) != 1 || due[0].RemindedAt.IsZero() {
		t.Fatalf("due after 25 h: %+v", due)
	}
	returned(t, "RemindedAt", due[0].RemindedAt, t0.Add(18*time.Hour))
	if ok, err := b.MarkExpired(ctx, due[0], t0.Add(25*time.Hour)); err != nil || !ok {
		t.Fatalf("the first expiry was not marked: %v", err)
	}
	if ok, _ := b.MarkExpired(ctx, due[0], t0.Add(25*time.Hour)); ok {
		t.Fatal("the expiry was marked twice")
	}
	if _, ok, _ := b.NextDue(ctx); ok {
		t.Fatal("a handled deadline is still due")
	}
	// A stale handle (an older turn) marks nothing.
	fresh := record.Deadline{TableID: "t1", Seat: 2, StartedAt: t0.Add(26 * time.Hour), RemindAt: t0.Add(40 * time.Hour), DueAt: t0.Add(50 * time.Hour)}
	if err := b.PutDeadline(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if ok, _ := b.MarkReminded(ctx, dl, t0.Add(41*time.Hour)); ok {
		t.Fatal("an old turn's reminder marked the new turn")
	}
	if ok, _ := b.MarkExpired(ctx, dl, t0.Add(51*time.Hour)); ok {
		t.Fatal("an old turn's expiry marked the new turn")
	}
	gone := record.Deadline{TableID: "t1", Seat: 0, StartedAt: t0}
	if ok, err := b.MarkReminded(ctx, gone, t0); err != nil || ok {
		t.Fatalf("marking a deadline that does not exist = %v, %v", ok, err)
	}
}

// testDeadlineClaimedOnce: many callers (on two handles, standing for two
// processes, when the backend can reopen) mark the same reminder and the
// same expiry at once: exactly one of them is told it did, for each.
func testDeadlineClaimedOnce(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t1", table.StatusPlaying))
	hs := handles(t, b, 2)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for round := range 5 {
		start := t0.Add(time.Duration(round) * 48 * time.Hour)
		dl := record.Deadline{TableID: "t1", Seat: 1, StartedAt: start, RemindAt: start.Add(time.Hour), DueAt: start.Add(2 * time.Hour)}
		if err := b.PutDeadline(ctx, dl); err != nil {
			t.Fatal(err)
		}
		for _, mark := range []struct {
			name string
			f    func(Backend, record.Deadline, time.Time) (bool, error)
		}{
			{"MarkReminded", func(h Backend, dl record.Deadline, at time.Time) (bool, error) { return h.MarkReminded(ctx, dl, at) }},
			{"MarkExpired", func(h Backend, dl record.Deadline, at time.Time) (bool, error) { return h.MarkExpired(ctx, dl, at) }},
		} {
			const callers = 12
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				wins int
				gate = make(chan struct{})
			)
			for i := range callers {
				wg.Go(func() {
					<-gate
					ok, err := mark.f(hs[i%2], dl, start.Add(3*time.Hour))
					if err != nil {
						t.Errorf("%s: %v", mark.name, err)
					}
					if ok {
						mu.Lock()
						wins++
						mu.Unlock()
					}
				})
			}
			close(gate)
			wg.Wait()
			if wins != 1 {
				t.Fatalf("round %d: %s returned true %d times among %d concurrent callers, want exactly once", round, mark.name, wins, callers)
			}
		}
	}
}

func testVotes(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t1", table.StatusPlaying), Record("t2", table.StatusPlaying))
	now := T0
	if v, err := b.Votes(ctx, "t1", "stall:1"); err != nil || len(v) != 0 {
		t.Fatalf("Votes before = %v, %v", v, err)
	}
	for _, c := range []struct {
		id, topic, voter, choice string
		changed                  bool
	}{
		{"t1", "stall:1", "u1", "ai", true},
		{"t1", "stall:1", "u1", "ai", false}, // repeated
		{"t1", "stall:1", "u1", "wait", true},
		{"t1", "stall:1", "u2", "wait", true},
		{"t1", "abandon", "u1", "yes", true},
		{"t2", "stall:1", "u1", "open", true},
	} {
		if ch, err := b.Vote(ctx, c.id, c.topic, c.voter, c.choice, now); err != nil || ch != c.changed {
			t.Errorf("Vote(%s %s %s %s) = %v, %v; want %v", c.id, c.topic, c.voter, c.choice, ch, err, c.changed)
		}
	}
	for _, c := range []struct {
		id, topic string
		want      map[string]string
	}{
		{"t1", "stall:1", map[string]string{"u1": "wait", "u2": "wait"}},
		{"t1", "abandon", map[string]string{"u1": "yes"}},
		{"t2", "stall:1", map[string]string{"u1": "open"}},
		{"t2", "abandon", map[string]string{}},
	} {
		if v, err := b.Votes(ctx, c.id, c.topic); err != nil || !reflect.DeepEqual(v, c.want) {
			t.Errorf("Votes(%s, %s) = %v, %v; want %v", c.id, c.topic, v, err, c.want)
		}
	}
	if err := b.ClearVotes(ctx, "t1", "stall:1"); err != nil {
		t.Fatal(err)
	}
	if v, _ := b.Votes(ctx, "t1", "stall:1"); len(v) != 0 {
		t.Errorf("votes after clearing: %v", v)
	}
	if v, _ := b.Votes(ctx, "t1", "abandon"); len(v) != 1 {
		t.Errorf("clearing one topic cleared another: %v", v)
	}
	if v, _ := b.Votes(ctx, "t2", "stall:1"); len(v) != 1 {
		t.Errorf("clearing one table's votes cleared another's: %v", v)
	}
	// The same new vote arriving several times at once counts once.
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		changed int
	)
	for range 8 {
		wg.Go(func() {
			ch, err := b.Vote(ctx, "t1", "stall:2", "u9", "ai", now)
			if err != nil {
				t.Error(err)
			}
			if ch {
				mu.Lock()
				changed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if changed != 1 {
		t.Errorf("the same vote, cast 8 times at once, changed the votes %d times; want 1", changed)
	}
}

func testResultsAndStats(t *testing.T, open Opener) {
	b := open(t)
	rec := Record("t1", table.StatusFinished)
	rec2 := Record("t2", table.StatusFinished)
	rec2.Setup.Game = "game-a"
	rec3 := Record("t3", table.StatusFinished)
	rec4 := Record("t4", table.StatusFinished)
	rec4.GuildID = "g2"
	live := Record("live", table.StatusPlaying)
	lobby := Record("lobby", table.StatusLobby)
	lobby.Seats = []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "u9"}}
	elsewhere := Record("elsewhere", table.StatusPlaying)
	elsewhere.GuildID = "g2"
	create(t, b, rec, rec2, rec3, rec4, live, lobby, elsewhere)
	now := T0.Add(time.Hour)
	rs := []record.Result{
		{TableID: "t1", Seat: 0, UserID: "u1", Score: 3, Won: true, Game: "game-b", FinishedAt: now},
		{TableID: "t1", Seat: 1, UserID: "", Score: 9, Game: "game-b", FinishedAt: now},
		{TableID: "t1", Seat: 2, UserID: "u2", Score: 7, Game: "game-b", StandIn: true, FinishedAt: now},
	}
	for range 2 { // recording the same table again changes nothing
		if err := b.RecordResults(ctx, rs); err != nil {
			t.Fatal(err)
		}
	}
	changed := rs[0]
	changed.Score = 100
	if err := b.RecordResults(ctx, []record.Result{changed}); err != nil {
		t.Fatal(err)
	}
	for _, r := range [][]record.Result{
		{{TableID: "t2", Seat: 0, UserID: "u1", Score: 10, Game: "game-a", FinishedAt: now},
			{TableID: "t2", Seat: 1, UserID: "u2", Score: 20, Won: true, Game: "game-a", FinishedAt: now}},
		{{TableID: "t3", Seat: 0, UserID: "u1", Score: 4, Game: "game-b", StandIn: true, FinishedAt: now},
			{TableID: "t3", Seat: 1, UserID: "u2", Score: 2, Won: true, Game: "game-b", FinishedAt: now}},
		{{TableID: "t4", Seat: 0, UserID: "u1", Score: 50, Won: true, Game: "game-b", FinishedAt: now}},
	} {
		if err := b.RecordResults(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.RecordResults(ctx, nil); err != nil {
		t.Errorf("RecordResults of nothing: %v", err)
	}
	gs, err := b.GuildStats(ctx, "g1")
	wantG := []record.GameStat{{Game: "game-a", Games: 1}, {Game: "game-b", Games: 2, StandIns: 2}}
	if err != nil || !reflect.DeepEqual(gs, wantG) {
		t.Errorf("GuildStats(g1) = %+v, %v; want %+v", gs, err, wantG)
	}
	if gs, err := b.GuildStats(ctx, "g3"); err != nil || len(gs) != 0 {
		t.Errorf("GuildStats of a server without games = %+v, %v", gs, err)
	}
	ps, err := b.PlayerStats(ctx, "g1", "u1")
	wantP := []record.PlayerStat{{Game: "game-a", Played: 1, Won: 0, AvgScore: 10}, {Game: "game-b", Played: 2, Won: 1, AvgScore: 3.5, StandIns: 1}}
	if err != nil || !reflect.DeepEqual(ps, wantP) {
		t.Errorf("PlayerStats(g1, u1) = %+v, %v; want %+v", ps, err, wantP)
	}
	ps, err = b.PlayerStats(ctx, "g1", "u2")
	wantP = []record.PlayerStat{{Game: "game-a", Played: 1, Won: 1, AvgScore: 20}, {Game: "game-b", Played: 2, Won: 1, AvgScore: 4.5, StandIns: 1}}
	if err != nil || !reflect.DeepEqual(ps, wantP) {
		t.Errorf("PlayerStats(g1, u2) = %+v, %v; want %+v", ps, err, wantP)
	}
	if ps, err := b.PlayerStats(ctx, "g1", "nobody"); err != nil || len(ps) != 0 {
		t.Errorf("PlayerStats of a stranger = %+v, %v", ps, err)
	}
	for _, c := range []struct {
		guild, user string
		want        int
	}{{"g1", "", 2}, {"g1", "u100", 1}, {"g1", "u9", 1}, {"g1", "u1", 0}, {"g2", "", 1}, {"g3", "", 0}} {
		if n, err := b.CurrentTables(ctx, c.guild, c.user); err != nil || n != c.want {
			t.Errorf("CurrentTables(%s, %q) = %d, %v; want %d", c.guild, c.user, n, err, c.want)
		}
	}
}

// testUnknownTableRefused: what belongs to a table cannot be stored for a
// table that does not exist.
func testUnknownTableRefused(t *testing.T, open Opener) {
	b := open(t)
	for name, f := range map[string]func() error{
		"SetMeta":      func() error { return b.SetMeta(ctx, "ghost", record.Meta{ThreadID: "x"}) },
		"SetSeatFlags": func() error { return b.SetSeatFlags(ctx, "ghost", 0, record.SeatFlags{Vacant: true}) },
		"PutDeadline": func() error {
			return b.PutDeadline(ctx, record.Deadline{TableID: "ghost", StartedAt: T0, RemindAt: T0, DueAt: T0})
		},
		"Vote": func() error { _, err := b.Vote(ctx, "ghost", "abandon", "u1", "yes", T0); return err },
		"RecordResults": func() error {
			return b.RecordResults(ctx, []record.Result{{TableID: "ghost", Game: "game-a", FinishedAt: T0}})
		},
	} {
		if err := f(); err == nil {
			t.Errorf("%s for an unknown table was accepted", name)
		}
	}
}

// testMarkCorrupt: a table marked corrupt fails to load and to take an
// entry with a CorruptError giving the reason, and no listing of open or
// ended tables shows it; an unknown table or an empty reason is refused.
func testMarkCorrupt(t *testing.T, open Opener) {
	b := open(t)
	for _, id := range []string{"a", "b"} {
		rec := Record(id, table.StatusPlaying)
		rec.ChannelID = "c-" + id
		create(t, b, rec)
		appendN(t, b, id, 0, 1)
	}
	if got, err := b.MarkedCorrupt(ctx); err != nil || len(got) != 0 {
		t.Fatalf("MarkedCorrupt before = %+v, %v", got, err)
	}
	if err := b.MarkCorrupt(ctx, "a", "  log does not replay at entry 0\n"); err != nil {
		t.Fatal(err)
	}
	_, _, err := b.Load(ctx, "a")
	wantCorrupt(t, err, "a", "does not replay")
	if !errors.Is(err, store.ErrMarkedCorrupt) {
		t.Errorf("Load of a marked table: %v does not wrap store.ErrMarkedCorrupt", err)
	}
	err = b.Append(ctx, "a", table.Entry{N: 1, Action: "x", At: T0}, "")
	wantCorrupt(t, err, "a")
	if errors.Is(err, table.ErrConflict) {
		t.Errorf("Append to a marked table: %v is also a conflict", err)
	}
	if _, log := load(t, b, "b"); len(log) != 1 {
		t.Fatalf("the other table: %d entries", len(log))
	}
	if ids, err := b.Open(ctx); err != nil || !slices.Equal(ids, []string{"b"}) {
		t.Errorf("Open = %v, %v", ids, err)
	}
	if ids, err := b.InChannel(ctx, "c-a"); err != nil || len(ids) != 0 {
		t.Errorf("InChannel of the marked table's channel = %v, %v", ids, err)
	}
	if ids, err := b.InChannel(ctx, "c-b"); err != nil || !slices.Equal(ids, []string{"b"}) {
		t.Errorf("InChannel = %v, %v", ids, err)
	}

	if ts, err := b.OpenTables(ctx); err != nil || len(ts) != 1 || ts[0].ID != "b" {
		t.Errorf("OpenTables = %+v, %v", ts, err)
	}
	if n, err := b.CurrentTables(ctx, "g1", ""); err != nil || n != 1 {
		t.Errorf("CurrentTables = %d, %v", n, err)
	}
	if got, err := b.MarkedCorrupt(ctx); err != nil || !slices.Equal(got, []store.CorruptTable{{ID: "a", Reason: "log does not replay at entry 0"}}) {
		t.Errorf("MarkedCorrupt = %+v, %v", got, err)
	}
	if err := b.MarkCorrupt(ctx, "nope", "x"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("MarkCorrupt of an unknown table: %v", err)
	}
	if err := b.MarkCorrupt(ctx, "b", " "); err == nil {
		t.Error("MarkCorrupt accepted an empty reason")
	}
	// Marked again (a restart finds the table unusable through its mark):
	// the first reason stays.
	if err := b.MarkCorrupt(ctx, "a", "store: marked corrupt: log does not replay at entry 0"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.MarkedCorrupt(ctx); err != nil || !slices.Equal(got, []store.CorruptTable{{ID: "a", Reason: "log does not replay at entry 0"}}) {
		t.Errorf("MarkedCorrupt after a second mark = %+v, %v", got, err)
	}
	// The marked table no longer holds its channel: a new one opens there.
	again := Record("a2", table.StatusLobby)
	again.ChannelID = "c-a"
	if err := b.Create(ctx, again); err != nil {
		t.Errorf("a new table in the channel of a marked one: %v", err)
	}
	// Still in its channel's history.
	if id, err := b.LastInChannel(ctx, "c-b"); err != nil || id != "b" {
		t.Errorf("LastInChannel = %q, %v", id, err)
	}
}

// testMarkCorruptFirstReasonWins: callers marking a table at once (two
// processes finding it damaged) leave exactly one of their reasons.
func testMarkCorruptFirstReasonWins(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("a", table.StatusPlaying))
	hs := handles(t, b, 2)
	var wg sync.WaitGroup
	reasons := make([]string, 8)
	for i := range reasons {
		reasons[i] = fmt.Sprintf("reason %d", i)
		wg.Go(func() {
			if err := hs[i%2].MarkCorrupt(ctx, "a", reasons[i]); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := b.MarkedCorrupt(ctx)
	if err != nil || len(got) != 1 || !slices.Contains(reasons, got[0].Reason) {
		t.Fatalf("MarkedCorrupt = %+v, %v; want one of the reasons", got, err)
	}
	_, _, err = b.Load(ctx, "a")
	wantCorrupt(t, err, "a", got[0].Reason)
}

// seedLong creates table "long" with n entries and table "other" with 3.
func seedLong(t *testing.T, b Backend, n int) {
	t.Helper()
	create(t, b, Record("long", table.StatusPlaying), Record("other", table.StatusPlaying))
	appendN(t, b, "long", 0, n)
	appendN(t, b, "other", 0, 3)
}

// testLostRows: rows deleted from a log behind the store's back make Load
// fail with a CorruptError naming the table, never return a shorter log;
// the other table still loads; appending does not paper over the loss;
// Check and LogMismatches report the table.
func testLostRows(t *testing.T, open Opener) {
	const n = 60
	for _, c := range []struct {
		name     string
		from, to int
		want     string
	}{
		{"tail deleted", 50, n, "holds 50 entries but its recorded length is 60"},
		{"last entry deleted", n - 1, n, "holds 59 entries"},
		{"whole log deleted", 0, n, "holds 0 entries"},
		{"head deleted", 0, 10, "entry 10 found where entry 0 was expected"},
		{"middle deleted", 30, 31, "entry 31 found where entry 30 was expected"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := open(t)
			raw, ok := b.(RawDeleter)
			if !ok {
				t.Skip("the backend's adapter offers no RawDeleter")
			}
			seedLong(t, b, n)
			if err := raw.DeleteLogRows(ctx, "long", c.from, c.to); err != nil {
				t.Fatal(err)
			}
			_, log, err := b.Load(ctx, "long")
			if err == nil {
				t.Fatalf("Load returned %d entries and no error", len(log))
			}
			wantCorrupt(t, err, "long", c.want)
			if _, log := load(t, b, "other"); len(log) != 3 {
				t.Errorf("the other table: %d entries", len(log))
			}
			// (At the recorded length an append is taken: the store does
			// not count the rows at every append. The table stays refused.)
			for _, at := range []int{0, c.from, n - (c.to - c.from)} {
				if err := b.Append(ctx, "long", table.Entry{N: at, Action: "x", At: T0}, ""); err == nil {
					t.Errorf("an append at %d to the damaged log was accepted", at)
				}
			}
			ms, err := b.LogMismatches(ctx)
			if err != nil || !slices.Equal(ms, []store.LogMismatch{{ID: "long", Recorded: n, Stored: n - (c.to - c.from)}}) {
				t.Errorf("LogMismatches = %+v, %v", ms, err)
			}
			for _, full := range []bool{false, true} {
				problems, err := b.Check(ctx, full)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "table long") }) {
					t.Errorf("Check(full=%v): %q, want a problem naming table long", full, problems)
				}
			}
		})
	}
}

// testCheck: a healthy store checks clean; a lost log row is a problem for
// both checks, said the same way by every backend; once the table is
// marked corrupt it is no longer a problem, and it is not resumed.
func testCheck(t *testing.T, open Opener) {
	b := open(t)
	seedLong(t, b, 20)
	for _, full := range []bool{false, true} {
		if problems, err := b.Check(ctx, full); err != nil || problems != nil {
			t.Errorf("Check(full=%v) of a healthy store: %q, %v", full, problems, err)
		}
	}
	if ms, err := b.LogMismatches(ctx); err != nil || len(ms) != 0 {
		t.Errorf("LogMismatches of a healthy store: %+v, %v", ms, err)
	}
	raw, ok := b.(RawDeleter)
	if !ok {
		t.Skip("the backend's adapter offers no RawDeleter")
	}
	if err := raw.DeleteLogRows(ctx, "long", 19, 20); err != nil {
		t.Fatal(err)
	}
	const want = "table long: its log holds 19 entries but its recorded length is 20"
	for _, full := range []bool{false, true} {
		if problems, err := b.Check(ctx, full); err != nil || !slices.Equal(problems, []string{want}) {
			t.Errorf("Check(full=%v) = %q, %v; want [%q]", full, problems, err, want)
		}
	}
	ms, err := b.LogMismatches(ctx)
	if err != nil || !slices.Equal(ms, []store.LogMismatch{{ID: "long", Recorded: 20, Stored: 19}}) {
		t.Fatalf("LogMismatches = %+v, %v", ms, err)
	}
	if err := b.MarkCorrupt(ctx, "long", ms[0].String()); err != nil {
		t.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		if problems, err := b.Check(ctx, full); err != nil || problems != nil {
			t.Errorf("Check(full=%v) after marking the table: %q, %v", full, problems, err)
		}
	}
	if ids, err := b.Open(ctx); err != nil || !slices.Equal(ids, []string{"other"}) {
		t.Errorf("Open = %v, %v; want [other]", ids, err)
	}
}

func testAppendOnly(t *testing.T, open Opener) {
	b := open(t)
	raw, ok := b.(RawEditor)
	if !ok {
		t.Skip("the backend's adapter offers no RawEditor")
	}
	create(t, b, Record("t", table.StatusPlaying))
	appendN(t, b, "t", 0, 2)
	err := raw.UpdateLogRow(ctx, "t", 1, "cheat")
	if err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("changing a log entry in place: %v, want the schema to refuse it as append-only", err)
	}
	if _, log := load(t, b, "t"); log[1].Action != Entry(1).Action {
		t.Errorf("entry 1 is now %q", log[1].Action)
	}
}

// testLogLenBehindLog: the recorded length lowered behind the store's back
// (it no longer covers an existing row): the next append meets the row and
// is refused as corrupt, not stored over it, and the table does not load.
func testLogLenBehindLog(t *testing.T, open Opener) {
	b := open(t)
	raw, ok := b.(RawEditor)
	if !ok {
		t.Skip("the backend's adapter offers no RawEditor")
	}
	create(t, b, Record("t", table.StatusPlaying))
	appendN(t, b, "t", 0, 5)
	if err := b.Append(ctx, "t", table.Entry{N: 3, Action: "x", At: T0}, ""); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("stale append: %v", err)
	}
	if ms, err := b.LogMismatches(ctx); err != nil || len(ms) != 0 {
		t.Fatalf("the recorded length did not follow 5 appends and a conflict: %+v, %v", ms, err)
	}
	if err := raw.SetLogLen(ctx, "t", 4); err != nil {
		t.Fatal(err)
	}
	err := b.Append(ctx, "t", table.Entry{N: 4, Action: "x", At: T0}, "")
	wantCorrupt(t, err, "t", "entry 4")
	_, _, err = b.Load(ctx, "t")
	wantCorrupt(t, err, "t", "holds 5 entries but its recorded length is 4")
	if _, log, _ := b.Load(ctx, "t"); log != nil {
		t.Errorf("a failed Load returned a log of %d", len(log))
	}
}

func testReopen(t *testing.T, open Opener) {
	b := open(t)
	r, ok := b.(Reopener)
	if !ok {
		t.Skip("the backend's adapter offers no Reopener")
	}
	create(t, b, Record("t", table.StatusPlaying))
	appendN(t, b, "t", 0, 5)
	if err := b.SetUserLang(ctx, "u1", "uk"); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = r.Reopen(t)
	rec, log := load(t, b, "t")
	want := NormRecord(Record("t", table.StatusPlaying))
	want.UpdatedAt = Trunc(Entry(4).At) // follows the last append
	if !reflect.DeepEqual(NormRecord(rec), want) {
		t.Errorf("after reopening:\n got %+v\nwant %+v", rec, want)
	}
	if len(log) != 5 {
		t.Fatalf("log has %d entries after reopening, want 5", len(log))
	}
	for i, e := range log {
		if NormEntry(e) != NormEntry(Entry(i)) {
			t.Errorf("entry %d = %+v, want %+v", i, e, Entry(i))
		}
	}
	if l, _ := b.UserLang(ctx, "u1"); l != "uk" {
		t.Errorf("language after reopening: %q", l)
	}
	appendN(t, b, "t", 5, 6)
}

func testSchemaVersion(t *testing.T, open Opener) {
	b := open(t)
	v, err := b.SchemaVersion(ctx)
	if err != nil || v < 3 {
		t.Fatalf("SchemaVersion = %d, %v; want at least 3 (the log_len migration)", v, err)
	}
	if r, ok := b.(Reopener); ok {
		if again, err := r.Reopen(t).SchemaVersion(ctx); err != nil || again != v {
			t.Errorf("SchemaVersion after reopening = %d, %v; want %d", again, err, v)
		}
	}
}

func testClosed(t *testing.T, open Opener) {
	b := open(t)
	create(t, b, Record("t", table.StatusPlaying))
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, "t", Entry(0), ""); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Append after Close: %v, want store.ErrClosed", err)
	}
	if err := b.Create(ctx, Record("u", table.StatusLobby)); err == nil {
		t.Error("Create after Close succeeded")
	}
	if _, _, err := b.Load(ctx, "t"); err == nil {
		t.Error("Load after Close succeeded")
	}
}

// testOneProcessAShard: a shard's lock is held by one handle (a process) at
// a time: another is refused with store.ErrShardHeld while it is held, takes
// another shard, and takes the first once it is released.
func testOneProcessAShard(t *testing.T, open Opener) {
	b := open(t)
	if _, ok := b.(Reopener); !ok {
		t.Skip("the backend opens no second handle on one database")
	}
	hs := handles(t, b, 2)
	ctx := context.Background()
	release, err := hs[0].HoldShard(ctx, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hs[1].HoldShard(ctx, 0, nil); !errors.Is(err, store.ErrShardHeld) {
		t.Fatalf("a second process on shard 0: %v, want ErrShardHeld", err)
	}
	other, err := hs[1].HoldShard(ctx, 1, nil)
	if err != nil {
		t.Fatalf("shard 1 beside shard 0: %v", err)
	}
	other()
	release()
	release() // twice: nothing more
	again, err := hs[1].HoldShard(ctx, 0, nil)
	if err != nil {
		t.Fatalf("shard 0 once released: %v", err)
	}
	again()
}
