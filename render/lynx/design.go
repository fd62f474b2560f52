package lynx

import (
	"strconv"

	"github.com/stolik-bot/stolik/render"
)

// Design: cards 1 to 13, coloured by value around the colour wheel, and the
// joker X.
func (Presenter) Design() render.Design {
	d := render.Design{
		Suits: map[string]render.Style{"X": {Colour: 0xb8860b, Symbol: render.SymStar}},
		Plain: render.Style{Colour: 0x5d6d7e, Symbol: render.SymPaw},
	}
	for v, c := range colours {
		d.Suits[strconv.Itoa(v+1)] = render.Style{Colour: c, Symbol: render.SymPaw}
	}
	return d
}

// colours are the values' colours, 1 to 13: thirteen hues apart, all dark
// enough for a cream face; 13, the highest, is nearly black.
var colours = [...]uint32{
	0x1f6fb2, 0xc0392b, 0x1e8449, 0x8e44ad, 0xb9770e, 0x117a8b, 0xa93265,
	0x5b7f14, 0x34495e, 0xd35400, 0x7a4a1f, 0x3f3fa0, 0x2b2b2b,
}
