package bot_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// posts are the messages of the table's channel (its thread) other than
// the table message, from index from on.
func (w *world) posts(id string, from int) []*discordtest.Message {
	w.t.Helper()
	tm := w.tableMessage(id)
	var out []*discordtest.Message
	for _, m := range w.fake.Messages(w.gameChannel(id))[from:] {
		if m.ID != tm.ID {
			out = append(out, m)
		}
	}
	return out
}

// onlyPings fails unless every post is a turn ping and nothing else.
func (w *world) onlyPings(posts []*discordtest.Message, lang string) {
	w.t.Helper()
	l := w.loc.Lang(lang)
	one := strings.SplitN(l.T("bot.turn_ping", map[string]any{"Names": "@"}), "@", 2)[0]
	several := strings.SplitN(l.T("bot.turn_you_all", map[string]any{"Names": "@"}), "@", 2)[0]
	for _, p := range posts {
		for _, line := range strings.Split(shownText(p), "\n") {
			if !strings.HasPrefix(line, one) && !strings.HasPrefix(line, several) {
				w.t.Errorf("a move was posted: %q", line)
			}
		}
	}
}

// TestMovesAreListedOnTheTableNotPosted: a lynx, 3 Chapters or Courtisans
// move is shown in the table message's list of last moves and posts
// nothing but the ping of the next player; results and the end are posted.
func TestMovesAreListedOnTheTableNotPosted(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game  string
		seats int
		end   func(w *world) string // a text the post of the end holds
	}{
		{"lynx", 2, func(w *world) string {
			return strings.SplitN(w.loc.Lang("en").T("ui.end.standings", map[string]any{"List": ""}), ":", 2)[0]
		}},
		{"courtiers", 2, func(w *world) string {
			return strings.SplitN(w.loc.Lang("en").T("courtiers.event.spies_revealed", map[string]any{"Up": "", "Down": ""}), ".", 2)[0]
		}},
		{"chapters", 3, func(w *world) string {
			return strings.SplitN(w.loc.Lang("en").T("chapters.event.round_won", map[string]any{"Round": 1, "Name": "", "Card": ""}), ":", 2)[0]
		}},
	} {
		t.Run(c.game, func(t *testing.T) {
			w := newWorld(t)
			users := []string{bob, ala, olena}[:c.seats]
			g := w.openGame(c.game, c.seats, []discordtest.Arg{discordtest.Opt("language", "en")}, users...)
			en := w.loc.Lang("en")
			for k := 0; k < 6; k++ {
				from := len(w.fake.Messages(w.gameChannel(g.id)))
				acting := toAct(w.tableMessage(g.id))
				g.move(acting[0])
				w.onlyPings(w.posts(g.id, from), "en")
				tm := w.tableMessage(g.id)
				if !strings.Contains(shownText(tm), en.T("bot.last_moves", nil)+"\n· ") {
					t.Fatalf("move %d is not listed on the table message: %s", k, tm)
				}
			}
			g.playOut(500)
			g.finish()
			var posted []string
			for _, p := range w.posts(g.id, 0) {
				posted = append(posted, shownText(p))
			}
			if all := strings.Join(posted, "\n"); !strings.Contains(all, c.end(w)) {
				t.Errorf("no post holds %q:\n%s", c.end(w), all)
			}
		})
	}
}

// TestLastMovesSurviveARestart: after a restart the table message lists the
// same last moves, worked out from the table's log.
func TestLastMovesSurviveARestart(t *testing.T) {
	w := newWorld(t)
	g := w.openGame("lynx", 3, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, zosia, olena)
	for k := 0; k < 5; k++ {
		g.move(toAct(w.tableMessage(g.id))[0])
	}
	before := shownText(w.tableMessage(g.id))
	if !strings.Contains(before, w.loc.Lang("pl").T("bot.last_moves", nil)) {
		t.Fatalf("no last moves: %s", before)
	}
	w.stop()
	w.start() // the resume pass redraws the message of a table changed in the last minutes
	if after := shownText(w.tableMessage(g.id)); after != before {
		t.Errorf("the table message changed over a restart:\n%s\n---\n%s", before, after)
	}
	g.move(toAct(w.tableMessage(g.id))[0])
	if n := strings.Count(shownText(w.tableMessage(g.id)), "\n· "); n < 5 {
		t.Errorf("%d last moves after a restart and a move: %s", n, w.tableMessage(g.id))
	}
}

