package picture

import (
	"image"
	"image/color"
	"math"
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
	// yOf is a value's height below py0: the chart's float arithmetic is
	// done from its own top, so that the same chart drawn lower (a table
	// picture cut in two, picture.TableSplit) has the same pixels.
	yOf := func(v int) float32 {
		return float32(plotH) - float32(v-lo)*float32(plotH)/float32(hi-lo)
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
			yy := py0 + int(yOf(v))
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
				c.segment(py0, prevX, prevY, nx, ny, 3, col)
				prevX, prevY = nx, ny
			}
			for r, row := range ch.Rounds {
				if s < len(row) {
					c.dot(py0, xOf(r+1), yOf(row[s]), 4.5, col)
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

// floor is the integer at or below v.
func floor(v float32) int { return int(math.Floor(float64(v))) }

// segment draws a line w pixels wide; y0 and y1 are below row oy.
func (c *canvas) segment(oy int, x0, y0, x1, y1, w float32, col color.RGBA) {
	top := floor(min(y0, y1) - w - 1)
	r := image.Rect(floor(min(x0, x1)-w-1), oy+top, floor(max(x0, x1)+w+2), oy+floor(max(y0, y1)+w+2))
	c.shape(r, col, func(z *vector.Rasterizer) {
		ox, ry := float64(r.Min.X), float64(top)
		pen{z: z, h: 1}.stroke(float64(x0)-ox, float64(y0)-ry, float64(x1)-ox, float64(y1)-ry, float64(w))
	})
}

// dot draws a disc of radius rad; y is below row oy.
func (c *canvas) dot(oy int, x, y, rad float32, col color.RGBA) {
	top := floor(y - rad - 1)
	r := image.Rect(floor(x-rad-1), oy+top, floor(x+rad+2), oy+floor(y+rad+2))
	c.shape(r, col, func(z *vector.Rasterizer) {
		pen{z: z, cx: x - float32(r.Min.X), cy: y - float32(top), h: rad}.circle(0, 0, 1)
	})
}
