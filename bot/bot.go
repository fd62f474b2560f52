// Package bot is Stolik's Discord adapter: the /stolik command, the lobby
// and table messages in channels, ephemeral hands with the controls for a
// player's legal actions, and the AI seats. Routing is stateless: every
// component's custom_id names its table (and, for game actions, the log
// length it was drawn for), and everything else comes from the store, so
// buttons keep working across restarts.
package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stolik-bot/stolik/store"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/ratelimit"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// Store is what the bot needs from persistence: a store backend (the table
// store with its stamps, for several processes on one database; the open
// tables of a channel, the users' preferences, and what games across days
// need: table settings, seat flags, deadlines and their claims, votes,
// results and statistics). The contract lives with the store
// (store.Backend, in the driver-free root), proved by one conformance
// suite; the bot names no backend.
type Store = store.Backend

// Clock tells the bot what time it is (deadlines, reminders). Tests use a
// fake one; the scheduler still sleeps on real timers, and is woken with
// Wake (or runs RunDue) when a fake clock jumps.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Deps are the bot's collaborators.
type Deps struct {
	// Session is the Discord session; nil creates one from the token.
	Session *discordgo.Session
	Store   Store
	// Locales defaults to the embedded locale files.
	Locales *locales.Bundle
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// AckAfter is how long the bot works on an interaction before it
	// defers its answer (default 1.5 s; Discord allows 3 s).
	AckAfter time.Duration
	// Clock defaults to the system clock.
	Clock Clock
	// SharedStore says that other bot processes use the same store (a
	// PostgreSQL database): the table service then checks a cached table
	// against the store before serving it (table.WithSharedStore).
	SharedStore bool
	// OnTableShown, when set, is told each time a table message edit
	// succeeds how long the oldest state it brings in had waited to be
	// shown (the load test's measure of how far behind a table message is).
	OnTableShown func(lag time.Duration)
}

// Bot runs Stolik on Discord.
type Bot struct {
	cfg      Config
	s        *discordgo.Session
	store    Store
	tables   *table.Service
	loc      *locales.Bundle
	log      *slog.Logger
	ackAfter time.Duration

	locks tableLocks // one bot-side writer per table

	think thinker // the search players' decisions (think.go)

	outboxes     sync.Map // table id -> *outbox
	publishEvery time.Duration
	pingQuiet    time.Duration

	clock Clock
	wake  chan struct{} // nudges the scheduler
	owner string        // this process, in the claims of deadlines (random at New)

	runMu    sync.Mutex
	closing  bool
	inflight sync.WaitGroup
	busy     atomic.Int64 // interactions being handled (for tests: WaitIdle)
	ready    chan struct{}

	damagedTables damagedSeen // damaged tables already reported (see damaged)

	pics    pictures  // drawing the pictures of tables and hands (compose_picture.go)
	noFiles sync.Map  // channel id -> time.Time: no pictures in its messages until then (permissions.go)
	orders  orders    // user id -> *answerOrder: a picture edited into an answer never lands on a newer one
	langs   userLangs // the languages users chose (userlang.go)

	commands []*discordgo.ApplicationCommand // what register sends; commands are checked against it
	seen     delivered                       // interaction ids handled lately
	hands    openHands                       // the players' latest hand messages while they can be edited
	received sync.Map                        // *discordgo.Interaction -> time.Time it arrived
	vias     sync.Map                        // interaction id -> *via, while it is handled (via.go)
	clicked  clickedTokens                   // public messages' webhooks from clicks on them (via.go)
	// callbacks tells the HTTP interactions endpoint when an initial
	// response went out (httpinteractions.go); nil without public_key.
	callbacks *callbackWatch
	// rest keeps the bot-token requests within this process's share of
	// rest_rate (ratelimit.go); nil with rest_rate 0.
	rest *ratelimit.Limiter
	// onShown is Deps.OnTableShown.
	onShown func(lag time.Duration)
}

