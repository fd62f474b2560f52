// Package loadtest plays many concurrent tables of every game on the bot
// against the fake Discord (bot/discordtest, on 127.0.0.1 only) and measures
// what it costs: interactions per second, acknowledgement latency, Discord
// REST calls per player action, CPU per action and memory per open table.
// It is run by `stolik loadtest`.
package loadtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/bot/ratelimit"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/open"
)

// Config is one load run.
type Config struct {
	Tables   int           // concurrent tables (each in its own channel)
	Duration time.Duration // measured window, after every table has started
	// Think is the mean pause (exponentially distributed) of a table's
	// players between two interactions; 0 plays as fast as the bot answers.
	Think time.Duration
	// AITables is the share of tables (0 to 1) that have AI players: at
	// those, 1 to seats-1 of the seats are humans and the rest AI players.
	AITables float64
	// AILevel is the level of the AI players (/stolik open's ai_level:
	// easy, normal, hard); "" for the bot's default.
	AILevel string
	Games   []string // default: every registered game
	Dir     string   // where the database goes; default: a temporary directory
	Seed    uint64
	// TableCache is the bot's table cache (0: the bot's default).
	TableCache int
	// NoPictures runs the bot without pictures (its "pictures" key false):
	// the table message and the hands in words only.
	NoPictures bool
	Progress   io.Writer // progress lines; nil: none

	// DB is the database: a postgres:// URL (of an empty database, or one
	// without open tables), or a SQLite file; "" is stolik.db in Dir.
	DB string
	// Processes is how many bots share the database, each holding one
	// shard of the gateway (the guilds with (guild_id >> 22) % Processes ==
	// its shard), as that many `stolik serve` processes with shard = 0 … N-1
	// would; they run in this process, each with its own Discord session,
	// its own database connections and its own table cache. More than 1
	// needs a PostgreSQL DB. 0 is 1.
	Processes int

	// Limits are the Discord rate limits the fake enforces; nil is
	// Discord's (discordtest.DefaultLimits). NoLimits turns them off (the
	// figures of a Discord without limits).
	Limits   *discordtest.Limits
	NoLimits bool
	// RESTRate is the bots' rest_rate (0: the bot's default, Discord's 50).
	RESTRate int

	// Measuring, when set, is called as the measured window begins and
	// the function it returns as it ends (e.g. to profile the window only,
	// without the tables' opening).
	Measuring func() (end func())
}

