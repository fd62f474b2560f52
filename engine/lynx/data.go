package lynx

// Mode is a rule set of the game (table option "mode").
type Mode uint8

// The modes of seed 002.
const (
	Basic Mode = iota
	Advanced
	Expert
)

var modeNames = [...]string{Basic: "basic", Advanced: "advanced", Expert: "expert"}

func (m Mode) String() string { return modeNames[m] }

func parseMode(s string) (Mode, bool) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), true
		}
	}
	return 0, false
}

// modeRules is what a mode changes, as data: the trick loop reads these
// flags and never the mode itself.
type modeRules struct {
	drawWhenNoSteal bool // basic: a player who stole nothing may take 1 card
	onesStealHigh   bool // expert: 1s steal 13s and jokers played alone
}

var modeTable = [...]modeRules{
	Basic:    {drawWhenNoSteal: true},
	Advanced: {},
	Expert:   {onesStealHigh: true},
}

func (m Mode) rules() modeRules { return modeTable[m] }

// Sizes of the game.
const (
	handSize     = 13 // cards dealt to each player
	duelJokers   = 2  // jokers each duel player takes before the deal
	poolSize     = 6  // places in the pool
	virtualSize  = 13 // cards in the virtual player's row
	maxHighValue = 13 // the value the virtual row never holds, nor the joker
)
