package picture

import (
	"image"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"
)

// The picture's measures, in pixels.
//
// A chat shows a picture in a message about 300 CSS px wide on a phone
// (390 px wide) and at its own size up to about 520 px on a desktop: a
// picture 480 px wide keeps its type at about 0.6 of its size on a phone,
// where one 960 px wide came out at 0.3 (3–5 px words).
const (
	width = 480 // every picture
	pad   = 12  // around the picture
	gap   = 10  // between boxes
	inner = width - 2*pad
	// maxH is the tallest a picture should be: a chat shows a taller one
	// smaller still.
	maxH = width * 5 / 4
)

// The faces of the picture's text: at least 17 px everywhere, which a
// phone shows at about 10 px (0.6 of it).
func titleFaces() []*face {
	return []*face{faceOf(bold, 26), faceOf(condensedBold, 26), faceOf(condensedBold, 22)}
}
func labelFaces() []*face {
	return []*face{faceOf(bold, 20), faceOf(condensedBold, 20), faceOf(condensedBold, 18)}
}
func textFaces() []*face {
	return []*face{faceOf(regular, 19), faceOf(condensed, 19), faceOf(condensed, 17)}
}
func countFaces() []*face {
	return []*face{faceOf(regular, 20), faceOf(condensed, 20), faceOf(condensed, 18)}
}

// seatNameFaces and seatCountFaces are a seat's name and counts, the
// largest texts after the title: a seat is what a glance at the picture
// looks for; smaller faces when a long name or many counts need them.
func seatNameFaces() []*face {
	return []*face{faceOf(bold, 24), faceOf(condensedBold, 24), faceOf(condensedBold, 21), faceOf(condensedBold, 19)}
}

func seatCountFaces() []*face {
	return []*face{faceOf(regular, 22), faceOf(condensed, 22), faceOf(condensed, 20), faceOf(condensed, 18)}
}

// Table draws the table as the players around it see it: the title and the
// round's rule, the centre piles in rows by group, every seat with its
// counts and cards (who acts ringed in gold, the viewer's seat in blue),
// and at the end the standings and the chart of the totals. alt describes
// the same in words.
//
// The picture is made of bands (bands.go): a band drawn and compressed for
// an earlier picture is not drawn again.
func Table(sc render.Screen) (png []byte, alt string, err error) {
	png, err = tableBands(sc)
	return png, TableAlt(sc), err
}

// tableWhole draws the table on one canvas and encodes it at once: the
// picture tableBands makes, pixel for pixel, which the tests compare it
// with, and what tableBands falls back to when a band's drawing would
// reach another's rows.
func tableWhole(sc render.Screen) ([]byte, error) {
	c := drawTable(sc, false)
	defer c.free()
	return encode(c.img)
}

// drawTable lays the table out once to measure it, then draws it.
func drawTable(sc render.Screen, rec bool) *canvas {
	h := layoutTable(nil, sc)
	c := newCanvas(width, h, felt)
	if rec {
		c.rec = &record{}
	}
	layoutTable(c, sc)
	return c
}

// layoutTable draws the table on c (nothing when c is nil) and returns its
// height.
func layoutTable(c *canvas, sc render.Screen) int {
	y := pad
	y = drawHeader(c, sc, y)
	if len(sc.Result) > 0 {
		// The game is over: the standings come first.
		y = drawResult(c, sc, y)
	}
	y = drawCentre(c, sc, y, centreTight(sc))
	y = drawSeats(c, sc, y)
	y = drawStatus(c, sc.StatusLines(), y)
	if len(sc.Result) == 0 {
		y = drawResult(c, sc, y)
	}
	return y - gap + pad
}

