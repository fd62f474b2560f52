package render

// Design is how a game's cards look in pictures, in Stolik's own designs: a
// Style per suit id of Card.Suit, and the style of cards without a suit
// (round cards, princesses, missions). The picture drawer draws it; a game
// states it as data in its own package (render/<game>/design.go).
type Design struct {
	Suits map[string]Style
	Plain Style
	// Small is the size of the game's cards in a seat's piles (zero: the
	// drawer's default).
	Small CardSize
	// WideNames draws a card in a seat's piles that has a name and no value
	// wide enough for its name.
	WideNames bool
	// Columns lays a seat's piles out as columns, each pile's cards fanned
	// downwards (a Courtisans domain, family by family).
	Columns bool
}

// Style is a suit's colour (0xRRGGBB, dark enough for a cream face) and
// symbol.
type Style struct {
	Colour uint32
	Symbol Symbol
}

// CardSize is a card's width and height in pixels, and its symbol's largest
// size.
type CardSize struct{ W, H, Symbol int }

// Symbol names one of the picture drawer's suit symbols.
type Symbol string

// The symbols the picture drawer has.
const (
	SymCircle    Symbol = "circle"
	SymDiamond   Symbol = "diamond"
	SymStar      Symbol = "star"
	SymSparkle   Symbol = "sparkle"
	SymCrown     Symbol = "crown"
	SymHeart     Symbol = "heart"
	SymSpade     Symbol = "spade"
	SymClover    Symbol = "clover"
	SymLeaf      Symbol = "leaf"
	SymDrop      Symbol = "drop"
	SymShield    Symbol = "shield"
	SymGem       Symbol = "gem"
	SymScroll    Symbol = "scroll"
	SymMoon      Symbol = "moon"
	SymSun       Symbol = "sun"
	SymSpikes    Symbol = "spikes"
	SymPaw       Symbol = "paw"
	SymHat       Symbol = "hat"
	SymFish      Symbol = "fish"
	SymBird      Symbol = "bird"
	SymButterfly Symbol = "butterfly"
	SymToad      Symbol = "toad"
	SymHare      Symbol = "hare"
	SymStag      Symbol = "stag"
)