// Report is what a run measured.
type Report struct {
	Tables, Games int
	Pictures      bool // the bot drew pictures
	Think         time.Duration
	Window        time.Duration
	Interactions  int // answered in the window
	Unanswered    int // dispatched in the window, never acknowledged
	Actions       int // game moves stored in the window
	HumanActions  int // of them, the moves of human seats
	// Handovers counts, over the moves of the window, the human seats that
	// must act after a move and did not before it (the last human to move
	// aside, whose answer shows the table after the AI moves that follow): each
	// of them holds a hand that has gone stale and needs one refresh. It is
	// the floor of "My hand" presses.
	Handovers int
	// HandoverMoves are the moves with at least one handover: the table
	// message must show each of them (whose turn it is), so they are the
	// floor of table-message edits unless several fall within one publish
	// interval.
	HandoverMoves int
	AITables      int // tables with AI players
	AISeats       int // seats of AI players, of Seats
	Seats         int // seats at all tables
	AILevel       string
	HandClicks    int // "My hand" presses in the window
	// HandAnswers are the answers showing a hand in the window;
	// HandPictures, those whose picture had been edited in by the time
	// the user used the hand again or got another (a hand still unused at
	// the end counts as one without).
	HandAnswers, HandPictures int
	// AskedAnswers and AskedPictures are the same for the answers to
	// "My hand" alone: the bot draws a hand's picture only when its owner
	// asked for it, so an answer to a move shows the hand in words unless
	// that picture was drawn before.
	AskedAnswers, AskedPictures int
	Finished                    int // games finished in the window
	Deferred                    int // interactions acknowledged by deferring
	// AckP50, AckP99 (and AckP99By, AckMax) are the acknowledgements'
	// latencies as Discord would see them: from the interaction's event
	// sent to the initial response's arrival at the fake Discord.
	AckP50, AckP99 time.Duration
	// RoundP50 and RoundP99 are the round trips the simulated users saw:
	// the same, plus the fake Discord's building of the event and
	// checking of the response, and the wait for the user's goroutine to
	// run again, all in this one process.
	RoundP50, RoundP99 time.Duration
	// AppendP50, AppendP99 and AppendMax are the times of the moves'
	// appends to the log, each waited for until durable: the part of a
	// move's acknowledgement that is the disk's.
	AppendP50, AppendP99, AppendMax time.Duration
	// AckP99By is the p99 of each kind of interaction: "hand" (My hand),
	// "move" (a control of a hand) and "command" (slash commands).
	AckP99By     map[string]time.Duration
	AckMax       time.Duration
	REST         int            // REST calls the bot made in the window
	RESTByKind   map[string]int // interaction responses, table message edits, posts, ...
	CPU          time.Duration  // process CPU (bot, fake Discord and simulated users together)
	CachedTables int            // tables in the bot's memory at the end
	CacheSize    int
	HeapPerTable float64 // bytes of heap per loaded table (measured separately)
	Errors       []string
	// TextViolations are what the fake Discord found wrong in the
	// messages' text during the whole run (a text cut at a limit, two
	// controls of one message reading the same, a mention not allowed).
	TextViolations []string

	Database  string // "sqlite" or "postgres"
	Processes int    // bots sharing the database, one shard each
	// Conflicts are the appends in the window refused because the log had
	// moved on (another writer was first): each is a reload of the table
	// and a "this was already played" answer the user retries.
	Conflicts int

	// Disk is the disk's own sync latency over the window, timed beside
	// the database without the bot (SQLite only).
	Disk DiskProbe

	// Limits describes the rate limits the fake enforced ("" for none).
	Limits string
	// LagP50, LagP99 and LagMax are how far behind the table messages
	// were: for each edit of a table message in the window, the time from
	// the oldest move it brought in to the edit's answer, and for each
	// table still waiting at the end of the window how long it had waited.
	// Lags counts them.
	LagP50, LagP99, LagMax time.Duration
	Lags                   int
	// Refused are the bot's requests in the window that the fake refused
	// with 429 (GlobalRefused of them by the global limit); Invalid are
	// its requests answered 401, 403 or 429 (Discord bans a bot for a
	// while after 10,000 in 10 minutes), Banned those refused for that.
	Refused, GlobalRefused, Invalid, Banned int
	// RateLimited are the bot-token requests in the window (every route
	// but the interaction routes: what counts against Discord's global
	// limit); PeakSecond the most of them in one second.
	RateLimited, PeakSecond int
}

// RateLimitedPerAction is the bot-token (rate-limited) requests per stored
// game move.
func (r Report) RateLimitedPerAction() float64 {
	return float64(r.RateLimited) / float64(max(r.Actions, 1))
}

// InteractionsPerSec is the answered interactions per second.
func (r Report) InteractionsPerSec() float64 { return float64(r.Interactions) / r.Window.Seconds() }

// RESTPerAction is REST calls per stored game move.
func (r Report) RESTPerAction() float64 { return float64(r.REST) / float64(max(r.Actions, 1)) }

// RESTPerHumanAction is REST calls per move of a human seat.
func (r Report) RESTPerHumanAction() float64 {
	return float64(r.REST) / float64(max(r.HumanActions, 1))
}

// CPUPerAction is process CPU per stored game move.
func (r Report) CPUPerAction() time.Duration {
	return r.CPU / time.Duration(max(r.Actions, 1))
}

