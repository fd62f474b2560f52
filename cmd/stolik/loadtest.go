package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/loadtest"
)

// cmdLoadtest runs the bot against the fake Discord on 127.0.0.1 with many
// concurrent tables and prints what it measured.
func cmdLoadtest(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(out)
	tables := fs.Int("tables", 500, "concurrent tables, each in its own channel, every seat a simulated user")
	dur := fs.Duration("duration", 30*time.Second, "measured window (after a 2 s warm-up)")
	think := fs.Duration("think", time.Second, "mean pause of a table's players between interactions (0: as fast as the bot answers)")
	games := fs.String("games", "", "comma-separated games (default: all)")
	ai := fs.Float64("ai", 0, "share of tables (0 to 1) with AI players: 1 to seats-1 humans, the rest AI")
	dir := fs.String("dir", "", "directory of the database (default: a temporary one)")
	cache := fs.Int("cache", 0, "the bot's table cache (0: its default)")
	seed := fs.Uint64("seed", 1, "seed of the seat counts and the users' choices")
	quiet := fs.Bool("q", false, "no progress lines")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	pictures := fs.String("pictures", "on", "on: the bot draws the table's and the hands' pictures; off: words only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("loadtest: unexpected argument %q", fs.Arg(0))}
	}
	if *ai < 0 || *ai > 1 {
		return usageError{fmt.Sprintf("loadtest: --ai %v is not between 0 and 1", *ai)}
	}
	if *pictures != "on" && *pictures != "off" {
		return usageError{fmt.Sprintf("loadtest: --pictures %q is not on or off", *pictures)}
	}
	cfg := loadtest.Config{Tables: *tables, Duration: *dur, Think: *think, AITables: *ai, Dir: *dir, TableCache: *cache, Seed: *seed, NoPictures: *pictures == "off"}
	if *games != "" {
		cfg.Games = strings.Split(*games, ",")
	}
	if !*quiet {
		cfg.Progress = out
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := loadtest.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Print(out)
	return nil
}
