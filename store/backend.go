// Package store is the store's contract, shared by its two adapters: the
// SQLite store (store/sqlite, the embedded default) and the PostgreSQL
// store (store/postgres). It holds what both need and no database driver:
// the interface every backend offers (Backend), the error values callers
// match, the records of the integrity checks, the validation of a table's
// record and of its stored rows, and the loader of the numbered migrations.
// The records the bot keeps beside a table's log are in store/record; the
// conformance suite every backend passes is store/storetest.
//
// A program that uses only the PostgreSQL adapter imports neither
// store/sqlite nor go-sqlite3, and builds with CGO_ENABLED=0.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// Backend is a store: what the table service, the bot and the commands
// need from persistence. Every backend offers it with the same semantics
// and the same error values; the conformance suite (store/storetest)
// checks them against it.
type Backend interface {
	table.Store
	table.Stamper

	InChannel(ctx context.Context, channelID string) ([]string, error)
	LastInChannel(ctx context.Context, channelID string) (string, error)
	UserLang(ctx context.Context, userID string) (string, error)
	SetUserLang(ctx context.Context, userID, lang string) error
	DMReminders(ctx context.Context, userID string) (bool, error)
	SetDMReminders(ctx context.Context, userID string, on bool) error

	Meta(ctx context.Context, id string) (record.Meta, error)
	SetMeta(ctx context.Context, id string, m record.Meta) error
	SeatFlags(ctx context.Context, id string) (map[engine.Seat]record.SeatFlags, error)
	SetSeatFlags(ctx context.Context, id string, seat engine.Seat, f record.SeatFlags) error

	Deadlines(ctx context.Context, id string) ([]record.Deadline, error)
	PutDeadline(ctx context.Context, dl record.Deadline) error
	DeleteDeadline(ctx context.Context, id string, seat engine.Seat) error
	DueDeadlines(ctx context.Context, now time.Time) ([]record.Deadline, error)
	NextDue(ctx context.Context) (time.Time, bool, error)
	MarkReminded(ctx context.Context, dl record.Deadline, at time.Time) (bool, error)
	MarkExpired(ctx context.Context, dl record.Deadline, at time.Time) (bool, error)
	ClaimDue(ctx context.Context, now time.Time, owner string, lease time.Duration) ([]record.Deadline, error)
	ReleaseClaim(ctx context.Context, dl record.Deadline, owner string) error

	Vote(ctx context.Context, id, topic, voter, choice string, at time.Time) (bool, error)
	Votes(ctx context.Context, id, topic string) (map[string]string, error)
	ClearVotes(ctx context.Context, id, topic string) error

	RecordResults(ctx context.Context, rs []record.Result) error
	GuildStats(ctx context.Context, guildID string) ([]record.GameStat, error)
	PlayerStats(ctx context.Context, guildID, userID string) ([]record.PlayerStat, error)
	CurrentTables(ctx context.Context, guildID, userID string) (int, error)
	OpenTables(ctx context.Context) ([]record.OpenTable, error)
	EndedSince(ctx context.Context, since time.Time) ([]string, error)

	MarkCorrupt(ctx context.Context, id, reason string) error
	MarkedCorrupt(ctx context.Context) ([]CorruptTable, error)
	LogMismatches(ctx context.Context) ([]LogMismatch, error)
	Check(ctx context.Context, full bool) ([]string, error)

	// HoldShard takes shard's lock for this process, so that two processes
	// never serve one shard: ErrShardHeld while another live process holds
	// it. A process that dies frees its lock at once (a file lock for
	// SQLite, a session lock for PostgreSQL), so a restart never waits.
	// lost is called when the lock is lost later (the database restarted
	// and another process took the shard meanwhile); release gives it up.
	HoldShard(ctx context.Context, shard int, lost func()) (release func(), err error)
	SchemaVersion(ctx context.Context) (int, error)
	Close() error
}

// ErrReadOnly is returned by a backend's Open when the database cannot be
// written: for SQLite the file's mode, a directory where SQLite cannot
// create the -wal and -shm files beside it, or a read-only mount; for
// PostgreSQL a standby, a read-only transaction default or a user without
// the privileges. It is wrapped with the database's name.
var ErrReadOnly = errors.New("store: the database cannot be written")

// ErrNoDatabase is returned by the SQLite store's OpenExisting when there is
// no database file at the path.
var ErrNoDatabase = errors.New("store: no such database")

// ErrSchemaTooNew is returned by a backend's Open when the database has been
// migrated by a newer version of the program than this one.
var ErrSchemaTooNew = errors.New("store: database schema is newer than this program")

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store: the database is closed")

// ErrShardHeld is another live process holding the shard this one was
// told to serve (HoldShard): a misconfiguration, two processes with one
// shard number.
var ErrShardHeld = errors.New("store: another live process serves this shard")

// ErrMarkedCorrupt is wrapped by the *table.CorruptError of a table marked
// corrupt with MarkCorrupt.
var ErrMarkedCorrupt = errors.New("store: marked corrupt")

// CorruptTable is a table marked corrupt.
type CorruptTable struct {
	ID     string
	Reason string
}

// LogMismatch is a table whose log does not hold as many rows as its
// recorded length says.
type LogMismatch struct {
	ID       string
	Recorded int // the table's log_len
	Stored   int // the rows of its log
}

func (m LogMismatch) String() string {
	return fmt.Sprintf("table %s: its log holds %d entries but its recorded length is %d", m.ID, m.Stored, m.Recorded)
}

// DamagedError is returned by OpenChecked when the quick check finds
// problems.
type DamagedError struct {
	Path     string
	Problems []string
}

// Error is one line: the first problems, how many there are, and the
// command that shows them all.
func (e *DamagedError) Error() string {
	const shown = 3
	ps := e.Problems
	more := ""
	if len(ps) > shown {
		ps, more = ps[:shown], fmt.Sprintf("; and %d more", len(ps)-shown)
	}
	flat := make([]string, len(ps))
	for i, p := range ps {
		flat[i] = strings.Join(strings.Fields(p), " ")
	}
	return fmt.Sprintf("store: the database %s is damaged: %s%s (see stolik check --db %s)",
		e.Path, strings.Join(flat, "; "), more, e.Path)
}