func drawHeader(c *canvas, sc render.Screen, y int) int {
	if sc.Title != "" {
		f, ls := fit(sc.Title, titleFaces(), inner, 2)
		y = c.lines(f, ls, image.Rect(pad, y, width-pad, y+len(ls)*(f.lineH+2)), f.lineH+2, white, false)
		y += 6
	}
	if sc.Rule != nil && (sc.Rule.Name != "" || sc.Rule.Short != "") {
		const ip = 12
		w := inner - 2*ip
		nf, nl := fit(sc.Rule.Name, []*face{faceOf(bold, 17), faceOf(condensedBold, 17)}, w, 2)
		sf, sl := fit(sc.Rule.Short, textFaces(), w, 4)
		if sc.Rule.Name == "" {
			nl = nil
		}
		if sc.Rule.Short == "" {
			sl = nil
		}
		h := 2*ip + len(nl)*(nf.lineH+2) + len(sl)*(sf.lineH+2)
		if len(nl) > 0 && len(sl) > 0 {
			h += 4
		}
		box := image.Rect(pad, y, width-pad, y+h)
		c.frame(box, 10, 2, gold, feltDeep)
		ty := y + ip
		ty = c.lines(nf, nl, image.Rect(pad+ip, ty, width-pad-ip, ty+len(nl)*(nf.lineH+2)), nf.lineH+2, gold, false)
		if len(nl) > 0 {
			ty += 4
		}
		c.lines(sf, sl, image.Rect(pad+ip, ty, width-pad-ip, ty+len(sl)*(sf.lineH+2)), sf.lineH+2, soft, false)
		y += h + gap
	}
	return y
}

// drawCentre draws the centre piles on a darker field: a row per group, in
// the order the groups first appear; "up" and "down" make the Courtisans
// queen's table around a mat. tight overlaps the fans of cards that do not
// fit (centreTight).
func drawCentre(c *canvas, sc render.Screen, y int, tight bool) int {
	if len(sc.Center) == 0 {
		return y
	}
	body := func(c *canvas, y int) int {
		var groups []string
		seen := map[string]bool{}
		for _, p := range sc.Center {
			g := p.Group
			if g == "down" {
				g = "up"
			}
			if !seen[g] {
				seen[g] = true
				groups = append(groups, g)
			}
		}
		for i, g := range groups {
			if i > 0 {
				y += gap
			}
			if g == "up" {
				y = drawQueenTable(c, sc, y, tight)
				continue
			}
			var piles []render.Pile
			for _, p := range sc.Center {
				if p.Group == g {
					piles = append(piles, p)
				}
			}
			sz := medium
			if tight {
				sz = small // the fans overlap, the cards tell themselves by their corners
			}
			y = flowPiles(c, sc.Game, piles, sz, pad+gap, y, inner-2*gap, feltDeep, tight)
		}
		return y
	}
	h := body(nil, y+gap) - y + gap
	c.roundRect(image.Rect(pad, y, width-pad, y+h), 12, feltDeep)
	body(c, y+gap)
	return y + h + gap
}

// centreTight reports whether the picture of the header, the standings and
// the centre (TableSplit's first) would be taller than maxH with the fans of
// the centre on rows: then they overlap.
func centreTight(sc render.Screen) bool {
	if len(sc.Center) == 0 {
		return false
	}
	y := drawHeader(nil, sc, pad)
	if len(sc.Result) > 0 {
		y = drawResult(nil, sc, y)
	}
	return drawCentre(nil, sc, y, false)-gap+pad > maxH
}

// pileBox is the size of a pile: its label above its cards.
type pileBox struct {
	w, h   int
	lf     *face
	label  []string
	pos    []image.Point // the cards' top lefts, from the top left of the cards
	cw, ch int           // the cards' area
}

// The space between cards side by side; more in a hand, where a playable
// card has a ring.
const (
	cardGap = 6
	handGap = 10
)

// minStep is the least part of a card left showing in a fan.
var minStep = [...]int{small: 18, medium: 28, large: 40}

