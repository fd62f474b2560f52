package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

// pgBackend is the PostgreSQL store with the hooks the conformance suite
// uses to change its database behind its back.
type pgBackend struct {
	*postgres.DB
	url string
}

var (
	_ storetest.Backend    = pgBackend{}
	_ storetest.RawDeleter = pgBackend{}
	_ storetest.RawEditor  = pgBackend{}
	_ storetest.Reopener   = pgBackend{}
)

func openPG(t *testing.T, url string) pgBackend {
	t.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return pgBackend{DB: db, url: url}
}

func (b pgBackend) Reopen(t *testing.T) storetest.Backend { return openPG(t, b.url) }

// raw runs a statement through a connection of its own.
func (b pgBackend) raw(ctx context.Context, q string, args ...any) error {
	conn, err := pgx.Connect(ctx, b.url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, q, args...)
	return err
}

func (b pgBackend) DeleteLogRows(ctx context.Context, id string, from, to int) error {
	return b.raw(ctx, `DELETE FROM actions WHERE table_id = $1 AND n >= $2 AND n < $3`, id, from, to)
}

func (b pgBackend) UpdateLogRow(ctx context.Context, id string, n int, action string) error {
	return b.raw(ctx, `UPDATE actions SET action = $1 WHERE table_id = $2 AND n = $3`, action, id, n)
}

func (b pgBackend) SetLogLen(ctx context.Context, id string, n int) error {
	return b.raw(ctx, `UPDATE tables SET log_len = $1 WHERE id = $2`, n, id)
}

// TestConformance runs the backend-neutral store suite on PostgreSQL, each
// test in a database of its own (STOLIK_TEST_POSTGRES names the server).
func TestConformance(t *testing.T) {
	pgtest.Server(t)
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		return openPG(t, pgtest.URL(t))
	})
}
