// Package sqlite is the SQLite adapter of the store (package store): one
// file in WAL mode, numbered migrations applied at open, and the
// append-only action log guarded by the expected log length. It offers
// store.Backend, with the error values of package store, and passes the
// conformance suite store/storetest.
//
// Two connection pools share the file: writes run in BEGIN IMMEDIATE
// transactions (so that concurrent writers, in this process or another,
// queue on the busy timeout instead of failing with "database is locked"),
// and reads run in deferred, query-only transactions that see a consistent
// snapshot without taking the write lock.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/record"
)

// BusyTimeout is how long a connection waits for another writer before
// giving up.
const BusyTimeout = 5 * time.Second

// DB is a SQLite store. It is safe for concurrent use.
type DB struct {
	w *preparedDB // writer pool: BEGIN IMMEDIATE, one connection, its statements prepared once
	r *preparedDB // reader pool: deferred, query only, its queries prepared once

	group   committer
	noGroup bool   // tests and benchmarks: one transaction per append
	path    string // the database file (HoldShard's lock files lie beside it)

	unsettled unsettled // a commit's sync failed: loads wait for settleWAL (settle.go)
}

var _ store.Backend = (*DB)(nil)

// Open opens (creating if needed) the database file at path, applies the
// pending migrations and proves that the file can be written by committing
// a write to it. It fails with store.ErrSchemaTooNew when the file was
// migrated by a newer program, and with store.ErrReadOnly when it cannot be
// written.
func Open(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, openOptions{})
}

// OpenExisting is Open for a file that must exist already: it never creates
// one, and fails with store.ErrNoDatabase when there is none.
func OpenExisting(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, openOptions{mustExist: true})
}

// openOptions are the variants of Open.
type openOptions struct {
	mustExist bool // never create the file
	// writer holds extra DSN parameters of the writer connection (tests:
	// mode=ro or _query_only=on stand for a file that cannot be written,
	// which chmod cannot show to root).
	writer url.Values
}

func open(ctx context.Context, path string, o openOptions) (*DB, error) {
	ms, err := store.LoadMigrations(embedded, "migrations")
	if err != nil {
		return nil, err
	}
	if o.mustExist {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", store.ErrNoDatabase, path)
		} else if err != nil {
			return nil, fmt.Errorf("store: opening %s: %w", path, err)
		}
	}
	if err := writable(path); err != nil {
		return nil, err
	}
	wp := url.Values{}
	if o.mustExist {
		wp.Set("mode", "rw") // and SQLite refuses to create it, should it vanish meanwhile
	}
	for k, v := range o.writer {
		wp[k] = v
	}
	w, err := sql.Open("sqlite3", dsnWith(path, true, wp))
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	// fail closes the writer and returns wrapped, or store.ErrReadOnly with the
	// path, the step and SQLite's words when SQLite could not write.
	fail := func(step string, err, wrapped error) (*DB, error) {
		_ = w.Close()
		var se sqlite3.Error
		if isReadOnly(err) && errors.As(err, &se) {
			return nil, fmt.Errorf("%w: %s: %s: %v (the file, its directory, where SQLite keeps %s-wal and %s-shm, and the disk must be writable)",
				store.ErrReadOnly, path, step, se, filepath.Base(path), filepath.Base(path))
		}
		return nil, wrapped
	}
	if err := w.PingContext(ctx); err != nil {
		return fail("opening", err, fmt.Errorf("store: opening %s: %w", path, err))
	}
	if err := migrate(ctx, w, ms); err != nil {
		return fail("migrating", err, fmt.Errorf("%w (database %s)", err, path))
	}
	// One writer connection: writers of this process queue in Go, in
	// order, instead of sleeping in SQLite's busy handler (which backs off
	// up to 100 ms at a time). Other processes still meet the busy timeout.
	w.SetMaxOpenConns(1)
	d := &DB{w: newPreparedDB(w), path: path}
	if err := d.probe(ctx); err != nil {
		return fail("write probe", err, fmt.Errorf("%w (database %s)", err, path))
	}
	r, err := sql.Open("sqlite3", dsn(path, false))
	if err != nil {
		return fail("opening", err, fmt.Errorf("store: opening %s: %w", path, err))
	}
	d.r = newPreparedDB(r)
	return d, nil
}