// limitREST puts the global rate limit in the session's HTTP client (a
// copy of it: the client may be shared): every bot-token request waits for
// this process's share of rest_rate.
//
// Every request, limited or not, goes through ratelimit.PadResets, so that
// discordgo waits out a spent route bucket without a 429.
func (b *Bot) limitREST() {
	b.wrapTransport(func(next http.RoundTripper) http.RoundTripper { return ratelimit.PadResets{Next: next} })
	if b.cfg.RESTRate <= 0 {
		return
	}
	b.rest = ratelimit.New(float64(b.cfg.RESTRate) / float64(max(b.cfg.Shards, 1)))
	b.wrapTransport(func(next http.RoundTripper) http.RoundTripper { return ratelimit.Transport{Next: next, L: b.rest} })
}

// wrapTransport puts wrap around the transport of the session's HTTP
// client, in a copy of the client (it may be shared).
func (b *Bot) wrapTransport(wrap func(http.RoundTripper) http.RoundTripper) {
	c := &http.Client{Timeout: 20 * time.Second}
	if b.s.Client != nil {
		cp := *b.s.Client
		c = &cp
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = wrap(next)
	b.s.Client = c
}

// New builds a bot. It does not connect: Run does.
func New(cfg Config, deps Deps) (*Bot, error) {
	if deps.Store == nil {
		return nil, errors.New("bot: no store")
	}
	b := &Bot{
		cfg: cfg, s: deps.Session, store: deps.Store, loc: deps.Locales, log: deps.Logger,
		ackAfter: deps.AckAfter, clock: deps.Clock, onShown: deps.OnTableShown, wake: make(chan struct{}, 1), ready: make(chan struct{}),
	}
	if b.clock == nil {
		b.clock = realClock{}
	}
	if b.cfg.AIBot == "" {
		b.cfg.AIBot = "heuristic"
	}
	if b.loc == nil {
		var err error
		if b.loc, err = locales.Load(); err != nil {
			return nil, err
		}
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.ackAfter <= 0 {
		b.ackAfter = 1500 * time.Millisecond
	}
	if b.s == nil {
		if cfg.Token == "" {
			return nil, ErrNoToken
		}
		s, err := discordgo.New("Bot " + cfg.Token)
		if err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
		s.Client = &http.Client{Timeout: 20 * time.Second, Transport: discordTransport()}
		if cfg.DiscordURL != "" {
			if err := redirect(s, cfg.DiscordURL); err != nil {
				return nil, err
			}
		}
		b.s = s
	}
	b.publishEvery = cfg.PublishInterval.Duration
	b.pingQuiet = cfg.PingQuiet.Duration
	b.s.Identify.Intents = discordgo.IntentsGuilds
	if cfg.Shards > 1 {
		// This process holds one shard of the gateway (see Config.Shard).
		b.s.ShardID, b.s.ShardCount = cfg.Shard, cfg.Shards
	}
	b.s.MaxRestRetries = 3
	b.limitREST()
	if cfg.PublicKey != "" {
		b.watchCallbacks()
	}
	cache := b.cfg.TableCache
	if cache <= 0 {
		cache = DefaultTableCache
	}
	opts := []table.Option{table.WithClock(b.clock.Now), table.WithCacheSize(cache)}
	if deps.SharedStore {
		b.langs.ttl = sharedLangTTL
		opts = append(opts, table.WithSharedStore())
	}
	b.tables = table.New(deps.Store, opts...)
	b.owner = newOwner()
	b.commands = Commands(b.loc)
	return b, nil
}

// Run connects to Discord, registers the commands, resumes the open tables
// and serves interactions until ctx is done; then it stops taking
// interactions, waits (up to the shutdown timeout) for those in flight and
// closes the session. The caller closes the store afterwards.
func (b *Bot) Run(ctx context.Context) error {
	remove := b.s.AddHandler(b.onInteraction)
	if err := b.s.Open(); err != nil {
		remove()
		return fmt.Errorf("bot: connecting to Discord: %w", err)
	}
	b.log.Info("connected to Discord", "user", b.userName())
	if err := b.register(ctx); err != nil {
		remove()
		_ = b.s.Close()
		return err
	}
	resumeCtx, stopResume := context.WithCancel(context.Background())
	resumeDone := make(chan struct{})
	b.busy.Add(1)
	go func() {
		defer close(resumeDone)
		defer b.busy.Add(-1)
		b.resume(resumeCtx)
	}()
	schedCtx, stopSched := context.WithCancel(context.Background())
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); b.schedule(schedCtx) }()
	close(b.ready)
	<-ctx.Done()
	stopResume()
	<-resumeDone

	b.log.Info("shutting down: no new interactions; finishing the ones in flight")
	b.runMu.Lock()
	b.closing = true
	b.runMu.Unlock()
	remove()
	stopSched()
	<-schedDone
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	timeout := b.cfg.ShutdownTimeout.Duration
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	select {
	case <-done:
	case <-time.After(timeout):
		b.log.Warn("shutdown timeout: some interactions were still running", "timeout", timeout)
	}
	b.flushAll()
	if err := b.s.Close(); err != nil {
		return fmt.Errorf("bot: closing the session: %w", err)
	}
	b.log.Info("stopped")
	return nil
}

