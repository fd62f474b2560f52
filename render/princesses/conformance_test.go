package princesses_test

import (
	"testing"

	"github.com/stolik-bot/stolik/render/princesses"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// The presentation keeps the contract of render.Game on whole games.
func TestConformance(t *testing.T) {
	t.Parallel()
	rendertest.Run(t, princesses.Presenter{}, rendertest.Config{})
}
