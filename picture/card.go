package picture

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/stolik-bot/stolik/render"
)

// The card sizes: in a seat's piles, in the centre of the table, in a hand.
type size uint8

const (
	small size = iota
	medium
	large
)

type geom struct {
	w, h, rad, border int
	valuePx, namePx   int // 0: no name on the card
	notePx            int // a note's text, and a small card's
	maxLines          int // name and note lines
	symbol            int // the largest symbol
}

// The cards' type is as large as their width allows: a phone shows a
// picture at about 0.6 of its size.
var geoms = [...]geom{
	small:  {w: 60, h: 84, rad: 6, border: 2, valuePx: 22, notePx: 15, symbol: 30},
	medium: {w: 100, h: 140, rad: 8, border: 3, valuePx: 26, namePx: 19, notePx: 17, maxLines: 3, symbol: 38},
	large:  {w: 106, h: 156, rad: 9, border: 3, valuePx: 30, namePx: 20, notePx: 18, maxLines: 4, symbol: 46},
}

// wideSmall is the width of a small card that carries a name only (a
// princess, a round card), in games whose design asks for it.
const wideSmall = 120

// cardW is the width a card of a game takes at a size.
func cardW(game string, c render.Card, sz size) int {
	return widthOf(game, c.Down, c.Value, c.Name, sz)
}

func widthOf(game string, down bool, value, name string, sz size) int {
	d := designOf(game)
	if sz == small && !down && d != nil && d.wideNames && value == "" && name != "" {
		return wideSmall
	}
	return geomOf(game, sz).w
}

// geomOf is the geometry of a game's cards at a size: a design may give
// its small cards another size.
func geomOf(game string, sz size) geom {
	g := geoms[sz]
	if d := designOf(game); d != nil && sz == small && d.small.w > 0 {
		g.w, g.h, g.symbol = d.small.w, d.small.h, d.small.symbol
	}
	return g
}

// A cardImg is a card drawn once: palette indices, coverage (its rounded
// corners), and each row's fully covered span.
type cardImg struct {
	pix, alpha []uint8
	w, h       int
	spans      [][2]int16
	strip      int // the top of the card that tells it
	side       int // the left of the card that tells it
}

type cardKey struct {
	game, suit, value, name, note string
	down, dim                     bool
	sz                            size
	gw, gh                        int // the geometry's size
	// A face cached without its note (drawn over it, see artOf) has note
	// "" and the note's shape here: its face and number of lines.
	noteFace, noteLines int
}

// cards keep about the last 8,192 faces drawn, within 96 MB: every size,
// mark and language of every card a bot draws (a smaller cache kept missing
// at 500 tables, and redrawing faces was a third of the CPU).
var cards = newCache[cardKey](8192, 96<<20, func(c *cardImg) int { return 2*len(c.pix) + 4*len(c.spans) + 128 })

// cardOf is the drawn card's face, from the cache when it was drawn before
// (without its note: see artOf). A card face down is keyed by its size
// only: nothing of its face reaches the picture.
func cardOf(game string, c render.Card, sz size, dim bool) *cardImg {
	return artOf(game, c, sz, dim).face
}

// A cardArt is a card as a picture draws it: its cached face and, over
// it, its note.
type cardArt struct {
	face *cardImg
	note textBlock // f nil: none, or drawn in the face
	dim  bool
}

// notes keep, for the cards with a note drawn over their face, the face
// and where the note goes: the layout of a card with a note is worked out
// once (about the last 16,384 such cards).
var notes = newCache[cardKey, cardArt](16384, 0, nil)

// artOf is the drawn card. A card's note is mostly a player's name (who
// played it to the trick): its face is cached under the note's shape only
// (the face and number of lines its text takes, which decide where the
// rest goes), and the note is drawn over it, so that the cards of a trick
// are drawn once for any players, not once per player.
func artOf(game string, c render.Card, sz size, dim bool) cardArt {
	g := geomOf(game, sz)
	k := cardKey{game: game, suit: c.Suit, value: c.Value, name: c.Name, note: c.Note, dim: dim, sz: sz, gw: g.w, gh: g.h}
	if c.Down {
		k = cardKey{down: true, dim: dim, sz: sz, gw: g.w, gh: g.h}
	}
	if k.note == "" {
		return cardArt{face: cachedFace(k, nil)}
	}
	if a, ok := notes.get(k); ok {
		return a
	}
	L := layoutCard(k)
	a := cardArt{dim: dim}
	fk := k
	fk.note = ""
	for _, b := range L.texts {
		if b.note {
			a.note = b
			fk.noteFace, fk.noteLines = b.f.id, len(b.lines)
		}
	}
	if a.note.f == nil {
		fk.noteFace = -1 // a note that did not fit: the face as laid out with it
	}
	a.face = cachedFace(fk, &L)
	notes.put(k, a)
	return a
}

