// Package storetest is the conformance suite every store backend passes:
// the SQLite store (package store) and the PostgreSQL store (package
// store/postgres) run it from their tests.
//
//	storetest.Run(t, func(t *testing.T) storetest.Backend { ... a new, empty store ... })
//
// Backend lists the methods a backend offers: table.Store, everything the
// bot's Store needs, and what the commands use (integrity checks, marks,
// the schema version). It is the backend-neutral contract.
//
// Backends may keep times less precisely than the SQLite store (which keeps
// nanoseconds): PostgreSQL keeps microseconds. The suite compares times at
// Precision and requires a stored time to come back in UTC, truncated
// (never rounded up) to at most that precision.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// Precision is the coarsest precision at which a backend may keep times.
const Precision = time.Microsecond

// Backend is a store: what the table service, the bot and the commands
// need from persistence, with the semantics the suite checks.
type Backend interface {
	table.Store

	InChannel(ctx context.Context, channelID string) ([]string, error)
	LastInChannel(ctx context.Context, channelID string) (string, error)
	UserLang(ctx context.Context, userID string) (string, error)
	SetUserLang(ctx context.Context, userID, lang string) error
	DMReminders(ctx context.Context, userID string) (bool, error)
	SetDMReminders(ctx context.Context, userID string, on bool) error

	Meta(ctx context.Context, id string) (store.Meta, error)
	SetMeta(ctx context.Context, id string, m store.Meta) error
	SeatFlags(ctx context.Context, id string) (map[engine.Seat]store.SeatFlags, error)
	SetSeatFlags(ctx context.Context, id string, seat engine.Seat, f store.SeatFlags) error

	Deadlines(ctx context.Context, id string) ([]store.Deadline, error)
	PutDeadline(ctx context.Context, dl store.Deadline) error
	DeleteDeadline(ctx context.Context, id string, seat engine.Seat) error
	DueDeadlines(ctx context.Context, now time.Time) ([]store.Deadline, error)
	NextDue(ctx context.Context) (time.Time, bool, error)
	MarkReminded(ctx context.Context, dl store.Deadline, at time.Time) (bool, error)
	MarkExpired(ctx context.Context, dl store.Deadline, at time.Time) (bool, error)

	Vote(ctx context.Context, id, topic, voter, choice string, at time.Time) (bool, error)
	Votes(ctx context.Context, id, topic string) (map[string]string, error)
	ClearVotes(ctx context.Context, id, topic string) error

	RecordResults(ctx context.Context, rs []store.Result) error
	GuildStats(ctx context.Context, guildID string) ([]store.GameStat, error)
	PlayerStats(ctx context.Context, guildID, userID string) ([]store.PlayerStat, error)
	CurrentTables(ctx context.Context, guildID, userID string) (int, error)
	OpenTables(ctx context.Context) ([]store.OpenTable, error)
	EndedSince(ctx context.Context, since time.Time) ([]string, error)

	MarkCorrupt(ctx context.Context, id, reason string) error
	MarkedCorrupt(ctx context.Context) ([]store.CorruptTable, error)
	LogMismatches(ctx context.Context) ([]store.LogMismatch, error)
	Check(ctx context.Context, full bool) ([]string, error)
	SchemaVersion(ctx context.Context) (int, error)
	Close() error
}

// RawDeleter is offered by a backend's test adapter to delete log rows
// behind the store's back — what a damaged disk, a restore that missed
// rows or a stray DELETE does. The suite checks that the store then
// refuses the table instead of serving a shorter log.
type RawDeleter interface {
	// DeleteLogRows deletes the entries of table id at positions from <= n < to.
	DeleteLogRows(ctx context.Context, id string, from, to int) error
}

// RawEditor is offered by a backend's test adapter to change rows behind
// the store's back.
type RawEditor interface {
	// UpdateLogRow changes the action of entry n of table id in place, as
	// SQL's UPDATE would: the backend's schema must refuse it (the log is
	// append-only) and the error says "append-only".
	UpdateLogRow(ctx context.Context, id string, n int, action string) error
	// SetLogLen sets the recorded log length of table id.
	SetLogLen(ctx context.Context, id string, n int) error
}

// Reopener is offered by a backend's test adapter to open another handle
// on the same database, as another process would (or as the same process
// after a restart). The handle is closed when the test ends.
type Reopener interface {
	Reopen(t *testing.T) Backend
}
