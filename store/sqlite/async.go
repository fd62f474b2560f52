package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/record"
)

func optTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return parseTime(s)
}

func formatOpt(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Meta returns the front end's data of a table (zero values when none was
// stored).
func (d *DB) Meta(ctx context.Context, id string) (record.Meta, error) {
	var (
		m            record.Meta
		secs         int64
		want, stands int
	)
	err := d.r.QueryRowContext(ctx, `SELECT deadline_secs, want_thread, thread_id, standins, ai_level FROM table_meta WHERE table_id = ?`, id).
		Scan(&secs, &want, &m.ThreadID, &stands, &m.AILevel)
	if errors.Is(err, sql.ErrNoRows) {
		return record.Meta{}, nil
	}
	if err != nil {
		return record.Meta{}, fmt.Errorf("store: reading the settings of table %s: %w", id, err)
	}
	m.Deadline, m.WantThread, m.StandIns = time.Duration(secs)*time.Second, want != 0, stands != 0
	return m, nil
}

// SetMeta stores the front end's data of a table.
func (d *DB) SetMeta(ctx context.Context, id string, m record.Meta) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO table_meta (table_id, deadline_secs, want_thread, thread_id, standins, ai_level)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET deadline_secs = excluded.deadline_secs,
			want_thread = excluded.want_thread, thread_id = excluded.thread_id, standins = excluded.standins,
			ai_level = excluded.ai_level`,
			id, int64(m.Deadline/time.Second), b2i(m.WantThread), m.ThreadID, b2i(m.StandIns), m.AILevel); err != nil {
			return fmt.Errorf("store: saving the settings of table %s: %w", id, err)
		}
		return nil
	})
}

// SeatFlags returns the flags of a table's seats (seats without flags are
// left out).
func (d *DB) SeatFlags(ctx context.Context, id string) (map[engine.Seat]record.SeatFlags, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT seat, vacant, standin FROM seat_meta WHERE table_id = ?`, id)
	out := map[engine.Seat]record.SeatFlags{}
	err = each(rows, err, "reading the seat flags of table "+id, func(r *sql.Rows) error {
		var seat, vacant, standin int
		if err := r.Scan(&seat, &vacant, &standin); err != nil {
			return err
		}
		out[engine.Seat(seat)] = record.SeatFlags{Vacant: vacant != 0, StandIn: standin != 0}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetSeatFlags stores the flags of one seat.
func (d *DB) SetSeatFlags(ctx context.Context, id string, seat engine.Seat, f record.SeatFlags) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seat_meta (table_id, seat, vacant, standin) VALUES (?, ?, ?, ?)
			ON CONFLICT (table_id, seat) DO UPDATE SET vacant = excluded.vacant, standin = excluded.standin`,
			id, int(seat), b2i(f.Vacant), b2i(f.StandIn)); err != nil {
			return fmt.Errorf("store: saving the flags of seat %d of table %s: %w", seat, id, err)
		}
		return nil
	})
}

const deadlineCols = `table_id, seat, started_at, remind_at, due_at, reminded_at, expired_at`

// scanDeadline reads a row of deadlineCols.
func scanDeadline(r *sql.Rows) (record.Deadline, error) {
	var (
		dl                                 record.Deadline
		seat                               int
		started, remind, due, remd, expird string
	)
	if err := r.Scan(&dl.TableID, &seat, &started, &remind, &due, &remd, &expird); err != nil {
		return dl, err
	}
	dl.Seat = engine.Seat(seat)
	var errs [5]error
	dl.StartedAt, errs[0] = parseTime(started)
	dl.RemindAt, errs[1] = parseTime(remind)
	dl.DueAt, errs[2] = parseTime(due)
	dl.RemindedAt, errs[3] = optTime(remd)
	dl.ExpiredAt, errs[4] = optTime(expird)
	if err := errors.Join(errs[:]...); err != nil {
		return dl, store.Corrupt(dl.TableID, "deadline of seat %d: %v", seat, err)
	}
	return dl, nil
}

// Deadlines returns the deadlines of a table, by seat.
func (d *DB) Deadlines(ctx context.Context, id string) ([]record.Deadline, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT `+deadlineCols+` FROM deadlines WHERE table_id = ? ORDER BY seat`, id)
	return collect(rows, err, "reading the deadlines of table "+id, scanDeadline)
}

