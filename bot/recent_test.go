package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// TestLastMovesWithinLimits plays whole games of the games whose moves are
// listed on the table message and checks, at every step and in every
// language, that the table message with its list of last moves stays within
// Discord's limits and still says whose turn it is: the list gives way.
func TestLastMovesWithinLimits(t *testing.T) {
	t.Parallel()
	b := testBot(t)
	for i, c := range limitCases {
		r, _ := render.For(c.game)
		t.Run(fmt.Sprintf("%s-%d", c.game, c.seats), func(t *testing.T) {
			sampleWalk(t, i, 3)
			t.Parallel()
			g, _ := engine.Lookup(c.game)
			su := engine.Setup{Game: c.game, Options: c.opts, Seats: c.seats, Seed: 5}
			st, err := engine.Start(g, su, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := table.Record{ID: "abcdefgh", Setup: su, Status: table.StatusPlaying}
			for s := 0; s < c.seats; s++ {
				rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: "10000000000000000" + string(rune('0'+s)), Name: strings.Repeat("Ż", 32)})
			}
			var recent []engine.Event
			listed, placedRecent := 0, false
			for n := 0; ; n++ {
				if n == 20000 {
					t.Fatal("no end")
				}
				snap := &table.Snapshot{Record: rec, Game: g, State: st, Version: n}
				done, _ := st.Result()
				if done {
					snap.Record.Status = table.StatusFinished
				}
				for _, lang := range locales.Languages() {
					snap.Record.Lang = lang
					m := b.publicMessageWith(snap, nil, recent)
					checkLimits(t, "public", m)
					l := b.loc.Lang(lang)
					text := v2Text(m.components)
					if strings.Contains(text, l.T("bot.last_moves", nil)) {
						listed++
					}
					if !done {
						first, _, _ := strings.Cut(text, "\n")
						for _, s := range st.Acting() {
							if mention := "<@" + rec.Seats[s].UserID + ">"; strings.Count(first, mention) != 1 || strings.Count(text, mention) != 1 {
								t.Fatalf("step %d: the turn is not said once in the first line: %s", n, text)
							}
						}
					}
				}
				if done {
					break
				}
				s := st.Acting()[0]
				legal := st.Legal(s)
				evs, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: legal[(n*7+len(legal)/2)%len(legal)].String()}, nil)
				if err != nil {
					t.Fatal(err)
				}
				recent = lastN(append(recent, recentOf(r, evs)...), recentMoves)
				placedRecent = placedRecent || len(recentOf(r, evs)) > 0 // Rebel Princess places none there
				for _, e := range recentOf(r, evs) {
					if e.Audience != engine.Everyone {
						t.Fatalf("a private event is listed: %+v", e)
					}
				}
			}
			if listed == 0 && placedRecent {
				t.Error("no step listed the last moves")
			}
		})
	}
}
