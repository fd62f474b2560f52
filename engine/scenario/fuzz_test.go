package scenario_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/scenario"
)

// FuzzRun feeds arbitrary text to the scenario runner: it must never panic,
// and a failure always names a line within the text.
//
//	go test -run XXX -fuzz FuzzRun -fuzztime 60s ./engine/scenario/
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"game princesses\nseats 4\noption powers=off\nexpect turn 0 1 2 3\n",
		"game princesses\nseats 6\noption edition=classic rounds=a,invitation\nfirst 2\nexpect turn 0 1 2 3 4 5\n",
		"game princesses\nseats 3\ndeal 0: Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10 F2 F3 F4\nprincesses 1: mulan alice\n0: choose mulan\n!1: play Q2\n",
		"game princesses\nseats 4\noption powers=off rounds=a\n0: pass Q1 Q2 Q3\nexpect hand 0\nexpect score 0 0\nexpect over\nexpect winner 0\n",
		"game\nseats x\n: \n!: \ndeal :\nexpect\n#\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		err := scenario.Run(strings.NewReader(src))
		if err == nil {
			return
		}
		fl, ok := err.(*scenario.Failure)
		if !ok {
			t.Fatalf("not a *Failure: %v", err)
		}
		lines := strings.Count(src, "\n") + 1
		if fl.Line < 0 || fl.Line > lines {
			t.Fatalf("failure names line %d of a %d-line text: %v", fl.Line, lines, err)
		}
	})
}
