package bot_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/render"
)

// slowStore makes chosen store calls slow: the next Append (storing a
// move) or the next UserLang (the first thing read for any interaction)
// sleeps as long as armed.
type slowStore struct {
	bot.Store
	mu           sync.Mutex
	append, lang time.Duration
}

func (s *slowStore) take(d *time.Duration) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := *d
	*d = 0
	return out
}

func (s *slowStore) arm(appendDelay, langDelay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.append, s.lang = appendDelay, langDelay
}

func (s *slowStore) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	time.Sleep(s.take(&s.append))
	return s.Store.Append(ctx, id, e, status)
}

func (s *slowStore) UserLang(ctx context.Context, userID string) (string, error) {
	time.Sleep(s.take(&s.lang))
	return s.Store.UserLang(ctx, userID)
}

// Routes the faults are injected on.
const (
	routeCallback = "POST /interactions/{interaction.id}/{interaction.token}/callback"
	routeEdit     = "PATCH /channels/{channel.id}/messages/{message.id}"
	routePost     = "POST /channels/{channel.id}/messages"
	routeOriginal = "PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}"
)

// click is one interaction the test sent, and what came of it.
type click struct {
	table, user string
	seat        engine.Seat
	customID    string
	action      string // the move in canonical notation; "" for a step that does not act
	set         bool   // the move's cards came from a multi-select: in any order
	before      int    // log length when it was sent
	after       int    // log length once it was handled
	acked       bool
	ackType     int
	answer      string
	answerMsg   string        // the id of the message the answer is in
	stale       bool          // answered "the game has moved on"
	took        time.Duration // to be answered and handled
	ackedAfter  time.Duration // to be acknowledged
	gateway     bool          // a gateway fault happened while it was in flight
}

// userLang is the language each user's interactions are answered in.
var userLang = map[string]string{ala: "pl", olena: "uk", bob: "en", zosia: "pl", eve: "en"}

// faultGame is a table the test plays.
type faultGame struct {
	id, channel string
	users       []string
	game        engine.Game
	logLen      int // the log length after the test's last interaction with it
}

type faultRun struct {
	*rig
	slow   *slowStore
	rng    *rand.Rand
	games  []*faultGame
	clicks []*click
	// what happened, to check that every fault was met
	counts map[string]int
	// plan: interaction numbers at which a fault is injected
	plan map[int][]string
	n    int // interactions sent
}

