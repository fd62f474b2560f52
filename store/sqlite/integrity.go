package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// isDamage reports whether err is SQLite finding the file damaged.
func isDamage(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// MarkCorrupt records that a table cannot be used, and why. From then on
// Load and Append fail with a *table.CorruptError, and Open, OpenTables,
// InChannel and CurrentTables leave the table out: it is not resumed. It
// fails with table.ErrNotFound for an unknown id.
func (d *DB) MarkCorrupt(ctx context.Context, id, reason string) error {
	reason, err := store.CheckReason(id, reason)
	if err != nil {
		return err
	}
	return d.write(ctx, func(tx stmtTx) error {
		// The first reason stays: a table marked again (after a restart, its
		// load fails with the mark itself) keeps why it was marked.
		var was string
		err := tx.QueryRowContext(ctx, `SELECT corrupt FROM tables WHERE id = ?`, id).Scan(&was)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: table %s: %w", id, table.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: marking table %s corrupt: %w", id, err)
		}
		if was != "" {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tables SET corrupt = ?, rev = rev + 1 WHERE id = ?`, reason, id); err != nil {
			return fmt.Errorf("store: marking table %s corrupt: %w", id, err)
		}
		return nil
	})
}

// MarkedCorrupt lists the tables marked corrupt, by id.
func (d *DB) MarkedCorrupt(ctx context.Context) ([]store.CorruptTable, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT id, corrupt FROM tables WHERE corrupt <> '' ORDER BY id`)
	return collect(rows, err, "listing corrupt tables", func(r *sql.Rows) (store.CorruptTable, error) {
		var c store.CorruptTable
		return c, r.Scan(&c.ID, &c.Reason)
	})
}

// LogMismatches lists the tables, not marked corrupt, whose log holds
// another number of rows than recorded.
func (d *DB) LogMismatches(ctx context.Context) ([]store.LogMismatch, error) {
	return logMismatches(ctx, d.r)
}

func logMismatches(ctx context.Context, q querier) ([]store.LogMismatch, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.id, t.log_len, COUNT(a.n) FROM tables t
		LEFT JOIN actions a ON a.table_id = t.id
		WHERE t.corrupt = '' GROUP BY t.id HAVING t.log_len <> COUNT(a.n) ORDER BY t.id`)
	return collect(rows, err, "comparing log lengths", func(r *sql.Rows) (store.LogMismatch, error) {
		var m store.LogMismatch
		return m, r.Scan(&m.ID, &m.Recorded, &m.Stored)
	})
}

// Check examines the database: SQLite's PRAGMA quick_check (full false:
// the structure of every page and record, in time linear in the file's
// size) or PRAGMA integrity_check (full true: also that every index
// matches its table), then every table's recorded log length against the
// rows of its log (tables marked corrupt are known and left out). It
// returns the problems found, nil when there are none. A damaged file that
// SQLite refuses to read is a problem too; the error is for a check that
// could not run.
func (d *DB) Check(ctx context.Context, full bool) ([]string, error) {
	pragma := "quick_check"
	if full {
		pragma = "integrity_check"
	}
	tx, err := d.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("store: beginning a read: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var problems []string
	found, err := pragmaCheck(ctx, tx, pragma)
	if isDamage(err) {
		return []string{err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	problems = append(problems, found...)
	ms, err := logMismatches(ctx, tx)
	if isDamage(err) {
		return append(problems, err.Error()), nil
	}
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		problems = append(problems, m.String())
	}
	return problems, nil
}

// pragmaCheck runs PRAGMA quick_check or integrity_check and returns what
// it reports, nil for its single "ok".
func pragmaCheck(ctx context.Context, q querier, pragma string) ([]string, error) {
	rows, err := q.QueryContext(ctx, "PRAGMA "+pragma)
	out, err := collect(rows, err, pragma, scanString)
	if err != nil {
		return nil, err
	}
	if len(out) == 1 && out[0] == "ok" {
		return nil, nil
	}
	return out, nil
}

// OpenChecked is Open followed by the quick check (Check with full false):
// a database with problems is closed again and refused with a
// *store.DamagedError.
func OpenChecked(ctx context.Context, path string) (*DB, error) {
	// The write-ahead log first: opening the file recovers what SQLite can
	// of it and drops the rest without a word.
	if problems, err := CheckWAL(path); err != nil || len(problems) > 0 {
		if err == nil {
			err = &store.DamagedError{Path: path, Problems: problems}
		}
		return nil, err
	}
	d, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	problems, err := d.Check(ctx, false)
	if err == nil && len(problems) > 0 {
		err = &store.DamagedError{Path: path, Problems: problems}
	}
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}
