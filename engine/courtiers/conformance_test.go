package courtiers_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

func TestConformance(t *testing.T) {
	enginetest.Run(t, courtiers.Game{}, enginetest.Config{Seats: []int{2, 3, 4, 5}})
}
