package chapters

import "github.com/stolik-bot/stolik/render"

// Design: a card's suit is its trait (engine/chapters traitIDs); a card with
// several traits may name them joined ("animal+royal"), the first known one
// gives the style.
func (Presenter) Design() render.Design {
	return render.Design{
		Suits: map[string]render.Style{
			"monster":    {Colour: 0x6c3483, Symbol: render.SymSpikes},
			"magic":      {Colour: 0x148f77, Symbol: render.SymSparkle},
			"villain":    {Colour: 0x922b21, Symbol: render.SymMoon},
			"animal":     {Colour: 0xba6a1c, Symbol: render.SymPaw},
			"child":      {Colour: 0xc27c0e, Symbol: render.SymSun},
			"dwarf":      {Colour: 0x4d5d6b, Symbol: render.SymHat},
			"wonderland": {Colour: 0x2874a6, Symbol: render.SymSpade},
			"royal":      {Colour: 0xa4870a, Symbol: render.SymCrown},
		},
		Plain: render.Style{Colour: 0x7a6140, Symbol: render.SymScroll},
	}
}
