package picture

import (
	"image"
	"image/color"
	"strconv"

	"golang.org/x/image/vector"

	"github.com/stolik-bot/stolik/render"
)

// drawChart draws the totals round by round as lines, one per seat, with a
// legend of the names, the plot plotH high; it returns the y below it.
func drawChart(c *canvas, ch *render.Chart, x, y, w, plotH int) int {
	if ch.Title != "" {
		f, ls := fit(ch.Title, []*face{faceOf(bold, 16), faceOf(condensedBold, 16)}, w, 2)
		y = c.lines(f, ls, image.Rect(x, y, x+w, y+len(ls)*f.lineH), f.lineH, soft, false) + 6
	}
	// The legend: a swatch and a name per seat, flowing.
	lf := countFaces()[0]
	lx, ly := x, y
	for i, name := range ch.Names {
		f, ls := fit(name, countFaces(), w/2-30, 1)
		iw := 22 + f.width(ls[0])
		if lx > x && lx+iw > x+w {
			lx, ly = x, ly+lf.lineH+6
		}
		col := seatColours[i%len(seatColours)]
		c.roundRect(image.Rect(lx, ly+3, lx+14, ly+17), 3, col)
		c.textIn(f, ls[0], lx+22, ly+f.ascent, white, image.Rect(lx+22, ly, x+w, ly+f.lineH))
		lx += iw + 24
	}
	y = ly + lf.lineH + 10
	// The plot.
	lo, hi := 0, 1
	for _, r := range ch.Rounds {
		for _, v := range r {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	tf := faceOf(regular, 14)
	axisW := max(tf.width(strconv.Itoa(hi)), tf.width(strconv.Itoa(lo))) + 10
	px0, px1 := x+axisW, x+w-10
	py0, py1 := y+8, y+8+plotH
	tick := niceStep(hi - lo)
	yOf := func(v int) float32 {
		return float32(py1) - float32(v-lo)*float32(py1-py0)/float32(hi-lo)
	}
	n := len(ch.Rounds)
	xOf := func(r int) float32 { // r = 0 is the start, before round 1
		return float32(px0) + float32(r)*float32(px1-px0)/float32(n)
	}
	if c != nil {
		for v := (lo / tick) * tick; v <= hi; v += tick {
			if v < lo {
				continue
			}
			yy := int(yOf(v))
			col := grid
			if v == 0 {
				col = dim
			}
			c.fill(image.Rect(px0, yy, px1, yy+1), col)
			s := strconv.Itoa(v)
			c.textIn(tf, s, px0-6-tf.width(s), yy+tf.ascent/2-1, dim, image.Rect(x, yy-tf.lineH, px0-6, yy+tf.lineH))
		}
		for r := 1; r <= n; r++ {
			s := strconv.Itoa(r)
			xx := int(xOf(r))
			c.textIn(tf, s, xx-tf.width(s)/2, py1+6+tf.ascent, dim, image.Rect(xx-20, py1+6, xx+20, py1+6+tf.lineH))
		}
		seats := 0
		for _, r := range ch.Rounds {
			seats = max(seats, len(r))
		}
		for s := 0; s < seats; s++ {
			col := seatColours[s%len(seatColours)]
			prevX, prevY := xOf(0), yOf(0)
			for r, row := range ch.Rounds {
				if s >= len(row) {
					continue
				}
				nx, ny := xOf(r+1), yOf(row[s])
				c.segment(prevX, prevY, nx, ny, 3, col)
				prevX, prevY = nx, ny
			}
			for r, row := range ch.Rounds {
				if s < len(row) {
					c.dot(xOf(r+1), yOf(row[s]), 4.5, col)
				}
			}
		}
	}
	return py1 + 6 + tf.lineH
}

// niceStep is a grid step for a range: 1, 2 or 5 times a power of ten,
// giving about four lines.
func niceStep(span int) int {
	step := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if span/(step*m) <= 5 {
				return step * m
			}
		}
		step *= 10
	}
}

// segment draws a line w pixels wide.
func (c *canvas) segment(x0, y0, x1, y1, w float32, col color.RGBA) {
	r := image.Rect(int(min(x0, x1)-w-1), int(min(y0, y1)-w-1), int(max(x0, x1)+w+2), int(max(y0, y1)+w+2))
	c.shape(r, col, func(z *vector.Rasterizer) {
		ox, oy := float64(r.Min.X), float64(r.Min.Y)
		pen{z: z, h: 1}.stroke(float64(x0)-ox, float64(y0)-oy, float64(x1)-ox, float64(y1)-oy, float64(w))
	})
}

// dot draws a disc of radius rad.
func (c *canvas) dot(x, y, rad float32, col color.RGBA) {
	r := image.Rect(int(x-rad-1), int(y-rad-1), int(x+rad+2), int(y+rad+2))
	c.shape(r, col, func(z *vector.Rasterizer) {
		pen{z: z, cx: x - float32(r.Min.X), cy: y - float32(r.Min.Y), h: rad}.circle(0, 0, 1)
	})
}