// probe commits a write to a real table: a database that can be read but
// not written (file mode, directory, mount) fails here, at start, rather
// than at the first move of a game.
func (d *DB) probe(ctx context.Context) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)`,
			formatTime(time.Now())); err != nil {
			return fmt.Errorf("store: write probe: %w", err)
		}
		return nil
	})
}

// isReadOnly reports whether err is SQLite failing to write, or to open,
// for lack of permission or a read-only file system.
func isReadOnly(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrReadonly, sqlite3.ErrPerm:
		return true
	case sqlite3.ErrCantOpen, sqlite3.ErrIoErr:
		return se.SystemErrno == syscall.EACCES || se.SystemErrno == syscall.EPERM || se.SystemErrno == syscall.EROFS
	}
	return false
}

// dsn builds the go-sqlite3 data source name for the file at path.
func dsn(path string, write bool) string { return dsnWith(path, write, nil) }

// dsnWith is dsn with extra parameters.
func dsnWith(path string, write bool, extra url.Values) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "on")
	if write {
		q.Set("_journal_mode", "WAL")
		q.Set("_txlock", "immediate")
		// go-sqlite3 sets synchronous=NORMAL, with which a WAL commit is
		// not synced: it would survive a killed process but not a power
		// loss. FULL syncs the WAL at every commit, before Commit returns;
		// group commit (group.go) shares that sync among the appends of a
		// transaction.
		q.Set("_synchronous", "FULL")
	} else {
		q.Set("_txlock", "deferred")
		q.Set("_query_only", "on")
	}
	for k, v := range extra {
		q[k] = v
	}
	// A "file:" URI, so that a path may hold '?' or '#'.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + q.Encode()
}

// Close closes the database.
func (d *DB) Close() error {
	d.group.close()
	return errors.Join(d.r.Close(), d.w.Close())
}

// SchemaVersion returns the number of the newest migration applied.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	return schemaVersion(ctx, d.r)
}

// timeLayout is RFC 3339 with a fixed nine-digit fraction, so that stored
// times sort as text. Times are stored in UTC.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// Create stores a new table with its seats. It fails with table.ErrExists
// when the id is taken.
func (d *DB) Create(ctx context.Context, rec table.Record) error {
	opts, err := store.EncodeRecord(rec)
	if err != nil {
		return err
	}
	open := openChannel(rec)
	return d.write(ctx, func(tx stmtTx) error {
		if open != nil {
			// The write transaction is the only one: the check and the
			// insert are one step (the unique index stands behind it).
			var taken int
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tables WHERE open_channel = ? AND id <> ?)`, *open, rec.ID).Scan(&taken); err != nil {
				return fmt.Errorf("store: creating table %s: %w", rec.ID, err)
			}
			if taken != 0 {
				return fmt.Errorf("store: table %s: %w", rec.ID, table.ErrChannelTaken)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tables
			(id, game, options, seats, seed, status, lang, guild_id, channel_id, message_id, created_by, created_at, updated_at, open_channel)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			rec.ID, rec.Setup.Game, opts, rec.Setup.Seats, int64(rec.Setup.Seed), string(rec.Status),
			rec.Lang, rec.GuildID, rec.ChannelID, rec.MessageID, rec.CreatedBy,
			formatTime(rec.CreatedAt), formatTime(rec.UpdatedAt), open)
		if err != nil {
			var se sqlite3.Error
			if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey || se.ExtendedCode == sqlite3.ErrConstraintUnique) {
				return fmt.Errorf("store: table %s: %w", rec.ID, table.ErrExists)
			}
			return fmt.Errorf("store: creating table %s: %w", rec.ID, err)
		}
		return insertSeats(ctx, tx, rec)
	})
}

// openChannel is the channel an open table holds (open_channel), nil for
// a table that holds none.
func openChannel(rec table.Record) *string {
	if rec.ChannelID == "" || (rec.Status != table.StatusLobby && rec.Status != table.StatusPlaying) {
		return nil
	}
	return &rec.ChannelID
}

