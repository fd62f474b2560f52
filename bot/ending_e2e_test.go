package bot_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/render"
)

// TestTheEndAndARematch plays a short game to its end through the fake
// Discord. The final table message opens with the winner headline and
// offers Rematch only; every player's own hand message says who won and,
// in the player's language, the place they finished. Rematch refuses
// someone who did not play, opens one new table in the channel with the
// same seats (players and AI) and options, and refuses a second press
// while that table is open; the new table starts.
func TestTheEndAndARematch(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	opts := []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "off"), discordtest.Opt("language", "pl")}
	g := w.openGame("princesses", 4, opts, ala, bob)
	g.playOut(400)
	g.finish()

	rec, log, err := w.db.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	game, _ := engine.Lookup(rec.Setup.Game)
	st, err := engine.Replay(game, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	_, res := st.Result()

	// The table message: the headline first, in bold, in the table's
	// language; the only control is Rematch.
	pl := w.loc.Lang("pl")
	final := w.tableMessage(g.id)
	if text := shownText(final); !strings.HasPrefix(text, "**🏆 ") || strings.Contains(text, pl.T("bot.finished", nil)) {
		t.Errorf("the final table message does not open with the winner: %q", text)
	}

	// Every player's own hand message: the headline to them and their
	// place, in their language (ala reads Polish, bob English).
	for _, u := range []struct {
		id, lang string
		want     []string // the place, as a native speaker says it
	}{
		{ala, "pl", []string{"Zajmujesz", "Dzielisz"}},
		{bob, "en", []string{"You finished", "You share"}},
	} {
		l := w.loc.Lang(u.lang)
		seat, ok := seatIn(rec, u.id)
		if !ok {
			t.Fatalf("%s has no seat", u.id)
		}
		sc, _ := render.ScreenOf(rec.Setup.Game, l, st.View(seat), seatNames(l, rec), nil)
		if len(sc.Result) < 2 || !slices.ContainsFunc(u.want, func(p string) bool { return strings.HasPrefix(sc.Result[1], p) }) {
			t.Fatalf("%s's screen names no place: %q", u.id, sc.Result)
		}
		place := sc.Result[1]
		if want := pl.T("ui.end.place_you."+string(rune('0'+res.Places[seat])), nil); u.lang == "pl" && !strings.Contains(place, want) {
			t.Errorf("%s finished %d: %q lacks %q", u.id, res.Places[seat], place, want)
		}
		found := false
		for _, m := range w.fake.Ephemeral(u.id) {
			text := shownText(m)
			if strings.Contains(text, "**"+place+"**") && strings.Contains(text, "🏆") {
				found = true
			}
		}
		if !found {
			t.Errorf("no hand message of %s says %q", u.id, place)
		}
	}

	// Rematch: not for someone who did not play.
	again := "again/" + g.id
	if m := w.do(w.fake.Click(zosia, final, again)); !strings.Contains(shownText(m), pl.T("bot.rematch_not_player", nil)) {
		t.Errorf("a non-player's rematch: %q", shownText(m))
	}
	if ids, _ := w.db.InChannel(context.Background(), channelID); len(ids) != 0 {
		t.Fatalf("a non-player opened a table: %v", ids)
	}
	m := w.do(w.fake.Click(bob, final, again))
	id := w.tableID()
	en := w.loc.Lang("en")
	if !strings.Contains(shownText(m), en.T("bot.rematch_opened", map[string]any{"ID": id})) {
		t.Errorf("the rematch answer: %q", shownText(m))
	}
	next, _, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if next.Status != table.StatusLobby || next.ChannelID != channelID || next.Lang != rec.Lang ||
		next.Setup.Seats != rec.Setup.Seats || !maps.Equal(next.Setup.Options, rec.Setup.Options) {
		t.Errorf("the rematch table: %+v, the game's %+v", next, rec)
	}
	for _, si := range rec.Seats {
		n, ok := seatInfoOf(next, si.Seat)
		if !ok || n.Kind != si.Kind || n.UserID != si.UserID {
			t.Errorf("seat %d: %+v, was %+v", si.Seat, n, si)
		}
	}
	// A second press opens nothing.
	if m := w.do(w.fake.Click(ala, final, again)); !strings.Contains(shownText(m), pl.T("bot.table_exists", map[string]any{"ID": id})) {
		t.Errorf("a second rematch: %q", shownText(m))
	}
	if ids, _ := w.db.InChannel(context.Background(), channelID); !slices.Equal(ids, []string{id}) {
		t.Errorf("open tables after two presses: %v", ids)
	}
	// The presser starts it, every seat taken.
	w.do(w.fake.Click(bob, w.tableMessage(id), "lobby/"+id+"/start"))
	if rec, _, _ := w.db.Load(context.Background(), id); rec.Status != table.StatusPlaying {
		t.Errorf("the rematch did not start: %s", rec.Status)
	}
	w.fake.AssertNoErrors(t)
}

func seatIn(rec table.Record, user string) (engine.Seat, bool) {
	for _, si := range rec.Seats {
		if si.UserID == user {
			return si.Seat, true
		}
	}
	return 0, false
}

func seatInfoOf(rec table.Record, s engine.Seat) (table.SeatInfo, bool) {
	for _, si := range rec.Seats {
		if si.Seat == s {
			return si, true
		}
	}
	return table.SeatInfo{}, false
}
