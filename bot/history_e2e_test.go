package bot_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestHistoryAndExportMidGameShowNothingHidden: in the middle of a game of
// every game, /stolik history — and its export, which a game still being
// played refuses, its seed being secret — asked by every player and by a
// spectator shows nothing its reader may not know: each answer is read by
// the game-agnostic oracle of gameRun (checkSecrets: the lines and the
// single cards or missions that only another seat's view shows, in every
// language). TestHistoryMidGameShowsNothingHidden holds Rebel Princess's
// history to the card oracle of its own.
func TestHistoryAndExportMidGameShowNothingHidden(t *testing.T) {
	t.Parallel()
	type gameCase struct {
		game  string
		seats int
		extra []discordtest.Arg
		moves int // the humans' moves to the middle of the game
	}
	cases := []gameCase{
		{"princesses", 4, []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "on")}, 15},
		{"lynx", 3, []discordtest.Arg{discordtest.Opt("mode", "advanced")}, 15},
		{"chapters", 4, nil, 15},
		{"courtiers", 4, nil, 15},
	}
	for _, m := range bot.MissingGames("princesses", "lynx", "chapters", "courtiers") {
		// A game's length is not known: one move a seat, about a round.
		cases = append(cases, gameCase{m.Game, m.Seats, nil, m.Seats})
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			w := newWorld(t)
			users := []string{ala, olena, bob}
			g := w.openGame(c.game, c.seats, append([]discordtest.Arg{discordtest.Opt("language", "en")}, c.extra...), users...)
			// To the middle: c.moves moves of the humans (and the AI
			// players' between them).
			for k := 0; k < c.moves; k++ {
				m := w.tableMessage(g.id)
				if !playing(m) {
					t.Fatalf("the game ended after %d moves", k)
				}
				acting := toAct(m)
				if len(acting) == 0 {
					t.Fatalf("nobody to act: %q", shownText(m))
				}
				g.move(acting[g.rng.IntN(len(acting))])
			}
			secrets := 0
			for _, u := range append(users, eve) {
				h := w.do(w.fake.SlashCommand(u, guildID, w.gameChannel(g.id), "stolik", discordtest.Sub("history")))
				if !h.Ephemeral() || !strings.Contains(shownText(h), g.id) {
					t.Fatalf("%s's history: %s %q", u, h, shownText(h))
				}
				x := w.do(w.fake.SlashCommand(u, guildID, w.gameChannel(g.id), "stolik", discordtest.Sub("history", discordtest.Opt("export", true))))
				if !x.Ephemeral() || len(x.Attachments) != 0 {
					t.Errorf("%s's export of a running game: %s %v", u, x, x.Attachments)
				}
				g.checkSecrets()
				if g.checked[h.ID] != h.Text() || g.checked[x.ID] != x.Text() {
					t.Errorf("the oracle did not read %s's history and export", u)
				}
				secrets += len(g.secrets[u])
			}
			if secrets == 0 {
				t.Fatal("the oracle knew no secret: the check checked nothing")
			}
			w.fake.AssertNoErrors(t)
		})
	}
}
