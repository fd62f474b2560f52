package picture

import (
	"bytes"
	"testing"
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
			if len(sc.Seats) == 0 || len(sc.Center) == 0 && len(sc.Result) == 0 {
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