// Print writes the report.
func (r Report) Print(w io.Writer) {
	pictures := "on"
	if !r.Pictures {
		pictures = "off"
	}
	fmt.Fprintf(w, "tables %d (games: %d kinds; %d with AI players: %d of %d seats, level %s), think %v, pictures %s, window %.1fs\n", r.Tables, r.Games, r.AITables, r.AISeats, r.Seats, cmp.Or(r.AILevel, "default"), r.Think, pictures, r.Window.Seconds())
	fmt.Fprintf(w, "interactions %d (%.0f/s), player actions %d (%.0f/s; by humans %d), My-hand presses %d, games finished %d, unanswered %d, deferred %d\n",
		r.Interactions, r.InteractionsPerSec(), r.Actions, float64(r.Actions)/r.Window.Seconds(), r.HumanActions, r.HandClicks, r.Finished, r.Unanswered, r.Deferred)
	fmt.Fprintf(w, "database %s, %d process(es) sharing it; log-length conflicts at append %d (%.2f per 1000 player actions)\n",
		r.Database, max(r.Processes, 1), r.Conflicts, 1000*float64(r.Conflicts)/float64(max(r.Actions, 1)))
	fmt.Fprintf(w, "ack latency (event sent to response received) p50 %v, p99 %v, max %v", r.AckP50.Round(10*time.Microsecond), r.AckP99.Round(10*time.Microsecond), r.AckMax.Round(10*time.Microsecond))
	if len(r.AckP99By) > 0 {
		var by []string
		for _, k := range []string{"hand", "move", "command"} {
			if d, ok := r.AckP99By[k]; ok {
				by = append(by, fmt.Sprintf("%s %v", k, d.Round(10*time.Microsecond)))
			}
		}
		fmt.Fprintf(w, " (p99 by kind: %s)", strings.Join(by, ", "))
	}
	fmt.Fprintln(w)
	if r.RoundP99 > 0 {
		fmt.Fprintf(w, "round trips seen by the simulated users (adding the fake Discord's own work and their wait to run) p50 %v, p99 %v\n",
			r.RoundP50.Round(10*time.Microsecond), r.RoundP99.Round(10*time.Microsecond))
	}
	if r.AppendMax > 0 {
		fmt.Fprintf(w, "moves' durable appends (the disk's part of a move's acknowledgement) p50 %v, p99 %v, max %v\n",
			r.AppendP50.Round(10*time.Microsecond), r.AppendP99.Round(10*time.Microsecond), r.AppendMax.Round(10*time.Microsecond))
	}
	if d := r.Disk; d.Syncs > 0 || d.Err != "" {
		fmt.Fprintf(w, "the disk alone (12 KiB written and synced every %v beside the database, %d syncs) p50 %v, p99 %v, max %v; %d syncs of %v or more, %v in all",
			diskProbeEvery, d.Syncs, d.P50.Round(10*time.Microsecond), d.P99.Round(10*time.Microsecond), d.Max.Round(10*time.Microsecond),
			d.Stalls, diskProbeStall, d.StalledFor.Round(time.Millisecond))
		if d.Err != "" {
			fmt.Fprintf(w, " (the probe stopped: %s)", d.Err)
		}
		fmt.Fprintln(w)
	}
	if r.Pictures && r.HandAnswers > 0 {
		fmt.Fprintf(w, "hands shown %d, with their picture by the time they were used %d (%.0f%%; the others still in words); of them asked for with My hand %d, with their picture %d (%.0f%%; an answer to a move shows the hand in words unless its picture was drawn before)\n",
			r.HandAnswers, r.HandPictures, 100*float64(r.HandPictures)/float64(r.HandAnswers),
			r.AskedAnswers, r.AskedPictures, 100*float64(r.AskedPictures)/float64(max(r.AskedAnswers, 1)))
	}
	kinds := make([]string, 0, len(r.RESTByKind))
	for k := range r.RESTByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, float64(r.RESTByKind[k])/float64(max(r.Actions, 1))))
	}
	fmt.Fprintf(w, "REST calls %d: %.2f per player action (%s)\n", r.REST, r.RESTPerAction(), strings.Join(parts, ", "))
	fmt.Fprintf(w, "floor: hands gone stale %.2f per player action (My-hand presses %.2f), moves that make someone new wait %.2f (table-message edits %.2f)\n",
		float64(r.Handovers)/float64(max(r.Actions, 1)), float64(r.HandClicks)/float64(max(r.Actions, 1)),
		float64(r.HandoverMoves)/float64(max(r.Actions, 1)), float64(r.RESTByKind["table-edit"])/float64(max(r.Actions, 1)))
	if r.HumanActions != r.Actions {
		fmt.Fprintf(w, "REST calls per human move: %.2f\n", r.RESTPerHumanAction())
	}
	limits := r.Limits
	if limits == "" {
		limits = "off (a Discord without rate limits)"
	}
	fmt.Fprintf(w, "rate limits: %s\n", limits)
	fmt.Fprintf(w, "bot-token (rate-limited) requests %d: %.2f per player action, %.1f/s, at most %d in one second; refused with 429 %d (global %d), invalid requests %d, banned %d\n",
		r.RateLimited, r.RateLimitedPerAction(), float64(r.RateLimited)/r.Window.Seconds(), r.PeakSecond, r.Refused, r.GlobalRefused, r.Invalid, r.Banned)
	fmt.Fprintf(w, "table message lag (from a move to the edit that shows it; tables still waiting at the end included) p50 %v, p99 %v, max %v over %d\n",
		r.LagP50.Round(time.Millisecond), r.LagP99.Round(time.Millisecond), r.LagMax.Round(time.Millisecond), r.Lags)
	fmt.Fprintf(w, "CPU %v: %v per player action (whole process: bot + fake Discord + simulated users)\n", r.CPU.Round(time.Millisecond), r.CPUPerAction().Round(time.Microsecond))
	fmt.Fprintf(w, "tables in the bot's memory at the end: %d (cache bound %d); heap per loaded table %.1f KiB\n", r.CachedTables, r.CacheSize, r.HeapPerTable/1024)
	fmt.Fprintf(w, "Discord's limits: %d messages with a text cut, two controls alike or a mention not allowed\n", len(r.TextViolations))
	for i, v := range r.TextViolations {
		if i == 5 {
			fmt.Fprintf(w, "... %d more\n", len(r.TextViolations)-5)
			break
		}
		fmt.Fprintln(w, "text:", v)
	}
	for i, e := range r.Errors {
		if i == 10 {
			fmt.Fprintf(w, "... %d more errors\n", len(r.Errors)-10)
			break
		}
		fmt.Fprintln(w, "error:", e)
	}
}

