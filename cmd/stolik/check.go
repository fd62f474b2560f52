package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// cmdCheck runs the full integrity check of a database: of a SQLite file,
// SQLite's integrity_check and every table's log against its recorded
// length; of a PostgreSQL database (--db postgres://…), what a client can
// check there, which its output says before "ok" or the problems (see
// postgresChecked). It prints "ok" or the problems, one a line, and fails
// when there is one. It never creates a file: a missing one is a usage
// error (exit 2). Like every command that opens the store, it brings the
// schema up to date and proves that the database can be written. A
// PostgreSQL URL is never shown (it may hold a password): the database is
// named as open.Describe does.
func cmdCheck(ctx context.Context, args []string, out io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "check", out)
	}
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.String("lang", "en", "language of the messages: en, pl or uk (read by cliLang)")
	path := fs.String("db", "", "the database: a SQLite file or a postgres:// URL")
	mark := fs.Bool("mark-corrupt", false,
		"mark every table whose log is not as long as recorded as corrupt (it is no longer loaded or resumed), so that serve starts without it")
	if err := parseFlags(l, "check", fs, args); err != nil {
		return err
	}
	if *path == "" {
		return usageError{l.T("cli.check.need", nil)}
	}
	name := open.Describe(*path)
	// Only --mark-corrupt writes: without it the file is opened read-only,
	// so that a file the user may only read (a copy, a foreign or damaged
	// file) can be checked.
	// The write-ahead log before SQLite opens the file (opening recovers
	// what it can of the log and drops the rest without a word).
	var walProblems []string
	if !open.IsPostgres(*path) {
		if walProblems, err = sqlite.CheckWAL(*path); err != nil {
			return fmt.Errorf("check: %w", err)
		}
		for _, p := range walProblems {
			fmt.Fprintln(out, p)
		}
	}
	openDB := open.OpenReadOnly
	if *mark {
		openDB = open.OpenExisting
	}
	db, err := openDB(ctx, *path)
	if err != nil {
		return dbError(l, name, "", err)
	}
	defer db.Close()
	if *mark {
		ms, err := db.LogMismatches(ctx)
		if err != nil {
			return fmt.Errorf("check: %w", err)
		}
		for _, m := range ms {
			if err := db.MarkCorrupt(ctx, m.ID, m.String()); err != nil {
				return fmt.Errorf("check: %w", err)
			}
			fmt.Fprintf(out, "marked corrupt: %s\n", m)
		}
	}
	problems, err := db.Check(ctx, true)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if *mark && len(walProblems) > 0 {
		fmt.Fprintln(out, "the write-ahead log's sound frames are kept (the file was opened for writing): serve will start; a table that lost moves is marked damaged by the first click from beyond its log (RELIABILITY.md, 16)")
	}
	if open.IsPostgres(*path) {
		lines, err := postgresChecked(ctx, *path)
		if err != nil {
			return fmt.Errorf("check: %s: %w", name, err)
		}
		for _, line := range lines {
			fmt.Fprintln(out, line)
		}
	}
	if len(problems) == 0 && len(walProblems) == 0 {
		fmt.Fprintln(out, "ok")
	}
	for _, p := range problems {
		fmt.Fprintln(out, p)
	}
	marked, err := db.MarkedCorrupt(ctx)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	for _, c := range marked {
		fmt.Fprintf(out, "table %s is marked corrupt and not served: %s\n", c.ID, c.Reason)
	}
	if n := len(problems) + len(walProblems); n > 0 {
		return fmt.Errorf("check: %s: %d problem(s) found", name, n)
	}
	return nil
}

// postgresChecked says what the full check (Check with full true) of the
// PostgreSQL database at dsn examined, one line for each thing, and what it
// cannot: PostgreSQL has no integrity_check a client may run. Its B-tree
// indexes are verified only when the amcheck extension is installed in the
// database, which it asks the database.
func postgresChecked(ctx context.Context, dsn string) ([]string, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("looking for the amcheck extension: %w", err)
	}
	defer conn.Close(ctx)
	var amcheck bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')`).Scan(&amcheck); err != nil {
		return nil, fmt.Errorf("looking for the amcheck extension: %w", err)
	}
	indexes := "indexes: not checked (the amcheck extension is not installed in the database; CREATE EXTENSION amcheck lets check verify them)"
	if amcheck {
		indexes = "indexes: every B-tree index of the store's tables checked with amcheck (bt_index_check)"
	}
	return []string{
		"PostgreSQL database " + open.Describe(dsn) + " (SQLite's integrity_check has no PostgreSQL equivalent a client may run):",
		"logs: every table's log checked against its recorded length, and for positions 0, 1, 2… without gaps (tables marked corrupt left out)",
		indexes,
		"data pages: not checked (page checksums are the server's: initdb --data-checksums, pg_checksums)",
	}, nil
}
