package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var embedded embed.FS

// ErrSchemaTooNew is returned by Open when the database has been migrated by
// a newer version of the program than this one.
var ErrSchemaTooNew = errors.New("store: database schema is newer than this program")

// migration is one numbered schema change.
type migration struct {
	version int
	name    string // the file name, for messages
	sql     string
}

// loadMigrations reads the migrations in dir of fsys. Files are named
// NNNN_description.sql; their numbers must run 1, 2, 3... without gaps.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: reading migrations: %w", err)
	}
	var ms []migration
	for _, ent := range ents {
		name := ent.Name()
		if ent.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		if !ok {
			return nil, fmt.Errorf("store: migration %q: name must be NNNN_description.sql", name)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q: name must start with a positive number", name)
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("store: migration %q: %w", name, err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("store: migration %q: expected number %d (numbers must run from 1 without gaps or repeats)", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate brings db to the newest schema in ms. Each migration runs in its
// own (immediate) transaction together with its row in schema_migrations,
// and the current version is read inside that transaction, so that two
// processes opening the same file at once apply each migration once. A
// database already at the newest version is only read: whether it can be
// written is for Open's write probe to find out.
func migrate(ctx context.Context, db *sql.DB, ms []migration) error {
	var exists int
	if err := db.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&exists); err != nil {
		return fmt.Errorf("store: reading schema version: %w", err)
	}
	if exists > 0 {
		cur, err := schemaVersion(ctx, db)
		if err != nil {
			return err
		}
		if cur > len(ms) {
			return tooNew(cur, len(ms))
		}
		if cur == len(ms) {
			return nil
		}
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER NOT NULL PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at TEXT    NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("store: creating schema_migrations: %w", err)
	}
	for {
		done, err := migrateOne(ctx, db, ms)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// migrateOne applies the next pending migration, reporting done when there
// is none.
func migrateOne(ctx context.Context, db *sql.DB, ms []migration) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: migrating: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	cur, err := schemaVersion(ctx, tx)
	if err != nil {
		return false, err
	}
	if cur > len(ms) {
		return false, tooNew(cur, len(ms))
	}
	if cur == len(ms) {
		return true, tx.Commit()
	}
	m := ms[cur]
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return false, fmt.Errorf("store: applying migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, formatTime(time.Now())); err != nil {
		return false, fmt.Errorf("store: recording migration %s: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: committing migration %s: %w", m.name, err)
	}
	return false, nil
}

func tooNew(cur, known int) error {
	return fmt.Errorf("%w: the database is at schema version %d but this program knows versions up to %d; run a newer stolik", ErrSchemaTooNew, cur, known)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func schemaVersion(ctx context.Context, q queryer) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("store: reading schema version: %w", err)
	}
	return v, nil
}
