package bot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestAILevels: /stolik open's ai_level sets the level of the AI players
// the table adds, with Add AI and when it starts with AI players; the
// level shows on their seats, and the hard ones (search players) move
// after the answers, the game going on; a table opened without it adds
// the host's usual AI. (A level that is not one: TestCraftedInteractions.)
func TestAILevels(t *testing.T) {
	t.Run("hard", testHardLevel)
	t.Run("default", testDefaultLevel)
}

func testHardLevel(t *testing.T) {
	w := newWorld(t)
	pl := w.loc.Lang("pl")
	g := w.openGame("lynx", 3, []discordtest.Arg{discordtest.Opt("language", "pl"), discordtest.Opt("ai_level", "hard")}, olena)
	rec, _, err := w.db.Load(t.Context(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range rec.Seats {
		if si.Kind == table.AI && si.Bot != "hard" {
			t.Errorf("seat %d: AI %q, want hard", si.Seat, si.Bot)
		}
	}
	hard := pl.T("ui.bot_level", map[string]any{"N": 2, "Level": pl.T("ai.level.hard", nil)})
	if text := shownText(w.tableMessage(g.id)); !strings.Contains(text, hard) {
		t.Errorf("the table message does not name %q: %s", hard, text)
	}
	before := w.version(g.id)
	for k := 0; k < 4; k++ {
		w.idle()
		if !slices.Contains(toAct(w.tableMessage(g.id)), olena) || !playing(w.tableMessage(g.id)) {
			break
		}
		g.move(olena)
	}
	w.idle()
	if after := w.version(g.id); after <= before+1 {
		t.Errorf("the hard AI players did not move: version %d, then %d", before, after)
	}
}

func testDefaultLevel(t *testing.T) {
	// Add AI on a table opened without a level: the host's AI (ai_bot,
	// "heuristic" by default).
	w2 := newWorld(t)
	w2.slash(ala, "open", discordtest.Opt("game", "lynx"), discordtest.Opt("seats", 2), discordtest.Opt("language", "en"))
	id := w2.tableID()
	w2.do(w2.fake.Click(ala, w2.tableMessage(id), "lobby/"+id+"/ai"))
	rec, _, err := w2.db.Load(t.Context(), id)
	if err != nil || len(rec.Seats) != 2 || rec.Seats[1].Bot != "heuristic" {
		t.Fatalf("Add AI without a level: %+v, %v", rec.Seats, err)
	}
	if text := shownText(w2.tableMessage(id)); !strings.Contains(text, w2.loc.Lang("en").T("ui.bot", map[string]any{"N": 2})) {
		t.Errorf("the lobby does not list Bot 2: %s", text)
	}
}