// cachedFace is the face of key k from the cache, drawn (laid out as L
// when given) when it is not there.
func cachedFace(k cardKey, L *cardLayout) *cardImg {
	if ci, ok := cards.get(k); ok {
		return ci
	}
	var ci *cardImg
	if L != nil {
		ci = drawLaidOut(k, *L)
	} else {
		ci = drawCard(k)
	}
	cards.put(k, ci)
	return ci
}

// A textBlock is lines of text centred on a card.
type textBlock struct {
	f     *face
	lines []string
	top   int
	col   color.RGBA
	note  bool // the card's note: drawn over its cached face, not in it
}

func (b textBlock) h() int {
	if b.f == nil {
		return 0
	}
	return len(b.lines) * b.f.lineH
}

// cardLayout is where the parts of a face go.
type cardLayout struct {
	w, h       int
	pad        int
	st         style
	valueFace  *face
	value      string
	valueRight bool // the value in the top right corner too
	symX, symY int  // the symbol's centre
	symSize    int
	texts      []textBlock
	strip      int // the top of the card that tells it, in a column of cards
	side       int // the left of the card that tells it, in a row of copies
}

// cardText fits a card's text in at most n lines of width w, in the faces
// given, never cutting a word: nil lines when nothing fits.
func cardText(s string, faces []*face, w, n int, col color.RGBA) textBlock {
	if s == "" || n <= 0 {
		return textBlock{}
	}
	f, ls := fit(s, faces, w, n)
	return textBlock{f: f, lines: ls, col: col}
}

// layoutCard places a face's parts: the value in the corners, then on a
// card without a value its note at the top (so that a column of cards shows
// it), the symbol, and the name (and the note of a card with a value) at
// the bottom.
func layoutCard(k cardKey) cardLayout {
	g := geomOf(k.game, k.sz)
	w := widthOf(k.game, k.down, k.value, k.name, k.sz)
	st := styleOf(k.game, k.suit)
	L := cardLayout{w: w, h: g.h, st: st, value: k.value, pad: g.border + 4}
	pad := L.pad
	top, bottom := pad, g.h-pad
	textW := w - 2*(g.border+2)
	if k.value != "" {
		L.valueFace = faceOf(bold, g.valuePx)
		if k.sz != small {
			L.valueRight = true
			for px := g.valuePx; px > 16 && L.valueFace.width(k.value)*2+3*pad > w; px -= 2 {
				L.valueFace = faceOf(bold, px)
			}
		}
		top = pad + L.valueFace.ascent + 3
	}
	cond := []*face{faceOf(regular, g.notePx), faceOf(condensed, g.notePx), faceOf(condensed, g.notePx-1)}
	var head, foot []textBlock
	switch {
	case k.sz == small:
		// A card with a value shows its value and symbol only. A wide card
		// its name under the symbol. Else one short text above the symbol
		// (so that a column of cards shows it): the note, or the name;
		// left out when a word of it does not fit.
		s, lines, col, note := k.note, 1, st.colour, k.note != ""
		if s == "" {
			s, col = k.name, ink
		}
		if w == wideSmall {
			s, lines, col, note = k.name, 3, ink, false
		}
		if k.value != "" {
			s = ""
		}
		if s != "" {
			textW = w - 4
			for _, f := range cond {
				if ls, fits := f.wrap(s, textW); ok(ls, lines, fits) {
					b := textBlock{f: f, lines: ls, col: col, note: note}
					if w == wideSmall {
						foot = append(foot, b)
					} else {
						head = append(head, b)
					}
					break
				}
			}
		}
	case k.value == "":
		// A name-only card: the note at the top, the name in the middle.
		if k.note != "" {
			b := cardText(k.note, cond, textW, 2, st.colour)
			b.note = true
			head = append(head, b)
		}
		names := []*face{faceOf(regular, g.namePx), faceOf(condensed, g.namePx), faceOf(condensed, g.notePx)}
		foot = append(foot, cardText(k.name, names, textW, g.maxLines+1, ink))
	default:
		names := []*face{faceOf(regular, g.namePx), faceOf(condensed, g.namePx), faceOf(condensed, g.notePx)}
		if k.name == k.value {
			k.name = "" // the corners say it
		}
		n := g.maxLines
		if k.note != "" {
			n--
		}
		name := cardText(k.name, names, textW, n, ink)
		foot = append(foot, name)
		b := cardText(k.note, cond, textW, g.maxLines-len(name.lines), st.colour)
		b.note = true
		foot = append(foot, b)
	}
	for _, b := range head {
		if b.f == nil {
			continue
		}
		b.top = top
		top += b.h() + 2
		L.texts = append(L.texts, b)
	}
	L.strip = top
	L.side = w / 3
	if L.valueFace != nil {
		L.side = max(L.side, pad+L.valueFace.width(k.value)+4)
	}
	fh := 0
	for _, b := range foot {
		fh += b.h()
	}
	room := bottom - fh - top - 4
	L.symSize = max(min(g.symbol, room, textW), 0)
	if k.value == "" && len(head) == 0 {
		L.strip = 0 // the symbol tells it: set below
	}
	if k.value == "" && k.sz != small && fh > 0 {
		// Keep the symbol modest and the name in the middle of what is left.
		L.symSize = min(L.symSize, g.symbol*2/3)
	}
	L.symX, L.symY = w/2, top+2+L.symSize/2
	if k.value != "" || fh == 0 {
		L.symY = top + room/2 + 2
	}
	if L.strip == 0 {
		L.strip = L.symY + L.symSize/4
	}
	y := bottom - fh
	if k.value == "" && k.sz != small && fh > 0 {
		y = (L.symY + L.symSize/2 + 4 + bottom - fh) / 2
		y = max(y, L.symY+L.symSize/2+4)
		y = min(y, bottom-fh)
	}
	for _, b := range foot {
		if b.f == nil {
			continue
		}
		b.top = y
		y += b.h()
		L.texts = append(L.texts, b)
	}
	return L
}

