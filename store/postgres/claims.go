package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// ClaimDue returns the deadlines with something to do at now (as
// DueDeadlines) that no other owner holds a live claim on, and claims them
// for owner until now+lease, in one statement: the candidates are locked
// with FOR UPDATE SKIP LOCKED, so that of several processes claiming at
// once each deadline goes to one (a row another claimer has just claimed
// is re-read after its lock and no longer qualifies). A claim whose lease
// has passed (its process died) is taken over; owner's own live claims are
// handed to it again, with the lease renewed. The claim ends with
// ReleaseClaim, or when PutDeadline starts a new turn of the seat, or when
// DeleteDeadline removes it.
func (d *DB) ClaimDue(ctx context.Context, now time.Time, owner string, lease time.Duration) ([]record.Deadline, error) {
	if owner == "" {
		return nil, errors.New("store/postgres: claiming deadlines needs an owner")
	}
	if err := d.live(); err != nil {
		return nil, err
	}
	rows, err := d.pool.Query(ctx, `UPDATE deadlines SET claimed_by = $2, claimed_until = $3
		WHERE (table_id, seat) IN (
			SELECT table_id, seat FROM deadlines
			WHERE ((reminded_at IS NULL AND remind_at <= $1) OR (expired_at IS NULL AND due_at <= $1))
			AND (claimed_by = '' OR claimed_by = $2 OR claimed_until <= $1)
			FOR UPDATE SKIP LOCKED)
		RETURNING `+deadlineCols, now, owner, now.Add(lease))
	if err != nil {
		return nil, fmt.Errorf("store/postgres: claiming due deadlines: %w", err)
	}
	out, err := scanDeadlines(rows)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b record.Deadline) int {
		return cmp.Or(cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Seat, b.Seat))
	})
	return out, nil
}

// ReleaseClaim ends owner's claim on a seat's deadline (nothing when owner
// does not hold it): another owner may claim it at once.
func (d *DB) ReleaseClaim(ctx context.Context, dl record.Deadline, owner string) error {
	return d.exec(ctx, "releasing a deadline of table "+dl.TableID,
		`UPDATE deadlines SET claimed_by = '', claimed_until = NULL WHERE table_id = $1 AND seat = $2 AND claimed_by = $3`,
		dl.TableID, int(dl.Seat), owner)
}

// Stamp returns the stored length of a table's log and the count of changes
// to its record (one primary-key row read), failing with table.ErrNotFound
// for an unknown id. A table marked corrupt still reports its stamp (its
// Load fails).
func (d *DB) Stamp(ctx context.Context, id string) (table.Stamp, error) {
	if err := d.live(); err != nil {
		return table.Stamp{}, err
	}
	var s table.Stamp
	err := d.pool.QueryRow(ctx, `SELECT log_len, rev FROM tables WHERE id = $1`, id).Scan(&s.LogLen, &s.Rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return table.Stamp{}, fmt.Errorf("store/postgres: table %s: %w", id, table.ErrNotFound)
	}
	if err != nil {
		return table.Stamp{}, fmt.Errorf("store/postgres: reading the stamp of table %s: %w", id, err)
	}
	return s, nil
}