// TestDiscordFaults plays whole games (Rebel Princess and 3 Chapters) as
// several users while the fake Discord misbehaves at seeded random
// moments: 429s with retry_after on interaction callbacks, message edits
// and posts; 5xx on the same; a store so slow that the bot must defer, and
// a deferral itself rate-limited so that it lands near the 3-second
// deadline; gateway connections dropped mid-game (resumed, missed
// interactions replayed), a session invalidated (fresh identify, missed
// interactions lost), and interactions delivered twice after a resume. It
// checks that every interaction answered as a move is in the log exactly
// once and nothing else is (each interaction's log window holds its move
// and AI moves only), that every interaction not hit by a gateway fault is
// acknowledged in time, that the table messages are current after every
// move and at the end, that the final states replay from the logs, that
// Discord rejected nothing the bot sent (limits, late or second
// responses), and that the logs hold no secret.
//
// STOLIK_FAULT_SEED picks another seed (the default is fixed).
func TestDiscordFaults(t *testing.T) {
	t.Parallel()
	seed := uint64(20260807)
	if s := os.Getenv("STOLIK_FAULT_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (STOLIK_FAULT_SEED)", seed)
	start := time.Now()
	slow := &slowStore{}
	r := newRig(t, rigOptions{
		wrap: func(s bot.Store) bot.Store { slow.Store = s; return slow },
	})
	f := &faultRun{rig: r, slow: slow, rng: rand.New(rand.NewPCG(seed, seed>>7)), counts: map[string]int{}, plan: map[int][]string{}}

	a := r.open(guildID, channelID, "princesses", 4, []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "on"), discordtest.Opt("language", "pl")}, ala, olena, bob)
	c := r.open(guildID, channel3, "chapters", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, zosia, eve)
	for _, g := range []struct{ id, channel string }{{a, channelID}, {c, channel3}} {
		rec, log, err := r.db.Load(context.Background(), g.id)
		if err != nil {
			t.Fatal(err)
		}
		gm, _ := engine.Lookup(rec.Setup.Game)
		var users []string
		for _, si := range rec.Seats {
			users = append(users, si.UserID)
		}
		f.games = append(f.games, &faultGame{id: g.id, channel: g.channel, users: users, game: gm, logLen: len(log)})
	}

	// Each kind of fault at least once, at seeded moments in the first
	// 150 interactions; 429s and 5xx also at random on top.
	for _, kind := range []string{"near-deadline", "slow-lang", "drop-between", "drop-mid",
		"invalidate-between", "invalidate-mid"} {
		at := 4 + f.rng.IntN(146)
		f.plan[at] = append(f.plan[at], kind)
	}

	for steps := 0; ; steps++ {
		var open []*faultGame
		for _, g := range f.games {
			if !f.finished(g) {
				open = append(open, g)
			}
		}
		if len(open) == 0 {
			break
		}
		if steps > 1500 {
			t.Fatalf("the games did not end after %d moves", steps)
		}
		g := open[f.rng.IntN(len(open))]
		f.move(g)
		f.checkCurrent(g)
		if t.Failed() {
			t.FailNow()
		}
	}

	// Every interaction's window: nothing lost, nothing twice, nothing else.
	deferred, late := 0, 0
	for _, k := range f.clicks {
		if k.ackType == discordtest.CallbackDeferredMessage || k.ackType == discordtest.CallbackDeferredUpdate {
			deferred++
		}
		if k.acked && k.ackedAfter > 2*time.Second {
			late++ // acknowledged in time after more than 2 s: near the deadline
		}
	}
	for _, g := range f.games {
		f.checkFinal(g)
	}
	r.fake.AssertNoErrors(t)
	r.checkLogs(a, c)

	st := r.fake.GatewayStats()
	injected := map[string]int{}
	for _, call := range r.fake.Calls() {
		if call.Injected {
			injected[fmt.Sprintf("%s %d", call.Route, call.Status)]++
		}
	}
	t.Logf("%d interactions, %d deferred, %d acknowledged after 2 s, in %s; faults: %v; injected: %v; gateway: %+v",
		len(f.clicks), deferred, late, time.Since(start).Round(time.Millisecond), f.counts, injected, st)
	if len(f.counts) != 6 {
		t.Errorf("not every fault was met (the games ended first?): %v", f.counts)
	}
	if deferred < 1 || late < 1 {
		t.Errorf("%d interactions were deferred, %d acknowledged near the deadline", deferred, late)
	}
	// The host hears of answers so slow that they were deferred.
	if n := strings.Count(r.logs.String(), `"msg":"an answer was not ready in time: acknowledged by deferring"`); n < 1 || n > deferred {
		t.Errorf("%d deferrals logged for %d deferred interactions", n, deferred)
	}
	if st.Resumes < 2 || st.Identifies < 3 || st.Redelivered < 1 || st.Replayed < 1 {
		t.Errorf("gateway: %+v", st)
	}
	rateLimited := 0
	for k, n := range injected {
		if strings.Contains(k, " 429") {
			rateLimited += n
		}
	}
	if rateLimited < 3 {
		t.Errorf("only %d requests were rate-limited: %v", rateLimited, injected)
	}
}

// state replays a table's log.
func (f *faultRun) state(g *faultGame) (table.Record, []table.Entry, engine.State) {
	f.t.Helper()
	rec, log, err := f.db.Load(context.Background(), g.id)
	if err != nil {
		f.t.Fatal(err)
	}
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g.game, rec.Setup, moves)
	if err != nil {
		f.t.Fatalf("table %s does not replay: %v", g.id, err)
	}
	return rec, log, st
}

