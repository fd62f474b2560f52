package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// TestMain lets the test binary be the bot: with STOLIK_TEST_SERVE=1 it
// runs `stolik serve` with the arguments after "--" and exits.
func TestMain(m *testing.M) {
	if os.Getenv("STOLIK_TEST_SERVE") == "1" {
		args := os.Args[1:]
		if i := slices.Index(args, "--"); i >= 0 {
			args = args[i+1:]
		}
		ctx, stop := signalContext()
		code := run(ctx, append([]string{"serve"}, args...), os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

const (
	killGuild = "100000000000000001"
	killToken = "kill-test-token-ABC123"
)

// click is one game control a simulated user pressed and the bot
// acknowledged as done.
type click struct {
	table   string
	version int
	user    string
	action  string
}

// TestKillUnderLoad runs `stolik serve` as a separate process against the
// fake Discord, plays several tables from simulated users, and kills the
// bot with SIGKILL at random moments (20 times, STOLIK_KILLS overrides),
// restarting it each time. Then: every move the bot said it made is in the
// log, no move is in the log twice or without a click, every table resumes,
// and the replayed state is what the table message shows.
//
// A SIGKILL loop: it runs with STOLIK_SOAK=1 (.ci/run's soak step, under
// -race) or STOLIK_KILLS set, not in the README's plain `go test ./...`.
//
//	STOLIK_SOAK=1 go test -race -run KillUnderLoad ./cmd/stolik/
//	STOLIK_KILLS=100 go test -run KillUnderLoad -v ./cmd/stolik/
func TestKillUnderLoad(t *testing.T) {
	if !enginetest.Soak() && os.Getenv("STOLIK_KILLS") == "" {
		t.Skip("a SIGKILL loop: STOLIK_SOAK=1 or STOLIK_KILLS=N runs it (.ci/run's soak step)")
	}
	kills := 20
	if v := os.Getenv("STOLIK_KILLS"); v != "" {
		kills, _ = strconv.Atoi(v)
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "stolik.db")
	cfgPath := filepath.Join(dir, "stolik.toml")
	// Pictures off: what is killed here is the path from a click to the
	// log, which pictures are not on; drawing them under -race slows the bot
	// so much that too few moves are made between kills to mean anything.
	if err := os.WriteFile(cfgPath, []byte("guild_id = \""+killGuild+"\"\nlog_level = \"debug\"\npublish_interval = \"0s\"\npictures = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := discordtest.New(t, discordtest.WithToken(killToken), discordtest.WithoutCallBodies())
	fake.AddGuild(killGuild, "Kill", "en-US")

	type tbl struct {
		ch, game string
		users    []string
		id, msg  string
	}
	var tables []*tbl
	for i, g := range []string{"lynx", "courtiers", "chapters", "lynx", "courtiers", "chapters"} {
		if _, err := engine.Lookup(g); err != nil {
			continue
		}
		tb := &tbl{ch: strconv.Itoa(200000000000000001 + i), game: g}
		fake.AddChannel(killGuild, tb.ch)
		for s := range 2 {
			u := strconv.Itoa(300000000000000001 + i*10 + s)
			fake.AddUser(u, fmt.Sprintf("k%d-%d", i, s), "en-US")
			tb.users = append(tb.users, u)
		}
		tables = append(tables, tb)
	}

	logPath := filepath.Join(dir, "bot.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	var proc *exec.Cmd
	startBot := func() {
		t.Helper()
		before := fake.GatewayStats().Identifies
		proc = exec.Command(os.Args[0], "-test.run=^$", "--", "--config", cfgPath)
		proc.Env = append(os.Environ(), "STOLIK_TEST_SERVE=1", "DISCORD_TOKEN="+killToken,
			"STOLIK_DB="+dbPath, "STOLIK_TEST_DISCORD_URL="+fake.URL())
		proc.Stdout, proc.Stderr = logFile, logFile
		if err := proc.Start(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := fake.WaitGateway(ctx, func(st discordtest.GatewayStats) bool { return st.Identifies > before && st.Live > 0 }); err != nil {
			tail, _ := os.ReadFile(logPath)
			if len(tail) > 4000 {
				tail = tail[len(tail)-4000:]
			}
			t.Fatalf("the bot did not connect: %v\nthe end of its log:\n%s", err, tail)
		}
		for len(fake.Commands(killGuild)) == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
	}
	kill := func() {
		_ = proc.Process.Signal(syscall.SIGKILL)
		_ = proc.Wait()
	}
	startBot()
	defer func() {
		if proc.ProcessState == nil {
			kill()
		}
	}()

	ack := func(in *discordtest.Interaction, err error) (*discordtest.Interaction, bool) {
		if err != nil {
			return nil, false
		}
		select {
		case <-in.Acked():
			return in, true
		case <-time.After(2 * time.Second):
			return nil, false
		}
	}
	db, err := sqlite.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tb := range tables {
		if _, ok := ack(fake.SlashCommandErr(tb.users[0], killGuild, tb.ch, "stolik",
			discordtest.Sub("open", discordtest.Opt("game", tb.game), discordtest.Opt("seats", 2), discordtest.Opt("thread", false)))); !ok {
			t.Fatalf("opening a %s table: no answer", tb.game)
		}
		ids, err := db.InChannel(context.Background(), tb.ch)
		if err != nil || len(ids) != 1 {
			t.Fatalf("tables in %s: %v %v", tb.ch, ids, err)
		}
		tb.id = ids[0]
		rec, _, err := db.Load(context.Background(), tb.id)
		if err != nil {
			t.Fatal(err)
		}
		tb.msg = rec.MessageID
		if _, ok := ack(fake.SlashCommandErr(tb.users[1], killGuild, tb.ch, "stolik", discordtest.Sub("join"))); !ok {
			t.Fatal("join: no answer")
		}
		if _, ok := ack(fake.SlashCommandErr(tb.users[0], killGuild, tb.ch, "stolik", discordtest.Sub("start"))); !ok {
			t.Fatal("start: no answer")
		}
	}

	l := locales.MustLoad().Lang("en")
	actedNote, _, _ := strings.Cut(l.T("bot.acted", map[string]any{"Action": "\x00"}), "\x00")
	var (
		mu    sync.Mutex
		done  []click // acknowledged as made
		sent  []click // every game click dispatched
		stop  = make(chan struct{})
		wg    sync.WaitGroup
		idRE  = regexp.MustCompile(`^t/([^/]+)/(\d+)/(.+)$`)
		hands = map[string]*discordtest.Message{}
	)
	for k, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(k), 7))
			g, _ := engine.Lookup(tb.game)
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(rnd.IntN(20)) * time.Millisecond):
				}
				tm := fake.Message(tb.msg)
				if tm == nil || !slices.Contains(tm.CustomIDs(), tm.Control("hand/"+tb.id)) {
					continue // lobby or over
				}
				acted := false
				for _, u := range tb.users {
					mu.Lock()
					h := hands[u]
					mu.Unlock()
					// A button, or an option of a menu of one value: a
					// move, or a next step (">…"; its answer holds the
					// controls of the step after).
					picks := handPicks(h, tb.id)
					if len(picks) == 0 {
						continue
					}
					p := picks[rnd.IntN(len(picks))]
					m := idRE.FindStringSubmatch(p.cid)
					v, _ := strconv.Atoi(m[2])
					c := click{table: tb.id, version: v, user: u, action: p.action}
					mu.Lock()
					sent = append(sent, c)
					mu.Unlock()
					var in *discordtest.Interaction
					var ok bool
					if p.action != m[3] {
						in, ok = ack(fake.SelectErr(u, h, p.cid, p.action))
					} else {
						in, ok = ack(fake.ClickErr(u, h, p.cid))
					}
					mu.Lock()
					hands[u] = nil
					if ok {
						hands[u] = in.Original()
						// The answer to a move made starts with what was
						// done ("✓ You play …": bot.acted).
						_, err := g.ParseAction(c.action)
						if err == nil && hands[u] != nil && strings.HasPrefix(shownText(hands[u]), actedNote) {
							done = append(done, c)
						}
					}
					mu.Unlock()
					acted = true
					break
				}
				if acted {
					continue
				}
				var who []string
				for _, m := range mentionIDRE.FindAllStringSubmatch(shownText(tm), -1) {
					if slices.Contains(tb.users, m[1]) {
						who = append(who, m[1])
					}
				}
				u := tb.users[rnd.IntN(len(tb.users))]
				if len(who) > 0 {
					u = who[rnd.IntN(len(who))]
				}
				if in, ok := ack(fake.ClickErr(u, tm, tm.Control("hand/"+tb.id))); ok {
					// A click on the table message is answered by an
					// ephemeral follow-up (none if the bot was killed first).
					ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
					hand := in.WaitAnswer(ctx)
					cancel()
					mu.Lock()
					hands[u] = hand
					mu.Unlock()
				}
			}
		}()
	}

	rnd := rand.New(rand.NewPCG(42, 42))
	for range kills {
		time.Sleep(time.Duration(200+rnd.IntN(600)) * time.Millisecond)
		kill()
		startBot()
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()

	// Let the last start's resume pass finish, then stop cleanly.
	time.Sleep(500 * time.Millisecond)
	_ = proc.Process.Signal(syscall.SIGTERM)
	_ = proc.Wait()

	if len(done) < kills {
		t.Fatalf("only %d moves were acknowledged in %d restarts: the load is too light to mean anything", len(done), kills)
	}
	t.Logf("%d kills; %d game clicks sent, %d acknowledged as made", kills, len(sent), len(done))
	seatOfUser := func(id, user string) engine.Seat {
		rec, _, _ := db.Load(context.Background(), id)
		for _, si := range rec.Seats {
			if si.UserID == user {
				return si.Seat
			}
		}
		return -9
	}
	logs := map[string][]engine.Move{}
	for _, tb := range tables {
		rec, entries, err := db.Load(context.Background(), tb.id)
		if err != nil {
			t.Fatalf("table %s: %v", tb.id, err)
		}
		var moves []engine.Move
		for _, e := range entries {
			moves = append(moves, engine.Move{Seat: e.Seat, Action: e.Action})
		}
		logs[tb.id] = moves
		g, _ := engine.Lookup(rec.Setup.Game)
		st, err := engine.Replay(g, rec.Setup, moves)
		if err != nil {
			t.Fatalf("table %s does not replay: %v", tb.id, err)
		}
		// Every entry comes from a click that was sent for that version.
		for n, m := range moves {
			found := false
			for _, c := range sent {
				if c.table == tb.id && c.version == n && c.action == m.Action && seatOfUser(tb.id, c.user) == m.Seat {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("table %s: log entry %d (%d: %s) matches no click", tb.id, n, m.Seat, m.Action)
			}
		}
		checkTableShowsState(t, fake, tb.id, rec, st)
	}
	for _, c := range done {
		moves := logs[c.table]
		if c.version >= len(moves) || moves[c.version].Action != c.action || moves[c.version].Seat != seatOfUser(c.table, c.user) {
			t.Errorf("acknowledged move %+v is not in the log", c)
		}
	}
	// No secret in the bot's log lines.
	out, _ := os.ReadFile(logPath)
	if strings.Contains(string(out), killToken) {
		t.Error("the bot token appears in the bot's log")
	}
	for _, tb := range tables {
		rec, _, _ := db.Load(context.Background(), tb.id)
		seed := strconv.FormatUint(rec.Setup.Seed, 10)
		if strings.Contains(string(out), seed) || strings.Contains(string(out), strconv.FormatInt(int64(rec.Setup.Seed), 10)) {
			t.Errorf("table %s's seed appears in the bot's log", tb.id)
		}
	}
}

// shownText is the text a reader sees on a message (discordtest's
// Message.Shown).
func shownText(m *discordtest.Message) string { return m.Shown() }

// controlPick is a control a simulated user may use: a button, or an
// option of a menu of one value — a move, or a next step (">…", whose
// answer holds the controls of the step after).
type controlPick struct{ cid, action string }

var controlIDRE = regexp.MustCompile(`^t/([^/]+)/(\d+)/(.+)$`)

// handPicks lists the controls for table id that the answer h offers.
func handPicks(h *discordtest.Message, id string) []controlPick {
	var picks []controlPick
	if h == nil {
		return nil
	}
	for _, cid := range h.CustomIDs() {
		m := controlIDRE.FindStringSubmatch(cid)
		if m == nil || m[1] != id {
			continue
		}
		if comp := h.Component(cid); comp != nil && comp.IsSelect() && (comp.MinValues == nil || *comp.MinValues <= 1) {
			for _, o := range comp.Options {
				picks = append(picks, controlPick{cid, o.Value})
			}
		} else if !strings.HasPrefix(m[3], "~") {
			picks = append(picks, controlPick{cid, m[3]})
		}
	}
	return picks
}

// boldPlace is a place set in bold at a line's start.
var boldPlace = regexp.MustCompile(`(?m)^\*\*([0-9]+(?:\.|st|nd|rd|th))\*\*`)

// checkTableShowsState checks that table id's message shows the replayed
// state's screen: its title, the round card, the result, and whom it
// waits for, each mentioned.
func checkTableShowsState(t *testing.T, fake *discordtest.Server, id string, rec table.Record, st engine.State) {
	t.Helper()
	lt := locales.MustLoad().Lang(rec.Lang)
	names := render.Names{}
	for _, si := range rec.Seats {
		names = append(names, fake.User(si.UserID).Username)
	}
	msg := fake.Message(rec.MessageID)
	if msg == nil {
		t.Fatalf("table %s: no table message", id)
	}
	sc, ok := render.ScreenOf(rec.Setup.Game, lt, st.View(engine.Spectator), names, nil)
	if !ok {
		t.Fatalf("table %s: %s has no screen", id, rec.Setup.Game)
	}
	// A ranking's places are set in bold in Discord ("**2.** Ala"): read
	// them as the screen writes them.
	text := boldPlace.ReplaceAllString(msg.Shown(), "$1")
	shows := append([]string{sc.Title}, sc.Result...)
	if sc.Rule != nil {
		shows = append(shows, sc.Rule.Name)
	}
	for _, s := range shows {
		if !strings.Contains(text, s) {
			t.Errorf("table %s: the table message does not show the replayed state's %q:\n%s", id, s, text)
			break
		}
	}
	var waits, mentioned []string
	if over, _ := st.Result(); !over {
		for _, s := range st.Acting() {
			waits = append(waits, rec.Seats[s].UserID)
		}
	}
	for _, m := range mentionIDRE.FindAllStringSubmatch(text, -1) {
		mentioned = append(mentioned, m[1])
	}
	slices.Sort(waits)
	slices.Sort(mentioned)
	if !slices.Equal(waits, mentioned) {
		t.Errorf("table %s: the table message mentions %v, the replayed state waits for %v:\n%s", id, mentioned, waits, text)
	}
}

var mentionIDRE = regexp.MustCompile(`<@(\d+)>`)
