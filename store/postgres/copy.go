package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// TableRow is a table's row as stored, undecoded where the store decodes
// on load: the options as JSON text, the status and the corrupt mark.
type TableRow struct {
	ID        string
	Game      string
	Options   string // the JSON text as stored
	Seats     int
	Seed      uint64
	Status    string
	Lang      string
	GuildID   string
	ChannelID string
	MessageID string
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
	LogLen    int    // the recorded length of the log
	Corrupt   string // why the table is unusable; "" = healthy
}

// Vote is one stored vote.
type Vote struct {
	Topic  string
	Voter  string
	Choice string
	At     time.Time
}

// UserPref is one user's stored preferences.
type UserPref struct {
	UserID      string
	Lang        string
	DMReminders bool
}

// TableCopy is everything stored about one table: what `stolik migrate-db`
// copies from a SQLite file, one table in one transaction. The log holds
// the rows as stored, in order of position (a table marked corrupt may
// hold fewer rows than recorded).
type TableCopy struct {
	Table     TableRow
	Seats     []table.SeatInfo
	Log       []table.Entry
	Meta      *record.Meta // nil: none stored
	SeatFlags map[engine.Seat]record.SeatFlags
	Deadlines []record.Deadline
	Votes     []Vote // by topic, then voter
	Results   []record.Result
}

// Empty reports whether the database holds no table and no user
// preferences (a freshly migrated one).
func (d *DB) Empty(ctx context.Context) (bool, error) {
	var stored bool
	if err := d.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tables) OR EXISTS (SELECT 1 FROM user_prefs)`).Scan(&stored); err != nil {
		return false, fmt.Errorf("store/postgres: looking for stored data: %w", err)
	}
	return !stored, nil
}

// TableIDs lists the ids of every table stored, whatever its status or
// mark, in byte order.
func (d *DB) TableIDs(ctx context.Context) ([]string, error) {
	return d.ids(ctx, "listing tables", `SELECT id FROM tables ORDER BY id`)
}

// ImportTable stores a whole table, as given, in one transaction: its row
// (with its recorded log length and corrupt mark), seats, log, settings,
// seat flags, deadlines, votes and results. It fails with table.ErrExists
// when the id is taken, and stores nothing when it fails.
func (d *DB) ImportTable(ctx context.Context, c TableCopy) error {
	t := c.Table
	if t.ID == "" {
		return errors.New("store/postgres: importing a table without an id")
	}
	return d.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tables
			(id, game, options, seats, seed, status, lang, guild_id, channel_id, message_id, created_by,
			 created_at, updated_at, log_len, corrupt)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			t.ID, t.Game, t.Options, t.Seats, int64(t.Seed), t.Status, t.Lang, t.GuildID, t.ChannelID, t.MessageID,
			t.CreatedBy, t.CreatedAt, t.UpdatedAt, t.LogLen, t.Corrupt)
		if isUnique(err, "tables_pkey") {
			return fmt.Errorf("store/postgres: table %s: %w", t.ID, table.ErrExists)
		}
		if err != nil {
			return fmt.Errorf("store/postgres: importing table %s: %w", t.ID, err)
		}
		// An open table holds its channel, unless one imported before
		// holds it (a channel that an older version let have two).
		if _, err := tx.Exec(ctx, `UPDATE tables SET open_channel = channel_id
			WHERE id = $1 AND status IN ('lobby', 'playing') AND corrupt = '' AND channel_id <> ''
			AND NOT EXISTS (SELECT 1 FROM tables WHERE open_channel = $2)`, t.ID, t.ChannelID); err != nil {
			return fmt.Errorf("store/postgres: importing table %s: %w", t.ID, err)
		}
		rec := table.Record{ID: t.ID, Seats: c.Seats}
		if err := insertSeats(ctx, tx, rec); err != nil {
			return err
		}
		rows := make([][]any, len(c.Log))
		for i, e := range c.Log {
			rows[i] = []any{t.ID, e.N, int(e.Seat), e.Action, e.At}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"actions"}, []string{"table_id", "n", "seat", "action", "at"},
			pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("store/postgres: importing the log of table %s: %w", t.ID, err)
		}
		if m := c.Meta; m != nil {
			if _, err := tx.Exec(ctx, `INSERT INTO table_meta (table_id, deadline_secs, want_thread, thread_id, standins, ai_level)
				VALUES ($1, $2, $3, $4, $5, $6)`, t.ID, int64(m.Deadline/time.Second), m.WantThread, m.ThreadID, m.StandIns, m.AILevel); err != nil {
				return fmt.Errorf("store/postgres: importing the settings of table %s: %w", t.ID, err)
			}
		}
		for seat, f := range c.SeatFlags {
			if _, err := tx.Exec(ctx, `INSERT INTO seat_meta (table_id, seat, vacant, standin) VALUES ($1, $2, $3, $4)`,
				t.ID, int(seat), f.Vacant, f.StandIn); err != nil {
				return fmt.Errorf("store/postgres: importing the seat flags of table %s: %w", t.ID, err)
			}
		}
		for _, dl := range c.Deadlines {
			if _, err := tx.Exec(ctx, `INSERT INTO deadlines (`+deadlineCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				t.ID, int(dl.Seat), dl.StartedAt, dl.RemindAt, dl.DueAt, optTime(dl.RemindedAt), optTime(dl.ExpiredAt)); err != nil {
				return fmt.Errorf("store/postgres: importing the deadlines of table %s: %w", t.ID, err)
			}
		}
		for _, v := range c.Votes {
			if _, err := tx.Exec(ctx, `INSERT INTO votes (table_id, topic, voter, choice, at) VALUES ($1, $2, $3, $4, $5)`,
				t.ID, v.Topic, v.Voter, v.Choice, v.At); err != nil {
				return fmt.Errorf("store/postgres: importing the votes of table %s: %w", t.ID, err)
			}
		}
		for _, r := range c.Results {
			if _, err := tx.Exec(ctx, `INSERT INTO results
				(table_id, seat, user_id, score, won, game, finished_at, standin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				t.ID, int(r.Seat), r.UserID, r.Score, r.Won, r.Game, r.FinishedAt, r.StandIn); err != nil {
				return fmt.Errorf("store/postgres: importing the results of table %s: %w", t.ID, err)
			}
		}
		return nil
	})
}

