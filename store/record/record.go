// Package record holds the plain records the bot keeps beside a table's
// log — its settings, seat flags, deadlines, results and statistics — as
// every store backend (SQLite in store/sqlite, PostgreSQL in
// store/postgres) reads and writes them. It names no backend, so that the
// bot's Store interface does not depend on one.
package record

import (
	"time"

	"github.com/stolik-bot/stolik/engine"
)

// Meta is what the Discord front end keeps about a table besides its
// record: the time per decision, the thread the game lives in, and whether
// an AI ever stood in for a player.
type Meta struct {
	Deadline   time.Duration // 0: no deadline
	WantThread bool          // play in a thread once the game starts
	ThreadID   string
	StandIns   bool
	// AILevel is the level of the AI players added to the table (ai.Easy,
	// ai.Normal, ai.Hard); "" for the host's default.
	AILevel string
}

// SeatFlags are the front end's flags of one seat.
type SeatFlags struct {
	Vacant  bool // the player left or was replaced: anyone may take the seat
	StandIn bool // an AI played this seat for a player at some point
}

// Deadline is the clock of one human seat that must act.
type Deadline struct {
	TableID    string
	Seat       engine.Seat
	StartedAt  time.Time
	RemindAt   time.Time
	DueAt      time.Time
	RemindedAt time.Time // zero: the reminder was not sent yet
	ExpiredAt  time.Time // zero: the deadline has not been handled yet
}

// Result is one seat's outcome of a finished game.
type Result struct {
	TableID    string
	Seat       engine.Seat
	UserID     string // "" for AI seats
	Score      int
	Won        bool
	Game       string
	StandIn    bool
	FinishedAt time.Time
}

// GameStat is a server's count of finished games of one game.
type GameStat struct {
	Game     string
	Games    int
	StandIns int // games in which an AI stood in for a player
}

// PlayerStat is one player's record in one game.
type PlayerStat struct {
	Game     string
	Played   int
	Won      int
	AvgScore float64
	StandIns int // games in which the player's seat had a stand-in
}

// OpenTable is an open table as start-up needs it: whether an AI sits at
// it and when it last changed.
type OpenTable struct {
	ID        string
	UpdatedAt time.Time
	HasAI     bool
}
