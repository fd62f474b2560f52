package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/record"
	"github.com/stolik-bot/stolik/store/sqlite"
)

const migrateDBUsage = `stolik migrate-db --from FILE --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--resume]

Copies a SQLite database (stop serve first) into a PostgreSQL database that
is empty (migrated or not): every table with its seats, log, settings, seat
flags, deadlines, votes and results, one transaction per table, then the
users' preferences. Each copied table is read back from PostgreSQL and
compared with the source, and its log is replayed. Times keep microseconds
(PostgreSQL's precision; SQLite kept nanoseconds).

A target that holds data is refused, unless --resume: then the tables
already there (from a copy that stopped) are compared with the source and
skipped when equal, and the copy continues. The source must pass the log
length check (stolik check --db FILE [--mark-corrupt]).

The URL's password is never printed.
`

// cmdMigrateDB copies a SQLite database into PostgreSQL.
func cmdMigrateDB(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("migrate-db", flag.ContinueOnError)
	// The flag package quotes what it refuses; --to holds a password, so
	// migrate-db says only what it takes.
	fs.SetOutput(io.Discard)
	from := fs.String("from", "", "the SQLite file")
	to := fs.String("to", "", "the PostgreSQL URL")
	resume := fs.Bool("resume", false, "continue a copy that stopped")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(out, migrateDBUsage)
			return err
		}
		return usageError{"migrate-db: an unknown flag or a flag without its value (not shown); it takes --from FILE --to postgres://… [--resume]"}
	}
	switch {
	case fs.NArg() > 0:
		return usageError{"migrate-db: an unexpected argument (not shown); it takes --from FILE --to postgres://… [--resume]"}
	case *from == "":
		return usageError{"migrate-db: --from FILE (the SQLite database) is required"}
	case *to == "":
		return usageError{"migrate-db: --to postgres://… (the PostgreSQL database) is required"}
	case !postgres.IsURL(*to):
		return usageError{"migrate-db: --to must be a postgres:// or postgresql:// URL (not shown)"}
	}
	target := postgres.Redact(*to)

	src, err := sqlite.OpenReadOnly(ctx, *from)
	if errors.Is(err, store.ErrNoDatabase) {
		return usageError{fmt.Sprintf("migrate-db: no such database: %s", *from)}
	}
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	defer src.Close()
	ms, err := src.LogMismatches(ctx)
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	if len(ms) > 0 {
		return fmt.Errorf("migrate-db: %s: %s (and %d more table(s) like it); serve would refuse it too: run stolik check --db %s --mark-corrupt first",
			*from, ms[0], len(ms)-1, *from)
	}

	dst, err := postgres.Open(ctx, *to)
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	defer dst.Close()
	empty, err := dst.Empty(ctx)
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", target, err)
	}
	if !empty && !*resume {
		return fmt.Errorf("migrate-db: %s already holds tables or user preferences; to continue a copy that stopped, run again with --resume", target)
	}

	raw, err := readSQLite(ctx, *from)
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", *from, err)
	}
	defer raw.close()

	ids, err := raw.tableIDs(ctx)
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", *from, err)
	}
	var copied, skipped, entries, marked int
	for _, id := range ids {
		c, err := raw.table(ctx, id)
		if err != nil {
			return fmt.Errorf("migrate-db: %s: table %s: %w", *from, id, err)
		}
		err = dst.ImportTable(ctx, c)
		switch {
		case errors.Is(err, table.ErrExists) && *resume:
			if err := sameCopy(ctx, dst, c); err != nil {
				return fmt.Errorf("migrate-db: table %s is already in %s but differs from the source (%v); it is not overwritten", id, target, err)
			}
			skipped++
		case err != nil:
			return fmt.Errorf("migrate-db: copying table %s to %s: %w (the tables copied so far stay: run again with --resume to continue)", id, target, err)
		default:
			copied++
		}
		if err := verifyTable(ctx, src, dst, c); err != nil {
			return fmt.Errorf("migrate-db: table %s as copied to %s: %w", id, target, err)
		}
		entries += len(c.Log)
		if c.Table.Corrupt != "" {
			marked++
		}
	}

	prefs, err := raw.userPrefs(ctx)
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", *from, err)
	}
	if err := dst.ImportUserPrefs(ctx, prefs); err != nil {
		return fmt.Errorf("migrate-db: copying user preferences to %s: %w", target, err)
	}
	got, err := dst.UserPrefs(ctx)
	if err != nil {
		return fmt.Errorf("migrate-db: %s: %w", target, err)
	}
	if !*resume && !reflect.DeepEqual(got, prefs) || *resume && !containsPrefs(got, prefs) {
		return fmt.Errorf("migrate-db: the user preferences read back from %s differ from the source", target)
	}

	fmt.Fprintf(out, "copied %d table(s) (%d log entries; %d marked corrupt, copied with their mark) and %d user preference(s) from %s to %s",
		copied, entries, marked, len(prefs), *from, target)
	if skipped > 0 {
		fmt.Fprintf(out, "; %d table(s) were there already, equal to the source", skipped)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "every table reads back equal to the source (times to the microsecond) and replays as it does")
	return nil
}

