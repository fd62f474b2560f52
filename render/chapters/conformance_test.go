package chapters_test

import (
	"testing"

	"github.com/stolik-bot/stolik/render/chapters"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// The presentation keeps the contract of render.Game on whole games.
func TestConformance(t *testing.T) {
	t.Parallel()
	rendertest.Run(t, chapters.Presenter{}, rendertest.Config{})
}