func (f *faultRun) finished(g *faultGame) bool {
	rec, _, _ := f.state(g)
	return rec.Status != table.StatusPlaying
}

// move makes a human seat that must act at g act: "My hand", then controls
// (next steps included) until the log grows. A lost answer starts again
// from "My hand".
func (f *faultRun) move(g *faultGame) {
	t := f.t
	t.Helper()
	rec, _, st := f.state(g)
	var humans []string
	for _, s := range st.Acting() {
		for _, si := range rec.Seats {
			if si.Seat == s && si.Kind == table.Human {
				humans = append(humans, si.UserID)
			}
		}
	}
	if len(humans) == 0 {
		t.Fatalf("table %s: no human to act (%v), the AI did not move", g.id, st.Acting())
	}
	user := humans[f.rng.IntN(len(humans))]
	for attempt := 0; attempt < 10; attempt++ {
		k := f.send(g, user, nil, "hand/"+g.id, nil)
		if !k.acked {
			continue
		}
		hand := f.fake.Message(k.answerMsg)
		for step := 0; step < 8 && hand != nil; step++ {
			controls := moveControls(hand)
			if len(controls) == 0 {
				t.Fatalf("%s must act at %s but has no controls: %s", user, g.id, hand)
			}
			c := controls[f.rng.IntN(len(controls))]
			var values []string
			if c.IsSelect() {
				n := 1
				if c.MinValues != nil {
					n = max(*c.MinValues, 1)
				}
				for _, i := range f.rng.Perm(len(c.Options))[:n] {
					values = append(values, c.Options[i].Value)
				}
			}
			k := f.send(g, user, hand, c.CustomID, values)
			if !k.acked || k.stale {
				break // from "My hand" again
			}
			if k.action != "" {
				if k.after == k.before {
					t.Fatalf("%s: answered %q but did not act", k.customID, k.answer)
				}
				return
			}
			hand = f.fake.Message(k.answerMsg)
		}
	}
	t.Fatalf("%s could not act at %s in 10 attempts", user, g.id)
}

