package princesses_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine/enginetest"
)

// TestScenarios runs every ruling turned into a scenario file.
func TestScenarios(t *testing.T) { enginetest.Scenarios(t, "testdata/*.scenario") }