// PutDeadline stores (or replaces) the deadline of a seat; a claim on the
// seat's deadline ends (the row is replaced).
func (d *DB) PutDeadline(ctx context.Context, dl record.Deadline) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO deadlines (`+deadlineCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			dl.TableID, int(dl.Seat), formatTime(dl.StartedAt), formatTime(dl.RemindAt), formatTime(dl.DueAt),
			formatOpt(dl.RemindedAt), formatOpt(dl.ExpiredAt)); err != nil {
			return fmt.Errorf("store: saving a deadline of table %s: %w", dl.TableID, err)
		}
		return nil
	})
}

// DeleteDeadline removes the deadline of a seat (nothing when there is none).
func (d *DB) DeleteDeadline(ctx context.Context, id string, seat engine.Seat) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM deadlines WHERE table_id = ? AND seat = ?`, id, int(seat)); err != nil {
			return fmt.Errorf("store: deleting a deadline of table %s: %w", id, err)
		}
		return nil
	})
}

// DueDeadlines lists the deadlines with something to do at now: a reminder
// not yet sent whose time has come, or a deadline passed and not yet
// handled.
func (d *DB) DueDeadlines(ctx context.Context, now time.Time) ([]record.Deadline, error) {
	t := formatTime(now)
	rows, err := d.r.QueryContext(ctx, `SELECT `+deadlineCols+` FROM deadlines
		WHERE (reminded_at = '' AND remind_at <= ?) OR (expired_at = '' AND due_at <= ?)
		ORDER BY table_id, seat`, t, t)
	return collect(rows, err, "listing due deadlines", scanDeadline)
}

// NextDue returns the earliest time at which a deadline has something to
// do, or, for one claimed by a process (ClaimDue), at which its lease runs
// out if that is later; ok is false when there is none.
func (d *DB) NextDue(ctx context.Context) (next time.Time, ok bool, err error) {
	var s sql.NullString
	// A claimed deadline is not for the others before its lease runs out
	// (MAX of two times: the stored form sorts as the times do; '' first).
	err = d.r.QueryRowContext(ctx, `SELECT MIN(t) FROM (
		SELECT MAX(remind_at, claimed_until) AS t FROM deadlines WHERE reminded_at = ''
		UNION ALL SELECT MAX(due_at, claimed_until) FROM deadlines WHERE expired_at = '')`).Scan(&s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: finding the next deadline: %w", err)
	}
	if !s.Valid || s.String == "" {
		return time.Time{}, false, nil
	}
	next, err = parseTime(s.String)
	return next, err == nil, err
}

// markDeadline sets a deadline's column to at if it is still unset for the
// same turn (started_at), reporting whether this call set it: a deadline
// that fires twice is handled once.
func (d *DB) markDeadline(ctx context.Context, col string, dl record.Deadline, at time.Time) (bool, error) {
	var changed bool
	err := d.write(ctx, func(tx stmtTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE deadlines SET `+col+` = ? WHERE table_id = ? AND seat = ? AND started_at = ? AND `+col+` = ''`,
			formatTime(at), dl.TableID, int(dl.Seat), formatTime(dl.StartedAt))
		if err != nil {
			return fmt.Errorf("store: marking a deadline of table %s: %w", dl.TableID, err)
		}
		n, err := res.RowsAffected()
		changed = n == 1
		return err
	})
	return changed, err
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
// one. It reports whether the stored choice changed.
func (d *DB) Vote(ctx context.Context, id, topic, voter, choice string, at time.Time) (bool, error) {
	var changed bool
	err := d.write(ctx, func(tx stmtTx) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT choice FROM votes WHERE table_id = ? AND topic = ? AND voter = ?`, id, topic, voter).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: reading a vote: %w", err)
		}
		if err == nil && old == choice {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO votes (table_id, topic, voter, choice, at) VALUES (?, ?, ?, ?, ?)`,
			id, topic, voter, choice, formatTime(at)); err != nil {
			return fmt.Errorf("store: saving a vote: %w", err)
		}
		return nil
	})
	return changed, err
}

// Votes returns the votes on a topic of a table: voter -> choice.
func (d *DB) Votes(ctx context.Context, id, topic string) (map[string]string, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT voter, choice FROM votes WHERE table_id = ? AND topic = ?`, id, topic)
	out := map[string]string{}
	err = each(rows, err, "reading votes", func(r *sql.Rows) error {
		var v, c string
		if err := r.Scan(&v, &c); err != nil {
			return err
		}
		out[v] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ClearVotes removes the votes on a topic of a table.
func (d *DB) ClearVotes(ctx context.Context, id, topic string) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM votes WHERE table_id = ? AND topic = ?`, id, topic); err != nil {
			return fmt.Errorf("store: clearing votes: %w", err)
		}
		return nil
	})
}

// DMReminders reports whether a user has opted in to reminders by direct
// message.
func (d *DB) DMReminders(ctx context.Context, userID string) (bool, error) {
	var on int
	err := d.r.QueryRowContext(ctx, `SELECT dm_reminders FROM user_prefs WHERE user_id = ?`, userID).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: reading the preferences of user %s: %w", userID, err)
	}
	return on != 0, nil
}

// SetDMReminders turns a user's reminders by direct message on or off.
func (d *DB) SetDMReminders(ctx context.Context, userID string, on bool) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_prefs (user_id, dm_reminders) VALUES (?, ?)
			ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders`, userID, b2i(on)); err != nil {
			return fmt.Errorf("store: saving the preferences of user %s: %w", userID, err)
		}
		return nil
	})
}

