package picture

import (
	"image"
	"image/color"
	"runtime"
	"sync"
	"time"

	"golang.org/x/image/vector"
)

// A canvas is a picture being composed: palette indices, drawn into
// directly. Fills set indices; anti-aliased edges and text blend with what
// is under them through the palette's nearest-colour table.
type canvas struct {
	img *image.Paletted
	p   *paletteTable
	// rec, when set, records every text placed and the box it had to fit
	// (for the tests).
	rec *record
	// A canvas may hold only a band of a picture's rows: img.Rect is then
	// (0, y0)-(w, y1) and Pix holds those rows only; drawing uses the
	// picture's own coordinates and is clipped to the band. spill records
	// that something was drawn (with coverage) on a row of the picture
	// (y >= 0) outside the band: the band alone is then not the picture's
	// rows (see bands.go).
	spill bool
	// yielded is when the drawing last let other goroutines run (yield).
	yielded time.Time
}

// yieldEvery is how long a drawing runs at most before it lets other
// goroutines run on its processor, at its next card or chunk of rows.
// Yielding costs a few microseconds when a processor is idle (the runtime
// wakes a thread for the goroutine put back in the queue), which yielding
// between every two cards made 5–8 % of a picture's CPU.
const yieldEvery = 500 * time.Microsecond

// yield calls runtime.Gosched when yieldEvery has passed since last (the
// last yield, or the start of the drawing), and returns the time of the
// last yield.
func yield(last time.Time) time.Time {
	now := time.Now()
	if now.Sub(last) < yieldEvery {
		return last
	}
	runtime.Gosched()
	return now
}

// record is what a drawing placed, for the tests.
type record struct {
	texts []placed
	seats []image.Rectangle // by seat index in the screen
	cards []image.Rectangle
}

// placed is a text placed in a box.
type placed struct {
	s   string
	f   *face
	box image.Rectangle // where it had to fit
	x   int             // where it starts
}

var pixPool = sync.Pool{New: func() any { return new([]uint8) }}

func newCanvas(w, h int, bg color.RGBA) *canvas { return newBandCanvas(w, 0, h, bg) }

// newBandCanvas is a canvas of the rows y0 to y1 of a picture w wide.
func newBandCanvas(w, y0, y1 int, bg color.RGBA) *canvas {
	p := thePalette()
	bp := pixPool.Get().(*[]uint8)
	pix := *bp
	h := y1 - y0
	if cap(pix) < w*h {
		pix = make([]uint8, w*h)
	}
	pix = pix[:w*h]
	setAll(pix, p.idx(bg))
	img := &image.Paletted{Pix: pix, Stride: w, Rect: image.Rect(0, y0, w, y1), Palette: p.colours}
	return &canvas{img: img, p: p, yielded: time.Now()}
}

// row is the pixels of the picture's row y, from x = 0.
func (c *canvas) row(y int) []uint8 { return c.img.Pix[(y-c.img.Rect.Min.Y)*c.img.Stride:] }

// outside notes a drawing on row y, from x0 to x1, that the band clips
// (y is not one of its rows).
func (c *canvas) outside(y, x0, x1 int) {
	if y >= 0 && x0 < c.img.Rect.Max.X && x1 > c.img.Rect.Min.X {
		c.spill = true
	}
}

// free gives the canvas's pixels back for the next picture.
func (c *canvas) free() {
	pix := c.img.Pix
	c.img = nil
	pixPool.Put(&pix)
}

func (c *canvas) fill(r image.Rectangle, col color.RGBA) {
	if c == nil {
		return
	}
	if r.Empty() {
		return
	}
	if r.Min.Y < c.img.Rect.Min.Y {
		c.outside(min(r.Max.Y, c.img.Rect.Min.Y)-1, r.Min.X, r.Max.X)
	}
	if r.Max.Y > c.img.Rect.Max.Y {
		c.outside(max(r.Min.Y, c.img.Rect.Max.Y), r.Min.X, r.Max.X)
	}
	r = r.Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	i := c.p.idx(col)
	first := c.row(r.Min.Y)[r.Min.X:r.Max.X]
	setAll(first, i)
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.row(y)[r.Min.X:r.Max.X], first)
	}
}

