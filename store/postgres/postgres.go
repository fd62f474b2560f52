// Package postgres is Stolik's PostgreSQL store, for deployments that
// outgrow one process: several processes may share one database. It is
// built on pgx and its pool (pgxpool) and offers store.Backend with the
// semantics and the error values of the SQLite store (store/sqlite):
// table.ErrNotFound, table.ErrExists, table.ErrConflict,
// *table.CorruptError, store.ErrMarkedCorrupt, store.ErrSchemaTooNew,
// store.ErrReadOnly, store.ErrClosed. Both pass one conformance suite,
// store/storetest. It imports only the backend-neutral package store,
// never the SQLite adapter: a program that uses only this store builds
// with CGO_ENABLED=0.
//
// The schema is the SQLite store's, migration for migration
// (migrations/0001–0004, rewritten in PostgreSQL's types, read by
// store.LoadMigrations); Open applies the pending ones while holding a
// PostgreSQL advisory lock, so that several processes starting at once
// apply each migration once.
//
// One writer per table holds across processes: an append is one statement
// whose guard, UPDATE tables SET log_len = log_len + 1 WHERE id = $1 AND
// log_len = $2, takes the table's row lock; of two writers appending the
// same entry, the second waits for the first and then finds the new length,
// so it inserts nothing and fails with table.ErrConflict.
//
// Where it differs from SQLite, on purpose:
//
//   - Times are timestamptz, which keeps microseconds: a time comes back
//     truncated (towards the past) to the microsecond, in UTC, where the
//     SQLite store keeps nanoseconds. Comparisons (a deadline due at now,
//     a table ended after since) are made between truncated times, so two
//     times less than a microsecond apart compare equal.
//   - There is no group commit in the program: appends from several
//     connections commit concurrently, and PostgreSQL's WAL flush serves
//     the commits that arrive together. An acknowledged append is durable
//     when the server runs with its defaults (fsync = on, synchronous_commit
//     = on or stronger); the store does not override the server's settings.
//   - Check cannot run SQLite's quick_check or integrity_check: PostgreSQL
//     has no client-side equivalent. It compares every log with its
//     recorded length; the full check also finds logs whose positions do
//     not run 0, 1, 2…, and runs amcheck's bt_index_check on the store's
//     indexes when an administrator has installed the amcheck extension in
//     the database.
//
// Errors never show the connection URL's password: they name the database
// as user@host:port/database.
//
// It needs PostgreSQL 11 or newer (tested with 15). pgx prepares and caches
// its statements on each connection; behind a pooler in transaction mode
// (PgBouncer) add default_query_exec_mode=exec to the URL.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stolik-bot/stolik/store"
)

//go:embed migrations/*.sql
var embedded embed.FS

// migrationLock is the key of the advisory lock held while migrating
// ("stolik" in ASCII). Advisory locks are per database.
const migrationLock int64 = 0x73746f6c696b

// DB is a PostgreSQL store. It is safe for concurrent use, by any number of
// processes sharing the database.
type DB struct {
	pool   *pgxpool.Pool
	where  string // user@host:port/database, for messages
	closed atomic.Bool
}

var _ store.Backend = (*DB)(nil)

// IsURL reports whether dsn names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than a SQLite file.
func IsURL(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Redact returns what of a PostgreSQL URL may be shown: user@host:port/database,
// without the password or any parameter. A URL that cannot be parsed gives
// "(a PostgreSQL URL that cannot be parsed)".
func Redact(dsn string) string {
	where, _, err := parseURL(dsn)
	if err != nil {
		return "(a PostgreSQL URL that cannot be parsed)"
	}
	return where
}

// parseURL returns the shown form of a URL and the secrets it holds.
func parseURL(dsn string) (where string, secrets []string, err error) {
	u, err := url.Parse(dsn)
	if err != nil || !IsURL(dsn) || u.Opaque != "" {
		return "", nil, errors.New("store/postgres: the database URL cannot be parsed (it is not shown: it may hold a password); the form is postgres://user:password@host:port/database?sslmode=...")
	}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			secrets = append(secrets, pw, url.QueryEscape(pw), url.PathEscape(pw))
		}
		where = u.User.Username() + "@"
	}
	for k, vs := range u.Query() {
		if strings.Contains(strings.ToLower(k), "password") {
			for _, v := range vs {
				if v != "" {
					secrets = append(secrets, v, url.QueryEscape(v))
				}
			}
		}
	}
	db := strings.TrimPrefix(u.Path, "/")
	return where + u.Host + "/" + db, secrets, nil
}

// scrubbed is an error whose text has the URL's secrets removed; it
// unwraps to the errors it stands for.
type scrubbed struct {
	msg  string
	errs []error
}

