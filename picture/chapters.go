package picture

// 3 Chapters: a card's suit is its trait (engine/chapters traitIDs); a card
// with several traits may name them joined ("animal+royal"), the first
// known one gives the style.
func init() {
	designs["chapters"] = &design{
		suits: map[string]style{
			"monster":    {rgb(0x6c3483), symSpikes},
			"magic":      {rgb(0x148f77), symSparkle},
			"villain":    {rgb(0x922b21), symMoon},
			"animal":     {rgb(0xba6a1c), symPaw},
			"child":      {rgb(0xc27c0e), symSun},
			"dwarf":      {rgb(0x4d5d6b), symHat},
			"wonderland": {rgb(0x2874a6), symSpade},
			"royal":      {rgb(0xa4870a), symCrown},
		},
		plain: style{rgb(0x7a6140), symScroll},
	}
}