// ok reports whether wrapped lines fit: every word, in at most n lines.
func ok(ls []string, n int, fits bool) bool { return fits && len(ls) <= n }

// drawCard draws one card in full colour, then maps it onto the palette.
func drawCard(k cardKey) *cardImg { return drawLaidOut(k, layoutCard(k)) }

// drawLaidOut draws the card of key k laid out as L, leaving out the
// note's text when k has none (the note is then drawn over the face).
func drawLaidOut(k cardKey, L cardLayout) *cardImg {
	g := geomOf(k.game, k.sz)
	g.w, g.h = k.gw, k.gh
	if k.down {
		L = cardLayout{w: g.w, h: g.h}
	}

	w, h := L.w, L.h
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	z := vector.NewRasterizer(w, h)
	shape := func(inset float32, r float32, col color.RGBA) {
		z.Reset(w, h)
		roundPath(z, inset, inset, float32(w)-inset, float32(h)-inset, r)
		z.Draw(dst, dst.Bounds(), image.NewUniform(col), image.Point{})
	}
	if k.down {
		shape(0, float32(g.rad), backFrame)
		inner := image.Rect(g.border+2, g.border+2, w-g.border-2, h-g.border-2)
		z.Reset(w, h)
		roundPath(z, float32(inner.Min.X), float32(inner.Min.Y), float32(inner.Max.X), float32(inner.Max.Y), float32(max(g.rad-3, 2)))
		pat := image.NewRGBA(dst.Bounds())
		step := max(g.w/10, 5)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				u, v := (x+y)/step, (x-y+10*step*100)/step
				col := backDeep
				if (u+v)%2 == 0 {
					col = backLight
				}
				pat.SetRGBA(x, y, col)
			}
		}
		z.Draw(dst, dst.Bounds(), pat, image.Point{})
		s := float32(min(w, h)) * 0.42
		z.Reset(w, h)
		pen{z: z, cx: float32(w) / 2, cy: float32(h) / 2, h: s / 2}.circle(0, 0, 1)
		z.Draw(dst, dst.Bounds(), image.NewUniform(backDeep), image.Point{})
		z.Reset(w, h)
		symSparkle(pen{z: z, cx: float32(w) / 2, cy: float32(h) / 2, h: s * 0.36})
		z.Draw(dst, dst.Bounds(), image.NewUniform(backFrame), image.Point{})
	} else {
		col := L.st.colour
		shape(0, float32(g.rad), col)
		shape(float32(g.border), float32(max(g.rad-g.border, 2)), cream)
		if L.valueFace != nil {
			pad := L.pad
			drawString(dst, L.valueFace, L.value, pad, pad+L.valueFace.ascent, col)
			if L.valueRight {
				drawString(dst, L.valueFace, L.value, w-pad-L.valueFace.width(L.value), pad+L.valueFace.ascent, col)
			}
		}
		if L.symSize > 0 {
			z.Reset(w, h)
			L.st.symbol(pen{z: z, cx: float32(L.symX), cy: float32(L.symY), h: float32(L.symSize) / 2})
			z.Draw(dst, dst.Bounds(), image.NewUniform(col), image.Point{})
		}
		for _, b := range L.texts {
			if b.note && k.note == "" {
				continue
			}
			y := b.top
			for _, line := range b.lines {
				drawString(dst, b.f, line, (w-b.f.width(line))/2, y+b.f.ascent, b.col)
				y += b.f.lineH
			}
		}
	}
	ci := toCardImg(dst, k.dim)
	ci.strip, ci.side = L.strip, L.side
	if k.down {
		ci.strip, ci.side = g.h/6, g.w/3
	}
	return ci
}

