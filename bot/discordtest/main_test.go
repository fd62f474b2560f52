package discordtest_test

import (
	"os"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestMain lets more tests wait at once (each discordgo session's Close
// sleeps a second): see discordtest.SetParallel.
func TestMain(m *testing.M) {
	discordtest.SetParallel(discordtest.WaitingParallel)
	os.Exit(m.Run())
}
