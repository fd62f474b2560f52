package render

// Where says where a public event is shown on Discord (Words.Where).
type Where int

const (
	// Recent events are listed in the table message's short list of the last
	// moves, which is edited in place: a move that everyone sees on the table
	// needs no message of its own.
	Recent Where = iota
	// Posted events deserve a channel message of their own: results (a round
	// won, the scores, the end of the game) and turning points.
	Posted
	// Unshown events are not shown at all: the table message says them
	// anyway (whose turn it is).
	Unshown
)
