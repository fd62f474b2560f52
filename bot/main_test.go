package bot_test

import (
	"os"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestMain lets more tests run at once than there are cores: the
// end-to-end tests wait much of their time on real time (each bot's
// discordgo session sleeps a second when it closes, restarts wait for the
// gateway, outputs wait for their pictures), see discordtest.SetParallel.
func TestMain(m *testing.M) {
	discordtest.SetParallel(discordtest.WaitingParallel)
	os.Exit(m.Run())
}
