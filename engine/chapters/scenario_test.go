package chapters_test

import (
	"path/filepath"
	"testing"

	"github.com/stolik-bot/stolik/engine/scenario"
)

// TestScenarios runs every ruling turned into a scenario file.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.scenario")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenario files in testdata/")
	}
	for _, f := range files {
		t.Run(scenario.Name(f), func(t *testing.T) {
			if err := scenario.RunFile(f); err != nil {
				t.Fatal(err)
			}
		})
	}
}
