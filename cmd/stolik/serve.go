package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/store"
	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/sqlite"
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
	if free, err := sqlite.FreeBytes(cfg.Database); err == nil && free < minFree && !open.IsPostgres(cfg.Database) {
		log.Warn("little disk space left beside the database: moves fail when it runs out (keep at least 64 MiB free)",
			"path", cfg.Database, "free_mib", free>>20)
	}
	// One process a shard: a second process given the same shard stops
	// here, before it takes an interaction. The lock goes with the process
	// that holds it, so a restart after a crash never waits; when it is
	// lost while serving (the database restarted and another process took
	// the shard), this one stops taking interactions.
	ctx, stopServing := context.WithCancel(ctx)
	defer stopServing()
	release, err := db.HoldShard(ctx, cfg.Shard, func() {
		log.Error("another process has taken this process's shard: stopping", "shard", cfg.Shard, "shards", cfg.Shards)
		stopServing()
	})
	if errors.Is(err, store.ErrShardHeld) {
		_ = db.Close()
		return fmt.Errorf("shard %d of %d is served by another live process on this database: give each process its own shard (shard, or %s), or stop the other one", cfg.Shard, cfg.Shards, bot.EnvShard)
	}
	if err != nil {
		_ = db.Close()
		return err
	}
	defer release()
	// On PostgreSQL other processes may share the database: the table
	// service checks what it caches against it (table.WithSharedStore).
	b, err := bot.New(cfg, bot.Deps{Store: db, Logger: log, SharedStore: open.IsPostgres(cfg.Database)})
	if err != nil {
		_ = db.Close()
		return err
	}
	stopHTTP, err := serveInteractions(ctx, cfg, b, log)
	if err != nil {
		_ = db.Close()
		return err
	}
	runErr := b.Run(ctx)
	stopHTTP()
	release()
	if err := db.Close(); err != nil {
		log.Error("closing the database", "err", err)
	}
	log.Info("database closed")
	return runErr
}

// serveInteractions serves the bot's HTTP interactions endpoint on
// cfg.HTTPListen when it is set (the port is taken now, so that a busy one
// stops serve before Discord hears of it). The server stops taking requests
// when ctx is done, as the bot stops taking interactions, and lets those in
// flight finish (each waits at most Discord's 3 seconds); stop waits for
// that.
func serveInteractions(ctx context.Context, cfg bot.Config, b *bot.Bot, log *slog.Logger) (stop func(), err error) {
	if cfg.HTTPListen == "" {
		return func() {}, nil
	}
	h, err := b.InteractionsHandler()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.HTTPListen)
	if err != nil {
		// The address is not secret, but errors name keys, not values
		// (bot.ConfigError): the system's reason alone.
		var oe *net.OpError
		if errors.As(err, &oe) {
			err = oe.Err
		}
		return nil, fmt.Errorf("config: http_listen: cannot listen there: %w (the value given is not shown)", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 20 * time.Second, WriteTimeout: 20 * time.Second, IdleTimeout: 2 * time.Minute}
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the HTTP interactions endpoint stopped", "err", err)
		}
	}()
	log.Info("HTTP interactions endpoint listening", "address", ln.Addr().String())
	quit := make(chan struct{})
	shutDown := make(chan struct{})
	go func() {
		defer close(shutDown)
		select {
		case <-ctx.Done():
		case <-quit:
		}
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("stopping the HTTP interactions endpoint", "err", err)
		}
	}()
	return func() {
		close(quit)
		<-shutDown
		<-served
	}, nil
}
