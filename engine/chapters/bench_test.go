package chapters_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included.
func BenchmarkRandomPlayout(b *testing.B) {
	enginetest.BenchmarkPlayout(b, chapters.Game{}, engine.Options{})
}
