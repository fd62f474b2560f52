package picture

import (
	"hash/fnv"
	"image/color"
	"maps"
	"slices"
	"strings"
)

// A style is how the cards of one suit or family look: their colour and
// their symbol.
type style struct {
	colour color.RGBA
	symbol symbol
}

// A design is one game's card designs, kept in one file per game
// (princesses.go, lynx.go, chapters.go, courtiers.go): a style per suit id
// of render.Card.Suit, and the style of cards without a suit (round cards,
// princesses, missions).
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

// designs are the games' designs by game id.
var designs = map[string]*design{}

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
	d := designs[game]
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
