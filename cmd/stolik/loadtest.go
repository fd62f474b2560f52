package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/loadtest"
	"github.com/stolik-bot/stolik/store/open"
)

// cmdLoadtest runs the bot against the fake Discord on 127.0.0.1 with many
// concurrent tables and prints what it measured.
func cmdLoadtest(ctx context.Context, args []string, out io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "loadtest", out)
	}
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.String("lang", "en", "language of the messages: en, pl or uk (read by cliLang)")
	tables := fs.Int("tables", 500, "concurrent tables, each in its own channel, every seat a simulated user")
	dur := fs.Duration("duration", 30*time.Second, "measured window (after a 2 s warm-up)")
	think := fs.Duration("think", time.Second, "mean pause of a table's players between interactions (0: as fast as the bot answers)")
	games := fs.String("games", "", "comma-separated games (default: all)")
	aiShare := fs.Float64("ai", 0, "share of tables (0 to 1) with AI players: 1 to seats-1 humans, the rest AI")
	aiLevel := fs.String("ai-level", "", "the AI players' level: easy, normal or hard")
	dir := fs.String("dir", "", "directory of the database (default: a temporary one)")
	cache := fs.Int("cache", 0, "the bot's table cache (0: its default)")
	seed := fs.Uint64("seed", 1, "seed of the seat counts and the users' choices")
	quiet := fs.Bool("q", false, "no progress lines")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the measured window to this file")
	tracefile := fs.String("trace", "", "write an execution trace of the measured window to this file (go tool trace; a few seconds are enough)")
	memprofile := fs.String("memprofile", "", "write the allocations of the whole run (pprof's allocs profile) to this file")
	pictures := fs.String("pictures", "on", "on: the bot draws the table's and the hands' pictures; off: words only")
	db := fs.String("db", "", "the database: a postgres:// URL of a database without open tables (default: SQLite in --dir)")
	limits := fs.String("limits", "on", "on: the fake Discord enforces Discord's rate limits (50 requests a second a bot token, per-route buckets); off: none")
	restRate := fs.Int("rest-rate", 0, "the bots' rest_rate, bot-token requests a second for all of them (0: the bot's default, 50)")
	knee := fs.Int("knee", 0, "search the capacity knee: from --tables, doubling up to this many tables, the most at which the table message stays at most 2 s behind at p99 with no request refused (one run of --duration each)")
	processes := fs.Int("processes", 1, "bots sharing the database, one shard of the gateway each (more than 1 needs --db postgres://…)")
	if err := parseFlags(l, "loadtest", fs, args); err != nil {
		return err
	}
	bad := func(name string, value any) error {
		return usageError{l.T("cli.flag.bad_value", map[string]any{"Action": "loadtest", "Name": name, "Value": fmt.Sprint(value)})}
	}
	switch {
	case *aiShare < 0 || *aiShare > 1:
		return usageError{l.T("cli.loadtest.ai", map[string]any{"Value": fmt.Sprint(*aiShare)})}
	case *tables < 1:
		return bad("--tables", *tables)
	case *dur <= 0:
		return bad("--duration", *dur)
	case *think < 0:
		return bad("--think", *think)
	case *cache < 0:
		return bad("--cache", *cache)
	case *pictures != "on" && *pictures != "off":
		return bad("--pictures", *pictures)
	case *processes < 1:
		return bad("--processes", *processes)
	case *limits != "on" && *limits != "off":
		return bad("--limits", *limits)
	case *restRate < 0:
		return bad("--rest-rate", *restRate)
	case *aiLevel != "" && !ai.IsLevel(*aiLevel):
		return bad("--ai-level", *aiLevel)
	case *knee < 0 || (*knee > 0 && *knee < *tables):
		return bad("--knee", *knee)
	case *processes > 1 && !open.IsPostgres(*db):
		// The URL may hold a password: the error does not show it.
		return usageError{l.T("cli.loadtest.processes", nil)}
	}
	cfg := loadtest.Config{Tables: *tables, Duration: *dur, Think: *think, AITables: *aiShare, AILevel: *aiLevel, Dir: *dir, TableCache: *cache, Seed: *seed, NoPictures: *pictures == "off", DB: *db, Processes: *processes,
		NoLimits: *limits == "off", RESTRate: *restRate}
	if *games != "" {
		for _, id := range strings.Split(*games, ",") {
			id = strings.TrimSpace(id)
			if _, err := engine.Lookup(id); err != nil {
				return usageError{l.T("cli.unknown_game", map[string]any{"Game": shownArg(id), "List": gameList(l)})}
			}
			cfg.Games = append(cfg.Games, id)
		}
	}
	if !*quiet {
		cfg.Progress = out
	}
	// The recorders of the measured window, started in this order as it
	// begins and stopped in the other as it ends (both may be asked for).
	var recs []windowRecorder
	for _, r := range []windowRecorder{
		{name: "trace", path: *tracefile, start: trace.Start, stop: trace.Stop},
		{name: "cpuprofile", path: *cpuprofile, start: pprof.StartCPUProfile, stop: pprof.StopCPUProfile},
	} {
		if r.path == "" {
			continue
		}
		f, err := os.Create(r.path)
		if err != nil {
			return err
		}
		defer f.Close()
		r.f = f
		recs = append(recs, r)
	}
	if len(recs) > 0 {
		cfg.Measuring = func() func() {
			for i := range recs {
				recs[i].err = recs[i].start(recs[i].f)
			}
			return func() {
				for i := len(recs) - 1; i >= 0; i-- {
					if recs[i].err == nil {
						recs[i].stop()
					}
				}
			}
		}
		defer func() {
			for _, r := range recs {
				if r.err != nil {
					fmt.Fprintf(out, "%s: %v\n", r.name, r.err)
				}
			}
		}()
	}
	if *knee > 0 {
		kr, err := loadtest.Knee(ctx, cfg, *knee, 2*time.Second, cfg.Progress)
		if err != nil {
			return err
		}
		kr.Print(out)
		return nil
	}
	rep, err := loadtest.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Print(out)
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}

// windowRecorder records the load test's measured window to a file: an
// execution trace or a CPU profile.
type windowRecorder struct {
	name, path string
	start      func(io.Writer) error
	stop       func()
	f          *os.File
	err        error // start's
}
