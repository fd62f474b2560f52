package render

import "github.com/stolik-bot/stolik/engine"

// Where says where a public event is shown on Discord.
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

// EventPlacer is implemented by the renderers that say where each of their
// public events is shown. The bot posts every public event of the other
// renderers, apart from the few it knows the table message shows.
type EventPlacer interface {
	Where(e engine.Event) Where
}
