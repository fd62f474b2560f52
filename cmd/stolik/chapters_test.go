package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

func playChapters(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "chapters", lang, nil, []string{"xyzzy", "99", "pick 77", "help"}, nil, args...)
}

// A whole game of 3 Chapters in the terminal, in every language, with 4
// seats and with 2 (ghost decks, picks typed from the hint).
func TestPlayChaptersInEveryLanguage(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for _, lang := range locales.Languages() {
		for _, seats := range []string{"4", "2"} {
			t.Run(lang+"/"+seats, func(t *testing.T) {
				t.Parallel()
				out, code := playChapters(t, lang, "--seats", seats, "--seed", "5")
				if code != 0 {
					t.Fatalf("exit %d:\n%s", code, out)
				}
				l := b.Lang(lang)
				checkGameOutput(t, l, out,
					l.T("ui.final_header", nil),
					l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
					l.T("error.chapters.unknown_card", map[string]any{"Card": "77"}),
					l.T("term.help.chapters", nil),
					l.T("chapters.ui.over", nil),
					l.T("chapters.screen.hand", nil),
					l.T("chapters.screen.draft_hand", nil),
				)
			})
		}
	}
}

// The chapters scenarios pass through the scenario command, and the
// simulation runs clean for every seat count.
func TestChaptersScenarioAndSim(t *testing.T) {
	t.Parallel()
	runScenarios(t, "chapters")
	var out bytes.Buffer
	for seats := 2; seats <= 6; seats++ {
		out.Reset()
		code := run(context.Background(), []string{"sim", "chapters", "-n", "30", "--seats", fmt.Sprint(seats), "--bots", "heuristic,random"}, nil, &out, &out)
		if code != 0 || !strings.Contains(out.String(), "errors: 0") {
			t.Fatalf("%d seats: exit %d:\n%s", seats, code, out.String())
		}
	}
}
