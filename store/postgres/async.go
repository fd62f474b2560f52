package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/store/record"
)

// Meta returns the front end's data of a table (zero values when none was
// stored).
func (d *DB) Meta(ctx context.Context, id string) (record.Meta, error) {
	var (
		m    record.Meta
		secs int64
	)
	err := d.pool.QueryRow(ctx, `SELECT deadline_secs, want_thread, thread_id, standins, ai_level FROM table_meta WHERE table_id = $1`, id).
		Scan(&secs, &m.WantThread, &m.ThreadID, &m.StandIns, &m.AILevel)
	if errors.Is(err, pgx.ErrNoRows) {
		return record.Meta{}, nil
	}
	if err != nil {
		return record.Meta{}, fmt.Errorf("store/postgres: reading the settings of table %s: %w", id, err)
	}
	m.Deadline = time.Duration(secs) * time.Second
	return m, nil
}

// SetMeta stores the front end's data of a table.
func (d *DB) SetMeta(ctx context.Context, id string, m record.Meta) error {
	return d.exec(ctx, "saving the settings of table "+id,
		`INSERT INTO table_meta (table_id, deadline_secs, want_thread, thread_id, standins, ai_level)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id) DO UPDATE SET deadline_secs = excluded.deadline_secs,
		want_thread = excluded.want_thread, thread_id = excluded.thread_id, standins = excluded.standins,
		ai_level = excluded.ai_level`,
		id, int64(m.Deadline/time.Second), m.WantThread, m.ThreadID, m.StandIns, m.AILevel)
}

// SeatFlags returns the flags of a table's seats (seats without flags are
// left out).
func (d *DB) SeatFlags(ctx context.Context, id string) (map[engine.Seat]record.SeatFlags, error) {
	rows, err := d.pool.Query(ctx, `SELECT seat, vacant, standin FROM seat_meta WHERE table_id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: reading the seat flags of table %s: %w", id, err)
	}
	defer rows.Close()
	out := map[engine.Seat]record.SeatFlags{}
	for rows.Next() {
		var (
			seat int
			f    record.SeatFlags
		)
		if err := rows.Scan(&seat, &f.Vacant, &f.StandIn); err != nil {
			return nil, fmt.Errorf("store/postgres: reading the seat flags of table %s: %w", id, err)
		}
		out[engine.Seat(seat)] = f
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: reading the seat flags of table %s: %w", id, err)
	}
	return out, nil
}

// SetSeatFlags stores the flags of one seat.
func (d *DB) SetSeatFlags(ctx context.Context, id string, seat engine.Seat, f record.SeatFlags) error {
	return d.exec(ctx, fmt.Sprintf("saving the flags of seat %d of table %s", seat, id),
		`INSERT INTO seat_meta (table_id, seat, vacant, standin) VALUES ($1, $2, $3, $4)
		ON CONFLICT (table_id, seat) DO UPDATE SET vacant = excluded.vacant, standin = excluded.standin`,
		id, int(seat), f.Vacant, f.StandIn)
}

const deadlineCols = `table_id, seat, started_at, remind_at, due_at, reminded_at, expired_at`

func scanDeadlines(rows pgx.Rows) ([]record.Deadline, error) {
	out, err := collect(rows, func(r pgx.CollectableRow) (record.Deadline, error) {
		var (
			dl            record.Deadline
			seat          int
			remd, expired *time.Time
		)
		if err := r.Scan(&dl.TableID, &seat, &dl.StartedAt, &dl.RemindAt, &dl.DueAt, &remd, &expired); err != nil {
			return dl, err
		}
		dl.Seat = engine.Seat(seat)
		dl.StartedAt, dl.RemindAt, dl.DueAt = dl.StartedAt.UTC(), dl.RemindAt.UTC(), dl.DueAt.UTC()
		if remd != nil {
			dl.RemindedAt = remd.UTC()
		}
		if expired != nil {
			dl.ExpiredAt = expired.UTC()
		}
		return dl, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: reading deadlines: %w", err)
	}
	return out, nil
}

// Deadlines returns the deadlines of a table, by seat.
func (d *DB) Deadlines(ctx context.Context, id string) ([]record.Deadline, error) {
	rows, err := d.pool.Query(ctx, `SELECT `+deadlineCols+` FROM deadlines WHERE table_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: reading the deadlines of table %s: %w", id, err)
	}
	return scanDeadlines(rows)
}