const guildID = "100000000000000001"

// guildsFor is the guilds of a run: one guild, or with several processes
// one guild per shard ((id >> 22) % processes == shard, Discord's formula).
func guildsFor(processes int) []string {
	if processes <= 1 {
		return []string{guildID}
	}
	base := uint64(1<<20) / uint64(processes) * uint64(processes)
	out := make([]string, processes)
	for s := range out {
		out[s] = strconv.FormatUint((base+uint64(s))<<22|1, 10)
	}
	return out
}

// countingStore counts the appends refused for a log-length conflict and
// times the appends made while the run is measured: a move is answered
// only once its append is durable (fsync), so a slow disk shows here.
type countingStore struct {
	open.Backend
	h *harness
}

func (c countingStore) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	t0 := time.Now()
	err := c.Backend.Append(ctx, id, e, status)
	if errors.Is(err, table.ErrConflict) {
		c.h.conflicts.Add(1)
	}
	if c.h.measuring.Load() {
		d := time.Since(t0)
		c.h.mu.Lock()
		c.h.appendLat = append(c.h.appendLat, d)
		c.h.mu.Unlock()
	}
	return err
}

// harness is one run: the fake, the bot and the tables' drivers.
type harness struct {
	cfg  Config
	tb   *discordtest.Standalone
	fake *discordtest.Server
	db   open.Backend
	bots []*bot.Bot
	// guilds are the run's guilds, one per shard (guildsFor).
	guilds    []string
	conflicts atomic.Int64

	measuring atomic.Bool
	mu        sync.Mutex
	lat       []time.Duration            // acknowledgements, from the event sent to the response's arrival
	roundLat  []time.Duration            // round trips seen by the simulated users
	latBy     map[string][]time.Duration // by kind of interaction
	appendLat []time.Duration            // durable appends of moves, in the window
	tableLag  []time.Duration            // table messages' lags, in the window
	unacked   int
	hands     int
	deferred  int
	// hand answers (Components V2), and those with the hand's picture
	handAnswers, handPictures   int
	askedAnswers, askedPictures int
	finished                    int
	errs                        []string
	tableIDs                    []string
	aiTables, aiSeats, allSeats int
}

