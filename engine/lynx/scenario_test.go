package lynx_test

import (
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

// TestScenariosCanFail changes each expected value of every scenario in
// turn and checks that the scenario then fails: no expect line holds
// vacuously.
func TestScenariosCanFail(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.scenario")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		for i, line := range lines {
			code, _, _ := strings.Cut(line, "#")
			fields := strings.Fields(code)
			if len(fields) < 2 || fields[0] != "expect" || fields[1] == "over" {
				continue
			}
			mutated := slices.Clone(lines)
			mutated[i] = mutate(fields)
			if err := scenario.Run(strings.NewReader(strings.Join(mutated, "\n"))); err == nil {
				t.Errorf("%s:%d: still passes when changed to %q", f, i+1, mutated[i])
			}
		}
	}
}

// mutate changes an expect line's value: a number is increased, "-" becomes a
// card, a phase changes, and a list of cards or seats gets one more.
func mutate(f []string) string {
	last := f[len(f)-1]
	switch {
	case f[1] == "phase":
		if last == "play" {
			return "expect phase take"
		}
		return "expect phase play"
	case last == "-":
		f[len(f)-1] = "1"
	default:
		if n, err := strconv.Atoi(last); err == nil && f[1] != "hand" && f[1] != "top" && f[1] != "pool" &&
			f[1] != "discard" && f[1] != "virtual" && f[1] != "stolen" && f[1] != "display" {
			f[len(f)-1] = strconv.Itoa(n + 1)
		} else {
			f = append(f, "1")
		}
	}
	return strings.Join(f, " ")
}