// RecordResults stores the results of a finished game, one row per seat.
// Recording the same table again changes nothing.
func (d *DB) RecordResults(ctx context.Context, rs []record.Result) error {
	return d.write(ctx, func(tx stmtTx) error {
		for _, r := range rs {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO results
				(table_id, seat, user_id, score, won, game, finished_at, standin) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				r.TableID, int(r.Seat), r.UserID, r.Score, b2i(r.Won), r.Game, formatTime(r.FinishedAt), b2i(r.StandIn)); err != nil {
				return fmt.Errorf("store: recording the result of table %s: %w", r.TableID, err)
			}
		}
		return nil
	})
}

// GuildStats counts the finished games of a server, per game.
func (d *DB) GuildStats(ctx context.Context, guildID string) ([]record.GameStat, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT r.game, COUNT(DISTINCT r.table_id),
		COUNT(DISTINCT CASE WHEN r.standin <> 0 THEN r.table_id END)
		FROM results r JOIN tables t ON t.id = r.table_id WHERE t.guild_id = ? GROUP BY r.game ORDER BY r.game`, guildID)
	return collect(rows, err, "server statistics", func(r *sql.Rows) (record.GameStat, error) {
		var g record.GameStat
		return g, r.Scan(&g.Game, &g.Games, &g.StandIns)
	})
}

// PlayerStats gives a player's record on a server, per game.
func (d *DB) PlayerStats(ctx context.Context, guildID, userID string) ([]record.PlayerStat, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT r.game, COUNT(*), SUM(r.won), AVG(r.score), SUM(r.standin)
		FROM results r JOIN tables t ON t.id = r.table_id
		WHERE t.guild_id = ? AND r.user_id = ? GROUP BY r.game ORDER BY r.game`, guildID, userID)
	return collect(rows, err, "player statistics", func(r *sql.Rows) (record.PlayerStat, error) {
		var p record.PlayerStat
		return p, r.Scan(&p.Game, &p.Played, &p.Won, &p.AvgScore, &p.StandIns)
	})
}

// CurrentTables counts the tables of a server in the lobby or being
// played (not those marked corrupt, which nobody can play); with a user id,
// only those where the user has a seat.
func (d *DB) CurrentTables(ctx context.Context, guildID, userID string) (int, error) {
	q := `SELECT COUNT(*) FROM tables t WHERE t.guild_id = ? AND t.status IN (?, ?) AND t.corrupt = ''`
	args := []any{guildID, string(table.StatusLobby), string(table.StatusPlaying)}
	if userID != "" {
		q += ` AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = ?)`
		args = append(args, userID)
	}
	var n int
	if err := d.r.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: counting current tables: %w", err)
	}
	return n, nil
}

// LastInChannel returns the id of the newest table of a channel (or of the
// thread a table lives in), whatever its status; "" when there is none.
func (d *DB) LastInChannel(ctx context.Context, channelID string) (string, error) {
	var id string
	err := d.r.QueryRowContext(ctx, `SELECT id FROM tables WHERE channel_id = ?
		OR id IN (SELECT table_id FROM table_meta WHERE thread_id = ?)
		ORDER BY created_at DESC, id DESC LIMIT 1`, channelID, channelID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: finding the last table of channel %s: %w", channelID, err)
	}
	return id, nil
}