// Run performs one load run. It only talks to 127.0.0.1.
func Run(ctx context.Context, cfg Config) (rep Report, err error) {
	if cfg.Tables <= 0 {
		return rep, errors.New("loadtest: no tables")
	}
	if len(cfg.Games) == 0 {
		cfg.Games = engine.Games()
	}
	for _, g := range cfg.Games {
		if _, err := engine.Lookup(g); err != nil {
			return rep, fmt.Errorf("loadtest: %w", err)
		}
	}
	if cfg.Dir == "" {
		dir, err := os.MkdirTemp("", "stolik-loadtest-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(dir)
		cfg.Dir = dir
	}
	h := &harness{cfg: cfg, tb: &discordtest.Standalone{}, latBy: map[string][]time.Duration{}}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("loadtest: %v", p)
		}
	}()
	defer h.tb.Close()
	if err := h.start(ctx); err != nil {
		return rep, err
	}
	return h.run(ctx)
}

func (h *harness) progress(format string, args ...any) {
	if h.cfg.Progress != nil {
		fmt.Fprintf(h.cfg.Progress, format+"\n", args...)
	}
}

func (h *harness) start(ctx context.Context) error {
	opts := []discordtest.Option{discordtest.WithoutCallBodies(), discordtest.WithLenientText()}
	if !h.cfg.NoLimits {
		l := discordtest.DefaultLimits()
		if h.cfg.Limits != nil {
			l = *h.cfg.Limits
		}
		opts = append(opts, discordtest.WithRateLimits(l))
	}
	h.fake = discordtest.New(h.tb, opts...)
	procs := max(h.cfg.Processes, 1)
	h.guilds = guildsFor(procs)
	for i, g := range h.guilds {
		h.fake.AddGuild(g, "Load "+strconv.Itoa(i), "en-US")
	}
	dsn := h.cfg.DB
	if dsn == "" {
		dsn = filepath.Join(h.cfg.Dir, "stolik.db")
	}
	if procs > 1 && !open.IsPostgres(dsn) {
		return errors.New("loadtest: several processes need a PostgreSQL database (a postgres:// URL)")
	}
	db, err := open.Open(ctx, dsn)
	if err != nil {
		return err
	}
	h.db = db
	h.tb.Cleanup(func() { _ = db.Close() })
	// The run's channels are the same every time: a table left open in
	// one by an earlier run would stop /stolik open there.
	if left, err := db.OpenTables(ctx); err != nil {
		return err
	} else if len(left) > 0 {
		return fmt.Errorf("loadtest: the database %s holds %d open tables (an earlier run's?): give an empty one", open.Describe(dsn), len(left))
	}
	for shard := range procs {
		// Each bot has its own connections, as a process of its own would
		// (SQLite: one process, the store shared).
		st := db
		if procs > 1 {
			if st, err = open.Open(ctx, dsn); err != nil {
				return err
			}
			h.tb.Cleanup(func() { _ = st.Close() })
		}
		dg, err := discordgo.New("Bot load-token")
		if err != nil {
			return err
		}
		h.fake.Configure(dg)
		cfg := bot.Defaults()
		cfg.Token, cfg.GuildID = "load-token", guildID
		if procs > 1 {
			cfg.GuildID = "" // the commands global, for every shard's guild
		}
		cfg.Shard, cfg.Shards = shard, procs
		cfg.TableCache = h.cfg.TableCache
		cfg.Pictures = !h.cfg.NoPictures
		if h.cfg.RESTRate > 0 {
			cfg.RESTRate = h.cfg.RESTRate
		}
		// As serve: on PostgreSQL the table service checks its cache
		// against the store (other processes may share it).
		b, err := bot.New(cfg, bot.Deps{Session: dg, Store: countingStore{st, h}, Logger: slog.New(slog.DiscardHandler), SharedStore: open.IsPostgres(dsn),
			OnTableShown: h.shown})
		if err != nil {
			return err
		}
		runCtx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.Run(runCtx) }()
		h.tb.Cleanup(func() {
			cancel()
			<-done
			dg.ShouldReconnectOnError = false
		})
		select {
		case <-b.Ready():
		case err := <-done:
			return fmt.Errorf("loadtest: the bot stopped: %w", err)
		case <-time.After(20 * time.Second):
			return errors.New("loadtest: the bot did not get ready")
		}
		h.bots = append(h.bots, b)
	}
	return nil
}

