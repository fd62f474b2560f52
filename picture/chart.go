package picture

import (
	"cmp"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"

	"golang.org/x/image/vector"

	"github.com/stolik-bot/stolik/render"
)

// The chart is read at a third of its size on a phone (the picture is 960
// pixels wide, a phone shows it about 320 wide): its type is large, and no
// line is told apart by its colour alone. Each seat's line has its own
// marker shape at every round, and its name stands at the line's end,
// after the same marker, in the line's colour; there is no legend to
// match colours against.
const (
	chartTitlePx = 26 // the title
	chartLabelPx = 26 // the names at the lines' ends
	chartTickPx  = 20 // the axes' numbers
	chartLineW   = 4  // a line's width
	chartMarkR   = 9  // a marker's half size
	chartMinPlot = 240
)

func chartLabelFaces() []*face {
	return []*face{faceOf(bold, chartLabelPx), faceOf(condensedBold, chartLabelPx), faceOf(condensedBold, 22), faceOf(condensedBold, 19)}
}

// drawChart draws the totals round by round as lines, one per seat, each
// with its own markers and its name at its end; the plot at least plotH
// high (taller for large type and many names). It returns the y below it.
// c nil measures only.
func drawChart(c *canvas, ch *render.Chart, x, y, w, plotH int) int {
	if ch.Title != "" {
		f, ls := fit(ch.Title, []*face{faceOf(bold, chartTitlePx), faceOf(condensedBold, chartTitlePx), faceOf(condensedBold, 22)}, w, 2)
		if c != nil {
			c.lines(f, ls, image.Rect(x, y, x+w, y+len(ls)*f.lineH), f.lineH, soft, false)
		}
		y += len(ls)*f.lineH + 10
	}
	seats := len(ch.Names)
	for _, r := range ch.Rounds {
		seats = max(seats, len(r))
	}
	// The names: one line each, at most about a third of the width.
	labels := make([]string, seats)
	lfaces := make([]*face, seats)
	labelW := 0
	maxLabel := w * 2 / 5
	for s := range labels {
		name := ""
		if s < len(ch.Names) {
			name = ch.Names[s]
		}
		f, ls := fit(name, chartLabelFaces(), maxLabel-2*chartMarkR-12, 1)
		lfaces[s] = f
		if len(ls) > 0 {
			labels[s] = ls[0]
		}
		labelW = max(labelW, 2*chartMarkR+10+f.width(labels[s]))
	}
	lh := chartLabelFaces()[0].lineH
	plotH = max(plotH, chartMinPlot, seats*(lh+4))

	lo, hi := 0, 1
	for _, r := range ch.Rounds {
		for _, v := range r {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	tf := faceOf(regular, chartTickPx)
	axisW := max(tf.width(strconv.Itoa(hi)), tf.width(strconv.Itoa(lo))) + 12
	px0, px1 := x+axisW, x+w-labelW-14
	py0, py1 := y+lh/2, y+lh/2+plotH
	bottom := py1 + 8 + tf.lineH
	if c == nil {
		return bottom
	}
	tick := niceStep(hi - lo)
	// yOf is a value's height below py0: the chart's float arithmetic is
	// done from its own top, so that the same chart drawn lower (a table
	// picture cut in two, picture.TableSplit) has the same pixels.
	yOf := func(v int) float32 {
		return float32(plotH) - float32(v-lo)*float32(plotH)/float32(hi-lo)
	}
	n := max(len(ch.Rounds), 1)
	xOf := func(r int) float32 { // r = 0 is the start, before round 1
		return float32(px0) + float32(r)*float32(px1-px0)/float32(n)
	}
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
		c.textIn(tf, s, px0-8-tf.width(s), yy+tf.ascent/2-1, dim, image.Rect(x, yy-tf.lineH, px0-8, yy+tf.lineH))
	}
	for r := 1; r <= len(ch.Rounds); r++ {
		s := strconv.Itoa(r)
		xx := int(xOf(r))
		c.textIn(tf, s, xx-tf.width(s)/2, py1+8+tf.ascent, dim, image.Rect(xx-30, py1+8, xx+30, py1+8+tf.lineH))
	}
	// The lines, then the markers over every line.
	ends := make([]float32, seats) // each line's last height below py0
	for s := 0; s < seats; s++ {
		col := seatColours[s%len(seatColours)]
		prevX, prevY := xOf(0), yOf(0)
		for r, row := range ch.Rounds {
			if s >= len(row) {
				continue
			}
			nx, ny := xOf(r+1), yOf(row[s])
			c.segment(py0, prevX, prevY, nx, ny, chartLineW, col)
			prevX, prevY = nx, ny
		}
		ends[s] = prevY
	}
	for s := 0; s < seats; s++ {
		for r, row := range ch.Rounds {
			if s < len(row) {
				c.marker(py0, xOf(r+1), yOf(row[s]), chartMarkR, s, seatColours[s%len(seatColours)])
			}
		}
	}
	// The names at the lines' ends, each after its marker, moved apart
	// where lines end close together (a thin lead joins a moved name to
	// its line's end).
	at := labelRows(ends, float32(lh+2), float32(plotH))
	lx := float32(px1) + 14 + chartMarkR
	for s := 0; s < seats; s++ {
		col := seatColours[s%len(seatColours)]
		if d := at[s] - ends[s]; d > 2 || d < -2 {
			c.segment(py0, float32(px1)+chartMarkR, ends[s], lx-chartMarkR-2, at[s], 1.5, col)
		}
		c.marker(py0, lx, at[s], chartMarkR, s, col)
		f := lfaces[s]
		ty := py0 + int(at[s])
		c.textIn(f, labels[s], int(lx)+chartMarkR+8, ty+f.ascent/2-2, col, image.Rect(int(lx)+chartMarkR+8, ty-f.lineH, x+w, ty+f.lineH))
	}
	return bottom
}

// labelRows places the names at the heights of their lines' ends, moved
// apart to at least gap between two, within 0..h as far as they fit.
func labelRows(ends []float32, gap, h float32) []float32 {
	order := make([]int, len(ends))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ends[a], ends[b]) })
	at := slices.Clone(ends)
	for k := 1; k < len(order); k++ {
		if prev := at[order[k-1]]; at[order[k]] < prev+gap {
			at[order[k]] = prev + gap
		}
	}
	// Too low at the bottom: the names move up as far as they must.
	for k := len(order) - 1; k >= 0; k-- {
		limit := h
		if k < len(order)-1 {
			limit = at[order[k+1]] - gap
		}
		at[order[k]] = min(at[order[k]], limit)
	}
	return at
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