// flushAll sends every table's pending output now (at shutdown): what
// waits for its interval, or for another try after Discord refused it,
// goes now or not at all, so that nothing is sent once Run has returned.
func (b *Bot) flushAll() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b.outboxes.Range(func(_, v any) bool {
		ob := v.(*outbox)
		ob.unschedule(b)
		ob.flush(ctx, b)
		return true
	})
}

// Ready is closed once Run has connected, registered the commands and
// resumed the open tables.
func (b *Bot) Ready() <-chan struct{} { return b.ready }

func (b *Bot) userName() string {
	if b.s.State != nil && b.s.State.User != nil {
		return b.s.State.User.Username
	}
	return ""
}

func (b *Bot) appID() string {
	if b.s.State != nil {
		if b.s.State.Application != nil && b.s.State.Application.ID != "" {
			return b.s.State.Application.ID
		}
		if b.s.State.User != nil {
			return b.s.State.User.ID
		}
	}
	return ""
}

// register overwrites the application commands (globally, or for the
// configured guild).
func (b *Bot) register(ctx context.Context) error {
	cmds := b.commands
	if b.cfg.Shard != 0 {
		// The commands are the application's, not a shard's: shard 0
		// registers them, the other processes leave them alone (several
		// overwrites at once would only race each other).
		b.log.Info("commands left to shard 0", "shard", b.cfg.Shard, "shards", b.cfg.Shards)
		return nil
	}
	err := b.retry(ctx, func() error {
		_, err := b.s.ApplicationCommandBulkOverwrite(b.appID(), b.cfg.GuildID, cmds, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		return fmt.Errorf("bot: registering the commands: %w", err)
	}
	scope := "global"
	if b.cfg.GuildID != "" {
		scope = "guild " + b.cfg.GuildID
	}
	b.log.Info("commands registered", "scope", scope, "count", len(cmds))
	return nil
}

// resume runs after start, in the background (interactions are served
// meanwhile: tables load on demand). It lets the AI seats finish any moves
// interrupted by a stop, and refreshes the public message of the tables
// that changed in the last ResumeWindow (a stop between storing a move and
// showing it leaves only those stale), the ones that ended then included
// (see endedLister). Other tables are not touched: with no AI seat and no
// recent change, nothing about them can be pending, and loading them all
// would only cost start-up time, memory and REST calls.
func (b *Bot) resume(ctx context.Context) {
	t0 := time.Now()
	open, err := b.store.OpenTables(ctx)
	if err != nil {
		b.log.Error("listing the open tables", "err", err)
		return
	}
	window := b.cfg.ResumeWindow.Duration
	if window <= 0 {
		window = 15 * time.Minute
	}
	since := b.now().Add(-window)
	var ended []string
	if el, ok := b.store.(endedLister); ok {
		if ended, err = el.EndedSince(ctx, since); err != nil {
			b.log.Error("listing the tables that ended lately", "err", err)
		}
	}
	type job struct {
		id     string
		recent bool
	}
	work := make(chan job)
	var wg sync.WaitGroup
	var done atomic.Int64
	for range max(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := b.resumeTable(ctx, j.id, j.recent); err != nil && ctx.Err() == nil && !b.damaged(ctx, j.id, err) {
					b.log.Error("resuming a table", "table", j.id, "err", err)
				}
				done.Add(1)
			}
		}()
	}
	var jobs []job
	for _, t := range open {
		if t.HasAI || t.UpdatedAt.After(since) {
			jobs = append(jobs, job{t.ID, t.UpdatedAt.After(since)})
		}
	}
	for _, id := range ended {
		jobs = append(jobs, job{id, true})
	}
	for _, j := range jobs {
		select {
		case work <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	b.log.Info("open tables resumed", "open", len(open), "ended_lately", len(ended), "resumed", done.Load(), "took", time.Since(t0).Round(time.Millisecond))
}

// endedLister is the store query that lists the tables that ended
// (finished or abandoned) after since, by id. A stop just after a game's
// last move may leave its final table message unsent: it waits out the
// publish interval, or Discord refused it. resume edits the message of
// every table that ended within the resume window once, whether its last
// output went out or not. Knowing exactly which were lost would take a
// durable "output pending" mark, written before each output and cleared
// after it: two more writes per move, on the path every move takes, to
// spare one edit per table ended in the last minutes at start-up, an edit
// that at worst shows the message as it already is. The window bounds how
// many there are.
//
// *store.DB does not offer it yet; until it does (see its expected SQL in
// the tests' endedStore), resume refreshes the open tables only.
type endedLister interface {
	EndedSince(ctx context.Context, since time.Time) ([]string, error)
}

// resumeTable lets a table's AI seats move if they must, and shows the
// table when they did or when recent is true.
func (b *Bot) resumeTable(ctx context.Context, id string, recent bool) error {
	unlock := b.lock(id)
	defer unlock()
	snap, err := b.tables.Get(ctx, id)
	if err != nil {
		return err
	}
	if snap.Record.ChannelID == "" || !b.cfg.OnShard(snap.Record.GuildID) {
		// Another shard's process resumes the tables of its guilds.
		return nil
	}
	if snap.Record.Status == table.StatusPlaying {
		if _, _, aiToMove := aiToAct(snap); (recent || aiToMove) && b.shownBeyond(ctx, snap) {
			return nil // damaged: nothing is redrawn over the witness
		}
		before := snap.State.Acting()
		evs, after, err := b.runAI(ctx, snap)
		if err != nil {
			b.log.Error("AI move on resume", "table", id, "err", err)
		}
		if len(evs) > 0 || recent {
			b.publish(ctx, after, evs, before, len(evs) > 0)
		}
		return nil
	}
	if recent {
		b.refresh(ctx, snap)
	}
	return nil
}

// tableLocks are the bot-side locks of the tables, by table id. A table's
// lock is kept only while someone holds it or waits for it, so that the
// map holds the tables being worked on, not every table ever seen.
type tableLocks struct {
	mu sync.Mutex
	m  map[string]*tableLock
}

type tableLock struct {
	mu   sync.Mutex
	refs int // guarded by tableLocks.mu: holders and waiters
}

// lock takes the bot-side lock of a table: actions, AI moves and the
// messages they produce go out in order.
func (b *Bot) lock(id string) (unlock func()) {
	ls := &b.locks
	ls.mu.Lock()
	if ls.m == nil {
		ls.m = map[string]*tableLock{}
	}
	l := ls.m[id]
	if l == nil {
		l = &tableLock{}
		ls.m[id] = l
	}
	l.refs++
	ls.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		ls.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(ls.m, id)
		}
		ls.mu.Unlock()
	}
}

