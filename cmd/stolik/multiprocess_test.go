package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
)

const multiToken = "multi-test-token-XYZ789"

// multiShards is how many `stolik serve` processes TestSeveralProcesses runs.
const multiShards = 3

// multiGuild is the id of the k-th guild of shard (2 guilds a shard):
// (id >> 22) % multiShards == shard, Discord's formula.
func multiGuild(shard, k int) string {
	return strconv.FormatUint(uint64(5100+k*multiShards+shard)<<22|777, 10)
}

// TestSeveralProcesses runs three `stolik serve` processes, shards 0, 1
// and 2 of 3, on one PostgreSQL database against the fake Discord, which
// routes each guild's events to its shard. Simulated users play tables of
// every game in guilds spread over the three shards; one click in four is
// sent twice at once, the copy to the process of another shard (which
// shares the database but not the cache), so that two processes race for
// one log position. Under that load one process is killed with SIGKILL and
// started again (STOLIK_MULTI_KILLS=N: N kills, of a process chosen at
// random each time). Then: every move the
// bot acknowledged is in its table's log, at the log position it was
// clicked for, exactly once; every log entry comes from a click sent for
// that position (no click applied twice, none invented); every table
// replays from the database; every table message shows the replayed
// state; the tables of each shard were played by that shard's process.
// Last, the deadlines of a table are made to fall due while the processes
// are stopped, and the three are started at once: each seat's reminder,
// and then its deadline passing, is handled by one process, once.
//
// It needs a PostgreSQL server (STOLIK_TEST_POSTGRES; scripts/postgres.sh
// starts one) and skips without one, unless STOLIK_REQUIRE_POSTGRES=1.
//
//	eval "$(bash scripts/postgres.sh start)"
//	STOLIK_MULTI_KILLS=10 go test -run SeveralProcesses -v ./cmd/stolik/
func TestSeveralProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three bot processes")
	}
	dbURL := pgtest.URL(t)
	kills := 1
	if v := os.Getenv("STOLIK_MULTI_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STOLIK_MULTI_KILLS must be a whole number, 1 or more")
		}
		kills = n
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "stolik.toml")
	// One file for the three processes: STOLIK_SHARD says which is which.
	if err := os.WriteFile(cfgPath, []byte("shards = 3\nlog_level = \"info\"\npublish_interval = \"0s\"\npictures = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := discordtest.New(t, discordtest.WithToken(multiToken), discordtest.WithoutCallBodies())

	type tbl struct {
		guild, ch, game string
		shard           int
		users           []string
		id, msg         string
	}
	var tables []*tbl
	for shard := range multiShards {
		for k := range 2 {
			if got := discordtest.ShardOf(multiGuild(shard, k), multiShards); got != shard {
				t.Fatalf("guild %s is on shard %d, not %d", multiGuild(shard, k), got, shard)
			}
			fake.AddGuild(multiGuild(shard, k), fmt.Sprintf("S%d-%d", shard, k), "en-US")
		}
	}
	for i, g := range []string{"princesses", "lynx", "courtiers", "chapters"} {
		game, err := engine.Lookup(g)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		seats, _ := game.Seats()
		for shard := range multiShards {
			n := i*multiShards + shard
			tb := &tbl{guild: multiGuild(shard, i%2), ch: strconv.Itoa(200000000000000001 + n), game: g, shard: shard}
			fake.AddChannel(tb.guild, tb.ch)
			for s := range seats {
				u := strconv.Itoa(300000000000000001 + n*10 + s)
				fake.AddUser(u, fmt.Sprintf("m%d-%d", n, s), "en-US")
				tb.users = append(tb.users, u)
			}
			tables = append(tables, tb)
		}
	}

	procs := make([]*exec.Cmd, multiShards)
	starts := make([]int, multiShards)
	// spawn starts the process of a shard.
	spawn := func(shard int) {
		t.Helper()
		logFile, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("bot%d.log", shard)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer logFile.Close() // the child has its own descriptor
		p := exec.Command(os.Args[0], "-test.run=^$", "--", "--config", cfgPath)
		p.Env = append(os.Environ(), "STOLIK_TEST_SERVE=1", "DISCORD_TOKEN="+multiToken,
			"STOLIK_DB="+dbURL, "STOLIK_TEST_DISCORD_URL="+fake.URL(), "STOLIK_SHARD="+strconv.Itoa(shard))
		p.Stdout, p.Stderr = logFile, logFile
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		procs[shard] = p
		starts[shard]++
	}
	// startBots starts the processes of shards at once and waits until
	// each is on the gateway (and shard 0 has registered the commands).
	startBots := func(shards ...int) {
		t.Helper()
		identifies := fake.GatewayStats().Identifies
		for _, shard := range shards {
			spawn(shard)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := fake.WaitGateway(ctx, func(st discordtest.GatewayStats) bool {
			if st.Identifies < identifies+len(shards) {
				return false
			}
			for _, shard := range shards {
				if !fake.ShardLive(shard, multiShards) {
					return false
				}
			}
			return true
		}); err != nil {
			t.Fatalf("shards %v did not connect: %v", shards, err)
		}
		for slices.Contains(shards, 0) && len(fake.Commands("")) == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
	}
	// stopAll stops every process cleanly (SIGTERM).
	stopAll := func() {
		for _, p := range procs {
			_ = p.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			_ = p.Wait()
		}
	}
	kill := func(shard int) {
		_ = procs[shard].Process.Signal(syscall.SIGKILL)
		_ = procs[shard].Wait()
	}
	defer func() {
		for _, p := range procs {
			if p != nil && p.ProcessState == nil {
				_ = p.Process.Signal(syscall.SIGKILL)
				_ = p.Wait()
			}
		}
	}()
	t0 := time.Now()
	startBots(0, 1, 2) // at once: three processes migrate the empty database
	t.Logf("three processes up in %v", time.Since(t0).Round(time.Millisecond))

	db, err := open.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ack := func(in *discordtest.Interaction, err error, wait time.Duration) (*discordtest.Interaction, bool) {
		if err != nil {
			return nil, false
		}
		select {
		case <-in.Acked():
			return in, true
		case <-time.After(wait):
			return nil, false
		}
	}
	// The simulated users wait up to 3 s for an answer.
	ack3 := func(in *discordtest.Interaction, err error) (*discordtest.Interaction, bool) {
		return ack(in, err, 3*time.Second)
	}
	// Open, fill and start every table, the shards' tables side by side.
	var setup sync.WaitGroup
	setupErr := make(chan error, len(tables))
	for _, tb := range tables {
		setup.Add(1)
		go func() {
			defer setup.Done()
			slash := func(u, what string, args ...discordtest.Arg) error {
				in, err := fake.SlashCommandErr(u, tb.guild, tb.ch, "stolik", discordtest.Sub(what, args...))
				if _, ok := ack(in, err, 10*time.Second); !ok {
					return fmt.Errorf("%s table (shard %d): /stolik %s: no answer", tb.game, tb.shard, what)
				}
				return nil
			}
			if err := slash(tb.users[0], "open", discordtest.Opt("game", tb.game), discordtest.Opt("seats", len(tb.users)), discordtest.Opt("thread", false)); err != nil {
				setupErr <- err
				return
			}
			ids, err := db.InChannel(context.Background(), tb.ch)
			if err != nil || len(ids) != 1 {
				setupErr <- fmt.Errorf("tables in %s: %v %v", tb.ch, ids, err)
				return
			}
			tb.id = ids[0]
			rec, _, err := db.Load(context.Background(), tb.id)
			if err != nil {
				setupErr <- err
				return
			}
			tb.msg = rec.MessageID
			for _, u := range tb.users[1:] {
				if err := slash(u, "join"); err != nil {
					setupErr <- err
					return
				}
			}
			setupErr <- slash(tb.users[0], "start")
		}()
	}
	setup.Wait()
	close(setupErr)
	for err := range setupErr {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d tables open and started after %v", len(tables), time.Since(t0).Round(time.Millisecond))

	// A table with a deadline per move ("12h"), in a guild of shard 2, that
	// nobody plays: its deadlines are made to fall due at the end (see
	// deadlinesFireOnce).
	dlGuild, dlChannel := multiGuild(2, 1), "200000000000000099"
	fake.AddChannel(dlGuild, dlChannel)
	var dlUsers []string
	for s := range 2 {
		u := strconv.Itoa(300000000000000901 + s)
		fake.AddUser(u, fmt.Sprintf("d%d", s), "en-US")
		dlUsers = append(dlUsers, u)
	}
	for k, what := range []string{"open", "join", "start"} {
		var args []discordtest.Arg
		if what == "open" {
			args = []discordtest.Arg{discordtest.Opt("game", "lynx"), discordtest.Opt("seats", 2), discordtest.Opt("thread", false), discordtest.Opt("deadline", "12h")}
		}
		in, err := fake.SlashCommandErr(dlUsers[[]int{0, 1, 0}[k]], dlGuild, dlChannel, "stolik", discordtest.Sub(what, args...))
		if _, ok := ack(in, err, 10*time.Second); !ok {
			t.Fatalf("the deadline table: /stolik %s: no answer", what)
		}
	}
	dlIDs, err := db.InChannel(context.Background(), dlChannel)
	if err != nil || len(dlIDs) != 1 {
		t.Fatalf("the deadline table: %v %v", dlIDs, err)
	}
	dlTable := dlIDs[0]

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
		// dupMade counts the clicks sent twice whose copy on the other
		// process made the move (the first lost the race).
		dupMade int
		pairs   int // clicks sent twice that both got an answer
	)
	// The users of each table, as in TestKillUnderLoad: whoever holds
	// controls for a move uses one; otherwise someone the table message
	// mentions presses "My hand".
	for k, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(k), 11))
			g, _ := engine.Lookup(tb.game)
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(rnd.IntN(30)) * time.Millisecond):
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
					var in, dup *discordtest.Interaction
					var ok, dupOK bool
					switch {
					case p.action != m[3]:
						in, ok = ack3(fake.SelectErr(u, h, p.cid, p.action))
					case rnd.IntN(4) == 0:
						// The same click twice at once, the second to the
						// next shard's process (as a load balancer might):
						// the two processes race for one log position.
						mu.Lock()
						sent = append(sent, c)
						mu.Unlock()
						var other sync.WaitGroup
						other.Add(1)
						go func() {
							defer other.Done()
							dup, dupOK = ack3(fake.ClickOnShardErr((tb.shard+1)%multiShards, multiShards, u, h, p.cid))
						}()
						in, ok = ack3(fake.ClickErr(u, h, p.cid))
						other.Wait()
					default:
						in, ok = ack3(fake.ClickErr(u, h, p.cid))
					}
					_, legal := g.ParseAction(c.action)
					// made reads the answer to one interaction: "✓ You
					// play …" (bot.acted) when it made the move. The two clicks of a pair
					// share the message they were on, so their answers are
					// read from the responses themselves; a deferred answer
					// of a pair (edited into that shared message later)
					// counts as not known to be made.
					made := func(in *discordtest.Interaction) bool {
						m := in.Original()
						if r, _ := in.Response(); r.Type == discordtest.CallbackUpdateMessage || r.Type == discordtest.CallbackChannelMessage {
							m = r.Message
						} else if dup != nil {
							return false
						}
						return legal == nil && m != nil && strings.HasPrefix(shownText(m), actedNote)
					}
					mu.Lock()
					hands[u] = nil
					if ok {
						hands[u] = in.Original()
						if made(in) {
							done = append(done, c)
						}
					}
					if dupOK && ok {
						pairs++
					}
					if dupOK {
						if hands[u] == nil {
							hands[u] = dup.Original()
						}
						if made(dup) {
							done = append(done, c)
							dupMade++
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
				if in, ok := ack3(fake.ClickErr(u, tm, tm.Control("hand/"+tb.id))); ok {
					// A click on the table message is answered by an
					// ephemeral follow-up.
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

	rnd := rand.New(rand.NewPCG(3, 3))
	doneAt := func() int { mu.Lock(); defer mu.Unlock(); return len(done) }
	time.Sleep(3 * time.Second)
	before := doneAt()
	for i := range kills {
		victim := 1 // the default run kills shard 1; longer runs any shard
		if kills > 1 {
			victim = rnd.IntN(multiShards)
		}
		if i > 0 {
			time.Sleep(time.Duration(500+rnd.IntN(1500)) * time.Millisecond)
		}
		kill(victim)
		time.Sleep(time.Duration(rnd.IntN(500)) * time.Millisecond)
		startBots(victim)
	}
	time.Sleep(4 * time.Second)
	close(stop)
	wg.Wait()
	if doneAt() == before {
		t.Errorf("no move was acknowledged after the first kill")
	}

	// Let the last start's resume pass finish, then stop cleanly.
	time.Sleep(time.Second)
	stopAll()
	fired := deadlinesFireOnce(t, dbURL, dlTable, dlChannel, startBots, stopAll, func() string {
		var all strings.Builder
		for shard := range multiShards {
			out, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.log", shard)))
			all.Write(out)
		}
		return all.String()
	}, fake)

	if len(done) < 20 {
		t.Fatalf("only %d moves were acknowledged: the load is too light to mean anything", len(done))
	}
	t.Logf("%d kills; %d game clicks sent, %d acknowledged as made; %d clicks sent twice to two processes and answered by both, %d of them made by the process of another shard (its twin refused); %v in all",
		kills, len(sent), len(done), pairs, dupMade, time.Since(t0).Round(time.Millisecond))
	ctx := context.Background()
	logs := map[string][]engine.Move{}
	seatOf := map[string]map[string]engine.Seat{} // table -> user -> seat
	for _, tb := range tables {
		rec, entries, err := db.Load(ctx, tb.id)
		if err != nil {
			t.Fatalf("table %s: %v", tb.id, err)
		}
		if rec.GuildID != tb.guild {
			t.Errorf("table %s: guild %s, want %s", tb.id, rec.GuildID, tb.guild)
		}
		seatOf[tb.id] = map[string]engine.Seat{}
		for _, si := range rec.Seats {
			seatOf[tb.id][si.UserID] = si.Seat
		}
		var moves []engine.Move
		for _, e := range entries {
			moves = append(moves, engine.Move{Seat: e.Seat, Action: e.Action})
		}
		logs[tb.id] = moves
		if len(moves) == 0 {
			t.Errorf("table %s (%s, shard %d): no move was made", tb.id, tb.game, tb.shard)
		}
		g, _ := engine.Lookup(rec.Setup.Game)
		st, err := engine.Replay(g, rec.Setup, moves)
		if err != nil {
			t.Fatalf("table %s does not replay: %v", tb.id, err)
		}
		for n, m := range moves {
			if !slices.ContainsFunc(sent, func(c click) bool {
				if c.table != tb.id || c.version != n || c.action != m.Action {
					return false
				}
				s, ok := seatOf[tb.id][c.user]
				return ok && s == m.Seat
			}) {
				t.Errorf("table %s: log entry %d (%d: %s) matches no click", tb.id, n, m.Seat, m.Action)
			}
		}
		checkTableShowsState(t, fake, tb.id, rec, st)
	}
	// Every acknowledged move is in the log at the position it was clicked
	// for, and no log position was acknowledged to two clicks.
	at := map[string]click{}
	for _, c := range done {
		moves := logs[c.table]
		if c.version >= len(moves) || moves[c.version].Action != c.action || moves[c.version].Seat != seatOf[c.table][c.user] {
			t.Errorf("acknowledged move %+v is not in the log", c)
		}
		key := c.table + "/" + strconv.Itoa(c.version)
		if prev, ok := at[key]; ok {
			t.Errorf("two clicks acknowledged as made at one log position: %+v and %+v", prev, c)
		}
		at[key] = c
	}
	// Each process served its own shard's guilds only (the fake routes
	// them so): no process's log names a table of another shard; only
	// shard 0 registered the commands; every start resumed.
	for shard := range multiShards {
		out, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.log", shard)))
		if strings.Contains(string(out), multiToken) {
			t.Errorf("the bot token appears in shard %d's log", shard)
		}
		if strings.Contains(string(out), "WARNING: DATA RACE") {
			t.Errorf("shard %d's process reported a data race (go test -race)", shard)
		}
		if n := strings.Count(string(out), "commands registered"); (shard == 0) != (n > 0) {
			t.Errorf("shard %d registered the commands %d times", shard, n)
		}
		if !strings.Contains(string(out), "open tables resumed") {
			t.Errorf("shard %d's log does not say it resumed its tables", shard)
		}
		for _, tb := range tables {
			if tb.shard != shard && strings.Contains(string(out), "table="+tb.id) {
				t.Errorf("shard %d's log names table %s of shard %d", shard, tb.id, tb.shard)
			}
		}
	}
	if rec, entries, err := db.Load(ctx, dlTable); err != nil {
		t.Errorf("the deadline table: %v", err)
	} else {
		g, _ := engine.Lookup(rec.Setup.Game)
		var moves []engine.Move
		for _, e := range entries {
			moves = append(moves, engine.Move{Seat: e.Seat, Action: e.Action})
		}
		if _, err := engine.Replay(g, rec.Setup, moves); err != nil {
			t.Errorf("the deadline table does not replay: %v", err)
		}
	}
	t.Logf("starts per shard: %v; deadlines fired: %d", starts, fired)
}

// deadlinesFireOnce makes the deadlines of table id fall due with the
// three processes stopped, starts them at once (each process's scheduler
// claims what is due as it starts), and checks that each seat's reminder
// was posted once; then the same for the deadlines passing (each handled
// once: one "deadline passed" across the three processes' logs). It
// returns how many deadlines fired.
func deadlinesFireOnce(t *testing.T, dbURL, id, channel string, startBots func(...int), stopAll func(), logs func() string, fake *discordtest.Server) int {
	t.Helper()
	ctx := context.Background()
	pg, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	var seats []int
	rows, err := pg.Query(ctx, `SELECT seat FROM deadlines WHERE table_id = $1 ORDER BY seat`, id)
	if err == nil {
		seats, err = pgx.CollectRows(rows, pgx.RowTo[int])
	}
	if err != nil || len(seats) == 0 {
		t.Fatalf("the deadline table has no deadlines: %v %v", seats, err)
	}
	count := func(re *regexp.Regexp, text string) map[string]int {
		n := map[string]int{}
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			n[m[1]]++
		}
		return n
	}
	reminders := func() int {
		n := 0
		for _, m := range fake.Messages(channel) {
			if strings.Contains(m.Content, "a reminder: it is your move at table "+id) {
				n++
			}
		}
		return n
	}
	for _, phase := range []struct {
		name, set string
		logged    *regexp.Regexp
	}{
		{"reminder", `remind_at = now() - interval '1 second'`, regexp.MustCompile(`msg=reminder table=` + id + ` seat=(\d+)`)},
		{"deadline passed", `due_at = now() - interval '1 second'`, regexp.MustCompile(`msg="deadline passed" table=` + id + ` seat=(\d+)`)},
	} {
		if _, err := pg.Exec(ctx, `UPDATE deadlines SET `+phase.set+` WHERE table_id = $1`, id); err != nil {
			t.Fatal(err)
		}
		startBots(0, 1, 2)
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			total := 0
			for _, n := range count(phase.logged, logs()) {
				total += n
			}
			if total >= len(seats) {
				break
			}
		}
		time.Sleep(time.Second) // a second firing would come now
		stopAll()
		got := count(phase.logged, logs())
		for _, s := range seats {
			if n := got[strconv.Itoa(s)]; n != 1 {
				t.Errorf("%s of seat %d: %d times in the three processes' logs, want once", phase.name, s, n)
			}
		}
		if phase.name == "reminder" {
			if n := reminders(); n != len(seats) {
				t.Errorf("%d reminders posted in the channel for %d deadlines", n, len(seats))
			}
		}
	}
	return len(seats)
}
