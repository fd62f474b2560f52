package picture

import (
	"image/color"
	"strconv"
)

// Lynx (Abluxxen): cards 1 to 13, coloured by value around the colour
// wheel, and the joker X.
func init() {
	d := &design{suits: map[string]style{}, plain: style{rgb(0x5d6d7e), symPaw}}
	for v := 1; v <= 13; v++ {
		d.suits[strconv.Itoa(v)] = style{lynxColour(v), symPaw}
	}
	d.suits["X"] = style{rgb(0xb8860b), symStar}
	designs["lynx"] = d
}

// lynxColours are the values' colours, 1 to 13: thirteen hues apart, all
// dark enough for a cream face; 13, the highest, is nearly black.
var lynxColours = [...]uint32{
	0x1f6fb2, 0xc0392b, 0x1e8449, 0x8e44ad, 0xb9770e, 0x117a8b, 0xa93265,
	0x5b7f14, 0x34495e, 0xd35400, 0x7a4a1f, 0x3f3fa0, 0x2b2b2b,
}

func lynxColour(v int) color.RGBA { return rgb(lynxColours[v-1]) }