// onInteraction is the discordgo handler. An interaction without an id or
// token cannot be answered and is not from Discord: it is dropped. One the
// gateway delivers again (after a resume) is handled once.
func (b *Bot) onInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	arrived := time.Now()
	if ic == nil || ic.Interaction == nil || ic.ID == "" || ic.Token == "" {
		b.log.Debug("ignoring an interaction without an id or token")
		return
	}
	b.runMu.Lock()
	if b.closing {
		b.runMu.Unlock()
		return
	}
	b.inflight.Add(1)
	b.busy.Add(1)
	b.runMu.Unlock()
	defer b.inflight.Done()
	defer b.busy.Add(-1)
	if !b.seen.first(ic.ID) {
		b.log.Info("an interaction delivered again: ignored", "interaction", ic.ID)
		return
	}
	b.received.Store(ic.Interaction, arrived)
	defer b.received.Delete(ic.Interaction)
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic while handling an interaction", "interaction", ic.ID, "panic", p)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctx, handled := b.withVia(ctx, ic.Interaction, b.clock.Now())
	defer handled()
	b.route(ctx, ic.Interaction)
}

// delivered remembers the ids of the last interactions handled, so that an
// interaction the gateway delivers twice (a resume may replay what the bot
// had received) is handled once. Discord answers a second response with
// 40060 anyway, but the second handling could still act, or overwrite the
// first answer with a "stale" one.
type delivered struct {
	mu   sync.Mutex
	ids  map[string]struct{}
	ring []string // the same ids, oldest first once full
	next int
}

