package table

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/stolik-bot/stolik/engine"
)

// CodeNotPlaying is the rule error code for an action on a table that is not
// being played (still in the lobby, finished or abandoned).
const CodeNotPlaying = "table_not_playing"

// DefaultCacheSize is how many tables a Service keeps in memory by default.
const DefaultCacheSize = 256

// ErrSetupLocked is returned by Update when it would change a table's game,
// options, seat count or seed after its first action.
var ErrSetupLocked = errors.New("table: the setup cannot change once play has begun")

// CorruptError says that a stored table cannot be used: a row that cannot be
// decoded, or a log that does not replay (then Err wraps an
// *engine.ReplayError).
type CorruptError struct {
	ID  string
	Err error
}

func (e *CorruptError) Error() string {
	return "table " + e.ID + " is corrupt: " + e.Err.Error()
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Snapshot is a table as it stands: its record, a private copy of its state
// and its version (the length of its log).
type Snapshot struct {
	Record  Record
	Game    engine.Game
	State   engine.State // a clone: changing it changes nothing else
	Version int
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock used for timestamps (time.Now by default).
func WithClock(now func() time.Time) Option {
	return func(s *Service) { s.now = now }
}

// WithCacheSize bounds how many tables are kept in memory; the least
// recently used idle tables are dropped first. Values below 1 mean 1.
func WithCacheSize(n int) Option {
	return func(s *Service) { s.cacheSize = max(n, 1) }
}

// WithSharedStore says that other processes write the same store (several
// bot processes on one PostgreSQL database): before a table is served from
// the cache, its stamp (Stamper: the stored log length and record revision,
// one indexed row read) is compared with the one it was loaded at, and a
// table another process changed is loaded again. A store that is not a
// Stamper is read in full each time instead. Without the option the cache
// is trusted: the service is the store's only writer.
//
// With or without it, an action whose append the store refuses as a
// conflict (another writer appended first) is not lost: see Act.
func WithSharedStore() Option {
	return func(s *Service) { s.shared = true }
}

// Service runs tables: it loads them by replay, validates and stores their
// actions, and serializes the actions of each table. Different tables
// proceed in parallel. It is safe for concurrent use.
type Service struct {
	store     Store
	now       func() time.Time
	cacheSize int
	shared    bool    // other processes write the store (WithSharedStore)
	stamper   Stamper // the store's stamps, when shared and offered

	mu      sync.Mutex // guards entries, lru and every entry's refs
	entries map[string]*entry
	lru     list.List // of *entry, most recently used first
}

// entry is one table in the cache. Its lock (a one-slot channel, so that
// waiting can be cancelled) is held while the table is loaded or changed.
type entry struct {
	id   string
	lock chan struct{}
	refs int // goroutines holding or waiting for lock; guarded by Service.mu
	elem *list.Element

	// Guarded by lock.
	loaded  bool
	rec     Record
	game    engine.Game
	state   engine.State
	version int
	stamp   Stamp // the store's stamp read before the last load (shared stores)
	stamped bool  // stamp was read
}

// New returns a Service over store.
func New(store Store, opts ...Option) *Service {
	s := &Service{
		store:     store,
		now:       time.Now,
		cacheSize: DefaultCacheSize,
		entries:   map[string]*entry{},
	}
	for _, o := range opts {
		o(s)
	}
	if s.shared {
		s.stamper, _ = store.(Stamper)
	}
	return s
}

// Create validates and stores a new table and returns it as stored. The
// game must exist, the seat count be within its limits and the options be
// accepted by the game. An empty ID is generated; a zero seed is replaced by
// a secret random one; an empty status means the lobby. Rule violations are
// *engine.RuleError.
func (s *Service) Create(ctx context.Context, rec Record) (Record, error) {
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return Record{}, err
	}
	if rec.Status == "" {
		rec.Status = StatusLobby
	}
	if rec.Status != StatusLobby && rec.Status != StatusPlaying {
		return Record{}, fmt.Errorf("table: a new table cannot have status %q", rec.Status)
	}
	for rec.Setup.Seed == 0 {
		if rec.Setup.Seed, err = randomSeed(); err != nil {
			return Record{}, err
		}
	}
	st, err := start(g, rec)
	if err != nil {
		return Record{}, err
	}
	now := s.now().UTC()
	rec.CreatedAt, rec.UpdatedAt = now, now
	rec = cloneRecord(rec)

	generated := rec.ID == ""
	for attempt := 0; ; attempt++ {
		if generated {
			if rec.ID, err = randomID(); err != nil {
				return Record{}, err
			}
		}
		err = s.store.Create(ctx, rec)
		if err == nil {
			break
		}
		if !generated || !errors.Is(err, ErrExists) || attempt >= 4 {
			return Record{}, err
		}
	}

	s.mu.Lock()
	if _, ok := s.entries[rec.ID]; !ok {
		// A new table's stamp: an empty log, an unchanged record.
		e := &entry{id: rec.ID, lock: make(chan struct{}, 1), loaded: true, rec: rec, game: g, state: st, stamped: s.stamper != nil}
		s.entries[rec.ID] = e
		e.elem = s.lru.PushFront(e)
		s.evictLocked()
	}
	s.mu.Unlock()
	return cloneRecord(rec), nil
}

// start validates a record's setup and seats and creates its initial state.
func start(g engine.Game, rec Record) (engine.State, error) {
	if err := engine.ValidateSeats(g, rec.Setup.Seats); err != nil {
		return nil, err
	}
	if err := checkSeats(rec); err != nil {
		return nil, err
	}
	return engine.Start(g, rec.Setup, nil)
}

// checkSeats checks the seat list of a record against its seat count.
func checkSeats(rec Record) error {
	seen := make(map[engine.Seat]bool, len(rec.Seats))
	for _, si := range rec.Seats {
		if si.Seat < 0 || int(si.Seat) >= rec.Setup.Seats {
			return fmt.Errorf("table: seat %d is outside 0..%d", si.Seat, rec.Setup.Seats-1)
		}
		if seen[si.Seat] {
			return fmt.Errorf("table: seat %d is listed twice", si.Seat)
		}
		seen[si.Seat] = true
		if si.Kind != Human && si.Kind != AI {
			return fmt.Errorf("table: seat %d has unknown kind %q", si.Seat, si.Kind)
		}
	}
	return nil
}

// Get returns a table as it stands.
func (s *Service) Get(ctx context.Context, id string) (*Snapshot, error) {
	e, _, err := s.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	defer s.release(e)
	return e.snapshot(), nil
}

// ErrUnsure is the store not saying whether a move was stored: the append
// failed in a way that may have left it written (a failed sync, a commit
// cut by a crash or a lost connection). Nothing may be told as certain
// until the log is read again (Settle).
var ErrUnsure = errors.New("table: the store did not say whether the move was stored")

// UnsureError is an append whose outcome the store did not tell: the
// entry it tried to append, and the store's error. errors.Is finds
// ErrUnsure and the store's error in it.
type UnsureError struct {
	Table string
	Entry Entry
	Err   error
}

func (e *UnsureError) Error() string {
	return fmt.Sprintf("table %s: move %d (%q by seat %d) may or may not be stored: %v", e.Table, e.Entry.N, e.Entry.Action, e.Entry.Seat, e.Err)
}

func (e *UnsureError) Unwrap() []error { return []error{ErrUnsure, e.Err} }

// Settle finds out what became of an unsure append by reading the table's
// log from the store: stored reports whether the entry is there, at its
// place, as it was made; events are what it did when it is (worked out
// again from the log), and snap the table as the store now holds it. An
// error means the store cannot be read yet: try again later.
func (s *Service) Settle(ctx context.Context, u *UnsureError) (stored bool, events []engine.Event, snap *Snapshot, err error) {
	snap, err = s.Get(ctx, u.Table) // the cache was dropped: this reads the store
	if err != nil {
		return false, nil, nil, err
	}
	_, log, err := s.store.Load(ctx, u.Table)
	if err != nil {
		return false, nil, nil, err
	}
	n := u.Entry.N
	if len(log) <= n || log[n].Seat != u.Entry.Seat || log[n].Action != u.Entry.Action {
		return false, nil, snap, nil
	}
	g, err := engine.Lookup(snap.Record.Setup.Game)
	if err != nil {
		return true, nil, snap, err
	}
	moves := make([]engine.Move, n)
	for i, le := range log[:n] {
		moves[i] = engine.Move{Seat: le.Seat, Action: le.Action}
	}
	st, err := engine.Replay(g, snap.Record.Setup, moves)
	if err != nil {
		return true, nil, snap, err
	}
	events, err = engine.Step(g, st, snap.Record.Setup.Seed, n, engine.Move{Seat: u.Entry.Seat, Action: u.Entry.Action}, nil)
	return true, events, snap, err
}

// Reload makes the next use of table id read it from the store again: its
// cached state may be behind what the store now says (a table just marked
// damaged, which then fails to load as such).
func (s *Service) Reload(ctx context.Context, id string) error {
	e, _, err := s.acquire(ctx, id)
	if err != nil {
		return err
	}
	e.loaded = false
	s.release(e)
	return nil
}

// Stands reports whether a click drawn at version still stands against
// snap, the table as it now is: the staleness rule of every front end. A
// click on the current version does. So does one on an older version when
// the seat must act and has made none of the moves since (only other
// seats' moves in a simultaneous decision came in between, which change
// nothing of this seat's options). A duplicate click, one from before the
// seat's own last move, or one from a version the table never had does
// not.
func (s *Service) Stands(ctx context.Context, snap *Snapshot, seat engine.Seat, version int) (bool, error) {
	if version == snap.Version {
		return true, nil
	}
	if version < 0 || version > snap.Version || !engine.IsActing(snap.State, seat) {
		return false, nil
	}
	_, log, err := s.store.Load(ctx, snap.Record.ID)
	if err != nil {
		return false, err
	}
	if len(log) != snap.Version {
		return false, nil
	}
	for _, e := range log[version:] {
		if e.Seat == seat {
			return false, nil
		}
	}
	return true, nil
}

// Act performs an action for seat on table id. version is the log length
// the action was chosen against; a negative version skips that check. The
// action is validated by the game on a copy of the state, appended to the
// store, and only then applied to the table; the events and the new
// snapshot are returned. Rule violations (including a stale version,
// engine.CodeStale, and a table that is not being played, CodeNotPlaying)
// are *engine.RuleError and change nothing.
//
// Another process may have appended to the table since this service last
// saw it: the store then refuses the append as a conflict (its log is no
// longer at the length the action was validated at), or, WithSharedStore,
// the stamp shows it before validation. Either way the table is loaded
// again and the action validated once more against the table as it now
// stands, as if it had arrived after the other process's entries: version
// then counts as current if it was the table's version before the other
// entries came in. The action is refused as stale (engine.CodeStale) when
// one of those entries is the same seat's (the seat moved meanwhile, so
// this action was chosen before its own latest move: a double click), and
// by the game's own rules when it is no longer legal; otherwise it is
// applied. Of two clicks on one table in two processes, exactly one is
// appended first and the other is re-validated: both never apply at the
// same log position, and neither is dropped without an error. A second
// conflict in a row is returned as stale.
func (s *Service) Act(ctx context.Context, id string, seat engine.Seat, action string, version int) ([]engine.Event, *Snapshot, error) {
	e, moved, err := s.acquire(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	defer s.release(e)

	for attempt := 0; ; attempt++ {
		if e.rec.Status != StatusPlaying {
			return nil, nil, engine.Errorf(CodeNotPlaying, "table", id, "status", string(e.rec.Status))
		}
		// A version the caller knew stands for itself; one from before the
		// other writers' entries stands when the seat made none of them.
		// Without a version, a move of the seat meanwhile makes it stale.
		caughtUp := moved != nil && !moved.by(seat)
		stale := version >= 0 && version != e.version && !(caughtUp && version == moved.from)
		if stale || (version < 0 && moved != nil && !caughtUp) {
			return nil, nil, engine.Errorf(engine.CodeStale, "version", version, "current", e.version)
		}
		a, err := e.game.ParseAction(action)
		if err != nil {
			return nil, nil, err
		}
		st := e.state.Clone()
		var events []engine.Event
		if err := safely(func() error {
			var err error
			a = engine.Canonical(st, seat, a) // the log keeps the canonical spelling
			events, err = st.Apply(seat, a, engine.NewRand(e.rec.Setup.Seed, e.version+1))
			return err
		}); err != nil {
			return nil, nil, err
		}
		var status Status
		if done, _ := st.Result(); done {
			status = StatusFinished
		}
		at := s.now().UTC()
		entry := Entry{N: e.version, Seat: seat, Action: a.String(), At: at}
		err = s.store.Append(ctx, id, entry, status)
		if err == nil {
			e.state = st
			e.version++
			e.stamp.LogLen = e.version // the append made the stored log this long
			e.rec.UpdatedAt = at
			if status != "" {
				e.rec.Status = status
			}
			return events, e.snapshot(), nil
		}
		var corrupt *CorruptError
		switch {
		case errors.Is(err, ErrNotFound) || errors.As(err, &corrupt):
			// Refused before anything was written: a known outcome.
			e.loaded = false
			return nil, nil, err
		case !errors.Is(err, ErrConflict):
			// The outcome is unknown (the write may have landed: a failed
			// sync, a commit cut by a lost connection): reload from the
			// store next time, and let the caller find out (Settle).
			e.loaded = false
			return nil, nil, &UnsureError{Table: id, Entry: entry, Err: err}
		}
		// Another writer got there first: catch up with the store, then
		// validate the action again against what it holds now.
		from := e.version
		log, lerr := s.load(ctx, e)
		if lerr != nil {
			return nil, nil, fmt.Errorf("table %s: reloading after a conflict: %w", id, lerr)
		}
		if attempt > 0 || len(log) <= from {
			return nil, nil, engine.Errorf(engine.CodeStale, "version", version, "current", e.version)
		}
		if moved == nil {
			moved = &catchUp{from: from}
		}
		moved.entries = append(moved.entries, log[from:]...)
	}
}

// catchUp is what Act learns when the store turns out to be ahead of the
// cache: the version the cache had, and the entries other writers appended
// after it.
type catchUp struct {
	from    int
	entries []Entry
}

// by reports whether seat made one of the entries.
func (c *catchUp) by(seat engine.Seat) bool {
	for _, le := range c.entries {
		if le.Seat == seat {
			return true
		}
	}
	return false
}

// Update stores a table's record: seats, status, language, message ids. Its
// creation time is kept and its update time set. The setup (game, options,
// seat count, seed) may change only while the log is empty, and is then
// validated as in Create. A finished or abandoned table keeps its status.
func (s *Service) Update(ctx context.Context, rec Record) (Record, error) {
	e, _, err := s.acquire(ctx, rec.ID)
	if err != nil {
		return Record{}, err
	}
	defer s.release(e)

	if rec.Status == "" {
		rec.Status = e.rec.Status
	}
	switch rec.Status {
	case StatusLobby, StatusPlaying, StatusFinished, StatusAbandoned:
	default:
		return Record{}, fmt.Errorf("table %s: unknown status %q", rec.ID, rec.Status)
	}
	if over := e.rec.Status == StatusFinished || e.rec.Status == StatusAbandoned; over && rec.Status != e.rec.Status {
		return Record{}, fmt.Errorf("table %s: a %s table cannot become %s", rec.ID, e.rec.Status, rec.Status)
	}
	g, st := e.game, e.state
	if !sameSetup(rec.Setup, e.rec.Setup) {
		if e.version > 0 {
			return Record{}, fmt.Errorf("table %s: %w", rec.ID, ErrSetupLocked)
		}
		if g, err = engine.Lookup(rec.Setup.Game); err != nil {
			return Record{}, err
		}
		if st, err = start(g, rec); err != nil {
			return Record{}, err
		}
	} else if err := checkSeats(rec); err != nil {
		return Record{}, err
	}
	rec.CreatedAt = e.rec.CreatedAt
	rec.UpdatedAt = s.now().UTC()
	rec = cloneRecord(rec)
	if err := s.store.Update(ctx, rec); err != nil {
		e.loaded = false
		return Record{}, err
	}
	e.rec, e.game, e.state = rec, g, st
	e.stamp.Rev++ // the store counted this update
	return cloneRecord(rec), nil
}

func sameSetup(a, b engine.Setup) bool {
	return a.Game == b.Game && a.Seats == b.Seats && a.Seed == b.Seed && maps.Equal(a.Options, b.Options)
}

// acquire finds or creates the cache entry of table id, takes its lock and
// makes sure it is loaded (for a shared store: as the store now holds it).
// When a cached table was found behind the store and loaded again, moved
// says from which version and with which new entries. The caller must
// release the entry.
func (s *Service) acquire(ctx context.Context, id string) (*entry, *catchUp, error) {
	s.mu.Lock()
	e, ok := s.entries[id]
	if !ok {
		e = &entry{id: id, lock: make(chan struct{}, 1)}
		s.entries[id] = e
		e.elem = s.lru.PushFront(e)
	} else {
		s.lru.MoveToFront(e.elem)
	}
	e.refs++
	s.mu.Unlock()

	select {
	case e.lock <- struct{}{}:
	case <-ctx.Done():
		s.unref(e)
		return nil, nil, ctx.Err()
	}
	var moved *catchUp
	if e.loaded && s.shared && !s.current(ctx, e) {
		from := e.version
		log, err := s.load(ctx, e)
		if err != nil {
			s.release(e)
			return nil, nil, err
		}
		if len(log) > from {
			moved = &catchUp{from: from, entries: log[from:]}
		}
	}
	if !e.loaded {
		if _, err := s.load(ctx, e); err != nil {
			s.release(e)
			return nil, nil, err
		}
	}
	return e, moved, nil
}

// current reports whether the cached table e is the stored one: its stamp
// is unchanged. A store without stamps, or one that cannot tell, is not
// trusted.
func (s *Service) current(ctx context.Context, e *entry) bool {
	if s.stamper == nil || !e.stamped {
		return false
	}
	st, err := s.stamper.Stamp(ctx, e.id)
	return err == nil && st == e.stamp
}

// release unlocks e and lets the cache drop it once idle.
func (s *Service) release(e *entry) {
	<-e.lock
	s.unref(e)
}

func (s *Service) unref(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.refs--
	if e.refs == 0 && !e.loaded {
		s.dropLocked(e)
	}
	s.evictLocked()
}

// evictLocked drops least recently used idle entries while the cache is over
// its bound. Entries in use are never dropped, so everyone working on a
// table shares one entry and one lock.
func (s *Service) evictLocked() {
	for el := s.lru.Back(); el != nil && len(s.entries) > s.cacheSize; {
		e := el.Value.(*entry)
		el = el.Prev()
		if e.refs == 0 {
			s.dropLocked(e)
		}
	}
}

func (s *Service) dropLocked(e *entry) {
	if s.entries[e.id] == e {
		delete(s.entries, e.id)
		s.lru.Remove(e.elem)
	}
}

// load reads table e.id from the store and rebuilds its state by replaying
// its log, which it returns. The caller holds e's lock. On error e is left
// unloaded. For a shared store the stamp is read first: a write between the
// two reads leaves an older stamp, and the next use loads again.
func (s *Service) load(ctx context.Context, e *entry) ([]Entry, error) {
	e.loaded = false
	e.stamped = false
	var stamp Stamp
	stamped := false
	if s.stamper != nil {
		var err error
		stamp, err = s.stamper.Stamp(ctx, e.id)
		stamped = err == nil
	}
	rec, log, err := s.store.Load(ctx, e.id)
	if err != nil {
		return nil, err
	}
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", e.id, err)
	}
	moves := make([]engine.Move, len(log))
	for i, le := range log {
		if le.N != i {
			return nil, &CorruptError{ID: e.id, Err: fmt.Errorf("log entry %d found where entry %d was expected", le.N, i)}
		}
		moves[i] = engine.Move{Seat: le.Seat, Action: le.Action}
	}
	var st engine.State
	if err := safely(func() error {
		var err error
		st, err = engine.Replay(g, rec.Setup, moves)
		return err
	}); err != nil {
		return nil, &CorruptError{ID: e.id, Err: err}
	}
	e.rec, e.game, e.state, e.version, e.loaded = rec, g, st, len(log), true
	e.stamp, e.stamped = stamp, stamped
	return log, nil
}

// safely runs f, turning a panic in game code into an error.
func safely(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("game code panicked: %v", p)
		}
	}()
	return f()
}

func (e *entry) snapshot() *Snapshot {
	return &Snapshot{Record: cloneRecord(e.rec), Game: e.game, State: e.state.Clone(), Version: e.version}
}

// cloneRecord copies the parts of a record that are shared by reference.
func cloneRecord(r Record) Record {
	r.Setup.Options = maps.Clone(r.Setup.Options)
	if r.Seats != nil {
		r.Seats = append([]SeatInfo(nil), r.Seats...)
	}
	return r
}

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// randomID returns 8 lowercase base32 characters (40 random bits).
func randomID() (string, error) {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("table: generating an id: %w", err)
	}
	return strings.ToLower(idEncoding.EncodeToString(b[:])), nil
}

// randomSeed returns a secret random seed.
func randomSeed() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("table: generating a seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// Cached reports how many tables the service holds in memory and its bound.
func (s *Service) Cached() (n, bound int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries), s.cacheSize
}
