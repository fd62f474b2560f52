package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// MarkCorrupt records that a table cannot be used, and why. From then on
// Load and Append fail with a *table.CorruptError, and Open, OpenTables,
// InChannel, CurrentTables and EndedSince leave the table out: it is not
// resumed. The first reason stays: a table marked again keeps why it was
// marked. It fails with table.ErrNotFound for an unknown id.
func (d *DB) MarkCorrupt(ctx context.Context, id, reason string) error {
	reason, err := store.CheckReason(id, reason)
	if err == nil {
		err = d.live()
	}
	if err != nil {
		return err
	}
	var marked bool
	err = d.pool.QueryRow(ctx, `WITH mark AS (
			UPDATE tables SET corrupt = $2, rev = rev + 1 WHERE id = $1 AND corrupt = '' RETURNING id
		) SELECT EXISTS (SELECT 1 FROM mark) OR EXISTS (SELECT 1 FROM tables WHERE id = $1)`, id, reason).Scan(&marked)
	if err != nil {
		return fmt.Errorf("store/postgres: marking table %s corrupt: %w", id, err)
	}
	if !marked {
		return fmt.Errorf("store/postgres: table %s: %w", id, table.ErrNotFound)
	}
	return nil
}

// MarkedCorrupt lists the tables marked corrupt, by id.
func (d *DB) MarkedCorrupt(ctx context.Context) ([]store.CorruptTable, error) {
	rows, err := d.pool.Query(ctx, `SELECT id, corrupt FROM tables WHERE corrupt <> '' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing corrupt tables: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (store.CorruptTable, error) {
		var c store.CorruptTable
		err := r.Scan(&c.ID, &c.Reason)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing corrupt tables: %w", err)
	}
	return out, nil
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// LogMismatches lists the tables, not marked corrupt, whose log holds
// another number of rows than recorded.
func (d *DB) LogMismatches(ctx context.Context) ([]store.LogMismatch, error) {
	return logMismatches(ctx, d.pool)
}

func logMismatches(ctx context.Context, q querier) ([]store.LogMismatch, error) {
	rows, err := q.Query(ctx, `SELECT t.id, t.log_len, COUNT(a.n) FROM tables t
		LEFT JOIN actions a ON a.table_id = t.id
		WHERE t.corrupt = '' GROUP BY t.id, t.log_len HAVING t.log_len <> COUNT(a.n) ORDER BY t.id`)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: comparing log lengths: %w", err)
	}
	out, err := collect(rows, func(r pgx.CollectableRow) (store.LogMismatch, error) {
		var m store.LogMismatch
		err := r.Scan(&m.ID, &m.Recorded, &m.Stored)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: comparing log lengths: %w", err)
	}
	return out, nil
}

// Check examines the database and returns the problems found, nil when
// there are none; the error is for a check that could not run. PostgreSQL
// has no equivalent of SQLite's quick_check and integrity_check that a
// client may run: page checksums are the server's business (initdb
// --data-checksums, pg_checksums). So both checks compare every table's
// recorded log length with the rows of its log (tables marked corrupt are
// known and left out), as the SQLite store does after its pragma; the full
// check (full true) also reports logs whose positions do not run 0, 1, 2…,
// and, when an administrator has installed the amcheck extension in the
// database, verifies the store's B-tree indexes with bt_index_check.
func (d *DB) Check(ctx context.Context, full bool) ([]string, error) {
	var problems []string
	err := d.read(ctx, func(tx pgx.Tx) error {
		ms, err := logMismatches(ctx, tx)
		if err != nil {
			return err
		}
		for _, m := range ms {
			problems = append(problems, m.String())
		}
		if !full {
			return nil
		}
		gaps, err := tx.Query(ctx, `SELECT a.table_id, COUNT(*), MIN(a.n), MAX(a.n) FROM actions a
			JOIN tables t ON t.id = a.table_id WHERE t.corrupt = ''
			GROUP BY a.table_id HAVING MIN(a.n) <> 0 OR MAX(a.n) <> COUNT(*) - 1 ORDER BY a.table_id`)
		if err != nil {
			return fmt.Errorf("store/postgres: checking log positions: %w", err)
		}
		found, err := collect(gaps, func(r pgx.CollectableRow) (string, error) {
			var (
				id            string
				count, lo, hi int
			)
			err := r.Scan(&id, &count, &lo, &hi)
			return fmt.Sprintf("table %s: its log holds %d entries at positions %d to %d, not 0 to %d", id, count, lo, hi, count-1), err
		})
		if err != nil {
			return fmt.Errorf("store/postgres: checking log positions: %w", err)
		}
		problems = append(problems, found...)
		found, err = indexCheck(ctx, tx)
		problems = append(problems, found...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return problems, nil
}

// indexCheck runs amcheck's bt_index_check on every B-tree index of the
// store's tables when the extension is installed; an index found damaged
// is a problem.
func indexCheck(ctx context.Context, tx pgx.Tx) ([]string, error) {
	var installed bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')`).Scan(&installed); err != nil {
		return nil, fmt.Errorf("store/postgres: looking for amcheck: %w", err)
	}
	if !installed {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT i.indexrelid::regclass::text FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
		WHERE am.amname = 'btree' AND i.indrelid = ANY (ARRAY[
			to_regclass('tables'), to_regclass('seats'), to_regclass('actions'), to_regclass('user_prefs'),
			to_regclass('results'), to_regclass('table_meta'), to_regclass('seat_meta'), to_regclass('deadlines'),
			to_regclass('votes')]::oid[])
		ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing indexes: %w", err)
	}
	names, err := collect(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store/postgres: listing indexes: %w", err)
	}
	var problems []string
	for _, name := range names {
		// A savepoint per index: a damaged one fails its statement, not
		// the whole check.
		sp, err := tx.Begin(ctx)
		if err != nil {
			return problems, fmt.Errorf("store/postgres: checking index %s: %w", name, err)
		}
		_, err = sp.Exec(ctx, `SELECT bt_index_check($1::regclass)`, name)
		_ = sp.Rollback(ctx)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && (pe.Code == "XX002" || pe.Code == "XX001") {
			problems = append(problems, fmt.Sprintf("index %s: %s", name, pe.Message))
		} else if err != nil {
			return problems, fmt.Errorf("store/postgres: checking index %s: %w", name, err)
		}
	}
	return problems, nil
}