// deliveredKept is how many interaction ids are kept (about 5 MB at most).
// A resume replays what came just before the connection was lost, so the
// window needed is seconds of traffic; this is two minutes at 500
// interactions a second.
const deliveredKept = 1 << 16

// first reports whether id is seen for the first time, and remembers it.
func (d *delivered) first(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ids == nil {
		d.ids = map[string]struct{}{}
	}
	if _, ok := d.ids[id]; ok {
		return false
	}
	if len(d.ring) < deliveredKept {
		d.ring = append(d.ring, id)
	} else {
		delete(d.ids, d.ring[d.next])
		d.ring[d.next] = id
		d.next = (d.next + 1) % deliveredKept
	}
	d.ids[id] = struct{}{}
	return true
}

// runAI lets the AI seats act while they must, each move through the table
// service like a human's. It returns the events of all their moves and the
// snapshot after them.
//
// Across processes sharing a database, an AI move is made once because of
// the log-length rule, not a claim: each move is appended at
// the length it was chosen at, and the table service validates a move
// refused as a conflict once more against the new log, refusing it as
// stale when the same seat has moved meanwhile. A process that finds its AI
// move stale stops: the process that moved first goes on. When the process
// moving a table's AI seats dies, sweepAI in another lets them go on.
func (b *Bot) runAI(ctx context.Context, snap *table.Snapshot) ([]engine.Event, *table.Snapshot, error) {
	var all []engine.Event
	_, ok := snap.Game.(engine.Bots)
	if !ok {
		return nil, snap, nil
	}
	for step := 0; step < 10000 && snap.Record.Status == table.StatusPlaying; step++ {
		seat, kind, found := aiToAct(snap)
		if !found {
			break
		}
		if kind == "" {
			kind = b.cfg.AIBot
		}
		p, err := ai.Player(snap.Game, kind, len(snap.Record.Seats), 0)
		if err != nil {
			return all, snap, err
		}
		if ai.Slow(p) {
			// A search player decides away from the table's lock.
			b.thinkLater(snap.Record.ID)
			break
		}
		legal := snap.State.Legal(seat)
		if len(legal) == 0 {
			break
		}
		a := engine.Decide(p, snap.State, seat, engine.NewRand(randomUint64(), 0))
		evs, next, err := b.act(ctx, snap.Record.ID, seat, a.String(), snap.Version)
		if engine.Code(err) == engine.CodeStale {
			// Another process moved this seat first.
			b.log.Info("AI seat moved by another process", "table", snap.Record.ID, "seat", seat)
			return all, snap, nil
		}
		if err != nil {
			return all, snap, fmt.Errorf("AI seat %d (%s): %w", seat, a, err)
		}
		all = append(all, evs...)
		snap = next
	}
	return all, snap, nil
}

func aiToAct(snap *table.Snapshot) (engine.Seat, string, bool) {
	for _, s := range snap.State.Acting() {
		for _, si := range snap.Record.Seats {
			if si.Seat == s && si.Kind == table.AI {
				return s, si.Bot, true
			}
		}
	}
	return 0, "", false
}

// newOwner names this process in the claims of deadlines: the host, the
// process id and 64 random bits, unique to each Bot even after a restart
// with the same process id.
func newOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%016x", host, os.Getpid(), randomUint64())
}

func randomUint64() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// CachedTables reports how many tables the bot holds in memory, and the
// bound of its table cache.
func (b *Bot) CachedTables() (n, bound int) { return b.tables.Cached() }

// WaitingToBeShown reports, for each table whose message does not show its
// newest state yet, how long the oldest state not shown has waited (the
// load test adds them to the lags of the edits made: a table never edited
// in its window still counts).
func (b *Bot) WaitingToBeShown() []time.Duration {
	var out []time.Duration
	now := time.Now()
	b.outboxes.Range(func(_, v any) bool {
		ob := v.(*outbox)
		ob.mu.Lock()
		if !ob.pending.IsZero() {
			out = append(out, now.Sub(ob.pending))
		}
		ob.mu.Unlock()
		return true
	})
	return out
}
