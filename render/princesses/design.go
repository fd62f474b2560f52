package princesses

import "github.com/stolik-bot/stolik/render"

// Design: four suits of twelve, and round cards and princesses as name-only
// cards.
func (Presenter) Design() render.Design {
	return render.Design{
		Suits: map[string]render.Style{
			"Q": {Colour: 0x7b3fa0, Symbol: render.SymCrown},   // Queens
			"F": {Colour: 0x138d75, Symbol: render.SymSparkle}, // Fairies
			"A": {Colour: 0xc85a12, Symbol: render.SymPaw},     // Animals (pets)
			"P": {Colour: 0x2461a8, Symbol: render.SymShield},  // Princes
			// Cards the screen may name by kind.
			"princess": {Colour: 0xc2185b, Symbol: render.SymHeart},
			"round":    {Colour: 0x8a6d3b, Symbol: render.SymScroll},
		},
		Plain:     render.Style{Colour: 0x8a6d3b, Symbol: render.SymScroll},
		WideNames: true, // a princess in front of a seat shows her name
	}
}