// measurePile lays a pile out in at most maxW: a fan of cards that tell
// themselves by their corner (no note) overlaps when it does not fit, others
// go on more rows. tight overlaps every fan that does not fit, to keep a
// picture within maxH.
func measurePile(game string, p render.Pile, sz size, maxW int, tight bool) pileBox {
	g := geomOf(game, sz)
	var b pileBox
	switch {
	case len(p.Cards) > 0:
		gap, overlap := cardGap, sz != large && !slices.ContainsFunc(p.Cards, func(c render.Card) bool { return !c.Down && c.Note != "" })
		if sz == large {
			gap = handGap
		}
		b.pos, b.cw, b.ch = fan(game, p.Cards, sz, maxW, gap, overlap || tight)
		if p.Count > 0 {
			b.cw += pillW(p.Count) / 2
		}
	case p.Count > 0:
		b.cw, b.ch = g.w+6, g.h+6
	default:
		b.cw, b.ch = g.w, g.h
	}
	b.w = b.cw
	if p.Label != "" {
		lw := min(max(b.cw, 150), maxW)
		b.lf, b.label = fit(p.Label, labelFaces(), lw, 2)
		for _, s := range b.label {
			b.w = max(b.w, b.lf.width(s))
		}
		b.h = len(b.label)*b.lf.lineH + 4
	}
	b.h += b.ch
	return b
}

// fan places cards side by side, gap apart, overlapping them when they do
// not fit in maxW (if overlap), on more rows when even that does not fit.
func fan(game string, cs []render.Card, sz size, maxW, gap int, overlap bool) (pos []image.Point, w, h int) {
	g := geomOf(game, sz)
	n := len(cs)
	total := -gap
	cw := 0
	for _, c := range cs {
		total += cardW(game, c, sz) + gap
		cw = max(cw, cardW(game, c, sz))
	}
	if overlap && sz == small && n > 1 {
		// Copies of a card (backs, the same value) tell nothing but their
		// number: they overlap tightly, other cards sit side by side.
		x := 0
		for i, c := range cs {
			if i > 0 {
				if c == cs[i-1] {
					x += cardOf(game, c, sz, false).side
				} else {
					x += cardW(game, cs[i-1], sz) + gap
				}
			}
			pos = append(pos, image.Pt(x, 0))
		}
		w = x + cardW(game, cs[n-1], sz)
		if w <= maxW && w < total {
			return pos, w, g.h
		}
		pos, w = pos[:0], 0
	}
	if total <= maxW {
		x := 0
		for _, c := range cs {
			pos = append(pos, image.Pt(x, 0))
			x += cardW(game, c, sz) + gap
		}
		return pos, total, g.h
	}
	perRow := max((maxW+gap)/(cw+gap), 1)
	perRow = (n + (n+perRow-1)/perRow - 1) / ((n + perRow - 1) / perRow) // balanced rows
	if overlap {
		perRow = n
		if step := (maxW - cw) / max(n-1, 1); step < minStep[sz] {
			perRow = max((maxW-cw)/minStep[sz]+1, 1)
		}
	}
	rows := (n + perRow - 1) / perRow
	for i := range cs {
		r, k := i/perRow, i%perRow
		inRow := min(perRow, n-r*perRow)
		step := cw + gap
		if inRow > 1 && (inRow-1)*step+cw > maxW {
			step = (maxW - cw) / (inRow - 1)
		}
		pos = append(pos, image.Pt(k*step, r*(g.h+gap)))
		w = max(w, k*step+cw)
	}
	return pos, w, rows*(g.h+gap) - gap
}

func pillW(n int) int { return faceOf(bold, 18).width(strconv.Itoa(n)) + 18 }