func insertSeats(ctx context.Context, tx stmtTx, rec table.Record) error {
	for _, s := range rec.Seats {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO seats (table_id, seat, kind, user_id, name, bot) VALUES (?, ?, ?, ?, ?, ?)`,
			rec.ID, int(s.Seat), string(s.Kind), s.UserID, s.Name, s.Bot); err != nil {
			return fmt.Errorf("store: table %s: storing seat %d: %w", rec.ID, s.Seat, err)
		}
	}
	return nil
}

// Update stores a table's record and replaces its seats. The creation time
// is kept. It fails with table.ErrNotFound for an unknown id.
func (d *DB) Update(ctx context.Context, rec table.Record) error {
	opts, err := store.EncodeRecord(rec)
	if err != nil {
		return err
	}
	return d.write(ctx, func(tx stmtTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tables SET
			game = ?, options = ?, seats = ?, seed = ?, status = ?, lang = ?,
			guild_id = ?, channel_id = ?, message_id = ?, created_by = ?, updated_at = ?, rev = rev + 1
			WHERE id = ?`,
			rec.Setup.Game, opts, rec.Setup.Seats, int64(rec.Setup.Seed), string(rec.Status), rec.Lang,
			rec.GuildID, rec.ChannelID, rec.MessageID, rec.CreatedBy, formatTime(rec.UpdatedAt),
			rec.ID)
		if err != nil {
			return fmt.Errorf("store: updating table %s: %w", rec.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: updating table %s: %w", rec.ID, err)
		} else if n == 0 {
			return fmt.Errorf("store: table %s: %w", rec.ID, table.ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = ?`, rec.ID); err != nil {
			return fmt.Errorf("store: table %s: clearing seats: %w", rec.ID, err)
		}
		return insertSeats(ctx, tx, rec)
	})
}

// Append adds e to the log of table id, failing with table.ErrConflict
// unless the log holds exactly e.N entries, and with table.ErrNotFound for
// an unknown table. The table's updated_at becomes e.At; its status becomes
// status when that is not empty. All in one transaction.
//
// Appends are group-committed: while one transaction commits, the appends
// that arrive (for any tables) queue, and the next transaction stores them
// all, each in its own savepoint, so that one failing append fails alone.
// Every caller returns only after the transaction holding its entry has
// committed (or failed), so an acknowledged action is always on disk.
func (d *DB) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	if err := store.CheckAppendStatus(id, status); err != nil {
		return err
	}
	if d.noGroup {
		return d.write(ctx, func(tx stmtTx) error { return appendTx(ctx, tx, id, e, status) })
	}
	return d.group.append(ctx, d, id, e, status)
}

// appendTx is one append inside a write transaction. The table's recorded
// log length is the conflict check; the trigger actions_log_len (migration
// 0003) raises it with the inserted row, in the same transaction. A table
// marked corrupt takes no entries.
func appendTx(ctx context.Context, tx stmtTx, id string, e table.Entry, status table.Status) error {
	var (
		n   int
		bad string
	)
	err := tx.QueryRowContext(ctx, `SELECT log_len, corrupt FROM tables WHERE id = ?`, id).Scan(&n, &bad)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: table %s: reading the log length: %w", id, err)
	}
	if bad != "" {
		return store.Marked(id, bad)
	}
	if n != e.N {
		return fmt.Errorf("store: table %s: appending entry %d to a log of %d: %w", id, e.N, n, table.ErrConflict)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)`,
		id, e.N, int(e.Seat), e.Action, formatTime(e.At)); err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey || se.ExtendedCode == sqlite3.ErrConstraintUnique) {
			// The recorded length says entry e.N is next, yet the log
			// holds it: the two disagree.
			return store.Corrupt(id, "the log holds entry %d but its recorded length is %d", e.N, n)
		}
		return fmt.Errorf("store: table %s: appending entry %d: %w", id, e.N, err)
	}
	q, args := `UPDATE tables SET updated_at = ? WHERE id = ?`, []any{formatTime(e.At), id}
	if status != "" {
		q, args = `UPDATE tables SET updated_at = ?, status = ? WHERE id = ?`, []any{formatTime(e.At), string(status), id}
	}
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("store: table %s: updating after append: %w", id, err)
	}
	return nil
}

