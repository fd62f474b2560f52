package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

func playLynx(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "lynx", lang, nil, []string{"xyzzy", "99", "play 4 5", "play 14", "help"}, nil, args...)
}

// A whole game of lynx in the terminal, in every language, for every seat
// count and mode: wrong input is explained, the hand is shown grouped by
// value, and the game ends with a winner.
func TestPlayLynx(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	cases := []struct {
		lang  string
		seats string
		mode  string
	}{
		{"en", "4", "basic"}, {"pl", "3", "advanced"}, {"uk", "5", "expert"}, {"en", "2", "basic"}, {"pl", "2", "expert"},
	}
	for _, tc := range cases {
		t.Run(tc.lang+"/"+tc.seats+"/"+tc.mode, func(t *testing.T) {
			t.Parallel()
			out, code := playLynx(t, tc.lang, "--seats", tc.seats, "--seed", "7", "--option", "mode="+tc.mode)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			l := b.Lang(tc.lang)
			checkGameOutput(t, l, out,
				l.T("ui.final_header", nil),
				l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
				l.T("ui.bad_number", map[string]any{"N": 99}),
				l.T("error.lynx.mixed_values", map[string]any{"Card": "4", "Value": "5"}),
				l.T("error.lynx.unknown_card", map[string]any{"Card": "14"}),
				l.T("term.help.lynx", nil),
				l.T("lynx.screen.hand", nil)+": ",
				l.T("lynx.mode."+tc.mode, nil),
			)
		})
	}
}

// The lynx scenarios pass through the scenario command, and a sim of every
// mode finishes without errors.
func TestLynxScenarioAndSim(t *testing.T) {
	t.Parallel()
	runScenarios(t, "lynx")
	var out bytes.Buffer
	for _, mode := range []string{"basic", "advanced", "expert"} {
		for _, seats := range []string{"2", "5"} {
			out.Reset()
			code := run(context.Background(), []string{"sim", "lynx", "-n", "30", "--seats", seats, "--option", "mode=" + mode, "--bots", "heuristic,random"}, nil, &out, &out)
			if code != 0 || !strings.Contains(out.String(), "errors: 0") {
				t.Fatalf("sim %s %s: exit %d:\n%s", mode, seats, code, out.String())
			}
		}
	}
}
