package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// dueAndFree is the condition of a deadline that ClaimDue hands to owner:
// something to do at now (as DueDeadlines), and no live claim of another
// owner. Arguments: now, now, owner, now.
const dueAndFree = `((reminded_at = '' AND remind_at <= ?) OR (expired_at = '' AND due_at <= ?))
	AND (claimed_by = '' OR claimed_by = ? OR claimed_until <= ?)`

// ClaimDue returns the deadlines with something to do at now (as
// DueDeadlines) that no other owner holds a live claim on, and claims them
// for owner until now+lease, in one write transaction: of several
// processes (or goroutines) claiming at once, each deadline goes to one.
// A claim whose lease has passed (its process died) is taken over; owner's
// own live claims are handed to it again, with the lease renewed. The claim
// ends with ReleaseClaim, or when PutDeadline starts a new turn of the
// seat, or when DeleteDeadline removes it.
func (d *DB) ClaimDue(ctx context.Context, now time.Time, owner string, lease time.Duration) ([]record.Deadline, error) {
	if owner == "" {
		return nil, errors.New("store: claiming deadlines needs an owner")
	}
	t, until := formatTime(now), formatTime(now.Add(lease))
	// Most rounds of the scheduler find nothing: a read says so without
	// taking the write lock.
	var found int
	err := d.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM deadlines WHERE `+dueAndFree+`)`, t, t, owner, t).Scan(&found)
	if err != nil {
		return nil, fmt.Errorf("store: looking for due deadlines: %w", err)
	}
	if found == 0 {
		return nil, nil
	}
	var out []record.Deadline
	err = d.write(ctx, func(tx stmtTx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+deadlineCols+` FROM deadlines WHERE `+dueAndFree+` ORDER BY table_id, seat`,
			t, t, owner, t)
		if out, err = collect(rows, err, "claiming due deadlines", scanDeadline); err != nil {
			return err
		}
		if len(out) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE deadlines SET claimed_by = ?, claimed_until = ? WHERE `+dueAndFree,
			owner, until, t, t, owner, t); err != nil {
			return fmt.Errorf("store: claiming due deadlines: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseClaim ends owner's claim on a seat's deadline (nothing when owner
// does not hold it): another owner may claim it at once.
func (d *DB) ReleaseClaim(ctx context.Context, dl record.Deadline, owner string) error {
	return d.write(ctx, func(tx stmtTx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE deadlines SET claimed_by = '', claimed_until = ''
			WHERE table_id = ? AND seat = ? AND claimed_by = ?`, dl.TableID, int(dl.Seat), owner); err != nil {
			return fmt.Errorf("store: releasing a deadline of table %s: %w", dl.TableID, err)
		}
		return nil
	})
}

// Stamp returns the stored length of a table's log and the count of changes
// to its record (one indexed row read), failing with table.ErrNotFound for
// an unknown id. A table marked corrupt still reports its stamp (its Load
// fails).
func (d *DB) Stamp(ctx context.Context, id string) (table.Stamp, error) {
	var s table.Stamp
	err := d.r.QueryRowContext(ctx, `SELECT log_len, rev FROM tables WHERE id = ?`, id).Scan(&s.LogLen, &s.Rev)
	if errors.Is(err, sql.ErrNoRows) {
		return table.Stamp{}, fmt.Errorf("store: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return table.Stamp{}, fmt.Errorf("store: reading the stamp of table %s: %w", id, err)
	}
	return s, nil
}