func (e *scrubbed) Error() string   { return e.msg }
func (e *scrubbed) Unwrap() []error { return e.errs }

func scrub(msg string, secrets []string) string {
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "xxxxx")
		}
	}
	return msg
}

// Open connects to the PostgreSQL database at url (postgres://…), applies
// the pending migrations under an advisory lock and proves that the
// database can be written by committing a write to it. It fails with
// store.ErrSchemaTooNew when the database was migrated by a newer program,
// and with store.ErrReadOnly when it cannot be written (a standby, a
// read-only transaction default, a user without the privileges).
func Open(ctx context.Context, url string) (*DB, error) {
	where, secrets, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	fail := func(step string, err error) error {
		errs := []error{err}
		if isReadOnly(err) {
			errs = append(errs, store.ErrReadOnly)
			step += " (the database cannot be written)"
		}
		return &scrubbed{msg: scrub(fmt.Sprintf("store/postgres: %s: %s: %v", where, step, err), secrets), errs: errs}
	}
	ms, err := store.LoadMigrations(embedded, "migrations")
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's words may quote the URL: they are left out.
		return nil, fmt.Errorf("store/postgres: %s: the URL is not a valid PostgreSQL connection URL (details not shown: they may hold the password)", where)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fail("connecting", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fail("connecting", err)
	}
	d := &DB{pool: pool, where: where}
	if err := d.migrate(ctx, ms); err != nil {
		pool.Close()
		if errors.Is(err, store.ErrSchemaTooNew) {
			return nil, &scrubbed{msg: scrub(fmt.Sprintf("%v (database %s)", err, where), secrets), errs: []error{err}}
		}
		return nil, fail("migrating", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO probe (id, at) VALUES (1, now())
		ON CONFLICT (id) DO UPDATE SET at = excluded.at`); err != nil {
		pool.Close()
		return nil, fail("write probe", err)
	}
	return d, nil
}

// isReadOnly reports whether err is PostgreSQL refusing a write: a
// read-only transaction (a standby, default_transaction_read_only) or
// missing privileges.
func isReadOnly(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "25006" || pe.Code == "42501")
}

// Where returns the database as errors name it: user@host:port/database.
func (d *DB) Where() string { return d.where }

// Close closes the pool; calls made afterwards fail (writes with
// store.ErrClosed).
func (d *DB) Close() error {
	d.closed.Store(true)
	d.pool.Close()
	return nil
}

// live fails with store.ErrClosed after Close.
func (d *DB) live() error {
	if d.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// migrate brings the database to the newest schema in ms. It holds a
// session advisory lock on one connection throughout, so that processes
// starting at once migrate one after the other; each migration runs in its
// own transaction with its row in schema_migrations. A database already at
// the newest version is only read.
func (d *DB) migrate(ctx context.Context, ms []store.Migration) error {
	conn, err := d.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return fmt.Errorf("taking the migration lock: %w", err)
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock); err != nil {
			// Closing the session releases its locks.
			_ = conn.Hijack().Close(context.WithoutCancel(ctx))
		}
	}()
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if !exists {
		if _, err := conn.Exec(ctx, `CREATE TABLE schema_migrations (
			version    INTEGER          NOT NULL PRIMARY KEY,
			name       TEXT COLLATE "C" NOT NULL,
			applied_at TIMESTAMPTZ      NOT NULL
		)`); err != nil {
			return fmt.Errorf("creating schema_migrations: %w", err)
		}
	}
	for {
		cur, err := schemaVersion(ctx, conn)
		if err != nil {
			return err
		}
		m, err := store.NextMigration(ms, cur)
		if m == nil {
			return err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("applying migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())`,
				m.Version, m.Name); err != nil {
				return fmt.Errorf("recording migration %s: %w", m.Name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
}

type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func schemaVersion(ctx context.Context, q rowQuerier) (int, error) {
	var v int
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	return v, nil
}

// SchemaVersion returns the number of the newest migration applied.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	v, err := schemaVersion(ctx, d.pool)
	if err != nil {
		return 0, fmt.Errorf("store/postgres: %w", err)
	}
	return v, nil
}

// write runs f in a read-write transaction, committing when it returns nil.
func (d *DB) write(ctx context.Context, f func(tx pgx.Tx) error) error {
	if err := d.live(); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, d.pool, f)
}

// read runs f in a read-only repeatable-read transaction: every query of f
// sees one snapshot.
func (d *DB) read(ctx context.Context, f func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, d.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
}

// isUnique reports whether err is a unique violation of constraint name.
func isUnique(err error, name string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == name
}

// collect reads every row with fn; no rows give a nil slice, as the SQLite
// store returns.
func collect[T any](rows pgx.Rows, fn pgx.RowToFunc[T]) ([]T, error) {
	return pgx.AppendRows([]T(nil), rows, fn)
}