// write runs f in an immediate transaction, committing when it returns nil.
func (d *DB) write(ctx context.Context, f func(tx stmtTx) error) error {
	tx, err := d.w.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: beginning a write: %w", err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		d.afterCommitFailure(ctx, err)
		return fmt.Errorf("store: committing: %w", err)
	}
	return nil
}

// Load returns a table and its whole log in order, read from one snapshot.
// It fails with table.ErrNotFound for an unknown id, and with a
// *table.CorruptError naming the table when a stored row cannot be decoded,
// when the log read is not as long as the table's recorded log length, or
// when the table is marked corrupt (MarkCorrupt).
func (d *DB) Load(ctx context.Context, id string) (rec table.Record, log []table.Entry, err error) {
	defer func() {
		// A damaged page under the table's rows makes it unusable too.
		var ce *table.CorruptError
		if isDamage(err) && !errors.As(err, &ce) {
			err = &table.CorruptError{ID: id, Err: err}
		}
	}()
	if err := d.settleWAL(ctx); err != nil {
		return table.Record{}, nil, err
	}
	tx, err := d.r.begin(ctx)
	if err != nil {
		return table.Record{}, nil, fmt.Errorf("store: beginning a read: %w", err)
	}
	defer func() { _ = tx.Rollback() }()

	var (
		opts, status, created, updated, bad string
		seed                                int64
		logLen                              int
	)
	rec.ID = id
	err = tx.QueryRowContext(ctx, `SELECT game, options, seats, seed, status, lang, guild_id, channel_id,
		message_id, created_by, created_at, updated_at, log_len, corrupt FROM tables WHERE id = ?`, id).Scan(
		&rec.Setup.Game, &opts, &rec.Setup.Seats, &seed, &status, &rec.Lang, &rec.GuildID, &rec.ChannelID,
		&rec.MessageID, &rec.CreatedBy, &created, &updated, &logLen, &bad)
	if errors.Is(err, sql.ErrNoRows) {
		return table.Record{}, nil, fmt.Errorf("store: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return table.Record{}, nil, fmt.Errorf("store: loading table %s: %w", id, err)
	}
	if bad != "" {
		return table.Record{}, nil, store.Marked(id, bad)
	}
	if err := store.DecodeTable(id, &rec, opts, status, seed); err != nil {
		return table.Record{}, nil, err
	}
	if rec.CreatedAt, err = parseTime(created); err != nil {
		return table.Record{}, nil, store.Corrupt(id, "created_at %q: %v", created, err)
	}
	if rec.UpdatedAt, err = parseTime(updated); err != nil {
		return table.Record{}, nil, store.Corrupt(id, "updated_at %q: %v", updated, err)
	}
	if rec.Seats, err = loadSeats(ctx, tx, id); err != nil {
		return table.Record{}, nil, err
	}
	if log, err = loadLog(ctx, tx, id); err != nil {
		return table.Record{}, nil, err
	}
	if err := store.CheckLogLen(id, len(log), logLen); err != nil {
		return table.Record{}, nil, err
	}
	return rec, log, nil
}

func loadSeats(ctx context.Context, tx stmtTx, id string) ([]table.SeatInfo, error) {
	rows, err := tx.QueryContext(ctx,
		`SELECT seat, kind, user_id, name, bot FROM seats WHERE table_id = ? ORDER BY seat`, id)
	return collect(rows, err, "loading seats of table "+id, func(r *sql.Rows) (table.SeatInfo, error) {
		var (
			s    table.SeatInfo
			seat int
			kind string
		)
		if err := r.Scan(&seat, &kind, &s.UserID, &s.Name, &s.Bot); err != nil {
			return s, store.Corrupt(id, "seat row: %v", err)
		}
		return s, store.DecodeSeat(id, &s, seat, kind)
	})
}

func loadLog(ctx context.Context, tx stmtTx, id string) ([]table.Entry, error) {
	rows, err := tx.QueryContext(ctx,
		`SELECT n, seat, action, at FROM actions WHERE table_id = ? ORDER BY n`, id)
	next := 0 // the position of the row read next
	return collect(rows, err, "loading the log of table "+id, func(r *sql.Rows) (table.Entry, error) {
		var (
			e    table.Entry
			seat int
			at   string
		)
		if err := r.Scan(&e.N, &seat, &e.Action, &at); err != nil {
			return e, store.Corrupt(id, "log row %d: %v", next, err)
		}
		if err := store.CheckEntry(id, e.N, next); err != nil {
			return e, err
		}
		next++
		e.Seat = engine.Seat(seat)
		var err error
		if e.At, err = parseTime(at); err != nil {
			return e, store.Corrupt(id, "log entry %d: time %q: %v", e.N, at, err)
		}
		return e, nil
	})
}

// Open lists the ids of the tables in the lobby or being played, oldest
// first; tables marked corrupt are left out (they are not resumed).
func (d *DB) Open(ctx context.Context) ([]string, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT id FROM tables WHERE status IN (?, ?) AND corrupt = '' ORDER BY created_at, id`,
		string(table.StatusLobby), string(table.StatusPlaying))
	return collect(rows, err, "listing open tables", scanString)
}

// InChannel lists the ids of the tables in the lobby or being played in a
// channel (or living in the thread channelID), oldest first; tables marked
// corrupt are left out.
func (d *DB) InChannel(ctx context.Context, channelID string) ([]string, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT id FROM tables WHERE status IN (?, ?) AND corrupt = ''
		AND (channel_id = ? OR id IN (SELECT table_id FROM table_meta WHERE thread_id = ?)) ORDER BY created_at, id`,
		string(table.StatusLobby), string(table.StatusPlaying), channelID, channelID)
	return collect(rows, err, "listing the tables of channel "+channelID, scanString)
}