func (h *harness) fail(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.errs) < 1000 {
		h.errs = append(h.errs, fmt.Sprintf(format, args...))
	}
}

func (h *harness) run(ctx context.Context) (Report, error) {
	n := h.cfg.Tables
	drivers := make([]*driver, n)
	for i := range drivers {
		ch := strconv.FormatUint(200000000000000001+uint64(i), 10)
		guild := h.guilds[i%len(h.guilds)]
		h.fake.AddChannel(guild, ch)
		game := h.cfg.Games[i%len(h.cfg.Games)]
		g, _ := engine.Lookup(game)
		lo, hi := g.Seats()
		rnd := rand.New(rand.NewPCG(h.cfg.Seed, uint64(i)))
		seats := lo + rnd.IntN(hi-lo+1)
		humans := seats
		if h.cfg.AITables > 0 && rnd.Float64() < h.cfg.AITables {
			humans = 1 + rnd.IntN(seats-1)
			h.aiTables++
		}
		h.aiSeats += seats - humans
		h.allSeats += seats
		d := &driver{h: h, ch: ch, guild: guild, game: game, seats: seats, rnd: rnd, hand: map[string]*discordtest.Message{}, handAt: map[string]int{}, declared: map[string]bool{}}
		for s := 0; s < humans; s++ {
			u := strconv.FormatUint(300000000000000001+uint64(i*10+s), 10)
			h.fake.AddUser(u, "p"+strconv.Itoa(i)+"_"+strconv.Itoa(s), []string{"en-US", "pl", "uk"}[(i+s)%3])
			d.users = append(d.users, u)
		}
		drivers[i] = d
	}
	h.progress("opening %d tables", n)
	if err := h.each(ctx, drivers, 8, func(d *driver) error { return d.open(ctx) }); err != nil {
		return Report{}, err
	}
	h.progress("playing for %v", h.cfg.Duration)

	playCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for _, d := range drivers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.play(playCtx)
		}()
	}
	// Let every table get going, then measure.
	time.Sleep(min(2*time.Second, h.cfg.Duration/4))
	startLogs := h.logLengths(ctx)
	rest0 := h.fake.RESTCalls()
	rate0 := h.fake.RateStats()
	conflicts0 := h.conflicts.Load()
	cpu0 := cpuTime()
	endMeasuring := func() {}
	if h.cfg.Measuring != nil {
		endMeasuring = h.cfg.Measuring()
	}
	stopProbe := func() DiskProbe { return DiskProbe{} }
	if dir := probeDir(h.cfg); dir != "" {
		stopProbe = probeDisk(dir)
	}
	h.measuring.Store(true)
	t0 := time.Now()
	select {
	case <-time.After(h.cfg.Duration):
	case <-ctx.Done():
	}
	h.measuring.Store(false)
	disk := stopProbe()
	endMeasuring()
	window := time.Since(t0)
	cpu := cpuTime() - cpu0
	rest1 := h.fake.RESTCalls()
	rate1 := h.fake.RateStats()
	var waiting []time.Duration
	for _, b := range h.bots {
		waiting = append(waiting, b.WaitingToBeShown()...)
	}
	conflicts := h.conflicts.Load() - conflicts0
	endLogs := h.logLengths(ctx)
	stop()
	wg.Wait()

	rep := Report{
		Tables: n, Games: len(h.cfg.Games), Pictures: !h.cfg.NoPictures, Think: h.cfg.Think, Window: window, CPU: cpu,
		REST: rest1 - rest0, RESTByKind: map[string]int{},
		Database: "sqlite", Processes: len(h.bots), Conflicts: int(conflicts), Disk: disk,
	}
	if open.IsPostgres(h.cfg.DB) {
		rep.Database = "postgres"
	}
	for id, l := range endLogs {
		rep.Actions += l.all - startLogs[id].all
		rep.HumanActions += l.human - startLogs[id].human
	}
	rep.AITables, rep.AISeats, rep.Seats, rep.AILevel = h.aiTables, h.aiSeats, h.allSeats, h.cfg.AILevel
	rep.Handovers, rep.HandoverMoves = h.handovers(ctx, startLogs, endLogs)
	perSecond := map[int64]int{}
	for _, c := range h.fake.Calls()[rest0:rest1] {
		rep.RESTByKind[kind(c)]++
		if c.Route != "" && !ratelimit.Exempt(c.Path) {
			rep.RateLimited++
			perSecond[c.Time.Unix()]++
			rep.PeakSecond = max(rep.PeakSecond, perSecond[c.Time.Unix()])
		}
	}
	rep.Refused, rep.GlobalRefused = rate1.Limited-rate0.Limited, rate1.Global-rate0.Global
	rep.Invalid, rep.Banned = rate1.Invalid-rate0.Invalid, rate1.Banned-rate0.Banned
	if !h.cfg.NoLimits {
		rep.Limits = describeLimits(h.cfg.Limits)
	}
	h.mu.Lock()
	rep.Interactions = len(h.lat)
	rep.AckP50, rep.AckP99, rep.AckMax = quantiles(h.lat)
	rep.RoundP50, rep.RoundP99, _ = quantiles(h.roundLat)
	rep.AppendP50, rep.AppendP99, rep.AppendMax = quantiles(h.appendLat)
	lags := append(slices.Clone(h.tableLag), waiting...)
	rep.Lags = len(lags)
	rep.LagP50, rep.LagP99, rep.LagMax = quantiles(lags)
	rep.AckP99By = map[string]time.Duration{}
	for k, ls := range h.latBy {
		_, rep.AckP99By[k], _ = quantiles(ls)
	}
	rep.Unanswered, rep.HandClicks, rep.Finished, rep.Deferred = h.unacked, h.hands, h.finished, h.deferred
	rep.HandAnswers, rep.HandPictures = h.handAnswers, h.handPictures
	rep.AskedAnswers, rep.AskedPictures = h.askedAnswers, h.askedPictures
	rep.Errors = slices.Clone(h.errs)
	h.mu.Unlock()
	for _, b := range h.bots {
		n, bound := b.CachedTables()
		rep.CachedTables += n
		rep.CacheSize += bound
	}
	per, err := h.heapPerTable(ctx)
	if err != nil {
		rep.Errors = append(rep.Errors, err.Error())
	}
	rep.HeapPerTable = per
	rep.TextViolations = h.fake.TextViolations()
	return rep, nil
}

