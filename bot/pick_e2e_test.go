package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/princesses"
)

// After Party's split is one multi-select of exactly half the hand, not a
// card at a time; the game goes on to the end through the bot's controls.
func TestSplitIsOneMultiSelect(t *testing.T) {
	w := newWorld(t)
	id := w.startRounds("after-party,blind-mans-bluff")
	rng := rand.New(rand.NewPCG(5, 8))
	w.playUntil(id, "split", rng, 40)
	rec, st, log := w.current(id)
	user := rec.Seats[0].UserID
	hand := w.do(w.fake.Click(user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	cards := len(st.View(rec.Seats[0].Seat).(*princesses.View).Hand)
	half := cards / 2
	found := false
	for _, row := range hand.Components {
		for _, c := range row.Components {
			if !strings.HasSuffix(c.CustomID, "/split *") {
				continue
			}
			found = true
			if !c.IsSelect() || c.MinValues == nil || *c.MinValues != half || c.MaxValues == nil || *c.MaxValues != half || len(c.Options) != cards {
				t.Fatalf("split menu: %+v, want %d of %d cards", c, half, cards)
			}
			var vals []string
			for _, o := range c.Options[:half] {
				vals = append(vals, o.Value)
			}
			w.do(w.fake.Select(user, hand, c.CustomID, vals...))
		}
	}
	if !found {
		t.Fatalf("no split menu in the hand: %s", hand)
	}
	_, _, after := w.current(id)
	if len(after) != len(log)+1 || !strings.HasPrefix(after[len(log)].Action, "split ") {
		t.Fatalf("the split was not one action: %v", after[len(log):])
	}
	w.play(id, rng, 400)
	if m := w.tableMessage(id); playing(m) {
		t.Fatalf("the game did not end: %q", shownText(m))
	}
	_, _, all := w.current(id)
	splits := 0
	for _, m := range all {
		if strings.HasPrefix(m.Action, "split ") {
			splits++
		}
	}
	if splits != 8 {
		t.Errorf("%d splits in two rounds of four players, want 8", splits)
	}
}

// A multi-select chooses a set: a pass of two cards one way is taken in
// whatever order Discord sends the values (the notation wants card order).
func TestPassValuesInAnyOrder(t *testing.T) {
	w := newWorld(t)
	id := w.startRounds("crystal-clear")
	w.playUntil(id, "pass", rand.New(rand.NewPCG(7, 9)), 20)
	rec, _, log := w.current(id)
	user := rec.Seats[0].UserID
	hand := w.do(w.fake.Click(user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
	var menu *discordtest.Component
	for _, row := range hand.Components {
		for _, c := range row.Components {
			if strings.HasSuffix(c.CustomID, "/pass *") {
				menu = &c
			}
		}
	}
	if menu == nil || menu.MinValues == nil || *menu.MinValues != 2 {
		t.Fatalf("no menu for a pass of 2: %s", hand)
	}
	// The last card first: not the notation's order.
	w.do(w.fake.Select(user, hand, menu.CustomID, menu.Options[len(menu.Options)-1].Value, menu.Options[0].Value))
	_, _, after := w.current(id)
	want := "pass " + menu.Options[0].Value + " " + menu.Options[len(menu.Options)-1].Value
	if len(after) != len(log)+1 || after[len(log)].Action != want {
		t.Fatalf("the pass was not taken: %v, want %q", after[len(log):], want)
	}
}

// startRounds has four users open a deluxe Rebel Princess table with the
// given round cards (ids), which the lobby names, and start it.
func (w *world) startRounds(rounds string) string {
	w.t.Helper()
	w.openRounds("deluxe", rounds)
	id := w.tableID()
	for _, card := range strings.Split(rounds, ",") {
		if name := w.loc.Lang("pl").T("princesses.round."+card+".name", nil); !strings.Contains(shownText(w.tableMessage(id)), name) {
			w.t.Errorf("the lobby does not name the round card %q: %q", name, shownText(w.tableMessage(id)))
		}
	}
	for _, u := range []string{olena, bob, zosia} {
		w.do(w.fake.Click(u, w.tableMessage(id), "lobby/"+id+"/join"))
	}
	w.do(w.fake.Click(ala, w.tableMessage(id), "lobby/"+id+"/start"))
	return id
}

// playUntil has the users play until the first seat's view is in phase,
// at most max moves.
func (w *world) playUntil(id, phase string, rng *rand.Rand, max int) {
	w.t.Helper()
	for moves := 0; ; moves++ {
		rec, st, _ := w.current(id)
		now := st.View(rec.Seats[0].Seat).(*princesses.View).Phase
		if now == phase {
			return
		}
		if moves == max {
			w.t.Fatalf("no %s after %d moves; phase %s", phase, moves, now)
		}
		w.play(id, rng, 1)
	}
}