// UserLang returns a user's saved language preference, "" when none is set.
func (d *DB) UserLang(ctx context.Context, userID string) (string, error) {
	var lang string
	err := d.r.QueryRowContext(ctx, `SELECT lang FROM user_prefs WHERE user_id = ?`, userID).Scan(&lang)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: reading the preferences of user %s: %w", userID, err)
	}
	return lang, nil
}

// SetUserLang saves a user's language preference; "" clears it (the
// interaction's locale is used again).
func (d *DB) SetUserLang(ctx context.Context, userID, lang string) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_prefs (user_id, lang) VALUES (?, ?)
			ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang`, userID, lang); err != nil {
			return fmt.Errorf("store: saving the preferences of user %s: %w", userID, err)
		}
		return nil
	})
}

// OpenTables lists the tables in the lobby or being played, oldest first,
// in one query; tables marked corrupt are left out (they are not resumed).
func (d *DB) OpenTables(ctx context.Context) ([]record.OpenTable, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT t.id, t.updated_at,
		EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = ?)
		FROM tables t WHERE t.status IN (?, ?) AND t.corrupt = '' ORDER BY t.created_at, t.id`,
		string(table.AI), string(table.StatusLobby), string(table.StatusPlaying))
	return collect(rows, err, "listing open tables", func(r *sql.Rows) (record.OpenTable, error) {
		var (
			t  record.OpenTable
			at string
		)
		if err := r.Scan(&t.ID, &at, &t.HasAI); err != nil {
			return t, err
		}
		var err error
		if t.UpdatedAt, err = parseTime(at); err != nil {
			return t, store.Corrupt(t.ID, "updated_at %q: %v", at, err)
		}
		return t, nil
	})
}

// EndedSince lists the ids of the tables that ended (finished or abandoned)
// after since, and are not marked corrupt, oldest change first. At start the
// bot refreshes their table messages once: a stop just after a game's last
// move may have left its final message unsent.
func (d *DB) EndedSince(ctx context.Context, since time.Time) ([]string, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT id FROM tables WHERE status IN (?, ?) AND updated_at > ?
		AND corrupt = '' ORDER BY updated_at, id`,
		string(table.StatusFinished), string(table.StatusAbandoned), formatTime(since))
	return collect(rows, err, "listing the tables that ended lately", scanString)
}
