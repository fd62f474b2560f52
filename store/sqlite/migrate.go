package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"time"

	"github.com/stolik-bot/stolik/store"
)

//go:embed migrations/*.sql
var embedded embed.FS

// migrate brings db to the newest schema in ms. Each migration runs in its
// own (immediate) transaction together with its row in schema_migrations,
// and the current version is read inside that transaction, so that two
// processes opening the same file at once apply each migration once. A
// database already at the newest version is only read: whether it can be
// written is for Open's write probe to find out.
func migrate(ctx context.Context, db *sql.DB, ms []store.Migration) error {
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
		if next, err := store.NextMigration(ms, cur); next == nil {
			return err
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
func migrateOne(ctx context.Context, db *sql.DB, ms []store.Migration) (done bool, err error) {
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
	m, err := store.NextMigration(ms, cur)
	if err != nil {
		return false, err
	}
	if m == nil {
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("store: applying migration %s: %w", m.Name, err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, formatTime(time.Now())); err != nil {
		return false, fmt.Errorf("store: recording migration %s: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: committing migration %s: %w", m.Name, err)
	}
	return false, nil
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
