package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	princessesview "github.com/stolik-bot/stolik/render/princesses"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/store/sqlite"
)

const (
	guildID   = "100000000000000001"
	channelID = "200000000000000001"
	ala       = "300000000000000001" // pl
	olena     = "300000000000000002" // uk
	bob       = "300000000000000003" // en-US
	zosia     = "300000000000000004" // pl
	eve       = "300000000000000005" // en-GB, never sits down
)

var players = []string{ala, olena, bob, zosia}

// world is a fake Discord with one guild, one channel and five users, and a
// bot on a SQLite file that can be stopped and started again.
type world struct {
	t      *testing.T
	fake   *discordtest.Server
	dbPath string
	loc    *locales.Bundle

	clock *discordtest.FakeClock // nil: real time

	// wrap, when set, wraps the store of the bots started from then on.
	wrap func(*sqlite.DB) bot.Store
	// config, when set, changes the configuration of the bots started
	// from then on.
	config func(*bot.Config)
	// shared, when set, tells the bots started from then on that other
	// processes share their store (bot.Deps.SharedStore).
	shared bool
	// logs holds the bots' warnings and errors (JSON).
	logs *logBuffer

	db      *sqlite.DB
	bot     *bot.Bot
	cancel  context.CancelFunc
	done    chan error
	seen    map[string]string    // message id -> text already checked for leaks
	seenAt  map[string]int       // message id -> index in states of the check that saw its text
	states  []leakState          // the table at every leak check, oldest first
	changes *discordtest.Changes // the messages new or changed since the last leak check
	checked int                  // log length at the last leak check
	onTable []princesses.Card    // the trick on the table at the last leak check
	masked  []princesses.Card    // the face-down plays (Masquerade) at the last leak check
	// lastPlayed are the cards played in the windows of the last few leak
	// checks: the table's output is published from a timer (and waits for
	// its picture), so a post about them (a trick taken at a round's end)
	// may arrive some checks later, when a new deal has put the same cards
	// in hands again (in a simultaneous decision every seat's move is a
	// check of its own).
	lastPlayed []map[princesses.Card]bool
}

func newWorld(t *testing.T) *world { t.Helper(); return newWorldAt(t, nil) }

// newWorldAt is newWorld on a fake clock shared by the fake Discord and the
// bot (nil: real time).
func newWorldAt(t *testing.T, clock *discordtest.FakeClock) *world {
	t.Helper()
	t.Parallel()
	// Discord's own heartbeat interval: with a short one, a test machine
	// busy enough to delay an ack by five intervals makes discordgo close
	// the session and identify anew, and a click sent meanwhile finds no
	// bot (see discordtest.WithHeartbeatInterval).
	var opts []discordtest.Option
	if clock != nil {
		opts = append(opts, discordtest.WithClock(clock))
	}
	fake := discordtest.New(t, opts...)
	fake.AddGuild(guildID, "Gry", "pl")
	fake.AddChannel(guildID, channelID)
	fake.AddUser(ala, "ala", "pl")
	fake.AddUser(olena, "olena", "uk")
	fake.AddUser(bob, "bob", "en-US")
	fake.AddUser(zosia, "zosia", "pl")
	fake.AddUser(eve, "eve", "en-GB")
	w := &world{t: t, fake: fake, clock: clock, dbPath: filepath.Join(t.TempDir(), "stolik.db"), loc: locales.MustLoad(), seen: map[string]string{}, seenAt: map[string]int{}, changes: fake.Changes(), logs: &logBuffer{}}
	w.start()
	t.Cleanup(w.stop)
	return w
}