// drawPile draws a pile measured by measurePile at (x, y), its label and
// cards centred in w.
func drawPile(c *canvas, game string, p render.Pile, b pileBox, sz size, x, y, w int, bg color.RGBA, dimUnmarked bool) {
	if c == nil {
		return
	}
	if len(b.label) > 0 {
		box := image.Rect(x, y, x+w, y+len(b.label)*b.lf.lineH)
		c.lines(b.lf, b.label, box, b.lf.lineH, soft, true)
		y += len(b.label)*b.lf.lineH + 4
	}
	x += (w - b.cw) / 2
	g := geomOf(game, sz)
	switch {
	case len(p.Cards) > 0:
		for i, cd := range p.Cards {
			dim := dimUnmarked && !cd.Mark
			px, py := x+b.pos[i].X, y+b.pos[i].Y
			if cd.Mark && dimUnmarked {
				r := image.Rect(px, py, px+cardW(game, cd, sz), py+g.h)
				c.roundRect(r.Inset(-4), g.rad+4, gold)
			}
			c.card(artOf(game, cd, sz, dim), px, py)
		}
		if p.Count > 0 {
			last := b.pos[len(b.pos)-1]
			drawPill(c, p.Count, x+last.X+cardW(game, p.Cards[len(p.Cards)-1], sz)-pillW(p.Count)/2, y+last.Y+g.h-30)
		}
	case p.Count > 0:
		back := cardOf(game, render.Card{Down: true}, sz, false)
		for i := 2; i >= 0; i-- {
			if i > 0 && p.Count <= i {
				continue
			}
			c.blit(back, x+3*i, y+3*i)
		}
		drawPill(c, p.Count, x+(g.w-pillW(p.Count))/2, y+(g.h-26)/2)
	default:
		r := image.Rect(x, y, x+g.w, y+g.h)
		c.frame(r, g.rad, 2, dim, bg)
	}
}

// drawPill draws a count on a dark rounded label.
func drawPill(c *canvas, n int, x, y int) {
	f := faceOf(bold, 18)
	s := strconv.Itoa(n)
	r := image.Rect(x, y, x+pillW(n), y+26)
	c.frame(r, 13, 2, white, ink)
	c.textIn(f, s, x+9, y+13+f.ascent/2-1, white, r.Inset(2))
}

// flowPiles lays piles out left to right in w from (x, y), on as many lines
// as needed, each line centred; it returns the y below them.
func flowPiles(c *canvas, game string, piles []render.Pile, sz size, x, y, w int, bg color.RGBA, tight bool) int {
	hgap, vgap := 20, gap
	if sz == small {
		hgap, vgap = 14, 8
	}
	boxes := make([]pileBox, len(piles))
	total := -hgap
	for i, p := range piles {
		boxes[i] = measurePile(game, p, sz, w, tight)
		total += boxes[i].w + hgap
	}
	if total > w && sz != large && len(piles) > 1 {
		boxes = squeeze(game, piles, boxes, sz, w, hgap, tight)
	}
	for i := 0; i < len(piles); {
		j, lw, lh := i, 0, 0
		for j < len(piles) && (j == i || lw+hgap+boxes[j].w <= w) {
			if j > i {
				lw += hgap
			}
			lw += boxes[j].w
			lh = max(lh, boxes[j].h)
			j++
		}
		lx := x + (w-lw)/2
		for k := i; k < j; k++ {
			drawPile(c, game, piles[k], boxes[k], sz, lx, y, boxes[k].w, bg, false)
			lx += boxes[k].w + hgap
		}
		y += lh + vgap
		i = j
	}
	return y - vgap
}

// squeeze tries to set piles on one line by fanning the piles of several
// cards tighter: the others keep their width, the fans share what is left
// in proportion. It returns the boxes unchanged when that does not work.
func squeeze(game string, piles []render.Pile, boxes []pileBox, sz size, w, hgap int, tight bool) []pileBox {
	fixed, fans := -hgap, 0
	for i, p := range piles {
		fixed += hgap
		if len(p.Cards) > 1 {
			fans += boxes[i].w
		} else {
			fixed += boxes[i].w
		}
	}
	left := w - fixed
	if fans == 0 || left <= 0 {
		return boxes
	}
	out := slices.Clone(boxes)
	for i, p := range piles {
		if len(p.Cards) < 2 {
			continue
		}
		b := measurePile(game, p, sz, boxes[i].w*left/fans, tight)
		if b.h != boxes[i].h || b.w > boxes[i].w*left/fans {
			return boxes // it would take more rows, or cannot narrow
		}
		out[i] = b
	}
	return out
}

