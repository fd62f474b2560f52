package bot

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stolik-bot/stolik/bot/logthrottle"
)

// postgresKind is the log throttle's kind of an error of the PostgreSQL
// store (pgx), "" for any other error. Each is told by its value, never by
// its text (which names a table, a host, a user):
//
//   - an error the server sent: its SQLSTATE code ("postgres 57P01" for a
//     server shutting down or a backend terminated, "postgres 25006" for a
//     database gone read-only), so that two faults met at one call site
//     stay two kinds;
//   - a failed connection attempt (a server that went away, a wrong
//     password, a missing database): "postgres connect" and the server's
//     SQLSTATE when it answered, else the kind of the network error
//     (logthrottle.ErrorKind: a refused connection is its errno);
//   - a connection the driver had already closed, and a timeout: one kind
//     each.
//
// So a database that goes away writes a line or two (the query that lost
// its connection, the first failed reconnection), then counts.
func postgresKind(err error) string {
	var (
		ce *pgconn.ConnectError
		pe *pgconn.PgError
	)
	switch {
	case errors.As(err, &ce) && errors.As(ce.Unwrap(), &pe):
		return "postgres connect " + pe.Code
	case errors.As(err, &ce):
		return "postgres connect " + logthrottle.ErrorKind(ce)
	case errors.As(err, &pe):
		return "postgres " + pe.Code
	case errors.Is(err, pgconn.ErrConnClosed):
		return "postgres connection closed"
	case pgconn.Timeout(err):
		return "postgres timeout"
	}
	return ""
}