// start runs a new Bot with a new discordgo session on the same database.
func (w *world) start() {
	t := w.t
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, w.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	dg, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	w.fake.Configure(dg)
	cfg := bot.Defaults()
	cfg.Token, cfg.GuildID, cfg.Database = "test-token", guildID, w.dbPath
	cfg.ShutdownTimeout = bot.Duration{Duration: 5 * time.Second}
	cfg.PublishInterval = bot.Duration{} // every output at once: the tests read it right after each move
	cfg.PingQuiet = bot.Duration{}       // a mention at every turn
	if w.config != nil {
		w.config(&cfg)
	}
	var st bot.Store = db
	if w.wrap != nil {
		st = w.wrap(db)
	}
	deps := bot.Deps{Session: dg, Store: st, SharedStore: w.shared, Logger: slog.New(slog.NewJSONHandler(w.logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if w.clock != nil {
		deps.Clock = w.clock
	}
	b, err := bot.New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.Run(runCtx) }()
	select {
	case <-b.Ready():
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(readyWait):
		t.Fatal("the bot did not get ready")
	}
	w.db, w.bot, w.cancel, w.done = db, b, cancel, done
	w.idle() // the resume pass runs in the background after Ready
}

// stop shuts the bot down gracefully and closes the database.
func (w *world) stop() {
	if w.bot == nil {
		return
	}
	w.cancel()
	if err := <-w.done; err != nil {
		w.t.Errorf("Run: %v", err)
	}
	if err := w.db.Close(); err != nil {
		w.t.Errorf("closing the database: %v", err)
	}
	w.bot = nil
}

func (w *world) idle() { w.t.Helper(); waitIdle(w.t, w.bot, idleWait()) }

// idleWait is how long a test waits for the bot to finish what an
// interaction started (its answer's picture included). It only bounds a
// hang: on a busy machine (every test of the package, and other packages,
// sharing two processors; under the race detector pictures are drawn some
// ten times slower) a queue of pictures outlasted 10 s, failing
// TestGameOverHTTPInteractions with "the bot is still busy".
func idleWait() time.Duration {
	if raceEnabled {
		return 4 * time.Minute
	}
	return 2 * time.Minute
}

// readyWait bounds how long a test waits for a bot to connect, register
// its commands and resume its tables: only a hang takes so long.
const readyWait = 2 * time.Minute

// do waits for an interaction to be answered and handled, and returns the
// message it answered with (the new ephemeral message, or the updated one).
func (w *world) do(in *discordtest.Interaction) *discordtest.Message {
	w.t.Helper()
	return answered(w.t, in, w.idle)
}

// waitIdle waits at most d for b to have nothing in flight.
func waitIdle(t testing.TB, b *bot.Bot, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := b.WaitIdle(ctx); err != nil {
		t.Fatalf("the bot is still busy: %v", err)
	}
}

// answered waits for an interaction's answer and then for idle, and returns
// the message the user then sees: the new ephemeral message or the updated
// one, or @original once a deferral was filled.
func answered(t testing.TB, in *discordtest.Interaction, idle func()) *discordtest.Message {
	t.Helper()
	in.Wait(context.Background())
	idle()
	if rej := in.Rejected(); len(rej) > 0 {
		t.Fatalf("%s: the fake rejected %v", in, rej)
	}
	m := in.Answer()
	if m == nil {
		t.Fatalf("%s: no answer message", in)
	}
	return m
}

func (w *world) slash(user string, sub string, args ...discordtest.Arg) *discordtest.Message {
	w.t.Helper()
	return w.do(w.fake.SlashCommand(user, guildID, channelID, "stolik", discordtest.Sub(sub, args...)))
}

// tableMessage is the table's public message: the one with a lobby or "My
// hand" button, or the last one holding the table header.
func (w *world) tableMessage(id string) *discordtest.Message {
	w.t.Helper()
	return tableMessageIn(w.t, w.db, w.fake, id)
}

// tableMessageIn is the table message of table id as the store knows it,
// on the fake.
func tableMessageIn(t testing.TB, db *sqlite.DB, fake *discordtest.Server, id string) *discordtest.Message {
	t.Helper()
	rec, _, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m := fake.Message(rec.MessageID)
	if m == nil {
		t.Fatalf("table %s: message %q not found", id, rec.MessageID)
	}
	return m
}

func (w *world) tableID() string {
	w.t.Helper()
	ids, err := w.db.InChannel(context.Background(), channelID)
	if err != nil || len(ids) != 1 {
		w.t.Fatalf("open tables in the channel: %v, %v", ids, err)
	}
	return ids[0]
}

// gameChannel is where a table's game lives: its thread, or the channel.
func (w *world) gameChannel(id string) string {
	w.t.Helper()
	meta, err := w.db.Meta(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	if meta.ThreadID != "" {
		return meta.ThreadID
	}
	return channelID
}

func (w *world) version(id string) int {
	w.t.Helper()
	_, log, err := w.db.Load(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	return len(log)
}

// openTable opens a 4-seat one-round table with powers, seats the given
// users (the first opens it) and starts it, AI players taking the rest.
func (w *world) openTable(users ...string) string {
	w.t.Helper()
	return w.openTableWith(nil, users...)
}

// openTableWith is openTable with more options for /stolik open.
func (w *world) openTableWith(extra []discordtest.Arg, users ...string) string {
	w.t.Helper()
	args := append([]discordtest.Arg{discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 4),
		discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "on"), discordtest.Opt("language", "pl")}, extra...)
	w.slash(users[0], "open", args...)
	id := w.tableID()
	for _, u := range users[1:] {
		w.do(w.fake.Click(u, w.tableMessage(id), "lobby/"+id+"/join"))
	}
	lobby := w.tableMessage(id)
	for _, u := range users {
		if !strings.Contains(shownText(lobby), w.name(u)) {
			w.t.Fatalf("the lobby does not list %s: %q", u, shownText(lobby))
		}
	}
	m := w.do(w.fake.Click(users[0], lobby, "lobby/"+id+"/start"))
	if len(users) < 4 {
		if !strings.Contains(m.Text(), w.loc.Lang("pl").N("bot.seats_empty", 4-len(users), nil)) {
			w.t.Fatalf("start with empty seats: %q", m.Text())
		}
		if after := w.do(w.fake.Click(users[0], m, "lobby/"+id+"/startai")); after.ID != m.ID || len(after.CustomIDs()) != 0 {
			w.t.Fatalf("the question whether to start with AI players stays clickable: %s", after)
		}
	}
	if w.bot != nil {
		w.checkLeaks(id)
	}
	return id
}

func (w *world) name(u string) string { return w.fake.User(u).Username }

var mentionRE = regexp.MustCompile(`<@(\d+)>`)

// toAct reads, from the table message, whose move it is.
func toAct(m *discordtest.Message) []string {
	var out []string
	for _, match := range mentionRE.FindAllStringSubmatch(shownText(m), -1) {
		out = append(out, match[1])
	}
	return out
}

// move makes user act: "My hand" on the table message, then one of the
// controls of the ephemeral answer, chosen by rng. It reports whether the
// hand had controls.
func (w *world) move(id, user string, rng *rand.Rand) bool {
	w.t.Helper()
	hand := w.do(w.fake.Click(user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	if !hand.Ephemeral() {
		w.t.Fatalf("the hand is not ephemeral: %s", hand)
	}
	w.checkLeaks(id)
	var controls []discordtest.Component
	for _, row := range hand.Components {
		for _, c := range row.Components {
			if strings.HasPrefix(c.CustomID, "t/") {
				controls = append(controls, c)
			}
		}
	}
	if len(controls) == 0 {
		return false
	}
	c := controls[rng.IntN(len(controls))]
	for {
		var in *discordtest.Interaction
		// A step (the left card of a two-way pass, a card whose place
		// comes next) rather than an action.
		step := strings.Contains(c.CustomID, "/>") || strings.Contains(c.CustomID, "/~") && !strings.Contains(c.CustomID, "/~sel")
		if c.IsSelect() {
			n := 1
			if c.MinValues != nil {
				n = *c.MinValues
			}
			var vals []string
			for _, k := range rng.Perm(len(c.Options))[:n] {
				vals = append(vals, c.Options[k].Value)
				step = step || strings.HasPrefix(c.Options[k].Value, ">")
			}
			in = w.fake.Select(user, hand, c.CustomID, vals...)
		} else {
			in = w.fake.Click(user, hand, c.CustomID)
		}
		hand = w.do(in)
		w.checkLeaks(id)
		if !step {
			return true
		}
		// A first step (the left card of a two-way pass): take the next control.
		next := gameControls(hand)
		if len(next) == 0 {
			w.t.Fatalf("%s offered no next step: %s %q", c.CustomID, hand, shownText(hand))
		}
		c = next[0]
	}
}

// play makes the humans play until the game is over or maxMoves moves were
// made; it returns the number of moves.
func (w *world) play(id string, rng *rand.Rand, maxMoves int) int {
	w.t.Helper()
	moves := 0
	for moves < maxMoves {
		m := w.tableMessage(id)
		if !playing(m) {
			return moves // over
		}
		acting := toAct(m)
		if len(acting) == 0 {
			w.t.Fatalf("nobody to act: %q", shownText(m))
		}
		u := acting[rng.IntN(len(acting))]
		if !w.move(id, u, rng) {
			w.t.Fatalf("%s is mentioned but has no controls", u)
		}
		moves++
	}
	return moves
}

// cardPatterns match the names of a card in every language, as the bot
// renders them, as whole words ("Queen 1" does not match "Queen 10").
func (w *world) cardPatterns(c princesses.Card) []*regexp.Regexp {
	patternsMu.Lock()
	defer patternsMu.Unlock()
	if res, ok := patterns[c]; ok {
		return res
	}
	var out []*regexp.Regexp
	var names []string
	for _, lang := range locales.Languages() {
		n := princessesview.PrincessCard(w.loc.Lang(lang), c)
		out = append(out, regexp.MustCompile(`(^|[^\p{L}\p{N}])`+regexp.QuoteMeta(n)+`($|[^\p{N}])`))
		names = append(names, n)
	}
	patterns[c], patternNames[c] = out, names
	return out
}

// cardNames are the names cardPatterns match, in the same order: a text
// without the name cannot match its pattern (a cheap test first).
func (w *world) cardNames(c princesses.Card) []string {
	w.cardPatterns(c)
	patternsMu.Lock()
	defer patternsMu.Unlock()
	return patternNames[c]
}

var (
	patternsMu   sync.Mutex
	patterns     = map[princesses.Card][]*regexp.Regexp{}
	patternNames = map[princesses.Card][]string{}
	ruleTexts    []string // card texts in every language, longest first
)

// playLines match, in every language, the event lines that name cards
// played face up: a card played, a trick taken (playLineKeys).
var playLines []*regexp.Regexp

var playLineKeys = []string{"card_played", "card_played_you", "trick_won", "trick_won_you"}

// withoutPlays drops from a message the lines that name cards played face
// up: what they name was public when they were written, however late the
// post holding them arrives. On a loaded machine a post about a round's
// last trick came after the next deal had given one of its cards to
// another seat, more checks later than leakNewLookback. Every other line
// (a pass, a power, a hand) is still judged.
func (w *world) withoutPlays(text string) string {
	patternsMu.Lock()
	if playLines == nil {
		for _, lang := range locales.Languages() {
			for _, k := range playLineKeys {
				t := w.loc.Lang(lang).T("princesses.event."+k, map[string]any{"Name": "\x01", "Card": "\x01", "Cards": "\x01", "Proposals": "\x01"})
				re := strings.ReplaceAll(regexp.QuoteMeta(t), "\x01", `.+?`)
				playLines = append(playLines, regexp.MustCompile(re))
			}
		}
	}
	res := playLines
	patternsMu.Unlock()
	for _, re := range res {
		text = re.ReplaceAllString(text, "")
	}
	return text
}

// withoutRuleTexts drops the texts of round and princess cards from a
// message: they name cards ("the Frog") that may be in anyone's hand.
func (w *world) withoutRuleTexts(text string) string {
	patternsMu.Lock()
	if ruleTexts == nil {
		for _, lang := range locales.Languages() {
			keys, err := locales.Keys(lang)
			if err != nil {
				w.t.Fatal(err)
			}
			for _, k := range keys {
				if strings.HasPrefix(k, "princesses.round.") || strings.HasPrefix(k, "princesses.princess.") {
					if t := w.loc.Lang(lang).T(k, nil); !strings.Contains(t, locales.MissingOpen) {
						ruleTexts = append(ruleTexts, t)
					}
				}
			}
		}
		slices.SortFunc(ruleTexts, func(a, b string) int { return len(b) - len(a) })
	}
	rules := ruleTexts
	patternsMu.Unlock()
	for _, r := range rules {
		if len(r) > 20 {
			text = strings.ReplaceAll(text, r, "")
		}
	}
	return text
}

// leakWindows is how many of the last windows in which cards were played
// (the plays between two leak checks) count as public (see
// world.lastPlayed); windows without a play (a pass, a split) do not push
// them out.
const leakWindows = 2

// leakNewLookback is how many checks before the one that first sees a
// message it may have been made at.
const leakNewLookback = 8

// leakState is what the leak oracle knows at one check: every seat's hand,
// the cards that count as public, and the card each seat froze.
type leakState struct {
	hands  [][]princesses.Card
	played map[princesses.Card]bool
	frozen []princesses.Card
	logLen int       // the log's length at the check
	at     time.Time // when the check was made
}

// leaksSince is leaksIn at the last state if text leaks at every state
// from index from on, and nothing if it shows no hidden card at one of them.
func (w *world) leaksSince(from int, seat engine.Seat, text string) []string {
	var leaks []string
	for i := len(w.states) - 1; i >= max(from, 0); i-- {
		l := w.leaksIn(w.states[i], seat, text)
		if len(l) == 0 {
			return nil
		}
		if leaks == nil {
			leaks = l
		}
	}
	return leaks
}

// madeAgo is how long ago the message of id was made, from its snowflake.
func madeAgo(id string) time.Duration {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0
	}
	return time.Since(time.UnixMilli(int64(n>>22) + 1420070400000)).Round(time.Millisecond)
}

// cleanBefore says how many checks before from the last state at which
// text showed no hidden card lies, for a leak's report: a message that
// arrived later than the oracle looks back shows as one close behind.
func (w *world) cleanBefore(from int, seat engine.Seat, text string) string {
	for i := min(from, len(w.states)) - 1; i >= 0; i-- {
		if len(w.leaksIn(w.states[i], seat, text)) == 0 {
			return fmt.Sprintf("no hidden card at the check %d before the %d looked back at; log length there %d, now %d; %v ago", from-i, len(w.states)-max(from, 0), w.states[i].logLen, w.states[len(w.states)-1].logLen, time.Since(w.states[i].at).Round(time.Millisecond))
		}
	}
	return "a hidden card at every check"
}

// leaksIn names the cards of other seats' hands at st that text shows the
// reader at seat.
func (w *world) leaksIn(st leakState, seat engine.Seat, text string) []string {
	var found []string
	for s, h := range st.hands {
		if engine.Seat(s) == seat {
			continue
		}
		for _, c := range h {
			if st.played[c] || seat != engine.Spectator && c == st.frozen[seat] {
				continue
			}
			words := w.cardNames(c)
			for k, re := range w.cardPatterns(c) {
				if strings.Contains(text, words[k]) && re.MatchString(text) {
					found = append(found, fmt.Sprintf("%s (seat %d)", c, s))
				}
			}
		}
	}
	return found
}

// checkLeaks uses the engine as an oracle: no message a user can see that
// is new or changed since the last check may name a card that is now in
// another seat's hand.
func (w *world) checkLeaks(id string) {
	w.t.Helper()
	rec, st, log := w.current(id)
	// Cards played since the last check, or on the table then, were public
	// when the messages about them were made, even if a new deal has put
	// them in a hand since.
	played := map[princesses.Card]bool{}
	for _, c := range w.onTable {
		played[c] = true
	}
	for _, m := range w.lastPlayed {
		for c := range m {
			played[c] = true
		}
	}
	for _, e := range log[min(w.checked, len(log)):] {
		if t, ok := strings.CutPrefix(e.Action, "play "); ok {
			if c, ok := princesses.ParseCard(t); ok {
				played[c] = true
			}
		}
	}
	// A face-down play (Masquerade) becomes public when the trick is
	// turned up: a card face down at the last check and no longer now was
	// revealed, even if a new deal has put it in another hand since.
	var masked []princesses.Card
	for s := range rec.Setup.Seats {
		if c := st.View(engine.Seat(s)).(*princesses.View).MyMasked; c != 0 {
			masked = append(masked, c)
		}
	}
	for _, c := range w.masked {
		if !slices.Contains(masked, c) {
			played[c] = true
		}
	}
	w.masked = masked
	window := map[princesses.Card]bool{}
	for _, e := range log[min(w.checked, len(log)):] {
		if t, ok := strings.CutPrefix(e.Action, "play "); ok {
			if c, ok := princesses.ParseCard(t); ok {
				window[c] = true
			}
		}
	}
	if len(window) > 0 {
		if k := len(w.lastPlayed) - (leakWindows - 1); k > 0 {
			w.lastPlayed = w.lastPlayed[k:]
		}
		w.lastPlayed = append(w.lastPlayed, window)
	}
	w.checked = len(log)
	w.onTable = nil
	for _, p := range st.View(engine.Spectator).(*princesses.View).Trick {
		w.onTable = append(w.onTable, p.Card)
	}
	st0 := leakState{played: played, hands: make([][]princesses.Card, rec.Setup.Seats), frozen: make([]princesses.Card, rec.Setup.Seats), logLen: len(log), at: time.Now()}
	for s := range st0.hands {
		v := st.View(engine.Seat(s)).(*princesses.View)
		st0.hands[s] = v.Hand
		// The Ice Princess's player knows the card she froze (deluxe).
		st0.frozen[s] = v.MyFrozen
	}
	w.states = append(w.states, st0)
	now := len(w.states) - 1
	users := append(slices.Clone(players), eve)
	if w.changes == nil {
		w.changes = w.fake.Changes()
	}
	changed := map[string]string{}
	for _, u := range users {
		seat := engine.Spectator
		for _, si := range rec.Seats {
			if si.UserID == u {
				seat = si.Seat
			}
		}
		for _, m := range w.changes.VisibleTo(u) {
			text := m.Text()
			if w.seen[m.ID] == text {
				continue
			}
			changed[m.ID] = text
			text = w.withoutPlays(w.withoutRuleTexts(text))
			// The message was made at some state since its last version
			// was seen (the check before, as it may have been made just
			// before it was seen), or, new, at one of the last few: a post
			// may arrive late, waiting for its picture on a busy machine.
			// It leaks only if it names a hidden card at every one of them.
			from := now - leakNewLookback
			if at, ok := w.seenAt[m.ID]; ok {
				from = at - 1
			}
			for _, l := range w.leaksSince(from, seat, text) {
				w.t.Errorf("LEAK: %s (seat %d) sees %s in %s (%s; the message made %v ago): %q", u, seat, l, m, w.cleanBefore(from, seat, text), madeAgo(m.ID), text)
			}
		}
	}
	for k, v := range changed {
		w.seen[k] = v
		w.seenAt[k] = now
	}
	w.changes.Mark()
}

func TestFullGameThroughDiscord(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob) // seat 4 is an AI player
	rng := rand.New(rand.NewPCG(1, 2))
	moves := w.play(id, rng, 500)
	if moves < 10 {
		t.Errorf("only %d moves", moves)
	}
	rec, _, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != table.StatusFinished {
		t.Fatalf("status %s after %d moves", rec.Status, moves)
	}
	final := w.tableMessage(id)
	sc := replayScreen(t, w.db, w.loc, id)
	if len(sc.Result) == 0 || playing(final) {
		t.Errorf("final table message: %s", final)
	}
	for _, r := range sc.Result {
		if !strings.Contains(readText(final), r) {
			t.Errorf("the final table message lacks the result %q: %s", r, shownText(final))
		}
	}
	var posted []string
	for _, m := range w.fake.Messages(w.gameChannel(id)) {
		posted = append(posted, shownText(m))
	}
	all := strings.Join(posted, "\n")
	for _, want := range []string{"Koniec rundy 1", "bierze lewę", "Księżniczki zostają odkryte"} {
		if !strings.Contains(all, want) {
			t.Errorf("no public message with %q", want)
		}
	}
	if !strings.Contains(all, "<@"+ala+">") {
		t.Error("nobody was mentioned")
	}
	w.fake.AssertNoErrors(t)
}

func TestRestartInTheMiddleOfAGame(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob, zosia)
	rng := rand.New(rand.NewPCG(3, 4))
	before := w.play(id, rng, 14) // princesses, passes and a few cards
	if before != 14 {
		t.Fatalf("the game ended after %d moves", before)
	}
	msg := w.tableMessage(id)
	v := w.version(id)

	w.stop()
	w.start()

	after := w.tableMessage(id)
	if after.ID != msg.ID {
		t.Errorf("a new table message was posted (%s, was %s)", after.ID, msg.ID)
	}
	if after.Edits <= msg.Edits {
		t.Errorf("the table message was not refreshed on start (%d edits, was %d)", after.Edits, msg.Edits)
	}
	if w.version(id) != v {
		t.Errorf("the restart changed the log: %d entries, was %d", w.version(id), v)
	}
	w.play(id, rng, 500)
	rec, _, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != table.StatusFinished {
		t.Fatalf("status %s after the restart", rec.Status)
	}
	w.fake.AssertNoErrors(t)
}

func TestCommandLocalizationsRegistered(t *testing.T) {
	w := newWorld(t)
	cmds := w.fake.Commands(guildID)
	if len(cmds) != 1 {
		t.Fatalf("registered: %+v", cmds)
	}
	c := cmds[0]
	if c.NameLocalizations["pl"] != "stolik" || c.NameLocalizations["uk"] != "столик" {
		t.Errorf("command names: %v", c.NameLocalizations)
	}
	if !strings.Contains(c.DescriptionLocalizations["pl"], "stoliku") || !strings.Contains(c.DescriptionLocalizations["uk"], "столиком") {
		t.Errorf("command descriptions: %v", c.DescriptionLocalizations)
	}
	want := map[string][2]string{
		"open": {"otwórz", "відкрити"}, "join": {"dołącz", "приєднатися"}, "leave": {"odejdź", "вийти"},
		"start": {"rozpocznij", "почати"}, "hand": {"ręka", "рука"}, "status": {"stan", "стан"},
		"rules": {"zasady", "правила"}, "abandon": {"przerwij", "перервати"}, "language": {"język", "мова"},
	}
	for name, loc := range want {
		o := c.Option(name)
		if o == nil {
			t.Errorf("no subcommand %s", name)
			continue
		}
		if o.NameLocalizations["pl"] != loc[0] || o.NameLocalizations["uk"] != loc[1] {
			t.Errorf("%s: %v", name, o.NameLocalizations)
		}
		if o.DescriptionLocalizations["pl"] == "" || o.DescriptionLocalizations["uk"] == "" {
			t.Errorf("%s: descriptions %v", name, o.DescriptionLocalizations)
		}
	}
	open := c.Option("open")
	if g := open.Option("game"); g == nil || g.NameLocalizations["pl"] != "gra" || g.Choices[0].NameLocalizations["pl"] != "Księżniczki" && g.Choices[0].NameLocalizations["pl"] == "" {
		t.Errorf("game option: %+v", g)
	}
	if e := open.Option("edition"); e == nil || e.NameLocalizations["uk"] != "видання" || len(e.Choices) != 2 || e.Choices[0].NameLocalizations["uk"] == "" {
		t.Errorf("edition option: %+v", e)
	}
}

func TestLanguages(t *testing.T) {
	w := newWorld(t)
	// The clicker's language for ephemeral answers; the table's for public messages.
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3))
	id := w.tableID()
	lobby := w.tableMessage(id)
	if !strings.Contains(shownText(lobby), "stolik "+id) {
		t.Errorf("the lobby is not in the guild's language (pl): %q", shownText(lobby))
	}
	m := w.do(w.fake.Click(olena, lobby, "lobby/"+id+"/join"))
	if want := w.loc.Lang("uk").T("bot.joined", map[string]any{"ID": id}); shownText(m) != want || !m.Ephemeral() {
		t.Errorf("join answer %q, want %q", shownText(m), want)
	}
	// A saved preference wins over the client's locale.
	w.slash(olena, "language", discordtest.Opt("language", "en"))
	m = w.slash(olena, "status")
	if !strings.Contains(shownText(m), "table "+id) {
		t.Errorf("status with an English preference: %q", shownText(m))
	}
	w.slash(olena, "language", discordtest.Opt("language", "auto"))
	m = w.slash(olena, "rules", discordtest.Opt("game", "princesses"))
	if shownText(m) != w.loc.Lang("uk").T("princesses.rules", nil) {
		t.Errorf("rules in uk: %q", shownText(m))
	}
}

