package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/open"
)

// minFree is the free space below which serve warns at start.
const minFree = 64 << 20

// cmdServe runs the Discord bot until ctx is done (SIGINT, SIGTERM).
func cmdServe(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	// The flag package quotes what it refuses; a token pasted onto the
	// command line by mistake must not be printed, so serve says only what
	// it takes.
	fs.SetOutput(io.Discard)
	path := fs.String("config", "", "configuration file (TOML; default: stolik.toml if it exists)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(out, "stolik serve [--config FILE]: runs the Discord bot; the token comes from DISCORD_TOKEN or the configuration file")
			return err
		}
		return usageError{"serve: an unknown flag or a flag without its value (not shown); serve takes only --config FILE"}
	}
	if fs.NArg() > 0 {
		return usageError{"serve: an unexpected argument (not shown); serve takes only --config FILE"}
	}
	optional := *path == ""
	if optional {
		*path = "stolik.toml"
	}
	cfg, err := bot.Load(*path, optional, os.Getenv)
	if errors.Is(err, bot.ErrNoToken) {
		return fmt.Errorf("%w", err)
	}
	if err != nil {
		return err
	}
	log := cfg.Logger(errOut)
	// Open refuses a file it cannot write (store.ErrReadOnly); the quick
	// check, one that is damaged (*store.DamagedError): either way serve
	// stops here with one line saying why, before Discord hears of it.
	start := time.Now()
	db, err := open.OpenChecked(ctx, cfg.Database)
	if err != nil {
		return err
	}
	log.Info("database open", "database", open.Describe(cfg.Database), "opened_and_checked_in", time.Since(start).Round(time.Millisecond))
	// The write-ahead log needs about 4 MiB beside the file between
	// checkpoints, and the file grows with every game: below minFree the
	// host hears of it now, not from failing moves.
	// (A PostgreSQL server keeps its own disk: nothing to check here.)
	if free, err := store.FreeBytes(cfg.Database); err == nil && free < minFree && !open.IsPostgres(cfg.Database) {
		log.Warn("little disk space left beside the database: moves fail when it runs out (keep at least 64 MiB free)",
			"path", cfg.Database, "free_mib", free>>20)
	}
	// On PostgreSQL other processes may share the database: the table
	// service checks what it caches against it (table.WithSharedStore).
	b, err := bot.New(cfg, bot.Deps{Store: db, Logger: log, SharedStore: open.IsPostgres(cfg.Database)})
	if err != nil {
		_ = db.Close()
		return err
	}
	runErr := b.Run(ctx)
	if err := db.Close(); err != nil {
		log.Error("closing the database", "err", err)
	}
	log.Info("database closed")
	return runErr
}
