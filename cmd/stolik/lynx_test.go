package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

var lynxExample = regexp.MustCompile(`play( ([0-9]+|X))+\s*$`)

func playLynx(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "lynx", lang, lynxExample, []string{"xyzzy", "99", "play 4 5", "play 14", "help"}, nil, args...)
}

// A whole game of lynx in the terminal, in every language, for every seat
// count and mode: wrong input is explained, the hand is shown grouped by
// value, and the game ends with a winner.
func TestPlayLynx(t *testing.T) {
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
			out, code := playLynx(t, tc.lang, "--seats", tc.seats, "--seed", "7", "--option", "mode="+tc.mode)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			l := b.Lang(tc.lang)
			handPrefix, _, _ := strings.Cut(l.T("lynx.ui.hand", map[string]any{"Cards": "", "List": ""}), "(")
			for _, want := range []string{
				l.T("ui.final_header", nil),
				l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
				l.T("ui.bad_number", map[string]any{"N": 99}),
				l.T("error.lynx.mixed_values", map[string]any{"Card": "4", "Value": "5"}),
				l.T("error.lynx.unknown_card", map[string]any{"Card": "14"}),
				l.T("ui.help", nil),
				handPrefix,
				l.T("lynx.mode."+tc.mode, nil),
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			if strings.Contains(out, locales.MissingOpen) {
				t.Errorf("output has a missing message:\n%s", out)
			}
			if !strings.Contains(out, l.T("ui.winner", map[string]any{"Names": ""})[:6]) &&
				!strings.Contains(out, l.T("ui.winners_shared", map[string]any{"Names": ""})[:6]) {
				t.Errorf("no winner announced:\n%s", out[max(0, len(out)-2000):])
			}
		})
	}
}

// The lynx scenarios pass through the scenario command, and a sim of every
// mode finishes without errors.
func TestLynxScenarioAndSim(t *testing.T) {
	files, _ := filepath.Glob("../../engine/lynx/testdata/*.scenario")
	var out bytes.Buffer
	if code := run(context.Background(), append([]string{"scenario"}, files...), nil, &out, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if want := fmt.Sprintf("%d passed, 0 failed\n", len(files)); !strings.HasSuffix(out.String(), want) {
		t.Fatalf("want closing line %q, got:\n%s", want, out.String())
	}
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
