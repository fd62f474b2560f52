package courtiers

import "github.com/stolik-bot/stolik/render"

// Design: six families of courtiers (engine/courtiers familyWords), the
// queen's column, and missions as name-only cards.
func (Presenter) Design() render.Design {
	return render.Design{
		Suits: map[string]render.Style{
			"butterfly":   {Colour: 0x8e44ad, Symbol: render.SymButterfly},
			"toad":        {Colour: 0x2e8540, Symbol: render.SymToad},
			"nightingale": {Colour: 0xb7791f, Symbol: render.SymBird},
			"hare":        {Colour: 0x6d7b85, Symbol: render.SymHare},
			"stag":        {Colour: 0xa93226, Symbol: render.SymStag},
			"carp":        {Colour: 0x2471a3, Symbol: render.SymFish},
			"queen":       {Colour: 0xb8860b, Symbol: render.SymCrown},
			"mission":     {Colour: 0x6b4f2a, Symbol: render.SymScroll},
		},
		Plain: render.Style{Colour: 0x6b4f2a, Symbol: render.SymScroll},
		// A domain holds many cards: small ones, low, with room for a role
		// above the family's symbol ("skrytobójca"), in a column a family;
		// seven columns side by side on the queen's table.
		Small:   render.CardSize{W: 56, H: 60, Symbol: 24},
		Columns: true,
	}
}
