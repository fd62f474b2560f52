package courtiers_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/scenario"
)

// TestScenarios runs every ruling turned into a scenario file.
func TestScenarios(t *testing.T) { enginetest.Scenarios(t, "testdata/*.scenario") }

// mutate changes the expected value of an expect line so that it must no
// longer hold; "" when the line has nothing to change.
func mutate(line string) string {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "expect" {
		return ""
	}
	swap := map[string]string{
		"esteemed": "disgraced", "disgraced": "neutral", "neutral": "esteemed",
		"done": "failed", "failed": "done",
	}
	switch f[1] {
	case "over", "turn":
		return ""
	case "hand", "domain":
		if len(f) > 3 {
			return strings.Join(f[:len(f)-1], " ") // one card fewer
		}
		return strings.Join(append(f, "carp"), " ")
	case "winner":
		return strings.Join(append(f, "9"), " ")
	}
	for i := len(f) - 1; i >= 2; i-- {
		if s, ok := swap[f[i]]; ok {
			f[i] = s
			return strings.Join(f, " ")
		}
		k, v, _ := strings.Cut(f[i], "=")
		if n, err := strconv.Atoi(v); err == nil && v != "" {
			f[i] = k + "=" + strconv.Itoa(n+1)
			return strings.Join(f, " ")
		}
		if n, err := strconv.Atoi(f[i]); err == nil {
			f[i] = strconv.Itoa(n + 1)
			return strings.Join(f, " ")
		}
	}
	return ""
}

// Every expect line of every scenario can fail: changing its expected value
// makes the scenario fail at that line.
func TestScenariosCatchMutations(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.scenario")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		checked := 0
		for i, line := range lines {
			text, _, _ := strings.Cut(line, "#")
			m := mutate(strings.TrimSpace(text))
			if m == "" {
				continue
			}
			changed := slices.Clone(lines)
			changed[i] = m
			err := scenario.Run(strings.NewReader(strings.Join(changed, "\n")))
			var f *scenario.Failure
			if !errors.As(err, &f) || f.Line != i+1 {
				t.Errorf("%s line %d: %q changed to %q: want a failure at that line, got %v", file, i+1, line, m, err)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no expect line to check", file)
		}
	}
}