// TestAIMovesBeforeTheAnswer: when AI seats move after a player, the
// player's answer already shows the table after their moves, with controls
// for the current version when it is the player's turn again, so that the
// next move needs no "My hand".
func TestAIMovesBeforeTheAnswer(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"lynx", "courtiers", "chapters"} {
		t.Run(game, func(t *testing.T) {
			w := newWorld(t)
			g := w.openGame(game, 3, []discordtest.Arg{discordtest.Opt("language", "uk")}, olena)
			current := 0
			for k := 0; k < 20; k++ {
				if rec, _, err := w.db.Load(t.Context(), g.id); err != nil || rec.Status != table.StatusPlaying {
					break
				}
				g.move(olena)
				if !slices.Contains(toAct(w.tableMessage(g.id)), olena) {
					continue
				}
				v := strconv.Itoa(w.version(g.id))
				if !slices.ContainsFunc(g.last[olena].CustomIDs(), func(id string) bool {
					return strings.HasPrefix(id, "t/"+g.id+"/"+v+"/")
				}) {
					t.Fatalf("move %d: it is olena's turn again, but her answer has no controls at version %s: %s", k, v, g.last[olena])
				}
				current++
			}
			if current == 0 {
				t.Error("no answer held the player's next move")
			}
		})
	}
}

// TestHandBroughtUpToDate: when a player's turn comes back while their
// last hand message can still be edited, that message shows the table as
// it now stands, with the controls of the current version, without the
// player asking for the hand again.
func TestHandBroughtUpToDate(t *testing.T) {
	w := newWorld(t) // parallel with the other tests
	g := w.openGame("courtiers", 2, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, bob)
	refreshed, prev := 0, ""
	for moves := 0; moves < 60 && refreshed < 3; moves++ {
		tm := w.tableMessage(g.id)
		acting := toAct(tm)
		if !playing(tm) || len(acting) != 1 {
			break
		}
		u := acting[0]
		if last := g.last[u]; last != nil && prev != "" && prev != u {
			// u's turn has come back after the other's: the hand u last
			// saw is current.
			now := w.fake.Message(last.ID)
			prefix := "t/" + g.id + "/" + strconv.Itoa(w.version(g.id)) + "/"
			if now == nil || !slices.ContainsFunc(now.CustomIDs(), func(id string) bool { return strings.HasPrefix(id, prefix) }) {
				t.Fatalf("move %d: %s's hand message was not brought up to date (version %d): %v", moves, u, w.version(g.id), now)
			}
			refreshed++
		}
		g.move(u)
		prev = u
		w.idle()
	}
	if refreshed == 0 {
		t.Fatal("no turn came back to a player with an open hand: the check checked nothing")
	}
	w.fake.AssertNoErrors(t)
}

// TestOneHandInFront: a player who asks for their hand again gets a new
// hand message and the previous one is deleted, so no older hand is left
// to act on; a click on the hand redraws it in place and deletes nothing.
func TestOneHandInFront(t *testing.T) {
	w := newWorld(t)
	g := w.openGame("lynx", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, ala, bob)
	first := w.do(w.fake.Click(ala, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	second := w.do(w.fake.Click(ala, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	if first.ID == second.ID {
		t.Fatalf("My hand pressed twice answered with the same message %s", first.ID)
	}
	if w.fake.Message(first.ID) != nil {
		t.Errorf("the first hand message %s is still there after the second", first.ID)
	}
	if w.fake.Message(second.ID) == nil {
		t.Fatalf("the second hand message %s is gone", second.ID)
	}
	// Bob's hand is his own: Ala's asking again touches nothing of his.
	bobs := w.do(w.fake.Click(bob, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	w.do(w.fake.Click(ala, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	if w.fake.Message(bobs.ID) == nil {
		t.Errorf("Ala's new hand deleted Bob's")
	}
	w.fake.AssertNoErrors(t)
}
