package render_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine/enginetest"
)

// sampledSeeds is how many of a whole-game rendering test's seeds the
// race step (scripts/race.sh, `go test -race ./...`) plays (under -race without STOLIK_SOAK=1,
// see enginetest.Sampled): the first keep, which cover every seat count;
// otherwise all of them, n. .ci/run's soak step plays all of them
// (STOLIK_SOAK=1 go test -run ... ./render/). The games are single-goroutine
// rendering: the race detector has nothing to find in the rest.
func sampledSeeds(t *testing.T, keep, n uint64) uint64 {
	t.Helper()
	if enginetest.Sampled() && keep < n {
		t.Logf("under -race: seeds 1 to %d of %d; STOLIK_SOAK=1 plays all (.ci/run's soak step)", keep, n)
		return keep
	}
	return n
}
