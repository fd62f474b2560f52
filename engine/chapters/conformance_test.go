package chapters_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

func TestConformance(t *testing.T) {
	enginetest.Run(t, chapters.Game{}, enginetest.Config{})
}