// marker draws seat s's marker at x, y (below row oy): a filled shape of
// its own (circle, square, triangle, diamond, triangle down, cross, star,
// hexagon) on a dark edge, so that a line is told by its shape as well as
// its colour.
func (c *canvas) marker(oy int, x, y, rad float32, s int, col color.RGBA) {
	edge := rad + 2.5
	r := image.Rect(floor(x-edge-1), oy+floor(y-edge-1), floor(x+edge+2), oy+floor(y+edge+2))
	top := floor(y - edge - 1)
	for _, paint := range []struct {
		col color.RGBA
		h   float32
	}{{chartBg, edge}, {col, rad}} {
		c.shape(r, paint.col, func(z *vector.Rasterizer) {
			p := pen{z: z, cx: x - float32(r.Min.X), cy: y - float32(top), h: paint.h}
			markerPath(p, s)
		})
	}
}

// markerPath is the path of seat s's marker, in units of the pen's half
// size.
func markerPath(p pen, s int) {
	switch s % 8 {
	case 0:
		p.circle(0, 0, 1)
	case 1:
		p.poly(-0.85, -0.85, 0.85, -0.85, 0.85, 0.85, -0.85, 0.85)
	case 2:
		p.poly(0, -1.1, 1, 0.8, -1, 0.8)
	case 3:
		p.poly(0, -1.15, 1.15, 0, 0, 1.15, -1.15, 0)
	case 4:
		p.poly(-1, -0.8, 1, -0.8, 0, 1.1)
	case 5:
		const a = 0.36
		p.poly(-a, -1, a, -1, a, -a, 1, -a, 1, a, a, a, a, 1, -a, 1, -a, a, -1, a, -1, -a, -a, -a)
	case 6:
		p.starPoly(0, 0, 5, 1.2, 0.5, 0)
	default:
		p.poly(-0.5, -0.95, 0.5, -0.95, 1, 0, 0.5, 0.95, -0.5, 0.95, -1, 0)
	}
}