// send sends one click (or selection) as user, with the faults planned for
// it, waits until it is answered or lost and the bot is idle, and checks
// its log window.
func (f *faultRun) send(g *faultGame, user string, msg *discordtest.Message, customID string, values []string) *click {
	t := f.t
	t.Helper()
	f.n++
	plan := f.plan[f.n]
	// Faults armed for the last interaction and not met (it made no edit,
	// or was lost) are dropped: faults stacked over several interactions
	// would outlast the bot's retries (4 attempts over 0.7 s) and leave a
	// table message stale until the next move.
	f.fake.ClearFaults()
	// Random REST faults on top of the plan.
	retryAfter := func() time.Duration { return time.Duration(20+f.rng.IntN(60)) * time.Millisecond }
	switch x := f.rng.IntN(110); {
	case x < 6:
		f.fake.RateLimitNext(routeCallback, 1, retryAfter())
	case x < 12:
		f.fake.RateLimitNext(routeEdit, 1, retryAfter())
	case x < 16:
		f.fake.RateLimitNext(routePost, 1, retryAfter())
	case x < 20:
		f.fake.FailNext(routeEdit, 1+f.rng.IntN(2), []int{500, 502, 503}[f.rng.IntN(3)])
	case x < 23:
		f.fake.FailNext(routeCallback, 1, []int{500, 502}[f.rng.IntN(2)])
	case x < 25:
		f.fake.FailNext(routePost, 1, 503)
	}
	rec, log, _ := f.state(g)
	if len(log) != g.logLen {
		t.Fatalf("table %s: the log moved from %d to %d between interactions: %v", g.id, g.logLen, len(log), log[g.logLen:])
	}
	seat, _ := seatOfUser(rec, user)
	k := &click{table: g.id, user: user, seat: seat, customID: customID, before: len(log)}
	if gc, ok := strings.CutPrefix(customID, "t/"+g.id+"/"); ok {
		_, act, _ := strings.Cut(gc, "/")
		switch {
		case strings.HasPrefix(act, "~sel") && len(values) == 1:
			act = values[0]
		case strings.Contains(act, "*"):
			act = strings.Replace(act, "*", strings.Join(values, " "), 1)
			k.set = true
		}
		if !strings.HasPrefix(act, "~") && !strings.HasPrefix(act, ">") && !strings.Contains(customID, "/>") {
			if a, err := g.game.ParseAction(act); err == nil {
				k.action = a.String()
			} else {
				t.Fatalf("%s: the bot offered %q, which does not parse: %v", customID, act, err)
			}
		}
	}
	f.clicks = append(f.clicks, k)

	for _, p := range plan {
		switch p {
		case "near-deadline":
			if k.action == "" {
				f.plan[f.n+1] = append(f.plan[f.n+1], p) // wait for a move
				continue
			}
			// The move takes 2 s to store; the bot defers at 1.5 s, and its
			// deferral is answered 429 with retry_after 0.5 s: it lands at
			// about 2 s, inside the 3-second deadline with a second to
			// spare for a busy machine's scheduling.
			f.slow.arm(2*time.Second, 0)
			f.fake.RateLimitNext(routeCallback, 1, 500*time.Millisecond)
		case "slow-lang":
			if k.action == "" {
				f.plan[f.n+1] = append(f.plan[f.n+1], p)
				continue
			}
			// Reading the user's language takes 1.2 s, before the bot even
			// knows what the interaction is about, and storing the move
			// 1.3 s more. The deferral is due 1.5 s after the interaction
			// arrived (not after the language was read), and meets a 429
			// with retry_after 0.6 s: it lands at about 2.1 s.
			f.slow.arm(1300*time.Millisecond, 1200*time.Millisecond)
			f.fake.RateLimitNext(routeCallback, 1, 600*time.Millisecond)
		case "drop-between":
			f.gatewayFault(func() { f.fake.DropConnection() }, true)
		case "invalidate-between":
			f.gatewayFault(func() { f.fake.InvalidateSessions() }, false)
		}
		f.counts[p]++
	}

	for _, p := range plan {
		switch p {
		case "drop-mid":
			// The connection goes just before the click: it waits in the
			// session's backlog and comes with the resume, after the last
			// three interactions the bot had received, delivered again.
			k.gateway = true
			f.fake.RedeliverOnResume(3)
			f.fake.DropConnection()
		case "invalidate-mid":
			// The same, but the session then ends: the click is lost, as
			// Discord would tell the user the interaction failed.
			k.gateway = true
			f.fake.DropConnection()
		}
	}
	sent := time.Now()
	var in *discordtest.Interaction
	var err error
	for tries := 0; ; tries++ {
		src := msg
		if src == nil {
			src = f.tableMessageOf(g)
			customID = src.Control(customID) // My hand with the version the message shows
		}
		if values != nil {
			in, err = f.fake.SelectErr(user, src, customID, values...)
		} else {
			in, err = f.fake.ClickErr(user, src, customID)
		}
		if !errors.Is(err, discordtest.ErrNoSession) || tries > 50 {
			break
		}
		k.gateway = true // nobody on the gateway: wait for the bot to come back
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("%s: %v", customID, err)
	}
	wait := 6 * time.Second
	for _, p := range plan {
		switch p {
		case "drop-mid":
			f.gatewayFault(func() {}, true)
			wait = time.Second
		case "invalidate-mid":
			f.gatewayFault(func() { f.fake.InvalidateSessions() }, false)
			wait = 300 * time.Millisecond
		}
	}

	select {
	case <-in.Acked():
		k.acked, k.ackedAfter = true, time.Since(sent)
	case <-time.After(wait):
	}
	f.idle()
	if !k.acked {
		// Acknowledged after the wait (a busy machine): an answer all the
		// same, told from the store and Discord's side as any other.
		select {
		case <-in.Acked():
			k.acked, k.ackedAfter = true, time.Since(sent)
		default:
		}
	}
	if k.acked {
		resp, _ := in.Response()
		k.ackType = resp.Type
		m := in.Answer()
		for wait := 0; m == nil && resp.Type == discordtest.CallbackDeferredUpdate && wait < 500; wait++ {
			time.Sleep(10 * time.Millisecond) // an answer that follows a click on a public message up
			m = in.Answer()
		}
		if m != nil {
			k.answer, k.answerMsg = shownText(m), m.ID
		}
		k.stale = strings.HasPrefix(k.answer, f.loc.Lang(userLang[user]).T("error.stale", nil))
	} else if !k.gateway {
		t.Fatalf("%s by %s got no answer in time, with the gateway up; rejected: %v", customID, user, in.Rejected())
	}
	if rej := in.Rejected(); len(rej) > 0 {
		t.Fatalf("%s: Discord rejected %v", customID, rej)
	}

	k.took = time.Since(sent)
	if k.took > time.Second {
		t.Logf("#%d %s by %s: acknowledged after %s (callback type %d), handled after %s; planned %v",
			f.n, customID, user, k.ackedAfter.Round(time.Millisecond), k.ackType, k.took.Round(time.Millisecond), plan)
	}
	_, log, _ = f.state(g)
	k.after = len(log)
	g.logLen = k.after
	f.checkWindow(g, k, log)
	return k
}

