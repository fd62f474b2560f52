package princesses_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/princesses"
)

func TestConformance(t *testing.T) {
	enginetest.Run(t, princesses.Game{}, enginetest.Config{
		Options: []engine.Options{
			{},
			{"edition": "classic"},
			{"powers": "off", "rounds": "3"},
			{"edition": "classic", "promo": "on", "rounds": "random"},
			{"rounds": "random"},
			{"powers": "off", "rounds": "random"},
			{"edition": "classic", "rounds": "random3"},
			{"powers": "off", "rounds": "random3"},
		},
	})
}