func containsPrefs(have, want []postgres.UserPref) bool {
	m := make(map[string]postgres.UserPref, len(have))
	for _, p := range have {
		m[p.UserID] = p
	}
	for _, p := range want {
		if m[p.UserID] != p {
			return false
		}
	}
	return true
}

// normCopy is a table copy as PostgreSQL keeps it: times in UTC,
// truncated to the microsecond.
func normCopy(c postgres.TableCopy) postgres.TableCopy {
	tr := func(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
	c.Table.CreatedAt, c.Table.UpdatedAt = tr(c.Table.CreatedAt), tr(c.Table.UpdatedAt)
	c.Log = append([]table.Entry(nil), c.Log...)
	for i := range c.Log {
		c.Log[i].At = tr(c.Log[i].At)
	}
	c.Deadlines = append([]record.Deadline(nil), c.Deadlines...)
	for i := range c.Deadlines {
		d := &c.Deadlines[i]
		d.StartedAt, d.RemindAt, d.DueAt = tr(d.StartedAt), tr(d.RemindAt), tr(d.DueAt)
		if !d.RemindedAt.IsZero() {
			d.RemindedAt = tr(d.RemindedAt)
		}
		if !d.ExpiredAt.IsZero() {
			d.ExpiredAt = tr(d.ExpiredAt)
		}
	}
	c.Votes = append([]postgres.Vote(nil), c.Votes...)
	for i := range c.Votes {
		c.Votes[i].At = tr(c.Votes[i].At)
	}
	c.Results = append([]record.Result(nil), c.Results...)
	for i := range c.Results {
		c.Results[i].FinishedAt = tr(c.Results[i].FinishedAt)
	}
	return c
}

// sameCopy reports (as an error naming the first part that differs)
// whether the table stored in dst is the copy c.
func sameCopy(ctx context.Context, dst *postgres.DB, c postgres.TableCopy) error {
	got, err := dst.ExportTable(ctx, c.Table.ID)
	if err != nil {
		return err
	}
	want := normCopy(c)
	for _, p := range []struct {
		what      string
		got, want any
	}{
		{"the table's row", got.Table, want.Table},
		{"the seats", got.Seats, want.Seats},
		{"the log", got.Log, want.Log},
		{"the settings", got.Meta, want.Meta},
		{"the seat flags", got.SeatFlags, want.SeatFlags},
		{"the deadlines", got.Deadlines, want.Deadlines},
		{"the votes", got.Votes, want.Votes},
		{"the results", got.Results, want.Results},
	} {
		if !reflect.DeepEqual(p.got, p.want) {
			return fmt.Errorf("%s differ", p.what)
		}
	}
	return nil
}

// verifyTable checks a copied table: everything stored reads back equal to
// the source; the store loads it as the source's store does (the same
// record and log, or the same refusal of a table marked corrupt); and its
// log replays exactly when the source's does, to the same length.
func verifyTable(ctx context.Context, src *sqlite.DB, dst *postgres.DB, c postgres.TableCopy) error {
	id := c.Table.ID
	if err := sameCopy(ctx, dst, c); err != nil {
		return err
	}
	srec, slog, serr := src.Load(ctx, id)
	drec, dlog, derr := dst.Load(ctx, id)
	if (serr == nil) != (derr == nil) || errors.Is(serr, store.ErrMarkedCorrupt) != errors.Is(derr, store.ErrMarkedCorrupt) {
		return fmt.Errorf("it loads with %v where the source loads with %v", derr, serr)
	}
	if serr != nil {
		return nil // marked corrupt in both, or unreadable in both
	}
	tr := func(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
	srec.CreatedAt, srec.UpdatedAt = tr(srec.CreatedAt), tr(srec.UpdatedAt)
	if !reflect.DeepEqual(drec, srec) {
		return fmt.Errorf("its record loads as %+v, the source's as %+v", drec, srec)
	}
	if len(dlog) != len(slog) {
		return fmt.Errorf("its log loads with %d entries, the source's with %d", len(dlog), len(slog))
	}
	for i := range slog {
		want := slog[i]
		want.At = tr(want.At)
		if dlog[i] != want {
			return fmt.Errorf("log entry %d loads as %+v, the source's as %+v", i, dlog[i], want)
		}
	}
	ssnap, serr := table.New(src).Get(ctx, id)
	dsnap, derr := table.New(dst).Get(ctx, id)
	if (serr == nil) != (derr == nil) {
		return fmt.Errorf("it replays with %v where the source replays with %v", derr, serr)
	}
	if serr == nil && ssnap.Version != dsnap.Version {
		return fmt.Errorf("it replays to version %d, the source to %d", dsnap.Version, ssnap.Version)
	}
	return nil
}

// sqliteReader reads a SQLite database's rows as they are, from one
// snapshot: a read-only connection in one read transaction.
type sqliteReader struct {
	db *sql.DB
	tx *sql.Tx
}

func readSQLite(ctx context.Context, path string) (*sqliteReader, error) {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	db, err := sql.Open("sqlite3", "file:"+esc+"?mode=ro&_query_only=on&_busy_timeout=5000&_txlock=deferred")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		db.Close()
		return nil, err
	}
	// A deferred transaction takes its snapshot at its first read.
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables`).Scan(&n); err != nil {
		_ = tx.Rollback()
		db.Close()
		return nil, err
	}
	return &sqliteReader{db: db, tx: tx}, nil
}

func (r *sqliteReader) close() {
	_ = r.tx.Rollback()
	_ = r.db.Close()
}

func (r *sqliteReader) tableIDs(ctx context.Context) ([]string, error) {
	rows, err := r.tx.QueryContext(ctx, `SELECT id FROM tables ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// sqliteTime parses a time as the SQLite store writes it; "" is the zero
// time ("not yet").
func sqliteTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UTC(), err
}

// each runs q and calls scan for every row.
func (r *sqliteReader) each(ctx context.Context, what, q string, scan func(*sql.Rows) error, args ...any) error {
	rows, err := r.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("reading %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("reading %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", what, err)
	}
	return nil
}

// table reads everything stored about one table.
func (r *sqliteReader) table(ctx context.Context, id string) (postgres.TableCopy, error) {
	var (
		c                postgres.TableCopy
		t                = &c.Table
		seed             int64
		created, updated string
	)
	err := r.tx.QueryRowContext(ctx, `SELECT id, game, options, seats, seed, status, lang, guild_id, channel_id,
		message_id, created_by, created_at, updated_at, log_len, corrupt FROM tables WHERE id = ?`, id).Scan(
		&t.ID, &t.Game, &t.Options, &t.Seats, &seed, &t.Status, &t.Lang, &t.GuildID, &t.ChannelID,
		&t.MessageID, &t.CreatedBy, &created, &updated, &t.LogLen, &t.Corrupt)
	if err != nil {
		return c, fmt.Errorf("reading the table: %w", err)
	}
	t.Seed = uint64(seed)
	var errs [2]error
	t.CreatedAt, errs[0] = sqliteTime(created)
	t.UpdatedAt, errs[1] = sqliteTime(updated)
	if err := errors.Join(errs[:]...); err != nil {
		return c, fmt.Errorf("the table's times: %w", err)
	}

	err = r.each(ctx, "seats", `SELECT seat, kind, user_id, name, bot FROM seats WHERE table_id = ? ORDER BY seat`,
		func(rows *sql.Rows) error {
			var (
				s    table.SeatInfo
				seat int
				kind string
			)
			err := rows.Scan(&seat, &kind, &s.UserID, &s.Name, &s.Bot)
			s.Seat, s.Kind = engine.Seat(seat), table.SeatKind(kind)
			c.Seats = append(c.Seats, s)
			return err
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the log", `SELECT n, seat, action, at FROM actions WHERE table_id = ? ORDER BY n`,
		func(rows *sql.Rows) error {
			var (
				e    table.Entry
				seat int
				at   string
			)
			if err := rows.Scan(&e.N, &seat, &e.Action, &at); err != nil {
				return err
			}
			e.Seat = engine.Seat(seat)
			var err error
			if e.At, err = sqliteTime(at); err != nil {
				return fmt.Errorf("entry %d: %w", e.N, err)
			}
			c.Log = append(c.Log, e)
			return nil
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the settings", `SELECT deadline_secs, want_thread, thread_id, standins FROM table_meta WHERE table_id = ?`,
		func(rows *sql.Rows) error {
			var (
				m            record.Meta
				secs         int64
				want, stands int
			)
			err := rows.Scan(&secs, &want, &m.ThreadID, &stands)
			m.Deadline, m.WantThread, m.StandIns = time.Duration(secs)*time.Second, want != 0, stands != 0
			c.Meta = &m
			return err
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the seat flags", `SELECT seat, vacant, standin FROM seat_meta WHERE table_id = ? ORDER BY seat`,
		func(rows *sql.Rows) error {
			var seat, vacant, standin int
			err := rows.Scan(&seat, &vacant, &standin)
			if c.SeatFlags == nil {
				c.SeatFlags = map[engine.Seat]record.SeatFlags{}
			}
			c.SeatFlags[engine.Seat(seat)] = record.SeatFlags{Vacant: vacant != 0, StandIn: standin != 0}
			return err
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the deadlines", `SELECT seat, started_at, remind_at, due_at, reminded_at, expired_at
		FROM deadlines WHERE table_id = ? ORDER BY seat`,
		func(rows *sql.Rows) error {
			var (
				dl   = record.Deadline{TableID: id}
				seat int
				ts   [5]string
			)
			if err := rows.Scan(&seat, &ts[0], &ts[1], &ts[2], &ts[3], &ts[4]); err != nil {
				return err
			}
			dl.Seat = engine.Seat(seat)
			var errs [5]error
			dl.StartedAt, errs[0] = sqliteTime(ts[0])
			dl.RemindAt, errs[1] = sqliteTime(ts[1])
			dl.DueAt, errs[2] = sqliteTime(ts[2])
			dl.RemindedAt, errs[3] = sqliteTime(ts[3])
			dl.ExpiredAt, errs[4] = sqliteTime(ts[4])
			c.Deadlines = append(c.Deadlines, dl)
			return errors.Join(errs[:]...)
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the votes", `SELECT topic, voter, choice, at FROM votes WHERE table_id = ? ORDER BY topic, voter`,
		func(rows *sql.Rows) error {
			var (
				v  postgres.Vote
				at string
			)
			if err := rows.Scan(&v.Topic, &v.Voter, &v.Choice, &at); err != nil {
				return err
			}
			var err error
			v.At, err = sqliteTime(at)
			c.Votes = append(c.Votes, v)
			return err
		}, id)
	if err != nil {
		return c, err
	}

	err = r.each(ctx, "the results", `SELECT seat, user_id, score, won, game, standin, finished_at
		FROM results WHERE table_id = ? ORDER BY seat`,
		func(rows *sql.Rows) error {
			var (
				res              = record.Result{TableID: id}
				seat, won, stand int
				at               string
			)
			if err := rows.Scan(&seat, &res.UserID, &res.Score, &won, &res.Game, &stand, &at); err != nil {
				return err
			}
			res.Seat, res.Won, res.StandIn = engine.Seat(seat), won != 0, stand != 0
			var err error
			res.FinishedAt, err = sqliteTime(at)
			c.Results = append(c.Results, res)
			return err
		}, id)
	return c, err
}

func (r *sqliteReader) userPrefs(ctx context.Context) ([]postgres.UserPref, error) {
	var out []postgres.UserPref
	err := r.each(ctx, "user preferences", `SELECT user_id, lang, dm_reminders FROM user_prefs ORDER BY user_id`,
		func(rows *sql.Rows) error {
			var (
				p  postgres.UserPref
				on int
			)
			err := rows.Scan(&p.UserID, &p.Lang, &on)
			p.DMReminders = on != 0
			out = append(out, p)
			return err
		})
	return out, err
}
