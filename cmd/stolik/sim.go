package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// simStats gathers the figures of a simulation.
type simStats struct {
	games, actions int
	scores         [][]int // per seat, one per game
	wins           []int   // games in which the seat is among the winners
	sole           []int   // games the seat won alone
}

func cmdSim(args []string, out io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "sim", out)
	}
	g, rest, err := needGame(l, "sim", args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.String("lang", "en", "language of the messages: en, pl or uk (read by cliLang)")
	lo, hi := g.Seats()
	n := fs.Int("n", 1000, "number of games")
	seats := fs.Int("seats", min(max(lo, 4), hi), "number of seats")
	seed := fs.Uint64("seed", 1, "seed of the first game; game i uses seed+i")
	botList := fs.String("bots", "heuristic", "AI kind per seat, comma-separated, repeated to fill the seats (heuristic, random)")
	verify := fs.Bool("verify", true, "check invariants: cards conserved, someone always acts, replay reproduces the state")
	maxSteps := fs.Int("max-steps", 100000, "a game longer than this is an error")
	opts := optionFlags{}
	fs.Var(opts, "option", "a game option k=v (repeatable)")
	if err := parseFlags(l, "sim", fs, rest); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{l.T("cli.sim.n", nil)}
	}
	if *maxSteps < 1 {
		return usageError{l.T("cli.flag.bad_value", map[string]any{"Action": "sim", "Name": "--max-steps", "Value": fmt.Sprint(*maxSteps)})}
	}
	if err := engine.ValidateSeats(g, *seats); err != nil {
		return usageError{render.Error(l, err)}
	}
	// The options are checked before the first game, in the reader's words.
	if _, err := engine.Start(g, engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed}, nil); err != nil {
		return usageError{render.Error(l, err)}
	}
	bots, ok := g.(engine.Bots)
	if !ok {
		return usageError{l.T("cli.sim.no_bots", map[string]any{"Game": l.T("game."+g.ID()+".name", nil)})}
	}
	kinds := strings.Split(*botList, ",")
	players := make([]engine.Player, *seats)
	for s := range players {
		kind := strings.TrimSpace(kinds[s%len(kinds)])
		p, err := bots.Bot(kind)
		if err != nil {
			return usageError{l.T("cli.sim.bot", map[string]any{"Value": shownArg(kind), "List": "heuristic, random"})}
		}
		players[s] = p
	}
	stats := simStats{scores: make([][]int, *seats), wins: make([]int, *seats), sole: make([]int, *seats)}
	start := time.Now()
	for i := 0; i < *n; i++ {
		su := engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed + uint64(i)}
		if err := simGame(g, su, players, *verify, *maxSteps, &stats); err != nil {
			return fmt.Errorf("game %d (seed %d): %s", i, su.Seed, simError(l, err))
		}
	}
	elapsed := time.Since(start)
	fmt.Fprintf(out, "%s: %d games, %d seats, options %s, bots %s, verify %v\n", g.ID(), stats.games, *seats, optionList(opts), *botList, *verify)
	fmt.Fprintf(out, "time %v: %.1f games/s, %.0f actions/s, %.0f ns/action, %.1f actions/game\n",
		elapsed.Round(time.Millisecond), float64(stats.games)/elapsed.Seconds(), float64(stats.actions)/elapsed.Seconds(),
		float64(elapsed.Nanoseconds())/float64(max(stats.actions, 1)), float64(stats.actions)/float64(max(stats.games, 1)))
	fmt.Fprintln(out, "seat  bot         mean score   min   max   wins (shared incl.)   sole wins")
	for s := 0; s < *seats; s++ {
		sc := stats.scores[s]
		sum := 0
		for _, v := range sc {
			sum += v
		}
		fmt.Fprintf(out, "%4d  %-10s  %10.2f  %4d  %4d   %5d (%5.1f%%)        %5d (%5.1f%%)\n", s, strings.TrimSpace(kinds[s%len(kinds)]),
			float64(sum)/float64(len(sc)), slices.Min(sc), slices.Max(sc),
			stats.wins[s], 100*float64(stats.wins[s])/float64(stats.games), stats.sole[s], 100*float64(stats.sole[s])/float64(stats.games))
	}
	fmt.Fprintln(out, "errors: 0")
	return nil
}

// optionList writes options as the command line takes them: "mode=expert,
// rounds=3", or "none".
func optionList(o optionFlags) string {
	if len(o) == 0 {
		return "none"
	}
	keys := slices.Sorted(maps.Keys(o))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + o[k]
	}
	return strings.Join(parts, ", ")
}

// simError says what went wrong in a simulated game: a rule error in
// words, anything else (a broken invariant) as it is.
func simError(l *locales.Localizer, err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return render.Error(l, err)
	}
	return err.Error()
}

// simGame plays one AI game and checks its invariants.
func simGame(g engine.Game, su engine.Setup, players []engine.Player, verify bool, maxSteps int, stats *simStats) error {
	st, err := engine.Start(g, su, nil)
	if err != nil {
		return err
	}
	var inventory map[string]int
	inv, hasInv := st.(engine.Inventory)
	if verify && hasInv {
		inventory = inv.Inventory()
	}
	var log []engine.Move
	steps := 0
	for ; ; steps++ {
		if steps > maxSteps {
			return fmt.Errorf("no end after %d actions", maxSteps)
		}
		done, res := st.Result()
		if done {
			for s, v := range res.Scores {
				stats.scores[s] = append(stats.scores[s], v)
			}
			for _, w := range res.Winners {
				stats.wins[w]++
				if len(res.Winners) == 1 {
					stats.sole[w]++
				}
			}
			break
		}
		acting := st.Acting()
		if len(acting) == 0 {
			return fmt.Errorf("action %d: nobody must act and the game is not over", steps)
		}
		s := acting[0]
		legal := st.Legal(s)
		if len(legal) == 0 {
			return fmt.Errorf("action %d: seat %d must act but has no legal action", steps, s)
		}
		var view engine.View
		if _, blind := players[s].(engine.Random); !blind {
			view = st.View(s) // a random player needs no view
		}
		a := players[s].Choose(view, legal, engine.NewRand(su.Seed^0xa11ce, steps))
		if _, err := st.Apply(s, a, engine.NewRand(su.Seed, steps+1)); err != nil {
			return fmt.Errorf("action %d: seat %d's %q rejected: %w", steps, s, a, err)
		}
		if verify {
			log = append(log, engine.Move{Seat: s, Action: a.String()})
			if inventory != nil && !maps.Equal(inv.Inventory(), inventory) {
				return fmt.Errorf("action %d: cards not conserved", steps)
			}
		}
	}
	stats.games++
	stats.actions += steps
	if verify {
		again, err := engine.Replay(g, su, log)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(again, st) {
			return fmt.Errorf("replay of %d actions differs from the game", len(log))
		}
	}
	return nil
}
