package main

import (
	"fmt"
	"io"

	"github.com/stolik-bot/stolik/engine/scenario"
)

// cmdScenario runs scenario files: one line per file, then "N passed, M failed".
func cmdScenario(files []string, out io.Writer) error {
	l := bundle().Lang("en")
	if helpAsked(files) {
		return showHelp(l, "scenario", out)
	}
	if len(files) == 0 {
		return usageError{l.T("cli.scenario.need", nil)}
	}
	passed, failed := 0, 0
	for _, f := range files {
		if err := scenario.RunFile(f); err != nil {
			failed++
			fmt.Fprintf(out, "FAIL %s: %v\n", scenario.Name(f), err)
			continue
		}
		passed++
		fmt.Fprintf(out, "ok %s\n", scenario.Name(f))
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed", failed)
	}
	return nil
}