// gatewayFault cuts the gateway and waits until the bot is back: resumed,
// or identified afresh.
func (f *faultRun) gatewayFault(cut func(), resume bool) {
	f.t.Helper()
	before := f.fake.GatewayStats()
	cut()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := f.fake.WaitGateway(ctx, func(st discordtest.GatewayStats) bool {
		if resume {
			return st.Resumes > before.Resumes && st.Live > 0
		}
		return st.Identifies > before.Identifies && st.Live > 0
	})
	if err != nil {
		f.t.Fatalf("the bot did not come back to the gateway: %v (%+v)", err, f.fake.GatewayStats())
	}
	// Replayed interactions reach the handlers in their own goroutines.
	time.Sleep(150 * time.Millisecond)
	f.idle()
}

func (f *faultRun) tableMessageOf(g *faultGame) *discordtest.Message {
	return f.tableMessage(g.id)
}

// checkWindow: what the log gained while an interaction was handled is its
// move (if it was one and was not lost) followed by AI moves, and nothing
// else; an answered move is in it.
func (f *faultRun) checkWindow(g *faultGame, k *click, log []table.Entry) {
	t := f.t
	t.Helper()
	rec, _, _ := f.state(g)
	added := log[k.before:k.after]
	stale := k.stale
	applied := len(added) > 0 && added[0].Seat == k.seat && isHuman(rec, k.seat)
	if applied {
		if k.action == "" || !sameMove(added[0].Action, k.action, k.set) {
			t.Fatalf("%s by seat %d: the log gained %v", k.customID, k.seat, added)
		}
		if k.acked && stale {
			t.Fatalf("%s: answered as stale but applied", k.customID)
		}
		added = added[1:]
	} else if k.action != "" && k.acked && !stale {
		t.Fatalf("%s by seat %d: answered %q but not in the log (gained %v)", k.customID, k.seat, k.answer, added)
	}
	for _, e := range added {
		if isHuman(rec, e.Seat) {
			t.Fatalf("%s: the log gained a human seat's move that is not this interaction's: %v (all: %v)", k.customID, e, log[k.before:k.after])
		}
	}
}

