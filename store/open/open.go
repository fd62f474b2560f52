// Package open opens the store a configuration names: `database =
// "postgres://…"` (or postgresql://…, in the configuration or STOLIK_DB)
// is a PostgreSQL database (package store/postgres); anything else is the
// path of a SQLite file (package store/sqlite).
//
// Every backend offers the same methods with the same semantics
// (store.Backend; the conformance suite store/storetest checks them), so
// the bot, the table service and the commands take a Backend and never ask
// which.
package open

import (
	"context"
	"errors"
	"strings"

	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// Backend is a store: what the table service, the bot and the commands
// need from persistence (store.Backend); it holds bot.Store (a test says
// so).
type Backend = store.Backend

var (
	_ Backend = (*sqlite.DB)(nil)
	_ Backend = (*postgres.DB)(nil)
)

// IsPostgres reports whether dsn names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(dsn string) bool { return postgres.IsURL(dsn) }

// Describe returns what may be shown or logged of dsn: a SQLite path as
// it is, a PostgreSQL URL as user@host:port/database (never its password
// or parameters).
func Describe(dsn string) string {
	if IsPostgres(dsn) {
		return postgres.Redact(dsn)
	}
	if scheme, _, ok := strings.Cut(dsn, "://"); ok {
		return scheme + "://…" // a URL of no database Stolik knows: nothing after the scheme, which may hold a password
	}
	return dsn
}

// ErrUnknownScheme is a database named by a URL that is not PostgreSQL's
// (mysql://…, a mistyped scheme): refused rather than taken for the name
// of a SQLite file, and never repeated, since it may hold a password.
var ErrUnknownScheme = errors.New("store: a database URL must start with postgres:// or postgresql://; anything else is a SQLite file path")

// unknownURL reports whether dsn is a URL of a database Stolik does not
// know.
func unknownURL(dsn string) bool { return strings.Contains(dsn, "://") && !IsPostgres(dsn) }

// Open opens the store dsn names, creating a SQLite file or migrating a
// PostgreSQL database as needed, and proves that it can be written. Its
// errors never show a PostgreSQL password. They wrap store.ErrSchemaTooNew
// for a database migrated by a newer program and store.ErrReadOnly for one
// that cannot be written.
func Open(ctx context.Context, dsn string) (Backend, error) {
	if unknownURL(dsn) {
		return nil, ErrUnknownScheme
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, dsn)
}

// OpenExisting is Open for a store that must exist already: a missing
// SQLite file is not created (store.ErrNoDatabase). A PostgreSQL database
// must exist to be connected to at all, so it is Open.
func OpenExisting(ctx context.Context, dsn string) (Backend, error) {
	if unknownURL(dsn) {
		return nil, ErrUnknownScheme
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.OpenExisting(ctx, dsn)
}

// OpenReadOnly opens an existing store only to read it (replay, check):
// a SQLite file is opened read-only (sqlite.OpenReadOnly), never created,
// migrated or written, so a file the user may only read will do. A
// PostgreSQL database is opened as OpenExisting does: what a client may
// write there is the server's to grant.
func OpenReadOnly(ctx context.Context, dsn string) (Backend, error) {
	if unknownURL(dsn) {
		return nil, ErrUnknownScheme
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.OpenReadOnly(ctx, dsn)
}

// OpenChecked is Open followed by the quick check (Check with full false:
// for SQLite its quick_check and the log lengths, for PostgreSQL the log
// lengths): a store with problems is closed again and refused with a
// *store.DamagedError naming it as Describe does. This is what serve opens.
func OpenChecked(ctx context.Context, dsn string) (Backend, error) {
	if unknownURL(dsn) {
		return nil, ErrUnknownScheme
	}
	if !IsPostgres(dsn) {
		return sqlite.OpenChecked(ctx, dsn)
	}
	d, err := postgres.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	problems, err := d.Check(ctx, false)
	if err == nil && len(problems) > 0 {
		err = &store.DamagedError{Path: Describe(dsn), Problems: problems}
	}
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}
