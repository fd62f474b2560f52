package lynx_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/lynx"
)

func TestConformance(t *testing.T) {
	enginetest.Run(t, lynx.Game{}, enginetest.Config{
		Options: []engine.Options{{}, {"mode": "advanced"}, {"mode": "expert"}},
	})
}
