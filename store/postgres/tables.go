package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/record"
)

// appendTimeout bounds an append once it has been sent: the caller's
// context no longer ends it (see Append).
const appendTimeout = time.Minute

// Create stores a new table with its seats. It fails with table.ErrExists
// when the id is taken.
func (d *DB) Create(ctx context.Context, rec table.Record) error {
	opts, err := store.EncodeRecord(rec)
	if err != nil {
		return err
	}
	var open *string
	if rec.ChannelID != "" && (rec.Status == table.StatusLobby || rec.Status == table.StatusPlaying) {
		open = &rec.ChannelID // one open table per channel (tables_open_channel)
	}
	return d.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tables
			(id, game, options, seats, seed, status, lang, guild_id, channel_id, message_id, created_by, created_at, updated_at, open_channel)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			rec.ID, rec.Setup.Game, opts, rec.Setup.Seats, int64(rec.Setup.Seed), string(rec.Status),
			rec.Lang, rec.GuildID, rec.ChannelID, rec.MessageID, rec.CreatedBy, rec.CreatedAt, rec.UpdatedAt, open)
		if isUnique(err, "tables_pkey") {
			return fmt.Errorf("store/postgres: table %s: %w", rec.ID, table.ErrExists)
		}
		if isUnique(err, "tables_open_channel") {
			return fmt.Errorf("store/postgres: table %s: %w", rec.ID, table.ErrChannelTaken)
		}
		if err != nil {
			return fmt.Errorf("store/postgres: creating table %s: %w", rec.ID, err)
		}
		return insertSeats(ctx, tx, rec)
	})
}

func insertSeats(ctx context.Context, tx pgx.Tx, rec table.Record) error {
	for _, s := range rec.Seats {
		if _, err := tx.Exec(ctx,
			`INSERT INTO seats (table_id, seat, kind, user_id, name, bot) VALUES ($1, $2, $3, $4, $5, $6)`,
			rec.ID, int(s.Seat), string(s.Kind), s.UserID, s.Name, s.Bot); err != nil {
			return fmt.Errorf("store/postgres: table %s: storing seat %d: %w", rec.ID, s.Seat, err)
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
	return d.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tables SET
			game = $1, options = $2, seats = $3, seed = $4, status = $5, lang = $6,
			guild_id = $7, channel_id = $8, message_id = $9, created_by = $10, updated_at = $11, rev = rev + 1
			WHERE id = $12`,
			rec.Setup.Game, opts, rec.Setup.Seats, int64(rec.Setup.Seed), string(rec.Status), rec.Lang,
			rec.GuildID, rec.ChannelID, rec.MessageID, rec.CreatedBy, rec.UpdatedAt, rec.ID)
		if err != nil {
			return fmt.Errorf("store/postgres: updating table %s: %w", rec.ID, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("store/postgres: table %s: %w", rec.ID, table.ErrNotFound)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM seats WHERE table_id = $1`, rec.ID); err != nil {
			return fmt.Errorf("store/postgres: table %s: clearing seats: %w", rec.ID, err)
		}
		return insertSeats(ctx, tx, rec)
	})
}

// appendSQL is an append in one statement, hence one transaction: the
// guard raises the recorded length only when it is e.N and the table is
// not marked corrupt, holding the table's row lock until commit, and the
// entry is inserted only when the guard matched. A concurrent append of
// the same entry waits on the row lock, then re-reads the row, finds the
// new length and matches nothing.
const appendSQL = `WITH guard AS (
	UPDATE tables SET log_len = log_len + 1, updated_at = $5,
		status = CASE WHEN $6 = '' THEN status ELSE $6 END
	WHERE id = $1 AND log_len = $2 AND corrupt = ''
	RETURNING id
)
INSERT INTO actions (table_id, n, seat, action, at) SELECT id, $2, $3, $4, $5 FROM guard`

// Append adds e to the log of table id, failing with table.ErrConflict
// unless the log holds exactly e.N entries, with table.ErrNotFound for an
// unknown table and with a *table.CorruptError for a table marked corrupt.
// The table's updated_at becomes e.At; its status becomes status when that
// is not empty. All in one transaction.
//
// Once sent, an append is not abandoned when ctx ends (it is bounded by a
// minute instead): the caller learns whether the entry was committed,
// as with the SQLite store's group commit.
func (d *DB) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	if err := store.CheckAppendStatus(id, status); err != nil {
		return err
	}
	if err := d.live(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), appendTimeout)
	defer cancel()
	tag, err := d.pool.Exec(ctx, appendSQL, id, e.N, int(e.Seat), e.Action, e.At, string(status))
	if isUnique(err, "actions_pkey") {
		// The recorded length said entry e.N was next, yet the log holds
		// it: the two disagree.
		return store.Corrupt(id, "the log holds entry %d but its recorded length is %d", e.N, e.N)
	}
	if err != nil {
		return fmt.Errorf("store/postgres: table %s: appending entry %d: %w", id, e.N, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	// The guard matched nothing: say why.
	var (
		n   int
		bad string
	)
	err = d.pool.QueryRow(ctx, `SELECT log_len, corrupt FROM tables WHERE id = $1`, id).Scan(&n, &bad)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("store/postgres: table %s: %w", id, table.ErrNotFound)
	case err != nil:
		return fmt.Errorf("store/postgres: table %s: reading the log length: %w", id, err)
	case bad != "":
		return store.Marked(id, bad)
	}
	return fmt.Errorf("store/postgres: table %s: appending entry %d to a log of %d: %w", id, e.N, n, table.ErrConflict)
}

