package picture

import (
	"bytes"
	"testing"

	"github.com/stolik-bot/stolik/render"
)

// TestTableSplit: the two pictures of a table are the rows of its one
// picture, cut between the centre and the seats, each with its margin;
// their descriptions share out the one picture's.
func TestTableSplit(t *testing.T) {
	for name, sc := range bandScreens(t) {
		t.Run(name, func(t *testing.T) {
			whole, err := tableWhole(sc)
			if err != nil {
				t.Fatal(err)
			}
			pngs, err := TableSplit(sc)
			if err != nil {
				t.Fatal(err)
			}
			alts := TableSplitAlt(sc)
			if len(pngs) != len(alts) {
				t.Fatalf("%d pictures, %d descriptions", len(pngs), len(alts))
			}
			w := decodePaletted(t, whole)
			if !splits(sc) {
				if len(pngs) != 1 || !bytes.Equal(decodePaletted(t, pngs[0]).Pix, w.Pix) {
					t.Fatalf("a table without seats or nothing above them: %d pictures, or not the one picture", len(pngs))
				}
				return
			}
			if len(pngs) != 2 {
				t.Fatalf("%d pictures, want 2", len(pngs))
			}
			top, bottom := decodePaletted(t, pngs[0]), decodePaletted(t, pngs[1])
			if top.Rect.Dx() != w.Rect.Dx() || bottom.Rect.Dx() != w.Rect.Dx() {
				t.Fatalf("widths %d and %d, want %d", top.Rect.Dx(), bottom.Rect.Dx(), w.Rect.Dx())
			}
			// The top picture is the one picture's first rows but for its
			// bottom margin; the bottom picture, after a margin, its last rows.
			topRows := top.Rect.Dy() - (pad - gap)
			restRows := bottom.Rect.Dy() - pad
			if topRows+restRows != w.Rect.Dy() {
				t.Fatalf("heights %d + %d, the one picture %d", topRows, restRows, w.Rect.Dy())
			}
			for y := 0; y < topRows; y++ {
				if !bytes.Equal(top.Pix[y*top.Stride:y*top.Stride+top.Rect.Dx()], w.Pix[y*w.Stride:y*w.Stride+w.Rect.Dx()]) {
					t.Fatalf("top row %d differs from the one picture's", y)
				}
			}
			for y := 0; y < restRows; y++ {
				by, wy := pad+y, topRows+y
				if !bytes.Equal(bottom.Pix[by*bottom.Stride:by*bottom.Stride+bottom.Rect.Dx()], w.Pix[wy*w.Stride:wy*w.Stride+w.Rect.Dx()]) {
					t.Fatalf("bottom row %d differs from the one picture's row %d", y, wy)
				}
			}
			if title := []byte(sc.Title)[:min(len(sc.Title), 12)]; len(title) > 0 && !bytes.Contains([]byte(alts[0]), title) {
				t.Errorf("the first description lacks the title %q: %q", sc.Title, alts[0])
			}
			for _, s := range sc.Seats {
				if !bytes.Contains([]byte(alts[1]), []byte(s.Name)) {
					t.Errorf("the seats' description lacks %q: %q", s.Name, alts[1])
				}
			}
		})
	}
}

// TestChartSameAtAnyHeight: a chart drawn lower down has the same pixels,
// so that a table cut in two (TableSplit) is the rows of its one picture
// wherever the seats above end. The chart's float arithmetic once took the
// absolute row, and a 1-pixel difference showed at some heights only.
func TestChartSameAtAnyHeight(t *testing.T) {
	ch := &render.Chart{Title: "Oświadczyny po każdej rundzie", Names: []string{"Ala", "Bob", "Olena", "Bot 4"},
		Rounds: [][]int{{3, 0, 7, 1}, {5, 13, 7, 2}, {5, 14, 26, -10}, {6, 20, 27, -4}, {11, 21, 27, -1}}}
	draw := func(y int) (*canvas, int) {
		h := drawChart(nil, ch, pad, y, inner, 150) - y
		c := newCanvas(width, y+h+pad, felt)
		drawChart(c, ch, pad, y, inner, 150)
		return c, h
	}
	base, h := draw(10)
	defer base.free()
	for _, y := range []int{11, 37, 333, 1071, 2048, 4097} {
		c, hh := draw(y)
		if hh != h {
			t.Fatalf("at %d the chart is %d rows high, at 10 %d", y, hh, h)
		}
		for r := 0; r < h; r++ {
			a := base.img.Pix[(10+r)*base.img.Stride:][:width]
			b := c.img.Pix[(y+r)*c.img.Stride:][:width]
			if !bytes.Equal(a, b) {
				t.Errorf("drawn at %d, the chart's row %d differs from the one drawn at 10", y, r)
				break
			}
		}
		c.free()
	}
}