// setAll sets every byte of b to v, doubling copies.
func setAll(b []uint8, v uint8) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// put sets one pixel with coverage a.
func (c *canvas) put(x, y int, i uint8, col color.RGBA, a uint8) {
	if a == 0 {
		return
	}
	if !(image.Point{x, y}).In(c.img.Rect) {
		c.outside(y, x, x+1)
		return
	}
	o := (y-c.img.Rect.Min.Y)*c.img.Stride + x
	if a == 255 {
		c.img.Pix[o] = i
		return
	}
	c.img.Pix[o] = c.p.blend(c.img.Pix[o], col, a)
}

var corners sync.Map // radius → [][]uint8

// corner is the coverage of the top-left corner of a rounded rectangle of
// radius r: corner(r)[y][x] for the r×r pixels.
func corner(r int) [][]uint8 {
	if v, ok := corners.Load(r); ok {
		return v.([][]uint8)
	}
	const n = 8
	t := make([][]uint8, r)
	fr := float64(r)
	for y := 0; y < r; y++ {
		t[y] = make([]uint8, r)
		for x := 0; x < r; x++ {
			in := 0
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					dx := fr - (float64(x) + (float64(sx)+0.5)/n)
					dy := fr - (float64(y) + (float64(sy)+0.5)/n)
					if dx*dx+dy*dy <= fr*fr {
						in++
					}
				}
			}
			t[y][x] = uint8(in * 255 / (n * n))
		}
	}
	corners.Store(r, t)
	return t
}

// roundRect fills r with rounded corners of radius rad.
func (c *canvas) roundRect(r image.Rectangle, rad int, col color.RGBA) {
	if c == nil {
		return
	}
	rad = min(rad, r.Dx()/2, r.Dy()/2)
	if rad <= 0 {
		c.fill(r, col)
		return
	}
	t := corner(rad)
	i := c.p.idx(col)
	c.fill(image.Rect(r.Min.X, r.Min.Y+rad, r.Max.X, r.Max.Y-rad), col)
	c.fill(image.Rect(r.Min.X+rad, r.Min.Y, r.Max.X-rad, r.Min.Y+rad), col)
	c.fill(image.Rect(r.Min.X+rad, r.Max.Y-rad, r.Max.X-rad, r.Max.Y), col)
	for y := 0; y < rad; y++ {
		for x := 0; x < rad; x++ {
			a := t[y][x]
			c.put(r.Min.X+x, r.Min.Y+y, i, col, a)
			c.put(r.Max.X-1-x, r.Min.Y+y, i, col, a)
			c.put(r.Min.X+x, r.Max.Y-1-y, i, col, a)
			c.put(r.Max.X-1-x, r.Max.Y-1-y, i, col, a)
		}
	}
}

// frame draws a rounded border of width w inside r around a fill.
func (c *canvas) frame(r image.Rectangle, rad, w int, border, fill color.RGBA) {
	if c == nil {
		return
	}
	c.roundRect(r, rad, border)
	c.roundRect(r.Inset(w), max(rad-w, 0), fill)
}

// text draws s with its baseline starting at (x, y).
func (c *canvas) text(f *face, s string, x, y int, col color.RGBA) {
	if c == nil {
		return
	}
	if s == "" {
		return
	}
	t := f.img(s)
	i := c.p.idx(col)
	x0, y0 := x+t.dx, y+t.dy
	b := c.img.Rect
	// The blends of col by coverage, each over the last colour met under
	// it: text is mostly over one background.
	var blends [256]struct {
		under, v uint8
		ok       bool
	}
	// The columns of the mask inside the canvas.
	lo, hi := max(0, b.Min.X-x0), min(t.w, b.Max.X-x0)
	for ty := 0; ty < t.h; ty++ {
		py := y0 + ty
		src := t.alpha[ty*t.w : (ty+1)*t.w]
		if py < b.Min.Y || py >= b.Max.Y {
			c.clipped(py, x0, src)
			continue
		}
		if lo >= hi {
			continue
		}
		row := c.row(py)[x0+lo : x0+hi]
		src = src[lo:hi]
		for k, a := range src {
			if a == 0 {
				continue
			}
			if a == 255 {
				row[k] = i
				continue
			}
			e := &blends[a]
			if u := row[k]; !e.ok || e.under != u {
				e.under, e.v, e.ok = u, c.p.blend(u, col, a), true
			}
			row[k] = e.v
		}
	}
}