// drawQueenTable draws the Courtisans queen's table: the "up" piles as
// columns above a mat, the "down" piles as columns below it, each column's
// cards fanned away from the mat, the columns' labels on the mat.
//
// tight keeps a column's fan within 90 px.
func drawQueenTable(c *canvas, sc render.Screen, y int, tight bool) int {
	var up, down []render.Pile
	for _, p := range sc.Center {
		switch p.Group {
		case "up":
			up = append(up, p)
		case "down":
			down = append(down, p)
		}
	}
	cols := max(len(up), len(down))
	colGap := 4
	x0, w := pad+gap, inner-2*gap
	cw := (w - (cols-1)*colGap) / cols
	g := geomOf(sc.Game, medium)
	sz := medium
	if cw < g.w+4 {
		sz = small
		g = geomOf(sc.Game, small)
	}
	// A column shows the top strip of every card but the last, whole.
	steps := func(p render.Pile) []int {
		var out []int
		total := 0
		for _, cd := range p.Cards[:max(len(p.Cards)-1, 0)] {
			st := cardOf(sc.Game, cd, sz, false).strip + 3
			out = append(out, st)
			total += st
		}
		most := 300
		if tight {
			most = 90
		}
		if total > most {
			for i := range out {
				out[i] = out[i] * most / total
			}
		}
		return out
	}
	colH := func(p render.Pile) int {
		if len(p.Cards) == 0 {
			if p.Count > 0 {
				return g.h + 6
			}
			return g.h
		}
		h := g.h
		for _, st := range steps(p) {
			h += st
		}
		return h
	}
	heights := func() (upH, downH int) {
		for _, p := range up {
			upH = max(upH, colH(p))
		}
		for _, p := range down {
			downH = max(downH, colH(p))
		}
		return upH, downH
	}
	upH, downH := heights()
	if sz == medium && upH+downH > 2*g.h+160 {
		// Long columns: small cards keep the table within a screen.
		sz, g = small, geomOf(sc.Game, small)
		upH, downH = heights()
	}
	// The mat holds the labels: the up piles' above, the down piles' below
	// when they differ; condensed to fit a column.
	lf := []*face{faceOf(condensedBold, 17), faceOf(condensedBold, 15), faceOf(condensedBold, 14)}
	lab := func(ps []render.Pile, i int) string {
		if i < len(ps) {
			return ps[i].Label
		}
		return ""
	}
	// One face for all the columns' labels: the first where each fits
	// whole.
	labels := func(below bool) (*face, [][]string, int) {
		texts := make([]string, cols)
		for i := range texts {
			texts[i] = lab(up, i)
			if below {
				if texts[i] == lab(down, i) {
					texts[i] = ""
				} else {
					texts[i] = lab(down, i)
				}
			}
		}
		for k, f := range lf {
			var rows [][]string
			n, whole := 0, true
			for _, t := range texts {
				ls, ok := f.wrap(t, cw-8)
				if !ok || len(ls) > 2 {
					if k < len(lf)-1 {
						whole = false
						break
					}
					ls = f.ellipsize(t, cw-8, 2)
				}
				if t == "" {
					ls = nil
				}
				rows = append(rows, ls)
				n = max(n, len(ls))
			}
			if whole {
				return f, rows, n
			}
		}
		panic("unreachable")
	}
	fUp, rowsUp, nUp := labels(false)
	fDown, rowsDown, nDown := labels(true)
	matH := 12 + nUp*fUp.lineH + nDown*fDown.lineH
	if nUp > 0 && nDown > 0 {
		matH += 4
	}
	matY := y + upH + 8
	if c != nil {
		c.roundRect(image.Rect(x0, matY, x0+w, matY+matH), 10, mat)
		for i := 0; i < cols; i++ {
			cx := x0 + i*(cw+colGap)
			ly := matY + 6
			ly = c.lines(fUp, rowsUp[i], image.Rect(cx+4, ly, cx+cw-4, ly+nUp*fUp.lineH), fUp.lineH, matText, true)
			if nUp > 0 {
				ly = matY + 6 + nUp*fUp.lineH + 4
			}
			c.lines(fDown, rowsDown[i], image.Rect(cx+4, ly, cx+cw-4, ly+nDown*fDown.lineH), fDown.lineH, matText, true)
		}
		column := func(p render.Pile, cx, top int) {
			n := len(p.Cards)
			x := cx + (cw-g.w)/2
			if n == 0 {
				drawPile(c, sc.Game, render.Pile{Count: p.Count}, pileBox{cw: g.w}, sz, x, top, g.w, feltDeep, false)
				return
			}
			st := steps(p)
			y := top
			for k, cd := range p.Cards {
				c.card(artOf(sc.Game, cd, sz, false), x, y)
				if k < len(st) {
					y += st[k]
				}
			}
		}
		for i, p := range up {
			cx := x0 + i*(cw+colGap)
			column(p, cx, matY-8-colH(p))
		}
		for i, p := range down {
			cx := x0 + i*(cw+colGap)
			column(p, cx, matY+matH+8)
		}
	}
	y = matY + matH
	if len(down) > 0 {
		y += 8 + downH
	}
	return y
}

