package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
)

// simStats gathers the figures of a simulation.
type simStats struct {
	games, actions int
	scores         [][]int // per seat, one per game
	wins           []int   // games in which the seat is among the winners
	sole           []int   // games the seat won alone
}

func cmdSim(args []string, out io.Writer) error {
	g, rest, err := splitGame("sim", args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(out)
	lo, _ := g.Seats()
	n := fs.Int("n", 1000, "number of games")
	seats := fs.Int("seats", max(lo, 4), "number of seats")
	seed := fs.Uint64("seed", 1, "seed of the first game; game i uses seed+i")
	botList := fs.String("bots", "heuristic", "AI kind per seat, comma-separated, repeated to fill the seats (heuristic, random)")
	verify := fs.Bool("verify", true, "check invariants: cards conserved, someone always acts, replay reproduces the state")
	maxSteps := fs.Int("max-steps", 100000, "a game longer than this is an error")
	opts := optionFlags{}
	fs.Var(opts, "option", "a game option k=v (repeatable)")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if err := engine.ValidateSeats(g, *seats); err != nil {
		return usageError{err.Error()}
	}
	bots, ok := g.(engine.Bots)
	if !ok {
		return fmt.Errorf("%s has no AI players", g.ID())
	}
	kinds := strings.Split(*botList, ",")
	players := make([]engine.Player, *seats)
	for s := range players {
		p, err := bots.Bot(strings.TrimSpace(kinds[s%len(kinds)]))
		if err != nil {
			return usageError{fmt.Sprintf("unknown bot %q", kinds[s%len(kinds)])}
		}
		players[s] = p
	}
	stats := simStats{scores: make([][]int, *seats), wins: make([]int, *seats), sole: make([]int, *seats)}
	start := time.Now()
	for i := 0; i < *n; i++ {
		su := engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed + uint64(i)}
		if err := simGame(g, su, players, *verify, *maxSteps, &stats); err != nil {
			return fmt.Errorf("game %d (seed %d): %w", i, su.Seed, err)
		}
	}
	elapsed := time.Since(start)
	fmt.Fprintf(out, "%s: %d games, %d seats, options %v, bots %s, verify %v\n", g.ID(), stats.games, *seats, map[string]string(opts), *botList, *verify)
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
