package store

import "github.com/stolik-bot/stolik/store/record"

// The records the bot keeps beside a table's log live in package record,
// which names no backend. These aliases keep older callers compiling; new
// code names package record.
type (
	// Meta is record.Meta.
	Meta = record.Meta
	// SeatFlags is record.SeatFlags.
	SeatFlags = record.SeatFlags
	// Deadline is record.Deadline.
	Deadline = record.Deadline
	// Result is record.Result.
	Result = record.Result
	// GameStat is record.GameStat.
	GameStat = record.GameStat
	// PlayerStat is record.PlayerStat.
	PlayerStat = record.PlayerStat
	// OpenTable is record.OpenTable.
	OpenTable = record.OpenTable
)
