package princesses_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/princesses"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included (the goal: at most 2 µs), on the default
// row of round cards without powers.
func BenchmarkRandomPlayout(b *testing.B) {
	enginetest.BenchmarkPlayout(b, princesses.Game{}, engine.Options{"powers": "off"})
}