// ExportTable reads everything stored about one table from one snapshot,
// as ImportTable takes it, whether or not the table is healthy. It fails
// with table.ErrNotFound for an unknown id.
func (d *DB) ExportTable(ctx context.Context, id string) (TableCopy, error) {
	var c TableCopy
	err := d.read(ctx, func(tx pgx.Tx) error {
		var err error
		c, err = exportTable(ctx, tx, id)
		return err
	})
	return c, err
}

func exportTable(ctx context.Context, tx pgx.Tx, id string) (TableCopy, error) {
	var (
		c    TableCopy
		t    = &c.Table
		seed int64
	)
	err := tx.QueryRow(ctx, `SELECT id, game, options, seats, seed, status, lang, guild_id, channel_id, message_id,
		created_by, created_at, updated_at, log_len, corrupt FROM tables WHERE id = $1`, id).Scan(
		&t.ID, &t.Game, &t.Options, &t.Seats, &seed, &t.Status, &t.Lang, &t.GuildID, &t.ChannelID, &t.MessageID,
		&t.CreatedBy, &t.CreatedAt, &t.UpdatedAt, &t.LogLen, &t.Corrupt)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("store/postgres: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("store/postgres: exporting table %s: %w", id, err)
	}
	t.Seed, t.CreatedAt, t.UpdatedAt = uint64(seed), t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	fail := func(what string, err error) error {
		return fmt.Errorf("store/postgres: exporting the %s of table %s: %w", what, id, err)
	}

	rows, _ := tx.Query(ctx, `SELECT seat, kind, user_id, name, bot FROM seats WHERE table_id = $1 ORDER BY seat`, id)
	if c.Seats, err = collect(rows, func(r pgx.CollectableRow) (table.SeatInfo, error) {
		var (
			s    table.SeatInfo
			seat int
			kind string
		)
		err := r.Scan(&seat, &kind, &s.UserID, &s.Name, &s.Bot)
		s.Seat, s.Kind = engine.Seat(seat), table.SeatKind(kind)
		return s, err
	}); err != nil {
		return c, fail("seats", err)
	}

	rows, _ = tx.Query(ctx, `SELECT n, seat, action, at FROM actions WHERE table_id = $1 ORDER BY n`, id)
	if c.Log, err = collect(rows, func(r pgx.CollectableRow) (table.Entry, error) {
		var (
			e    table.Entry
			seat int
		)
		err := r.Scan(&e.N, &seat, &e.Action, &e.At)
		e.Seat, e.At = engine.Seat(seat), e.At.UTC()
		return e, err
	}); err != nil {
		return c, fail("log", err)
	}

	var (
		m    record.Meta
		secs int64
	)
	err = tx.QueryRow(ctx, `SELECT deadline_secs, want_thread, thread_id, standins, ai_level FROM table_meta WHERE table_id = $1`, id).
		Scan(&secs, &m.WantThread, &m.ThreadID, &m.StandIns, &m.AILevel)
	switch {
	case err == nil:
		m.Deadline = time.Duration(secs) * time.Second
		c.Meta = &m
	case !errors.Is(err, pgx.ErrNoRows):
		return c, fail("settings", err)
	}

	rows, _ = tx.Query(ctx, `SELECT seat, vacant, standin FROM seat_meta WHERE table_id = $1 ORDER BY seat`, id)
	type flagRow struct {
		seat int
		f    record.SeatFlags
	}
	flags, err := collect(rows, func(r pgx.CollectableRow) (flagRow, error) {
		var fr flagRow
		err := r.Scan(&fr.seat, &fr.f.Vacant, &fr.f.StandIn)
		return fr, err
	})
	if err != nil {
		return c, fail("seat flags", err)
	}
	if len(flags) > 0 {
		c.SeatFlags = map[engine.Seat]record.SeatFlags{}
		for _, fr := range flags {
			c.SeatFlags[engine.Seat(fr.seat)] = fr.f
		}
	}

	rows, _ = tx.Query(ctx, `SELECT `+deadlineCols+` FROM deadlines WHERE table_id = $1 ORDER BY seat`, id)
	if c.Deadlines, err = scanDeadlines(rows); err != nil {
		return c, fail("deadlines", err)
	}

	rows, _ = tx.Query(ctx, `SELECT topic, voter, choice, at FROM votes WHERE table_id = $1 ORDER BY topic, voter`, id)
	if c.Votes, err = collect(rows, func(r pgx.CollectableRow) (Vote, error) {
		var v Vote
		err := r.Scan(&v.Topic, &v.Voter, &v.Choice, &v.At)
		v.At = v.At.UTC()
		return v, err
	}); err != nil {
		return c, fail("votes", err)
	}

	rows, _ = tx.Query(ctx, `SELECT table_id, seat, user_id, score, won, game, standin, finished_at
		FROM results WHERE table_id = $1 ORDER BY seat`, id)
	if c.Results, err = collect(rows, func(r pgx.CollectableRow) (record.Result, error) {
		var (
			res  record.Result
			seat int
		)
		err := r.Scan(&res.TableID, &seat, &res.UserID, &res.Score, &res.Won, &res.Game, &res.StandIn, &res.FinishedAt)
		res.Seat, res.FinishedAt = engine.Seat(seat), res.FinishedAt.UTC()
		return res, err
	}); err != nil {
		return c, fail("results", err)
	}
	return c, nil
}

// ImportUserPrefs stores users' preferences in one transaction, replacing
// what is stored for the same users.
func (d *DB) ImportUserPrefs(ctx context.Context, ps []UserPref) error {
	return d.write(ctx, func(tx pgx.Tx) error {
		for _, p := range ps {
			if _, err := tx.Exec(ctx, `INSERT INTO user_prefs (user_id, lang, dm_reminders) VALUES ($1, $2, $3)
				ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang, dm_reminders = excluded.dm_reminders`,
				p.UserID, p.Lang, p.DMReminders); err != nil {
				return fmt.Errorf("store/postgres: importing the preferences of user %s: %w", p.UserID, err)
			}
		}
		return nil
	})
}

// UserPrefs lists every user's stored preferences, by user id.
func (d *DB) UserPrefs(ctx context.Context) ([]UserPref, error) {
	rows, err := d.pool.Query(ctx, `SELECT user_id, lang, dm_reminders FROM user_prefs ORDER BY user_id`)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing user preferences: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (UserPref, error) {
		var p UserPref
		err := r.Scan(&p.UserID, &p.Lang, &p.DMReminders)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing user preferences: %w", err)
	}
	return out, nil
}
