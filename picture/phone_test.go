package picture

import (
	"fmt"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
)

// A row of seats fills the width: a shorter last row is centred, with the
// same margin on both sides (no empty cell in the grid).
func TestSeatGridCentred(t *testing.T) {
	for n := 1; n <= 6; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			sc := render.Screen{Game: "princesses"}
			for s := 0; s < n; s++ {
				sc.Seats = append(sc.Seats, render.SeatPart{Seat: engine.Seat(s), Name: fmt.Sprintf("Bot %d", s+1), Counts: []string{"3 tricks"}})
			}
			c := drawTable(sc, true)
			defer c.free()
			rows := map[int][]int{} // top → the boxes' lefts and rights
			for _, r := range c.rec.seats {
				if len(rows[r.Min.Y]) == 0 {
					rows[r.Min.Y] = []int{r.Min.X, r.Max.X}
				}
				rows[r.Min.Y][0] = min(rows[r.Min.Y][0], r.Min.X)
				rows[r.Min.Y][1] = max(rows[r.Min.Y][1], r.Max.X)
			}
			for y, lr := range rows {
				if l, r := lr[0], width-lr[1]; l-r > 1 || r-l > 1 {
					t.Errorf("the row at %d leaves %d px on the left and %d on the right", y, l, r)
				}
			}
		})
	}
}
