package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// TestDeclareWhileAnAILeads: before an AI player leads a trick, the
// terminal pauses for the human's optional actions, and the human
// announces a power in advance although it is not their turn.
func TestDeclareWhileAnAILeads(t *testing.T) {
	t.Parallel()
	b, g := princessesSetup(t)
	for _, lang := range []string{"en", "pl", "uk"} {
		l := b.Lang(lang)
		found := false
		// Find a seed at which the princess the human picks (the first one
		// offered) has a power announced in advance, and an AI player
		// leads while it is unused.
		for seed := 1; seed <= 12 && !found; seed++ {
			db := filepath.Join(t.TempDir(), "stolik.db")
			out, code := playGameAs(t, lang, func(p *player) { p.pause = l.T("ui.optional.header", nil) },
				"--seats", "4", "--seed", strconv.Itoa(seed), "--option", "edition=deluxe", "--option", "powers=on",
				"--option", "rounds=a", "--db", db)
			if code != 0 {
				t.Fatalf("seed %d: exit %d:\n%s", seed, code, out)
			}
			if !strings.Contains(out, l.T("ui.optional.header", nil)) {
				continue
			}
			if !strings.Contains(out, l.T("ui.optional.continue", nil)) {
				t.Errorf("seed %d: the pause does not offer to continue:\n%s", seed, out)
			}
			if strings.Contains(out, locales.MissingOpen) {
				t.Errorf("output has a missing message:\n%s", out)
			}
			m := tableID.FindStringSubmatch(unwrapped(out))
			if m == nil {
				t.Fatalf("no table id in output:\n%s", out)
			}
			rec, log := loadTable(t, db, m[1])
			var moves []engine.Move
			for _, e := range log {
				mv := engine.Move{Seat: e.Seat, Action: e.Action}
				if e.Seat == 0 && strings.HasPrefix(e.Action, "declare ") {
					st, err := engine.Replay(g, rec.Setup, moves)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Contains(st.Acting(), 0) {
						found = true
						t.Logf("%s, seed %d: the human announced %q while %v acted", lang, seed, e.Action, st.Acting())
					}
				}
				moves = append(moves, mv)
			}
			if !found {
				t.Errorf("seed %d: paused, but no announcement out of turn is in the log", seed)
			}
		}
		if !found {
			t.Errorf("%s: no seed had the human announce a power while an AI led", lang)
		}
	}
}
