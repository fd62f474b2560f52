package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/store/postgres"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
	"github.com/stolik-bot/stolik/store/storetest"
)

// adapter opens PostgreSQL stores with the hooks the conformance suite
// uses to change their database behind their back.
var adapter = storetest.SQL{
	Open: storetest.OpenFunc(postgres.Open),
	// Exec runs a statement through a connection of its own.
	Exec: func(ctx context.Context, url, q string, args ...any) error {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, q, args...)
		return err
	},
}

// openPG opens the store at url, closed when the test ends.
func openPG(t *testing.T, url string) storetest.Backend { return adapter.Backend(t, url) }

// TestConformance runs the backend-neutral store suite on PostgreSQL, each
// test in a database of its own (STOLIK_TEST_POSTGRES names the server).
func TestConformance(t *testing.T) {
	pgtest.Server(t)
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		return openPG(t, pgtest.URL(t))
	})
}