// sameMove compares two moves in notation; a set's tokens in any order.
func sameMove(a, b string, set bool) bool {
	if !set {
		return a == b
	}
	return slices.Equal(slices.Sorted(slices.Values(strings.Fields(a))), slices.Sorted(slices.Values(strings.Fields(b))))
}

func isHuman(rec table.Record, s engine.Seat) bool {
	for _, si := range rec.Seats {
		if si.Seat == s {
			return si.Kind == table.Human
		}
	}
	return false
}

func seatOfUser(rec table.Record, user string) (engine.Seat, bool) {
	for _, si := range rec.Seats {
		if si.UserID == user && si.Kind == table.Human {
			return si.Seat, true
		}
	}
	return engine.Spectator, false
}

// checkCurrent: the table message shows the replayed state's screen —
// its title, the round card's name, the result — and mentions exactly the
// human seats that must act, each once, in its first line.
func (f *faultRun) checkCurrent(g *faultGame) {
	t := f.t
	t.Helper()
	rec, _, st := f.state(g)
	m := f.tableMessage(g.id)
	l := f.loc.Lang(rec.Lang)
	sc, ok := render.ScreenOf(rec.Setup.Game, l, st.View(engine.Spectator), seatNames(l, rec), nil)
	if !ok {
		t.Fatalf("%s has no screen", rec.Setup.Game)
	}
	text := readText(m)
	shows := append([]string{sc.Title}, sc.Result...)
	if sc.Rule != nil {
		shows = append(shows, sc.Rule.Name)
	}
	for _, s := range shows {
		if !strings.Contains(text, s) {
			t.Fatalf("table %s: the message is not current: it lacks %q:\n%s", g.id, s, text)
		}
	}
	var want []string
	if rec.Status == table.StatusPlaying {
		for _, s := range st.Acting() {
			if isHuman(rec, s) {
				for _, si := range rec.Seats {
					if si.Seat == s {
						want = append(want, si.UserID)
					}
				}
			}
		}
	}
	got := toAct(m)
	slices.Sort(got)
	slices.Sort(want)
	first, _, _ := strings.Cut(text, "\n")
	if !slices.Equal(got, want) || len(toAct(&discordtest.Message{Content: first})) != len(got) {
		t.Fatalf("table %s: the message mentions %v, the state waits for %v:\n%s", g.id, got, want, text)
	}
	if n := len([]rune(text)); n > 4000 {
		t.Fatalf("table %s: the message has %d characters", g.id, n)
	}
}

// checkFinal: the game is over in the store and in its replay, the log
// holds exactly the interactions' moves and AI moves, and the table
// message shows the replayed end.
func (f *faultRun) checkFinal(g *faultGame) {
	t := f.t
	t.Helper()
	rec, log, st := f.state(g)
	if done, _ := st.Result(); !done || rec.Status != table.StatusFinished {
		t.Errorf("table %s: status %s, replay done %v", g.id, rec.Status, done)
	}
	// Each human entry of the log is the move of exactly one interaction.
	mine := map[int]bool{}
	for _, k := range f.clicks {
		if k.table == g.id && k.after > k.before && isHuman(rec, log[k.before].Seat) {
			if mine[k.before] {
				t.Errorf("table %s: entry %d claimed twice", g.id, k.before)
			}
			mine[k.before] = true
		}
	}
	for i, e := range log {
		if isHuman(rec, e.Seat) && !mine[i] && i >= f.firstLen(g) {
			t.Errorf("table %s: entry %d (%v) is no interaction's move", g.id, i, e)
		}
	}
	f.checkCurrent(g)
	if m := f.tableMessage(g.id); playing(m) {
		t.Errorf("table %s: the final message has controls: %s", g.id, m)
	}
}

// firstLen is the log length when the test started playing a table (AI
// moves made at the start).
func (f *faultRun) firstLen(g *faultGame) int {
	for _, k := range f.clicks {
		if k.table == g.id {
			return k.before
		}
	}
	return 0
}
