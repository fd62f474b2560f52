package lynx_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/lynx"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included.
func BenchmarkRandomPlayout(b *testing.B) {
	enginetest.BenchmarkPlayout(b, lynx.Game{}, engine.Options{})
}