// Load returns a table and its whole log in order, read from one snapshot.
// It fails with table.ErrNotFound for an unknown id, and with a
// *table.CorruptError naming the table when a stored row cannot be decoded,
// when the log read is not as long as the table's recorded log length, or
// when the table is marked corrupt (MarkCorrupt).
func (d *DB) Load(ctx context.Context, id string) (rec table.Record, log []table.Entry, err error) {
	err = d.read(ctx, func(tx pgx.Tx) error {
		var err error
		rec, log, err = load(ctx, tx, id)
		return err
	})
	if err != nil {
		return table.Record{}, nil, err
	}
	return rec, log, nil
}

func load(ctx context.Context, tx pgx.Tx, id string) (rec table.Record, log []table.Entry, err error) {
	var (
		opts, status, bad string
		seed              int64
		logLen            int
	)
	rec.ID = id
	err = tx.QueryRow(ctx, `SELECT game, options, seats, seed, status, lang, guild_id, channel_id,
		message_id, created_by, created_at, updated_at, log_len, corrupt FROM tables WHERE id = $1`, id).Scan(
		&rec.Setup.Game, &opts, &rec.Setup.Seats, &seed, &status, &rec.Lang, &rec.GuildID, &rec.ChannelID,
		&rec.MessageID, &rec.CreatedBy, &rec.CreatedAt, &rec.UpdatedAt, &logLen, &bad)
	if errors.Is(err, pgx.ErrNoRows) {
		return rec, nil, fmt.Errorf("store/postgres: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return rec, nil, fmt.Errorf("store/postgres: loading table %s: %w", id, err)
	}
	if bad != "" {
		return rec, nil, store.Marked(id, bad)
	}
	rec.CreatedAt, rec.UpdatedAt = rec.CreatedAt.UTC(), rec.UpdatedAt.UTC()
	if err := store.DecodeTable(id, &rec, opts, status, seed); err != nil {
		return rec, nil, err
	}
	if rec.Seats, err = loadSeats(ctx, tx, id); err != nil {
		return rec, nil, err
	}
	if log, err = loadLog(ctx, tx, id); err != nil {
		return rec, nil, err
	}
	if err := store.CheckLogLen(id, len(log), logLen); err != nil {
		return rec, nil, err
	}
	return rec, log, nil
}

func loadSeats(ctx context.Context, tx pgx.Tx, id string) ([]table.SeatInfo, error) {
	rows, err := tx.Query(ctx, `SELECT seat, kind, user_id, name, bot FROM seats WHERE table_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: loading seats of table %s: %w", id, err)
	}
	defer rows.Close()
	var seats []table.SeatInfo
	for rows.Next() {
		var (
			s    table.SeatInfo
			seat int
			kind string
		)
		if err := rows.Scan(&seat, &kind, &s.UserID, &s.Name, &s.Bot); err != nil {
			return nil, store.Corrupt(id, "seat row: %v", err)
		}
		if err := store.DecodeSeat(id, &s, seat, kind); err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: loading seats of table %s: %w", id, err)
	}
	return seats, nil
}

func loadLog(ctx context.Context, tx pgx.Tx, id string) ([]table.Entry, error) {
	rows, err := tx.Query(ctx, `SELECT n, seat, action, at FROM actions WHERE table_id = $1 ORDER BY n`, id)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: loading the log of table %s: %w", id, err)
	}
	defer rows.Close()
	var log []table.Entry
	for rows.Next() {
		var (
			e    table.Entry
			seat int
		)
		if err := rows.Scan(&e.N, &seat, &e.Action, &e.At); err != nil {
			return nil, store.Corrupt(id, "log row %d: %v", len(log), err)
		}
		if err := store.CheckEntry(id, e.N, len(log)); err != nil {
			return nil, err
		}
		e.Seat, e.At = engine.Seat(seat), e.At.UTC()
		log = append(log, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: loading the log of table %s: %w", id, err)
	}
	return log, nil
}

// ids runs a query returning one id a row.
func (d *DB) ids(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := d.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: %s: %w", what, err)
	}
	ids, err := collect(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store/postgres: %s: %w", what, err)
	}
	return ids, nil
}

// Open lists the ids of the tables in the lobby or being played, oldest
// first; tables marked corrupt are left out (they are not resumed).
func (d *DB) Open(ctx context.Context) ([]string, error) {
	return d.ids(ctx, "listing open tables",
		`SELECT id FROM tables WHERE status IN ($1, $2) AND corrupt = '' ORDER BY created_at, id`,
		string(table.StatusLobby), string(table.StatusPlaying))
}

// InChannel lists the ids of the tables in the lobby or being played in a
// channel (or living in the thread channelID), oldest first; tables marked
// corrupt are left out.
func (d *DB) InChannel(ctx context.Context, channelID string) ([]string, error) {
	return d.ids(ctx, "listing the tables of channel "+channelID,
		`SELECT id FROM tables WHERE status IN ($1, $2) AND corrupt = ''
		AND (channel_id = $3 OR id IN (SELECT table_id FROM table_meta WHERE thread_id = $3)) ORDER BY created_at, id`,
		string(table.StatusLobby), string(table.StatusPlaying), channelID)
}

// LastInChannel returns the id of the newest table of a channel (or of the
// thread a table lives in), whatever its status; "" when there is none.
func (d *DB) LastInChannel(ctx context.Context, channelID string) (string, error) {
	var id string
	err := d.pool.QueryRow(ctx, `SELECT id FROM tables WHERE channel_id = $1
		OR id IN (SELECT table_id FROM table_meta WHERE thread_id = $1)
		ORDER BY created_at DESC, id DESC LIMIT 1`, channelID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store/postgres: finding the last table of channel %s: %w", channelID, err)
	}
	return id, nil
}

// EndedSince lists the ids of the tables that ended (finished or abandoned)
// after since, and are not marked corrupt, oldest change first.
func (d *DB) EndedSince(ctx context.Context, since time.Time) ([]string, error) {
	return d.ids(ctx, "listing the tables that ended lately",
		`SELECT id FROM tables WHERE status IN ($1, $2) AND updated_at > $3 AND corrupt = '' ORDER BY updated_at, id`,
		string(table.StatusFinished), string(table.StatusAbandoned), since)
}

// OpenTables lists the tables in the lobby or being played, oldest first,
// in one query; tables marked corrupt are left out (they are not resumed).
func (d *DB) OpenTables(ctx context.Context) ([]record.OpenTable, error) {
	rows, err := d.pool.Query(ctx, `SELECT t.id, t.updated_at,
		EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = $1)
		FROM tables t WHERE t.status IN ($2, $3) AND t.corrupt = '' ORDER BY t.created_at, t.id`,
		string(table.AI), string(table.StatusLobby), string(table.StatusPlaying))
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing open tables: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (record.OpenTable, error) {
		var t record.OpenTable
		err := r.Scan(&t.ID, &t.UpdatedAt, &t.HasAI)
		t.UpdatedAt = t.UpdatedAt.UTC()
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing open tables: %w", err)
	}
	return out, nil
}

// CurrentTables counts the tables of a server in the lobby or being
// played (not those marked corrupt, which nobody can play); with a user id,
// only those where the user has a seat.
func (d *DB) CurrentTables(ctx context.Context, guildID, userID string) (int, error) {
	q := `SELECT COUNT(*) FROM tables t WHERE t.guild_id = $1 AND t.status IN ($2, $3) AND t.corrupt = ''`
	args := []any{guildID, string(table.StatusLobby), string(table.StatusPlaying)}
	if userID != "" {
		q += ` AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = $4)`
		args = append(args, userID)
	}
	var n int
	if err := d.pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store/postgres: counting current tables: %w", err)
	}
	return n, nil
}

// UserLang returns a user's saved language preference, "" when none is set.
func (d *DB) UserLang(ctx context.Context, userID string) (string, error) {
	var lang string
	err := d.pool.QueryRow(ctx, `SELECT lang FROM user_prefs WHERE user_id = $1`, userID).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store/postgres: reading the preferences of user %s: %w", userID, err)
	}
	return lang, nil
}

// SetUserLang saves a user's language preference; "" clears it (the
// interaction's locale is used again).
func (d *DB) SetUserLang(ctx context.Context, userID, lang string) error {
	return d.exec(ctx, "saving the preferences of user "+userID,
		`INSERT INTO user_prefs (user_id, lang) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang`, userID, lang)
}

// DMReminders reports whether a user has opted in to reminders by direct
// message.
func (d *DB) DMReminders(ctx context.Context, userID string) (bool, error) {
	var on bool
	err := d.pool.QueryRow(ctx, `SELECT dm_reminders FROM user_prefs WHERE user_id = $1`, userID).Scan(&on)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store/postgres: reading the preferences of user %s: %w", userID, err)
	}
	return on, nil
}

// SetDMReminders turns a user's reminders by direct message on or off.
func (d *DB) SetDMReminders(ctx context.Context, userID string, on bool) error {
	return d.exec(ctx, "saving the preferences of user "+userID,
		`INSERT INTO user_prefs (user_id, dm_reminders) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders`, userID, on)
}

// exec runs one writing statement (its own transaction).
func (d *DB) exec(ctx context.Context, what, q string, args ...any) error {
	if err := d.live(); err != nil {
		return err
	}
	if _, err := d.pool.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("store/postgres: %s: %w", what, err)
	}
	return nil
}
