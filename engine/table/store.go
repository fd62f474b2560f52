// Package table is the table service: a table is a game, its options, its
// seats, a secret seed and an ordered action log. Loading a table replays its
// log; acting validates the action, appends it to the store in one
// transaction guarded by the expected log length, and only then returns the
// events. Actions on one table are serialized (one writer per table).
package table

import (
	"context"
	"errors"
	"time"

	"github.com/stolik-bot/stolik/engine"
)

// Status of a table.
type Status string

const (
	StatusLobby     Status = "lobby"
	StatusPlaying   Status = "playing"
	StatusFinished  Status = "finished"
	StatusAbandoned Status = "abandoned"
)

// SeatKind says who sits in a seat.
type SeatKind string

const (
	Human SeatKind = "human"
	AI    SeatKind = "ai"
)

// SeatInfo is one seat of a table.
type SeatInfo struct {
	Seat   engine.Seat
	Kind   SeatKind
	UserID string // for humans: the platform's user id; "" for AI
	Name   string // display name at the time of joining
	Bot    string // for AI seats: the bot kind ("heuristic", "random")
}

// Record is a stored table without its log.
type Record struct {
	ID        string
	Setup     engine.Setup
	Status    Status
	Seats     []SeatInfo
	Lang      string // the table's language for public messages
	GuildID   string
	ChannelID string
	MessageID string // the public table message
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Entry is one stored log entry.
type Entry struct {
	N      int // 0-based position in the log
	Seat   engine.Seat
	Action string
	At     time.Time
}

// ErrConflict is returned by Store.Append when the log is not at the expected
// length: another writer got there first.
var ErrConflict = errors.New("table: log length conflict")

// ErrNotFound is returned when no table has the id.
var ErrNotFound = errors.New("table: not found")

// ErrExists is returned by Store.Create when the id is already taken.
var ErrExists = errors.New("table: id already exists")

// ErrChannelTaken is returned by Store.Create for an open table (in the
// lobby or played) in a channel that has one already: one open table per
// channel, whichever process opens it.
var ErrChannelTaken = errors.New("table: the channel has an open table")

// Store is what the table service needs from persistence.
type Store interface {
	// Create stores a new table with its seats, failing with ErrExists when
	// the id is taken, and with ErrChannelTaken when the table is open (in
	// the lobby or played) and its channel has an open table already.
	Create(ctx context.Context, rec Record) error
	// Load returns a table and its whole log in order, failing with
	// ErrNotFound for an unknown id and with a *CorruptError for rows that
	// cannot be decoded.
	Load(ctx context.Context, id string) (Record, []Entry, error)
	// Append adds e at position e.N in one transaction, failing with
	// ErrConflict unless the log has exactly e.N entries (ErrNotFound for an
	// unknown table); the table's update time becomes e.At and its status,
	// when not empty, is stored in the same transaction.
	Append(ctx context.Context, id string, e Entry, status Status) error
	// Update stores a table's record (status, seats, message ids, language),
	// failing with ErrNotFound for an unknown id.
	Update(ctx context.Context, rec Record) error
	// Open lists the ids of tables that are in the lobby or being played.
	Open(ctx context.Context) ([]string, error)
}

// Stamp is what a store reports cheaply about a stored table: the length of
// its log and the number of changes made to its record since it was created.
// Every Append changes LogLen and every Update changes Rev, whichever
// process made them, so that a service keeping the table in memory knows
// from the stamp alone whether its copy is still the stored table.
type Stamp struct {
	LogLen int
	Rev    int64
}

// Stamper is a Store that can report a table's Stamp without loading it,
// failing with ErrNotFound for an unknown id. A Service made WithSharedStore
// reads it before serving a table from its cache.
type Stamper interface {
	Stamp(ctx context.Context, id string) (Stamp, error)
}
