package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

func playCourtiers(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "courtiers", lang, nil, []string{"xyzzy", "99", "place wolf up", "place carp opp:0", "help"}, nil, args...)
}

func TestPlayCourtiersInEveryLanguage(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for i, lang := range []string{"en", "pl", "uk"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			out, code := playCourtiers(t, lang, "--seats", fmt.Sprint(3+i), "--seed", fmt.Sprint(7+i))
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			l := b.Lang(lang)
			checkGameOutput(t, l, out,
				l.T("ui.final_header", nil),
				l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
				l.T("ui.bad_number", map[string]any{"N": 99}),
				l.T("error.courtiers.unknown_card", map[string]any{"Card": "wolf"}),
				l.T("error.courtiers.not_opponent", nil),
				l.T("term.help.courtiers", nil),
				l.T("courtiers.screen.hand", nil)+": ",
				l.T("courtiers.ui.mission_white", map[string]any{"Name": "", "Text": ""})[:8],
			)
		})
	}
}

func TestCourtiersScenarioAndSimCommands(t *testing.T) {
	t.Parallel()
	runScenarios(t, "courtiers")
	var out bytes.Buffer
	for seats := 2; seats <= 5; seats++ {
		out.Reset()
		code := run(context.Background(), []string{"sim", "courtiers", "-n", "20", "--seats", fmt.Sprint(seats), "--bots", "heuristic,random"}, nil, &out, &out)
		if code != 0 || !strings.Contains(out.String(), "errors: 0") || !strings.Contains(out.String(), "20 games") {
			t.Fatalf("seats %d: exit %d:\n%s", seats, code, out.String())
		}
	}
}