// textIn draws one line placed to fit box (for the record).
func (c *canvas) textIn(f *face, s string, x, y int, col color.RGBA, box image.Rectangle) {
	if c == nil {
		return
	}
	if c.rec != nil {
		c.rec.texts = append(c.rec.texts, placed{s: s, f: f, box: box, x: x})
	}
	c.text(f, s, x, y, col)
}

// lines draws lines of text from the top of box, line height lh, aligned
// left or centred; it returns the y below the last line.
func (c *canvas) lines(f *face, ls []string, box image.Rectangle, lh int, col color.RGBA, centre bool) int {
	y := box.Min.Y
	for _, s := range ls {
		x := box.Min.X
		if centre {
			x += (box.Dx() - f.width(s)) / 2
		}
		c.textIn(f, s, x, y+f.ascent, col, box)
		y += lh
	}
	return y
}

// card draws a card with its top left at (x, y): its face, then its note
// over it.
func (c *canvas) card(a cardArt, x, y int) {
	if c == nil {
		return
	}
	c.blit(a.face, x, y)
	b := a.note
	if b.f == nil {
		return
	}
	col := b.col
	if a.dim {
		col = dimmed(col)
	}
	for i, line := range b.lines {
		c.text(b.f, line, x+(a.face.w-b.f.width(line))/2, y+b.top+i*b.f.lineH+b.f.ascent, col)
	}
}

// blit copies a cached card face with its top left at (x, y).
func (c *canvas) blit(ci *cardImg, x, y int) {
	if c == nil {
		return
	}
	// A picture takes milliseconds: between two cards it lets other
	// goroutines (a bot's acknowledgements) run on its processor.
	c.yielded = yield(c.yielded)
	if c.rec != nil {
		c.rec.cards = append(c.rec.cards, image.Rect(x, y, x+ci.w, y+ci.h))
	}
	b := c.img.Rect
	for ty := 0; ty < ci.h; ty++ {
		py := y + ty
		src := ci.pix[ty*ci.w : (ty+1)*ci.w]
		al := ci.alpha[ty*ci.w : (ty+1)*ci.w]
		if py < b.Min.Y || py >= b.Max.Y {
			c.clipped(py, x, al)
			continue
		}
		row := c.row(py)
		l, r := int(ci.spans[ty][0]), int(ci.spans[ty][1])
		if x+l >= b.Min.X && x+r <= b.Max.X {
			copy(row[x+l:x+r], src[l:r])
		} else {
			l, r = 0, 0
		}
		for tx := 0; tx < ci.w; tx++ {
			if tx == l && r > l {
				tx = r - 1
				continue
			}
			a := al[tx]
			px := x + tx
			if a == 0 || px < b.Min.X || px >= b.Max.X {
				continue
			}
			if a == 255 {
				row[px] = src[tx]
			} else {
				row[px] = c.p.blend(row[px], c.p.rgba[src[tx]], a)
			}
		}
	}
}

// clipped notes a row of coverage al from x0 that the canvas clips at row
// y: a spill when a covered pixel of it is in the picture.
func (c *canvas) clipped(y, x0 int, al []uint8) {
	if y < 0 || c.spill {
		return
	}
	for i, a := range al {
		if a != 0 {
			c.outside(y, x0+i, x0+i+1)
		}
	}
}

var rasterPool = sync.Pool{New: func() any { return vector.NewRasterizer(0, 0) }}

// shape fills the vector path that draw makes, clipped to r, with col.
func (c *canvas) shape(r image.Rectangle, col color.RGBA, draw func(z *vector.Rasterizer)) {
	if c == nil {
		return
	}
	if r.Empty() {
		return
	}
	z := rasterPool.Get().(*vector.Rasterizer)
	defer rasterPool.Put(z)
	z.Reset(r.Dx(), r.Dy())
	draw(z)
	m := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	z.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	i := c.p.idx(col)
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			c.put(r.Min.X+x, r.Min.Y+y, i, col, m.Pix[y*m.Stride+x])
		}
	}
}

// icon draws a symbol s pixels across centred on (x, y).
func (c *canvas) icon(sym symbol, x, y, s int, col color.RGBA) {
	r := image.Rect(x-s/2-1, y-s/2-1, x+s/2+2, y+s/2+2)
	c.shape(r, col, func(z *vector.Rasterizer) {
		sym(pen{z: z, cx: float32(x - r.Min.X), cy: float32(y - r.Min.Y), h: float32(s) / 2})
	})
}