// seatCols is how many seats go in a row: two, so that a seat's name and
// counts keep their size; a row with one seat left centres it (no empty
// cell).
func seatCols(n int) int { return min(max(n, 1), 2) }

func drawSeats(c *canvas, sc render.Screen, y int) int {
	for r := 0; r*seatCols(len(sc.Seats)) < len(sc.Seats); r++ {
		y = drawSeatRow(c, sc.Game, sc.Seats, r, y)
	}
	return y
}

// drawSeatRow draws row r of the seats (seatCols of them a row, a shorter
// last row centred) from y and returns the y below it and its gap.
func drawSeatRow(c *canvas, game string, seats []render.SeatPart, r, y int) int {
	n := len(seats)
	cols := seatCols(n)
	bw := (inner - (cols-1)*gap) / cols
	first, last := r*cols, min(n, (r+1)*cols)
	x0 := pad + (inner-((last-first)*(bw+gap)-gap))/2
	const countLines = 3
	rowH := 0
	for k := first; k < last; k++ {
		rowH = max(rowH, drawSeat(nil, game, seats[k], 0, 0, bw, 0, countLines))
	}
	for k := first; k < last; k++ {
		x := x0 + (k-first)*(bw+gap)
		drawSeat(c, game, seats[k], x, y, bw, rowH, countLines)
		if c != nil && c.rec != nil {
			c.rec.seats = append(c.rec.seats, image.Rect(x, y, x+bw, y+rowH))
		}
	}
	return y + rowH + gap
}

// drawSeat draws one seat's box w wide and h high (its own height when h is
// 0) and returns its height: the name, marked when the seat acts or is the
// viewer's, and the counts in at most countLines lines. The seat's piles are the words' to tell (a
// chat shows a picture too small for a seat's cards).
func drawSeat(c *canvas, game string, s render.SeatPart, x, y, w, h, countLines int) int {
	const ip = 10
	iw := w - 2*ip
	nameW := iw
	icons := 0
	if s.Acting {
		icons++
	}
	if s.You {
		icons++
	}
	nameW -= icons * 24
	nf, nl := fit(s.Name, seatNameFaces(), nameW, 2)
	cf, cl := wrapItems(s.Counts, seatCountFaces(), iw, countLines)
	body := func(c *canvas, top int) int {
		ty := top + ip
		if c != nil {
			ix := x + ip + 10
			iy := ty + nf.ascent/2 + 2
			if s.Acting {
				c.icon(symPlay, ix, iy, 18, gold)
				ix += 24
			}
			if s.You {
				c.icon(symPerson, ix, iy, 18, youBlue)
			}
		}
		nx := x + ip + icons*24
		ty = c.lines(nf, nl, image.Rect(nx, ty, nx+nameW, ty+len(nl)*nf.lineH), nf.lineH, white, false)
		if len(cl) > 0 {
			ty += 2
			ty = c.lines(cf, cl, image.Rect(x+ip, ty, x+ip+iw, ty+len(cl)*cf.lineH), cf.lineH, soft, false)
		}
		return ty + ip - top
	}
	own := body(nil, y)
	if c == nil {
		return own
	}
	if h == 0 {
		h = own
	}
	box := image.Rect(x, y, x+w, y+h)
	fill := panel
	if s.You {
		fill = panelYou
	}
	switch {
	case s.Acting:
		c.frame(box, 12, 4, gold, fill)
	case s.You:
		c.frame(box, 12, 2, youBlue, fill)
	default:
		c.roundRect(box, 12, fill)
	}
	body(c, y)
	return h
}