// shown is the bots' OnTableShown: a table message's lag.
func (h *harness) shown(lag time.Duration) {
	if !h.measuring.Load() {
		return
	}
	h.mu.Lock()
	h.tableLag = append(h.tableLag, lag)
	h.mu.Unlock()
}

// describeLimits says what the fake enforced (nil: Discord's).
func describeLimits(l *discordtest.Limits) string {
	if l == nil {
		d := discordtest.DefaultLimits()
		return fmt.Sprintf("Discord's: %d requests a second a bot token (interaction routes exempt), %d route buckets, ban after %d invalid requests in %v",
			d.Global, len(d.Routes), d.Invalid, d.InvalidWindow)
	}
	return fmt.Sprintf("%d requests a second a bot token (interaction routes exempt), %d route buckets", l.Global, len(l.Routes))
}

// quantiles are the median, the 99th percentile and the largest of ds
// (zero when there are none); ds is left as it is.
func quantiles(ds []time.Duration) (p50, p99, max time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	s := slices.Sorted(slices.Values(ds))
	return s[len(s)/2], s[min(len(s)-1, len(s)*99/100)], s[len(s)-1]
}

// kind classifies a REST call.
func kind(c discordtest.Call) string {
	switch {
	case strings.HasSuffix(c.Route, "/callback"):
		return "response"
	case strings.HasPrefix(c.Route, "PATCH /webhooks/"):
		return "response-edit"
	case strings.HasPrefix(c.Route, "PATCH /channels/"):
		return "table-edit"
	case strings.HasPrefix(c.Route, "POST /channels/"):
		return "post"
	default:
		return c.Method + " other"
	}
}