// optTime is NULL for the zero time: "not yet".
func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// PutDeadline stores (or replaces) the deadline of a seat; a claim on the
// seat's deadline ends.
func (d *DB) PutDeadline(ctx context.Context, dl record.Deadline) error {
	return d.exec(ctx, "saving a deadline of table "+dl.TableID,
		`INSERT INTO deadlines (`+deadlineCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (table_id, seat) DO UPDATE SET started_at = excluded.started_at, remind_at = excluded.remind_at,
		due_at = excluded.due_at, reminded_at = excluded.reminded_at, expired_at = excluded.expired_at,
		claimed_by = '', claimed_until = NULL`,
		dl.TableID, int(dl.Seat), dl.StartedAt, dl.RemindAt, dl.DueAt, optTime(dl.RemindedAt), optTime(dl.ExpiredAt))
}

// DeleteDeadline removes the deadline of a seat (nothing when there is none).
func (d *DB) DeleteDeadline(ctx context.Context, id string, seat engine.Seat) error {
	return d.exec(ctx, "deleting a deadline of table "+id,
		`DELETE FROM deadlines WHERE table_id = $1 AND seat = $2`, id, int(seat))
}

// DueDeadlines lists the deadlines with something to do at now: a reminder
// not yet sent whose time has come, or a deadline passed and not yet
// handled.
func (d *DB) DueDeadlines(ctx context.Context, now time.Time) ([]record.Deadline, error) {
	rows, err := d.pool.Query(ctx, `SELECT `+deadlineCols+` FROM deadlines
		WHERE (reminded_at IS NULL AND remind_at <= $1) OR (expired_at IS NULL AND due_at <= $1)
		ORDER BY table_id, seat`, now)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing due deadlines: %w", err)
	}
	return scanDeadlines(rows)
}

// NextDue returns the earliest time at which a deadline has something to
// do, or, for one claimed by a process (ClaimDue), at which its lease runs
// out if that is later; ok is false when there is none.
func (d *DB) NextDue(ctx context.Context) (next time.Time, ok bool, err error) {
	var t *time.Time
	// A claimed deadline is not for the others before its lease runs out
	// (GREATEST ignores the NULL of an unclaimed one).
	err = d.pool.QueryRow(ctx, `SELECT MIN(t) FROM (
		SELECT GREATEST(remind_at, claimed_until) AS t FROM deadlines WHERE reminded_at IS NULL
		UNION ALL SELECT GREATEST(due_at, claimed_until) FROM deadlines WHERE expired_at IS NULL) AS pending`).Scan(&t)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store/postgres: finding the next deadline: %w", err)
	}
	if t == nil {
		return time.Time{}, false, nil
	}
	return t.UTC(), true, nil
}

// markDeadline sets a deadline's column to at if it is still unset for the
// same turn (started_at), reporting whether this call set it: of any
// number of callers, in any number of processes, exactly one sees true.
func (d *DB) markDeadline(ctx context.Context, col string, dl record.Deadline, at time.Time) (bool, error) {
	if err := d.live(); err != nil {
		return false, err
	}
	tag, err := d.pool.Exec(ctx, `UPDATE deadlines SET `+col+` = $1
		WHERE table_id = $2 AND seat = $3 AND started_at = $4 AND `+col+` IS NULL`,
		at, dl.TableID, int(dl.Seat), dl.StartedAt)
	if err != nil {
		return false, fmt.Errorf("store/postgres: marking a deadline of table %s: %w", dl.TableID, err)
	}
	return tag.RowsAffected() == 1, nil
}

// MarkReminded records that the reminder of a deadline was sent; false
// when it already was (or the turn changed).
func (d *DB) MarkReminded(ctx context.Context, dl record.Deadline, at time.Time) (bool, error) {
	return d.markDeadline(ctx, "reminded_at", dl, at)
}

// MarkExpired records that a passed deadline was handled; false when it
// already was (or the turn changed).
func (d *DB) MarkExpired(ctx context.Context, dl record.Deadline, at time.Time) (bool, error) {
	return d.markDeadline(ctx, "expired_at", dl, at)
}

// Vote stores voter's choice on a topic of a table, replacing an earlier
// one. It reports whether the stored choice changed. One statement: of two
// equal votes arriving together, one reports the change.
func (d *DB) Vote(ctx context.Context, id, topic, voter, choice string, at time.Time) (bool, error) {
	if err := d.live(); err != nil {
		return false, err
	}
	tag, err := d.pool.Exec(ctx, `INSERT INTO votes (table_id, topic, voter, choice, at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (table_id, topic, voter) DO UPDATE SET choice = excluded.choice, at = excluded.at
		WHERE votes.choice <> excluded.choice`, id, topic, voter, choice, at)
	if err != nil {
		return false, fmt.Errorf("store/postgres: saving a vote: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Votes returns the votes on a topic of a table: voter -> choice.
func (d *DB) Votes(ctx context.Context, id, topic string) (map[string]string, error) {
	rows, err := d.pool.Query(ctx, `SELECT voter, choice FROM votes WHERE table_id = $1 AND topic = $2`, id, topic)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: reading votes: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var v, c string
		if err := rows.Scan(&v, &c); err != nil {
			return nil, fmt.Errorf("store/postgres: reading votes: %w", err)
		}
		out[v] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: reading votes: %w", err)
	}
	return out, nil
}

// ClearVotes removes the votes on a topic of a table.
func (d *DB) ClearVotes(ctx context.Context, id, topic string) error {
	return d.exec(ctx, "clearing votes", `DELETE FROM votes WHERE table_id = $1 AND topic = $2`, id, topic)
}

// RecordResults stores the results of a finished game, one row per seat.
// Recording the same table again changes nothing.
func (d *DB) RecordResults(ctx context.Context, rs []record.Result) error {
	return d.write(ctx, func(tx pgx.Tx) error {
		for _, r := range rs {
			if _, err := tx.Exec(ctx, `INSERT INTO results
				(table_id, seat, user_id, score, won, game, finished_at, standin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
				ON CONFLICT (table_id, seat) DO NOTHING`,
				r.TableID, int(r.Seat), r.UserID, r.Score, r.Won, r.Game, r.FinishedAt, r.StandIn); err != nil {
				return fmt.Errorf("store/postgres: recording the result of table %s: %w", r.TableID, err)
			}
		}
		return nil
	})
}

// GuildStats counts the finished games of a server, per game.
func (d *DB) GuildStats(ctx context.Context, guildID string) ([]record.GameStat, error) {
	rows, err := d.pool.Query(ctx, `SELECT r.game, COUNT(DISTINCT r.table_id),
		COUNT(DISTINCT CASE WHEN r.standin THEN r.table_id END)
		FROM results r JOIN tables t ON t.id = r.table_id WHERE t.guild_id = $1 GROUP BY r.game ORDER BY r.game`, guildID)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: server statistics: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (record.GameStat, error) {
		var g record.GameStat
		err := r.Scan(&g.Game, &g.Games, &g.StandIns)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: server statistics: %w", err)
	}
	return out, nil
}

// PlayerStats gives a player's record on a server, per game.
func (d *DB) PlayerStats(ctx context.Context, guildID, userID string) ([]record.PlayerStat, error) {
	rows, err := d.pool.Query(ctx, `SELECT r.game, COUNT(*), SUM(CASE WHEN r.won THEN 1 ELSE 0 END),
		AVG(r.score)::float8, SUM(CASE WHEN r.standin THEN 1 ELSE 0 END)
		FROM results r JOIN tables t ON t.id = r.table_id
		WHERE t.guild_id = $1 AND r.user_id = $2 GROUP BY r.game ORDER BY r.game`, guildID, userID)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: player statistics: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (record.PlayerStat, error) {
		var p record.PlayerStat
		err := r.Scan(&p.Game, &p.Played, &p.Won, &p.AvgScore, &p.StandIns)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: player statistics: %w", err)
	}
	return out, nil
}
