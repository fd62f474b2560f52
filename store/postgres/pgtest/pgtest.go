// Package pgtest gives tests a PostgreSQL database of their own.
//
// STOLIK_TEST_POSTGRES names a server (postgres://user@host:port/postgres?…,
// a user that may create databases); scripts/postgres.sh starts a throwaway
// one and prints the line that sets it. Without it the PostgreSQL tests
// skip, saying so, unless STOLIK_REQUIRE_POSTGRES=1 (CI sets it), which
// makes them fail instead.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env is the variable naming the test server; Require makes its absence
// a failure.
const (
	Env     = "STOLIK_TEST_POSTGRES"
	Require = "STOLIK_REQUIRE_POSTGRES"
)

// Server returns the URL of the test server, skipping the test when none
// is configured (failing it when STOLIK_REQUIRE_POSTGRES=1).
func Server(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		msg := "PostgreSQL tests need a server: set " + Env + "=postgres://user@127.0.0.1:PORT/postgres?sslmode=disable " +
			"(eval \"$(scripts/postgres.sh start)\" starts a throwaway one)"
		if os.Getenv(Require) == "1" {
			t.Fatal(Require + "=1 but " + msg)
		}
		t.Skip("skipped: " + msg)
	}
	return base
}

// URL creates a new, empty database stolik_test_<random> on the test
// server and returns its URL; the database is dropped when the test ends.
// It skips the test when no server is configured (see Server).
func URL(t testing.TB) string {
	t.Helper()
	base := Server(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", Env)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "stolik_test_" + hex.EncodeToString(b[:])
	admin(t, base, "CREATE DATABASE "+name)
	t.Cleanup(func() {
		// FORCE ends the sessions a failed test left open.
		admin(t, base, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}

// admin runs one statement on the server's maintenance database.
func admin(t testing.TB, base, stmt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to the test server (%s): %v", Env, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}
