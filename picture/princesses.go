package picture

// Rebel Princess: four suits of twelve, and round cards and princesses as
// name-only cards.
func init() {
	designs["princesses"] = &design{
		suits: map[string]style{
			"Q": {rgb(0x7b3fa0), symCrown},   // Queens
			"F": {rgb(0x138d75), symSparkle}, // Fairies
			"A": {rgb(0xc85a12), symPaw},     // Animals (pets)
			"P": {rgb(0x2461a8), symShield},  // Princes
			// Cards the screen may name by kind.
			"princess": {rgb(0xc2185b), symHeart},
			"round":    {rgb(0x8a6d3b), symScroll},
		},
		plain:     style{rgb(0x8a6d3b), symScroll},
		wideNames: true, // a princess in front of a seat shows her name
	}
}
