package main

import (
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// TestNumbersAfterAWholeMove: "1 1 1 1" where 1 is a whole move is
// refused, saying so, and changes nothing; the number alone makes the
// move; a line that goes a step down and then names no choice is refused
// and leaves the menu where it was.
func TestNumbersAfterAWholeMove(t *testing.T) {
	t.Parallel()
	for _, game := range engine.Games() {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			g, _ := engine.Lookup(game)
			r, _ := render.For(game)
			l := locales.MustLoad().Lang("pl")
			lo, _ := g.Seats()
			st, err := engine.Start(g, engine.Setup{Game: game, Seats: lo, Seed: 11}, nil)
			if err != nil {
				t.Fatal(err)
			}
			names := make(render.Names, lo)
			for s := range lo {
				names[s] = l.T("ui.bot", map[string]any{"N": s})
			}
			s := st.Acting()[0]
			v := st.View(s)
			c := newChooser(g, r, l, v, names, st.Legal(s), false)
			before := c.items()
			whole, step := -1, -1
			for _, it := range before {
				switch {
				case it.whole && whole < 0:
					whole = it.num
				case !it.whole && !it.cont && step < 0:
					step = it.num
				}
			}
			if whole < 0 && step < 0 {
				t.Skip("no menu at the start")
			}
			same := func(what string) {
				t.Helper()
				after := c.items()
				if !slices.EqualFunc(after, before, func(a, b item) bool { return a.num == b.num && a.label == b.label }) {
					t.Errorf("%s changed the menu", what)
				}
			}
			if whole >= 0 {
				out, _, why := c.choose([]int{whole, whole, whole, whole})
				if out != stay || why != l.T("ui.extra_numbers", map[string]any{"N": whole}) {
					t.Errorf("%d four times: %v %q", whole, out, why)
				}
				same("a refused line")
			}
			if step >= 0 {
				out, _, why := c.choose([]int{step, 999})
				if out != stay || why != l.T("ui.bad_number", map[string]any{"N": 999}) {
					t.Errorf("%d then 999: %v %q", step, out, why)
				}
				same("a step then a number not listed")
			}
			if whole >= 0 {
				if out, action, _ := c.choose([]int{whole}); out != decided || action == "" {
					t.Errorf("%d alone: %v %q, want the move", whole, out, action)
				}
			}
		})
	}
}