// TestBadClicks: foreign, stale, duplicate and late clicks are answered
// politely in the clicker's language and change nothing.
func TestBadClicks(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob, zosia)
	pl, uk, en := w.loc.Lang("pl"), w.loc.Lang("uk"), w.loc.Lang("en")

	// Someone who does not sit at the table clicks the public buttons.
	v := w.version(id)
	m := w.do(w.fake.Click(eve, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	if !m.Ephemeral() || !strings.HasPrefix(shownText(m), en.T("bot.not_player", nil)) || len(m.CustomIDs()) != 0 {
		t.Errorf("a spectator's hand: %s", m)
	}
	if w.version(id) != v {
		t.Error("a spectator's click changed the table")
	}
	// /stolik commands about a table that is being played.
	if m := w.slash(eve, "join"); shownText(m) != en.T("bot.not_lobby", nil) {
		t.Errorf("joining a started table: %q", shownText(m))
	}
	if m := w.slash(olena, "leave"); shownText(m) != uk.T("async.leave_offer", nil) || len(m.CustomIDs()) != 2 {
		t.Errorf("leaving a started table: %s", m)
	}

	// Choosing princesses is simultaneous. Ala opens her hand twice: one
	// hand in front of her, the first is deleted.
	h1 := w.do(w.fake.Click(ala, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	h2 := w.do(w.fake.Click(ala, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	choices := h2.CustomIDs()
	if len(choices) != 2 || !slices.Equal(choices, h1.CustomIDs()) {
		t.Fatalf("princess choices: %v / %v", h1.CustomIDs(), choices)
	}
	if w.fake.Message(h1.ID) != nil {
		t.Errorf("ala's first hand message is still there after the second")
	}
	// Another player's choice in between does not make ala's buttons stale.
	ob := w.do(w.fake.Click(olena, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	w.do(w.fake.Click(olena, ob, ob.CustomIDs()[0]))
	// Ala taps both princesses before the first answer comes: one is
	// kept, the other tap is stale and changes nothing.
	v = w.version(id)
	in1, in2 := w.fake.Click(ala, h2, choices[0]), w.fake.Click(ala, h2, choices[1])
	answers := []*discordtest.Message{w.do(in1), w.do(in2)}
	if w.version(id) != v+1 {
		t.Fatalf("ala's two taps after olena's choice: version %d → %d, want one move", v, w.version(id))
	}
	// Both answers redraw the same message (h2): it ends as the hand after
	// the choice, and the table kept the tap that came first.
	_, log, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	kept := log[len(log)-1].Action
	if !strings.HasSuffix(choices[0], "/"+kept) && !strings.HasSuffix(choices[1], "/"+kept) {
		t.Errorf("ala kept %q, she tapped %q", kept, choices)
	}
	if last := answers[1]; slices.Contains(last.CustomIDs(), choices[0]) || slices.Contains(last.CustomIDs(), choices[1]) {
		t.Errorf("after the choice, ala's hand still offers the princesses: %s", last)
	}

	// Everyone else chooses; a click drawn before that is stale.
	rng := rand.New(rand.NewPCG(5, 6))
	for _, u := range []string{bob, zosia} {
		if !w.move(id, u, rng) {
			t.Fatalf("%s could not choose", u)
		}
	}
	if m := w.fake.Message(h2.ID); m != nil && slices.Contains(m.CustomIDs(), choices[0]) {
		v = w.version(id)
		m = w.do(w.fake.Click(ala, m, choices[0]))
		if w.version(id) != v || !strings.HasPrefix(shownText(m), pl.T("error.stale", nil)) {
			t.Errorf("an old click after the choice: %q", shownText(m))
		}
	}

	// The opener abandons the table; an old hand's controls then change nothing.
	hand := w.do(w.fake.Click(bob, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	if len(hand.CustomIDs()) == 0 {
		t.Fatalf("bob has nothing to do: %s", hand)
	}
	if m := w.slash(olena, "abandon"); shownText(m) != uk.T("bot.abandon_voted", nil) {
		t.Errorf("olena's vote: %q", shownText(m))
	}
	if m := w.slash(olena, "abandon"); shownText(m) != uk.T("bot.abandon_already", nil) {
		t.Errorf("olena's second vote: %q", shownText(m))
	}
	if m := w.slash(ala, "abandon"); shownText(m) != pl.T("bot.abandoned", nil) {
		t.Errorf("the opener abandons: %q", shownText(m))
	}
	rec, _, err := w.db.Load(context.Background(), id)
	if err != nil || rec.Status != table.StatusAbandoned {
		t.Fatalf("status %s, %v", rec.Status, err)
	}
	if tm := w.tableMessage(id); len(tm.CustomIDs()) != 0 || !strings.Contains(shownText(tm), pl.T("bot.abandoned", nil)) {
		t.Errorf("the abandoned table's message: %s", tm)
	}
	v = w.version(id)
	sel := gameControls(hand)[0]
	var in *discordtest.Interaction
	if sel.IsSelect() {
		var vals []string
		for _, o := range sel.Options[:*sel.MinValues] {
			vals = append(vals, o.Value)
		}
		in = w.fake.Select(bob, hand, sel.CustomID, vals...)
	} else {
		in = w.fake.Click(bob, hand, sel.CustomID)
	}
	m = w.do(in)
	if w.version(id) != v || !strings.Contains(shownText(m), en.T("bot.abandoned", nil)) || len(m.CustomIDs()) != 0 {
		t.Errorf("a click on an abandoned table: %s", m)
	}
	if m := w.slash(bob, "status"); shownText(m) != en.T("bot.no_table", nil) {
		t.Errorf("status after the end: %q", shownText(m))
	}
	w.fake.AssertNoErrors(t)
}

func TestLobbyRules(t *testing.T) {
	w := newWorld(t)
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3), discordtest.Opt("language", "en"))
	id := w.tableID()
	en, uk := w.loc.Lang("en"), w.loc.Lang("uk")
	if m := w.slash(bob, "open", discordtest.Opt("game", "princesses")); shownText(m) != en.T("bot.table_exists", map[string]any{"ID": id}) {
		t.Errorf("a second table: %q", shownText(m))
	}
	lobby := func() *discordtest.Message { return w.tableMessage(id) }
	if m := w.do(w.fake.Click(olena, lobby(), "lobby/"+id+"/start")); shownText(m) != uk.T("bot.not_opener", map[string]any{"Name": "ala"}) {
		t.Errorf("start by another: %q", shownText(m))
	}
	if m := w.do(w.fake.Click(ala, lobby(), "lobby/"+id+"/leave")); shownText(m) != w.loc.Lang("pl").T("bot.opener_cannot_leave", nil) {
		t.Errorf("the opener leaves: %q", shownText(m))
	}
	w.do(w.fake.Click(olena, lobby(), "lobby/"+id+"/join"))
	if m := w.do(w.fake.Click(olena, lobby(), "lobby/"+id+"/join")); shownText(m) != uk.T("bot.already_seated", nil) {
		t.Errorf("joining twice: %q", shownText(m))
	}
	w.do(w.fake.Click(olena, lobby(), "lobby/"+id+"/leave"))
	if strings.Contains(shownText(lobby()), "olena") {
		t.Errorf("olena left but is listed: %q", shownText(lobby()))
	}
	w.do(w.fake.Click(bob, lobby(), "lobby/"+id+"/join"))
	w.do(w.fake.Click(ala, lobby(), "lobby/"+id+"/ai"))
	if m := w.do(w.fake.Click(zosia, lobby(), "lobby/"+id+"/join")); shownText(m) != w.loc.Lang("pl").T("bot.table_full", nil) {
		t.Errorf("joining a full table: %q", shownText(m))
	}
	if !strings.Contains(shownText(lobby()), en.T("ui.bot", map[string]any{"N": 3})) {
		t.Errorf("the AI seat is not listed: %q", shownText(lobby()))
	}
	w.slash(ala, "start")
	if rec, _, _ := w.db.Load(context.Background(), id); rec.Status != table.StatusPlaying {
		t.Errorf("status %s after start", rec.Status)
	}
	w.fake.AssertNoErrors(t)
}

// TestServerErrorsAreRetried: a 5xx from Discord on the table message edit
// is retried, and the message still gets through.
func TestServerErrorsAreRetried(t *testing.T) {
	w := newWorld(t)
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3))
	id := w.tableID()
	w.fake.FailNext("PATCH /channels/{channel.id}/messages/{message.id}", 2, 500)
	w.do(w.fake.Click(olena, w.tableMessage(id), "lobby/"+id+"/join"))
	if !strings.Contains(shownText(w.tableMessage(id)), "olena") {
		t.Errorf("the lobby was not updated after two server errors: %q", shownText(w.tableMessage(id)))
	}
}

// TestLeakOracle checks the leak check itself: a card in another seat's
// hand is found, one that is public, the reader's own or the reader's
// frozen card is not, and a message late from an earlier state is judged
// by that state.
func TestLeakOracle(t *testing.T) {
	t.Parallel()
	f5, _ := princesses.ParseCard("F5")
	q9, _ := princesses.ParseCard("Q9")
	w := &world{t: t, loc: locales.MustLoad()}
	hidden := leakState{hands: [][]princesses.Card{{q9}, {f5}}, played: map[princesses.Card]bool{}, frozen: make([]princesses.Card, 2)}
	public := leakState{hands: hidden.hands, played: map[princesses.Card]bool{f5: true}, frozen: hidden.frozen}
	frozen := leakState{hands: hidden.hands, played: hidden.played, frozen: []princesses.Card{f5, 0}}
	text := "✓ Zagrywasz: Wróżka 5."
	for _, c := range []struct {
		name  string
		st    leakState
		seat  engine.Seat
		text  string
		leaks int
	}{
		{"another seat's card", hidden, 0, text, 1},
		{"a spectator", hidden, engine.Spectator, text, 1},
		{"own card", hidden, 1, text, 0},
		{"played", public, 0, text, 0},
		{"frozen by the reader", frozen, 0, text, 0},
		{"not named", hidden, 0, "✓ Zagrywasz: Wróżka 7.", 0},
		{"English name", hidden, 0, "You play Fairy 5.", 1},
	} {
		if got := w.leaksIn(c.st, c.seat, c.text); len(got) != c.leaks {
			t.Errorf("%s: %v, want %d leaks", c.name, got, c.leaks)
		}
	}
	// The lines of played cards and taken tricks, in every language, are
	// not judged; any other line is.
	for _, c := range []struct {
		text  string
		leaks int
	}{
		{"olena bierze lewę (Królowa 6, Wróżka 5, Zwierzę 9, Książę 6): 2 oświadczyny.", 0},
		{"· Bob takes the trick (Fairy 5, Queen 2): 1 proposal.\n· Bot 4 plays Fairy 5.", 0},
		{"Ви граєте: «5» фей.", 0},
		{"olena bierze lewę (Królowa 6, Książę 6): 2 oświadczyny.\nOddajesz: Wróżka 5; dostajesz: Królowa 9.", 1},
	} {
		if got := w.leaksIn(hidden, 0, w.withoutPlays(c.text)); len(got) != c.leaks {
			t.Errorf("%q: %v, want %d leaks", c.text, got, c.leaks)
		}
	}
	// F5 played in one round, then dealt to seat 1 in the next: a post
	// about the play that arrives late is judged by the states since it
	// may have been made.
	w.states = []leakState{public, hidden, hidden}
	if got := w.leaksSince(0, 0, text); len(got) != 0 {
		t.Errorf("a late post about a played card: %v", got)
	}
	if got := w.leaksSince(1, 0, text); len(got) != 1 {
		t.Errorf("a post made after the deal: %v, want 1 leak", got)
	}
}
