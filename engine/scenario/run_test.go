package scenario_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/scenario"

	_ "github.com/stolik-bot/stolik/engine/princesses"
)

// The runner's own behaviour: every malformed line names itself.
func TestRunnerErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int // 0: must pass
	}{
		{"ok", "game princesses\nseats 4\noption powers=off\nexpect turn 0 1 2 3\n", 0},
		{"unknown game", "game chess\n", 1},
		{"unknown directive", "game princesses\nfrobnicate 3\n", 2},
		{"unknown option", "game princesses\noption colour=red\n", 2},
		{"seats out of range", "game princesses\nseats 9\n", 2},
		{"bad card in stack", "game princesses\nseats 4\noption powers=off\ndeal 0: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Z1\nexpect turn 0 1 2 3\n", 4},
		{"short stacked hand", "game princesses\nseats 4\noption powers=off\ndeal 0: Q1 Q2\nexpect turn 0 1 2 3\n", 4},
		{"card not in the 4-seat deck", "game princesses\nseats 4\noption powers=off\ndeal 0: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q11\nexpect turn 0 1 2 3\n", 4},
		{"two copies", "game princesses\nseats 4\noption powers=off\ndeal 0: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10\ndeal 1: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10\nexpect turn 0 1 2 3\n", 5},
		{"rejected action", "game princesses\nseats 4\noption powers=off\n0: play Q1\n", 4},
		{"accepted bang action", "game princesses\nseats 4\noption powers=off\ndeal 0: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10\n!0: pass Q1 Q2 Q3\n", 5},
		{"unknown action", "game princesses\nseats 4\n0: dance\n", 3},
		{"places before the end", "game princesses\nseats 4\noption powers=off\nexpect places 1 2 3 4\n", 4},
		{"a bad place", "game princesses\nseats 4\noption powers=off\nexpect places 0\n", 4},
		{"wrong expectation", "game princesses\nseats 4\noption powers=off\nexpect turn 1\n", 4},
		{"unknown expect key", "game princesses\nseats 4\nexpect colour red\n", 3},
		{"option after start", "game princesses\nseats 4\nexpect turn 0 1 2 3\noption powers=off\n", 4},
		{"refusal code", "game princesses\nseats 4\noption powers=off\n!0: play Q1\nexpect refused princesses.wrong_phase\n", 0},
		{"wrong refusal code", "game princesses\nseats 4\noption powers=off\n!0: play Q1\nexpect refused princesses.not_in_hand\n", 5},
		{"refusal code before any refusal", "game princesses\nseats 4\noption powers=off\nexpect refused princesses.wrong_phase\n", 4},
		{"refusal code of a line that does not parse", "game princesses\nseats 4\n!0: dance\nexpect refused unknown_action\n", 0},
		{"over no", "game princesses\nseats 4\nexpect over no\n", 0},
		{"over while it goes on", "game princesses\nseats 4\nexpect over\n", 3},
		{"over yes while it goes on", "game princesses\nseats 4\nexpect over yes\n", 3},
		{"over maybe", "game princesses\nseats 4\nexpect over maybe\n", 3},
		{"unused stack", "game princesses\nseats 4\noption powers=off\nexpect turn 0 1 2 3\ndeal 0: Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10\n", 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := scenario.Run(strings.NewReader(tc.src))
			if tc.line == 0 {
				if err != nil {
					t.Fatalf("want pass, got %v", err)
				}
				return
			}
			f, ok := err.(*scenario.Failure)
			if !ok {
				t.Fatalf("want a failure on line %d, got %v", tc.line, err)
			}
			if f.Line != tc.line {
				t.Fatalf("want line %d, got line %d: %s", tc.line, f.Line, f.Msg)
			}
		})
	}
}
