package picture

import (
	"image/color"
	"sync"

	"github.com/stolik-bot/stolik/render"
)

// The colours of the table around the cards.
var (
	felt      = rgb(0x1d4a38) // the table
	feltDeep  = rgb(0x163a2c) // the centre of the table
	panel     = rgb(0x27604a) // a seat
	panelYou  = rgb(0x24536b) // the viewer's seat
	white     = rgb(0xffffff)
	soft      = rgb(0xdce9e2) // counts, labels
	dim       = rgb(0xa6c2b4) // status lines, empty places
	gold      = rgb(0xf4c542) // who acts; a playable card
	youBlue   = rgb(0x8fd0ff) // the viewer's mark
	cream     = rgb(0xfffaf0) // a card's face
	ink       = rgb(0x262626) // text on a card
	inkSoft   = rgb(0x5c5c5c) // a card's note
	outline   = rgb(0x3a3a3a) // a card's edge
	backDeep  = rgb(0x2f3676) // a card's back
	backLight = rgb(0x4f59b3)
	backFrame = rgb(0xe9e1cc)
	mat       = rgb(0x6e2b3c) // the Courtisans queen's mat
	matText   = rgb(0xf6dca0)
	resultBg  = rgb(0x12301f)
	chartBg   = rgb(0x10281c)
	grid      = rgb(0x2f5a47)
	shade     = rgb(0x0f2a1f) // under a card stack
)

// seatColours are the lines of the chart, one per seat.
var seatColours = []color.RGBA{
	rgb(0xf4c542), rgb(0x8fd0ff), rgb(0xff8a80), rgb(0xb4e08a), rgb(0xd7a6ff), rgb(0xffb870),
	rgb(0x80e5d0), rgb(0xf0f0f0),
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// mix is a + (b-a)·t, t in 0..255.
func mix(a, b color.RGBA, t int) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8((int(x)*(255-t) + int(y)*t + 127) / 255) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 0xff}
}

// dimmed is a card colour as drawn for a card that may not be played now.
func dimmed(c color.RGBA) color.RGBA { return mix(c, felt, 150) }

// thePalette is the one palette of every picture, and the table that maps
// any colour to its nearest entry (5 bits a channel).
type paletteTable struct {
	colours color.Palette
	rgba    []color.RGBA
	lut     []uint8 // 32×32×32
	index   map[color.RGBA]uint8
}

var (
	palOnce sync.Once
	pal     *paletteTable
)

func thePalette() *paletteTable {
	palOnce.Do(func() { pal = buildPalette() })
	return pal
}

// idx is the palette index of a colour: exact for the colours the palette
// was built from, else the nearest entry.
func (p *paletteTable) idx(c color.RGBA) uint8 {
	if i, ok := p.index[c]; ok {
		return i
	}
	return p.near(c.R, c.G, c.B)
}

func (p *paletteTable) near(r, g, b uint8) uint8 {
	return p.lut[int(r>>3)<<10|int(g>>3)<<5|int(b>>3)]
}

// blend is the palette index of colour c over the palette colour under, with
// coverage a (0..255).
func (p *paletteTable) blend(under uint8, c color.RGBA, a uint8) uint8 {
	u := p.rgba[under]
	t := int(a)
	m := func(x, y uint8) uint8 { return uint8((int(x)*(255-t) + int(y)*t + 127) / 255) }
	return p.near(m(u.R, c.R), m(u.G, c.G), m(u.B, c.B))
}

func dist(a, b color.RGBA) int {
	// A weighted RGB distance ("redmean"), good enough to pick neighbours.
	rm := (int(a.R) + int(b.R)) / 2
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return ((512+rm)*dr*dr)>>8 + 4*dg*dg + ((767-rm)*db*db)>>8
}