// each runs f for every driver, par at a time.
func (h *harness) each(ctx context.Context, ds []*driver, par int, f func(*driver) error) error {
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	var first atomic.Value
	for _, d := range ds {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(d); err != nil {
				first.CompareAndSwap(nil, err)
			}
		}()
		if ctx.Err() != nil {
			break
		}
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return err
	}
	return ctx.Err()
}

// logLength is the length of a table's log, and how many of its entries
// are human moves.
type logLength struct{ all, human int }

// logLengths reads the log length of every table opened so far.
func (h *harness) logLengths(ctx context.Context) map[string]logLength {
	h.mu.Lock()
	ids := slices.Clone(h.tableIDs)
	h.mu.Unlock()
	out := make(map[string]logLength, len(ids))
	for _, id := range ids {
		rec, log, err := h.db.Load(ctx, id)
		if err != nil {
			continue
		}
		n := logLength{all: len(log)}
		for _, e := range log {
			for _, si := range rec.Seats {
				if si.Seat == e.Seat && si.Kind == table.Human {
					n.human++
				}
			}
		}
		out[id] = n
	}
	return out
}

// heapPerTable loads every table of the run into a fresh table service and
// reports the heap it takes per table.
func (h *harness) heapPerTable(ctx context.Context) (float64, error) {
	h.mu.Lock()
	ids := slices.Clone(h.tableIDs)
	h.mu.Unlock()
	// The bot's output still going out (table messages held up to twice
	// the publish interval, and their pictures) would move the heap while
	// it is measured.
	select {
	case <-time.After(3 * time.Second):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	svc := table.New(h.db, table.WithCacheSize(len(ids)+1))
	before := heap()
	for _, id := range ids {
		if _, err := svc.Get(ctx, id); err != nil {
			return 0, err
		}
	}
	after := heap()
	runtime.KeepAlive(svc)
	return (float64(after) - float64(before)) / float64(max(len(ids), 1)), nil
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// handovers replays the moves each table made in the window and counts the
// human seats that had to act after a move and not before it (the last
// human to move aside: their answer shows the table after their move and
// the AI moves that follow it), and the moves with at least one of them.
func (h *harness) handovers(ctx context.Context, start, end map[string]logLength) (seats, moves int) {
	for id, n := range end {
		from := start[id].all
		if n.all <= from {
			continue
		}
		rec, log, err := h.db.Load(ctx, id)
		if err != nil {
			continue
		}
		g, err := engine.Lookup(rec.Setup.Game)
		if err != nil {
			continue
		}
		st, err := engine.Start(g, rec.Setup, nil)
		if err != nil {
			continue
		}
		human := map[engine.Seat]bool{}
		for _, si := range rec.Seats {
			human[si.Seat] = si.Kind == table.Human
		}
		mover := engine.Seat(-1) // the last human to move
		for i, e := range log[:n.all] {
			before := st.Acting()
			if _, err := engine.Step(g, st, rec.Setup.Seed, i, engine.Move{Seat: e.Seat, Action: e.Action}, nil); err != nil {
				break
			}
			if i < from {
				continue
			}
			if human[e.Seat] {
				mover = e.Seat
			}
			k := 0
			for _, s := range st.Acting() {
				// The answer to a human's move shows the table after the AI
				// moves that follow it (when they are quick).
				if human[s] && s != mover && !slices.Contains(before, s) {
					k++
				}
			}
			seats += k
			if k > 0 {
				moves++
			}
		}
	}
	return seats, moves
}
