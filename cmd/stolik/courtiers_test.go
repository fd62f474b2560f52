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

var placeExample = regexp.MustCompile(`place [a-z-]+ (up|down|own|opp:[0-9])\s*$`)

func playCourtiers(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "courtiers", lang, placeExample, []string{"xyzzy", "99", "place wolf up", "place carp opp:0", "help"}, nil, args...)
}

func TestPlayCourtiersInEveryLanguage(t *testing.T) {
	b := locales.MustLoad()
	for i, lang := range []string{"en", "pl", "uk"} {
		t.Run(lang, func(t *testing.T) {
			out, code := playCourtiers(t, lang, "--seats", fmt.Sprint(3+i), "--seed", fmt.Sprint(7+i))
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			l := b.Lang(lang)
			for _, want := range []string{
				l.T("ui.final_header", nil),
				l.T("courtiers.ui.scoreboard", nil),
				l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
				l.T("ui.bad_number", map[string]any{"N": 99}),
				l.T("error.courtiers.unknown_card", map[string]any{"Card": "wolf"}),
				l.T("error.courtiers.not_opponent", nil),
				l.T("ui.help", nil),
				l.T("courtiers.ui.hand", map[string]any{"Cards": ""}),
				l.T("courtiers.ui.mission_white", map[string]any{"Name": "", "Text": ""})[:8],
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

func TestCourtiersScenarioAndSimCommands(t *testing.T) {
	files, _ := filepath.Glob("../../engine/courtiers/testdata/*.scenario")
	var out bytes.Buffer
	if code := run(context.Background(), append([]string{"scenario"}, files...), nil, &out, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if want := fmt.Sprintf("%d passed, 0 failed\n", len(files)); len(files) == 0 || !strings.HasSuffix(out.String(), want) {
		t.Fatalf("want closing line %q, got:\n%s", want, out.String())
	}
	for seats := 2; seats <= 5; seats++ {
		out.Reset()
		code := run(context.Background(), []string{"sim", "courtiers", "-n", "20", "--seats", fmt.Sprint(seats), "--bots", "heuristic,random"}, nil, &out, &out)
		if code != 0 || !strings.Contains(out.String(), "errors: 0") || !strings.Contains(out.String(), "20 games") {
			t.Fatalf("seats %d: exit %d:\n%s", seats, code, out.String())
		}
	}
}
