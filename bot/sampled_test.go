package bot

import (
	"testing"

	"github.com/stolik-bot/stolik/engine/enginetest"
)

// sampleWalk skips, in `scripts/race.sh` (`go test -race ./...`; under -race
// without STOLIK_SOAK=1, see enginetest.Sampled), three of every four whole
// games that the game-walking tests play: case i is played when
// (i+offset)%4 == 0, each test with its own offset, so that every game and
// seat count is still walked under the race detector by one of the tests.
// The walks are single-goroutine rendering; .ci/run's soak step plays every
// case of them (STOLIK_SOAK=1 go test -run ... ./bot/).
func sampleWalk(t *testing.T, i, offset int) {
	t.Helper()
	if enginetest.Sampled() && (i+offset)%4 != 0 {
		t.Skip("sampled out under -race; STOLIK_SOAK=1 plays it (.ci/run's soak step)")
	}
}
