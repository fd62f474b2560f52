package picture

import (
	"sync"

	"hash/fnv"
	"image/color"
	"maps"
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/render"
)

// A style is how the cards of one suit or family look: their colour and
// their symbol.
type style struct {
	colour color.RGBA
	symbol symbol
}

// A design is one game's card designs, as the drawer uses them: the game's
// render.Design (stated in its own package) with its symbols resolved.
type design struct {
	suits map[string]style
	plain style
	// small is the size of the game's cards in a seat's piles (zero: the
	// default); wideNames draws a card there that has a name and no value
	// wide enough for its name.
	small     cardSize
	wideNames bool
	// columns lays a seat's piles out as columns, each pile's cards fanned
	// downwards (a Courtisans domain, family by family).
	columns bool
}

// cardSize is a card's width and height, and its symbol's largest size.
type cardSize struct{ w, h, symbol int }

// designs are the games' designs by game id, resolved once.
var designs sync.Map // game id → *design (nil for a game without one)

// designOf is a game's design; nil for a game not registered.
func designOf(game string) *design {
	if d, ok := designs.Load(game); ok {
		return d.(*design)
	}
	var d *design
	if g, ok := render.For(game); ok {
		rd := g.Design()
		d = &design{suits: map[string]style{}, plain: styleFrom(rd.Plain), wideNames: rd.WideNames, columns: rd.Columns,
			small: cardSize{w: rd.Small.W, h: rd.Small.H, symbol: rd.Small.Symbol}}
		for k, s := range rd.Suits {
			d.suits[k] = styleFrom(s)
		}
	}
	got, _ := designs.LoadOrStore(game, d)
	return got.(*design)
}

// styleFrom resolves a style's symbol; a symbol the drawer lacks is drawn
// as a circle.
func styleFrom(s render.Style) style {
	sym, ok := symbols[s.Symbol]
	if !ok {
		sym = symCircle
	}
	return style{rgb(s.Colour), sym}
}

// fallback are the colours of suit ids no design knows, picked by a hash of
// the id so that a suit keeps its colour from picture to picture.
var fallback = []style{
	{rgb(0xc0392b), symCircle}, {rgb(0x2471a3), symDiamond}, {rgb(0x1e8449), symLeaf},
	{rgb(0xb9770e), symStar}, {rgb(0x7d3c98), symHeart}, {rgb(0x138d90), symDrop},
	{rgb(0xa04000), symShield}, {rgb(0x5b6770), symGem},
}

// neutral is the style of a suitless card in a game without a design.
var neutral = style{rgb(0x8a6d3b), symScroll}

// colours lists the colours of a design, for the palette.
func (d *design) colours() []color.RGBA {
	var out []color.RGBA
	for _, k := range slices.Sorted(maps.Keys(d.suits)) {
		out = append(out, d.suits[k].colour)
	}
	return append(out, d.plain.colour)
}

// paletteExtra are colours outside any design that the palette must hold.
func paletteExtra() []color.RGBA {
	out := []color.RGBA{neutral.colour}
	for _, s := range fallback {
		out = append(out, s.colour)
	}
	return out
}

// styleOf is the style of a card's suit in a game: the game's own, else the
// first known part of a composite id ("animal+royal"), else a colour from
// the id's hash.
func styleOf(game, suit string) style {
	d := designOf(game)
	if suit == "" {
		if d == nil {
			return neutral
		}
		return d.plain
	}
	if d != nil {
		if s, ok := d.suits[suit]; ok {
			return s
		}
		for _, part := range strings.FieldsFunc(suit, func(r rune) bool { return strings.ContainsRune("+,/ |;", r) }) {
			if s, ok := d.suits[part]; ok {
				return s
			}
		}
	}
	h := fnv.New32a()
	h.Write([]byte(suit))
	return fallback[h.Sum32()%uint32(len(fallback))]
}
