package picture

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// The pictures the bot draws of played games (the table without the
// status lines and, in play, without the chart) are at most 1.25 times as
// high as they are wide.
func TestPicturesNotTooTall(t *testing.T) {
	for i := range realGames {
		for k, sc := range playedScreens(t, i, engine.Seat(0)) {
			sc.Doing, sc.Status, sc.Recent = nil, nil, nil
			if len(sc.Result) == 0 {
				sc.Chart = nil
			}
			pngs, err := TableSplit(sc)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Hand != nil || len(sc.Secret) > 0 {
				h, _, err := Hand(sc)
				if err != nil {
					t.Fatal(err)
				}
				pngs = append(pngs, h)
			}
			for j, p := range pngs {
				if g := decodePaletted(t, p); g.Rect.Dy() > maxH {
					t.Errorf("%s/%d: picture %d is %d×%d", realGames[i].game, k, j, g.Rect.Dx(), g.Rect.Dy())
				}
			}
		}
	}
}