// drawString draws s in full colour (only for cards, which are cached):
// font.Drawer{Dst: dst, Src: image.NewUniform(col), Face: f.f, Dot:
// fixed.P(x, y)}.DrawString(s), with the glyphs' masks from the face's
// cache (see glyph) instead of rasterized anew, composited by the same
// draw.DrawMask (TestDrawStringAsDrawer).
func drawString(dst draw.Image, f *face, s string, x, y int, col color.RGBA) {
	src := image.NewUniform(col)
	f.mu.Lock()
	defer f.mu.Unlock()
	dot := fixed.P(x, y)
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			dot.X += f.kernLocked(prev, c)
		}
		prev = c
		if dot.X&63 != 0 || dot.Y&63 != 0 {
			dr, mask, maskp, adv, _ := f.f.Glyph(dot, c)
			if !dr.Empty() {
				draw.DrawMask(dst, dr, src, image.Point{}, mask, maskp, draw.Over)
			}
			dot.X += adv
			continue
		}
		g := f.glyphLocked(c)
		if !g.dr.Empty() {
			w, h := g.dr.Dx(), g.dr.Dy()
			m := &image.Alpha{Pix: g.mask, Stride: w, Rect: image.Rect(0, 0, w, h)}
			draw.DrawMask(dst, g.dr.Add(image.Pt(int(dot.X>>6), int(dot.Y>>6))), src, image.Point{}, m, image.Point{}, draw.Over)
		}
		dot.X += g.adv
	}
}

// roundPath adds a rounded rectangle to z.
func roundPath(z *vector.Rasterizer, x0, y0, x1, y1, r float32) {
	const k = 0.4477 // 1 - 0.5523
	z.MoveTo(x0+r, y0)
	z.LineTo(x1-r, y0)
	z.CubeTo(x1-r*k, y0, x1, y0+r*k, x1, y0+r)
	z.LineTo(x1, y1-r)
	z.CubeTo(x1, y1-r*k, x1-r*k, y1, x1-r, y1)
	z.LineTo(x0+r, y1)
	z.CubeTo(x0+r*k, y1, x0, y1-r*k, x0, y1-r)
	z.LineTo(x0, y0+r)
	z.CubeTo(x0, y0+r*k, x0+r*k, y0, x0+r, y0)
	z.ClosePath()
}

// toCardImg maps a drawn card onto the palette, dimmed if asked.
func toCardImg(src *image.RGBA, dim bool) *cardImg {
	p := thePalette()
	w, h := src.Rect.Dx(), src.Rect.Dy()
	ci := &cardImg{pix: make([]uint8, w*h), alpha: make([]uint8, w*h), w: w, h: h, spans: make([][2]int16, h)}
	for y := 0; y < h; y++ {
		l, r := -1, -1
		for x := 0; x < w; x++ {
			o := y*src.Stride + 4*x
			a := src.Pix[o+3]
			i := y*w + x
			ci.alpha[i] = a
			if a == 0 {
				continue
			}
			un := func(v uint8) uint8 { return uint8(min(int(v)*255/int(a), 255)) }
			c := color.RGBA{un(src.Pix[o]), un(src.Pix[o+1]), un(src.Pix[o+2]), 0xff}
			if dim {
				c = dimmed(c)
			}
			ci.pix[i] = p.idx(c)
			if a == 255 && l < 0 {
				l = x
			}
			if a == 255 && l >= 0 && r < 0 && (x+1 == w || src.Pix[o+7] != 255) {
				r = x + 1
			}
		}
		if l < 0 {
			l, r = 0, 0
		}
		ci.spans[y] = [2]int16{int16(l), int16(r)}
	}
	return ci
}
