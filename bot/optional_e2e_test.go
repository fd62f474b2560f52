package bot_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/render"
)

// current replays a table from the store.
func (w *world) current(id string) (table.Record, engine.State, []engine.Move) {
	w.t.Helper()
	return replayed(w.t, w.db, id)
}

// replayed loads a table from db and replays its log.
func replayed(t testing.TB, db bot.Store, id string) (table.Record, engine.State, []engine.Move) {
	t.Helper()
	rec, log, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := engine.Lookup(rec.Setup.Game)
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	return rec, st, moves
}

// waitingWithPower finds a human who need not act but may announce a power.
func (w *world) waitingWithPower(id string) (string, engine.Seat, bool) {
	w.t.Helper()
	rec, st, _ := w.current(id)
	for _, si := range rec.Seats {
		if si.Kind != table.Human || engine.IsActing(st, si.Seat) {
			continue
		}
		for _, a := range engine.AnyLegal(st, si.Seat) {
			if strings.HasPrefix(a.String(), "declare ") {
				return si.UserID, si.Seat, true
			}
		}
	}
	return "", 0, false
}

// declareControl finds, on a hand message, a control that announces a
// power: a button, or a select menu option. prefix reports a control that
// only leads to the next step.
func declareControl(m *discordtest.Message) (c discordtest.Component, value string, prefix, ok bool) {
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.IsSelect() {
				for _, o := range c.Options {
					if strings.HasPrefix(o.Value, "declare") || strings.HasPrefix(o.Value, ">declare") {
						return c, o.Value, strings.HasPrefix(o.Value, ">"), true
					}
				}
				continue
			}
			if _, act, found := strings.Cut(strings.TrimPrefix(c.CustomID, "t/"), "/"); found {
				if _, act, found = strings.Cut(act, "/"); found && (strings.HasPrefix(act, "declare") || strings.HasPrefix(act, ">declare")) {
					return c, "", strings.HasPrefix(act, ">"), true
				}
			}
		}
	}
	return discordtest.Component{}, "", false, false
}

func TestWaitingPlayerDeclaresAPower(t *testing.T) {
	w := newWorld(t)
	for attempt := 0; attempt < 8; attempt++ {
		id := w.openTableWith([]discordtest.Arg{discordtest.Opt("edition", "deluxe")}, ala, olena, bob, zosia)
		rng := rand.New(rand.NewPCG(7, uint64(attempt)))
		for moves := 0; moves < 200; moves++ {
			if u, seat, ok := w.waitingWithPower(id); ok {
				t.Logf("attempt %d, move %d: seat %d announces while waiting", attempt, moves, seat)
				w.declareWhileWaiting(id, u, seat)
				return
			}
			m := w.tableMessage(id)
			acting := toAct(m)
			if !playing(m) || len(acting) == 0 {
				break // over
			}
			if !w.move(id, acting[rng.IntN(len(acting))], rng) {
				t.Fatalf("no controls for an acting player")
			}
		}
		// Nobody had a power to announce while waiting: abandon, try again.
		w.slash(ala, "abandon")
		w.slash(olena, "abandon")
		w.slash(bob, "abandon")
		if rec, _, _ := w.current(id); rec.Status == table.StatusPlaying {
			t.Fatalf("table %s could not be abandoned", id)
		}
	}
	t.Fatal("no waiting player ever had a power to announce")
}

// declareWhileWaiting has user, who need not act, announce a power from
// their hand message, and checks that the table shows it, and that the
// same click again (a double tap) is stale.
func (w *world) declareWhileWaiting(id, user string, seat engine.Seat) {
	t := w.t
	t.Helper()
	l := w.loc.Lang(map[string]string{ala: "pl", olena: "uk", bob: "en", zosia: "pl"}[user])
	hand := w.do(w.fake.Click(user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	w.checkLeaks(id)
	if !strings.Contains(shownText(hand), l.T("ui.optional.hand", nil)) {
		t.Fatalf("the waiting player's hand does not offer the optional actions: %s", hand)
	}
	hand, c, value := w.toDeclare(user, hand)
	v := w.version(id)
	// Tapped twice before the answer came (a double tap): the second is
	// the same click again.
	click := func() *discordtest.Interaction {
		if c.IsSelect() {
			return w.fake.Select(user, hand, c.CustomID, value)
		}
		return w.fake.Click(user, hand, c.CustomID)
	}
	in, dup := click(), click()
	w.do(in)
	after := w.do(dup) // both redraw the same message; the log says what was taken
	w.checkLeaks(id)
	rec, _, moves := w.current(id)
	if len(moves) != v+1 || moves[v].Seat != seat || !strings.HasPrefix(moves[v].Action, "declare ") {
		t.Fatalf("the announcement was not taken once: version %d → %d, log end %v\nanswer: %s", v, len(moves), moves[len(moves)-1], after)
	}
	// The public side: the event of the announcement, as the bot words it.
	g, _ := engine.Lookup(rec.Setup.Game)
	st, err := engine.Replay(g, rec.Setup, moves[:v])
	if err != nil {
		t.Fatal(err)
	}
	evs, err := engine.Step(g, st, rec.Setup.Seed, v, moves[v], nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := w.loc.Lang("pl")
	nm := make(render.Names, rec.Setup.Seats)
	for _, si := range rec.Seats {
		nm[si.Seat] = si.Name
	}
	r, _ := render.For(rec.Setup.Game)
	want := ""
	for _, e := range evs {
		if e.Type == "power_declared" {
			want = r.Event(pl, e, nm)
		}
	}
	if want == "" {
		t.Fatalf("no power_declared event in %v", evs)
	}
	var posted []string
	for _, m := range w.fake.Messages(w.gameChannel(id)) {
		posted = append(posted, shownText(m))
	}
	if !strings.Contains(strings.Join(posted, "\n"), want) {
		t.Errorf("no public message announces %q:\n%s", want, strings.Join(posted, "\n"))
	}

	w.fake.AssertNoErrors(t)
}

// toDeclare follows the steps of a hand message until a control announces
// a power, and returns the message, that control and its select value.
func (w *world) toDeclare(user string, hand *discordtest.Message) (*discordtest.Message, discordtest.Component, string) {
	w.t.Helper()
	for {
		c, value, prefix, ok := declareControl(hand)
		if !ok {
			w.t.Fatalf("no control to announce a power: %s", hand)
		}
		if !prefix {
			return hand, c, value
		}
		if c.IsSelect() {
			hand = w.do(w.fake.Select(user, hand, c.CustomID, value))
		} else {
			hand = w.do(w.fake.Click(user, hand, c.CustomID))
		}
	}
}