// wrapItems sets items on lines joined by " · ", breaking lines between
// items (inside an item only when it alone is too wide), in the first face
// where they fit in maxLines.
func wrapItems(items []string, faces []*face, w, maxLines int) (*face, []string) {
	if len(items) == 0 {
		return faces[0], nil
	}
	const sep = " · "
	try := func(f *face) ([]string, bool) {
		var lines []string
		line := ""
		for _, it := range items {
			if line != "" && f.width(line+sep+it) <= w {
				line += sep + it
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			line = ""
			if f.width(it) <= w {
				line = it
				continue
			}
			ls, ok := f.wrap(it, w)
			if !ok {
				return nil, false
			}
			lines = append(lines, ls[:len(ls)-1]...)
			line = ls[len(ls)-1]
		}
		return append(lines, line), true
	}
	for _, f := range faces {
		if ls, ok := try(f); ok && len(ls) <= maxLines {
			return f, ls
		}
	}
	f := faces[len(faces)-1]
	return f, f.ellipsize(strings.Join(items, sep), w, maxLines)
}

func drawStatus(c *canvas, status []string, y int) int {
	for _, s := range status {
		f, ls := fit(s, countFaces(), inner, 3)
		y = c.lines(f, ls, image.Rect(pad, y, width-pad, y+len(ls)*(f.lineH+2)), f.lineH+2, dim, false)
	}
	if len(status) > 0 {
		y += gap
	}
	return y
}

// drawResult draws the standings and the chart of the totals.
func drawResult(c *canvas, sc render.Screen, y int) int {
	if len(sc.Result) == 0 && sc.Chart == nil {
		return y
	}
	const ip = 14
	body := func(c *canvas, y int) int {
		ty := y + ip
		// The winners only, in a line: the words under the picture hold
		// the standings (a line a seat, too long for a picture a chat
		// shows at 300 px).
		for i, s := range sc.Result[:min(len(sc.Result), 1)] {
			f, ls := fit(s, []*face{faceOf(bold, 20), faceOf(condensedBold, 20), faceOf(condensedBold, 18)}, inner-2*ip, 1)
			col := white
			if i == 0 {
				col = gold
			}
			ty = c.lines(f, ls, image.Rect(pad+ip, ty, width-pad-ip, ty+len(ls)*(f.lineH+2)), f.lineH+2, col, false)
		}
		if sc.Chart != nil && len(sc.Chart.Rounds) > 0 {
			if len(sc.Result) > 0 {
				ty += 10
			}
			plotH := 120 // during the game: the seats matter more
			if len(sc.Result) > 0 {
				plotH = 200
			}
			ty = drawChart(c, sc.Chart, pad+ip, ty, inner-2*ip, plotH)
		}
		return ty + ip
	}
	h := body(nil, y) - y
	if len(sc.Result) > 0 {
		c.frame(image.Rect(pad, y, width-pad, y+h), 12, 2, gold, resultBg)
	} else {
		c.roundRect(image.Rect(pad, y, width-pad, y+h), 12, feltDeep)
	}
	body(c, y)
	return y + h + gap
}