// buildPalette makes the palette from the colours the pictures use: the
// table's colours, every design's suit colours as drawn and dimmed, then
// the blends that anti-aliased edges and text produce between them, as many
// as fit, and a coarse colour cube for anything else.
func buildPalette() *paletteTable {
	var pins []color.RGBA
	seen := map[color.RGBA]bool{}
	pin := func(cs ...color.RGBA) {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				pins = append(pins, c)
			}
		}
	}
	ui := []color.RGBA{felt, feltDeep, panel, panelYou, white, soft, dim, gold, youBlue, cream, ink, inkSoft,
		outline, backDeep, backLight, backFrame, mat, matText, resultBg, chartBg, grid, shade, rgb(0)}
	pin(ui...)
	pin(seatColours...)
	var suitCols []color.RGBA
	for _, g := range render.Games() {
		suitCols = append(suitCols, designOf(g).colours()...)
	}
	suitCols = append(suitCols, paletteExtra()...)
	pin(suitCols...)
	pin(dimmed(cream), dimmed(ink), dimmed(outline), dimmed(inkSoft))
	for _, c := range suitCols {
		pin(dimmed(c))
	}
	// Blends, most visible first: text on the table and the seats, text and
	// symbols on a card's face, then the dimmed faces.
	var cands []color.RGBA
	ramp := func(a, b color.RGBA, n int) {
		for i := 1; i <= n; i++ {
			cands = append(cands, mix(a, b, 255*i/(n+1)))
		}
	}
	for _, bg := range []color.RGBA{felt, panel, panelYou, feltDeep, resultBg, mat} {
		ramp(bg, white, 5)
		ramp(bg, soft, 3)
		ramp(bg, gold, 3)
	}
	ramp(felt, dim, 3)
	ramp(mat, matText, 3)
	ramp(cream, ink, 5)
	ramp(cream, inkSoft, 3)
	ramp(cream, outline, 2)
	for _, c := range suitCols {
		ramp(cream, c, 3)
	}
	ramp(backDeep, backLight, 2)
	ramp(backDeep, backFrame, 2)
	for _, c := range suitCols {
		ramp(dimmed(cream), dimmed(c), 2)
	}
	ramp(dimmed(cream), dimmed(ink), 3)
	for _, bg := range []color.RGBA{felt, panel, feltDeep} {
		ramp(bg, outline, 2)
		ramp(bg, gold, 2)
	}
	for i := 0; i < 16; i++ {
		v := uint8(i * 17)
		cands = append(cands, color.RGBA{v, v, v, 0xff})
	}
	for r := 0; r < 5; r++ {
		for g := 0; g < 5; g++ {
			for b := 0; b < 5; b++ {
				cands = append(cands, color.RGBA{uint8(r * 63), uint8(g * 63), uint8(b * 63), 0xff})
			}
		}
	}
	if len(pins) > 256 {
		panic("picture: more than 256 pinned colours")
	}
	free := 256 - len(pins)
	// The smallest spacing at which the candidates left fit.
	pick := func(th int) []color.RGBA {
		var got []color.RGBA
		for _, c := range cands {
			ok := true
			for _, p := range pins {
				if dist(c, p) < th {
					ok = false
					break
				}
			}
			for _, p := range got {
				if !ok || dist(c, p) < th {
					ok = false
					break
				}
			}
			if ok {
				got = append(got, c)
				if len(got) > free {
					return got
				}
			}
		}
		return got
	}
	lo, hi := 1, 1<<16
	for lo < hi {
		mid := (lo + hi) / 2
		if len(pick(mid)) <= free {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	all := append(pins, pick(lo)...)
	p := &paletteTable{rgba: all, index: map[color.RGBA]uint8{}}
	for i, c := range all {
		p.colours = append(p.colours, c)
		if _, ok := p.index[c]; !ok {
			p.index[c] = uint8(i)
		}
	}
	p.lut = make([]uint8, 32*32*32)
	for i := range p.lut {
		c := color.RGBA{uint8(i>>10)<<3 | 4, uint8(i>>5&31)<<3 | 4, uint8(i&31)<<3 | 4, 0xff}
		best, bd := 0, 1<<62
		for j, q := range all {
			if d := dist(c, q); d < bd {
				best, bd = j, d
			}
		}
		p.lut[i] = uint8(best)
	}
	// A pinned colour always maps to itself, whatever its neighbours.
	for i, c := range pins {
		p.lut[int(c.R>>3)<<10|int(c.G>>3)<<5|int(c.B>>3)] = uint8(i)
	}
	return p
}
