package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/stolik-bot/stolik/engine/table"
)

// querier runs a query: the pools (preparedDB), their transactions
// (stmtTx) and a plain *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// each reads the rows of a query — rows and err as QueryContext returned
// them — with fn, one call a row, and closes them. The query's, fn's and
// the rows' errors are wrapped as "store: what: …", except a
// *table.CorruptError of fn (a row that cannot be decoded, naming its
// table), which is returned as it is.
func each(rows *sql.Rows, err error, what string, fn func(*sql.Rows) error) error {
	if err == nil {
		err = eachRow(rows, fn)
	}
	var ce *table.CorruptError
	if err == nil || errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

func eachRow(rows *sql.Rows, fn func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// collect is each gathering what fn reads of every row, in order; no rows
// give a nil slice.
func collect[T any](rows *sql.Rows, err error, what string, fn func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err = each(rows, err, what, func(r *sql.Rows) error {
		v, err := fn(r)
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanString reads a row of one text column.
func scanString(r *sql.Rows) (string, error) {
	var s string
	return s, r.Scan(&s)
}
