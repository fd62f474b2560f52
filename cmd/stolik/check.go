package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/stolik-bot/stolik/store"
)

// cmdCheck runs the full integrity check of a database file: SQLite's
// integrity_check and every table's log against its recorded length. It
// prints "ok" or the problems, one a line, and fails when there is one. It
// never creates a file: a missing one is a usage error (exit 2). Like every
// command that opens the store, it brings the schema up to date and proves
// that the file can be written.
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
	path := fs.String("db", "", "the SQLite file")
	mark := fs.Bool("mark-corrupt", false,
		"mark every table whose log is not as long as recorded as corrupt (it is no longer loaded or resumed), so that serve starts without it")
	if err := parseFlags(l, "check", fs, args); err != nil {
		return err
	}
	if *path == "" {
		return usageError{l.T("cli.check.need", nil)}
	}
	db, err := store.OpenExisting(ctx, *path)
	if errors.Is(err, store.ErrNoDatabase) {
		return dbError(l, *path, "", err)
	}
	if err != nil {
		return fmt.Errorf("check: %w", err)
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
	if len(problems) == 0 {
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
	if len(problems) > 0 {
		return fmt.Errorf("check: %s: %d problem(s) found", *path, len(problems))
	}
	return nil
}
