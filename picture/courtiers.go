package picture

// Courtisans: six families of courtiers (engine/courtiers familyWords), the
// queen's column, and missions as name-only cards.
func init() {
	designs["courtiers"] = &design{
		suits: map[string]style{
			"butterfly":   {rgb(0x8e44ad), symButterfly},
			"toad":        {rgb(0x2e8540), symToad},
			"nightingale": {rgb(0xb7791f), symBird},
			"hare":        {rgb(0x6d7b85), symHare},
			"stag":        {rgb(0xa93226), symStag},
			"carp":        {rgb(0x2471a3), symFish},
			"queen":       {rgb(0xb8860b), symCrown},
			"mission":     {rgb(0x6b4f2a), symScroll},
		},
		plain: style{rgb(0x6b4f2a), symScroll},
		// A domain holds many cards: small ones, low, with room for a role
		// above the family's symbol ("skrytobójca"), in a column a family.
		small:   cardSize{w: 80, h: 64, symbol: 26},
		columns: true,
	}
}
