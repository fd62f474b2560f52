package lynx_test

import (
	"testing"

	"github.com/stolik-bot/stolik/render/lynx"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// The presentation keeps the contract of render.Game on whole games.
func TestConformance(t *testing.T) {
	t.Parallel()
	rendertest.Run(t, lynx.Presenter{}, rendertest.Config{Shown: []string{"X"}}) // the joker is an X on the card
}
