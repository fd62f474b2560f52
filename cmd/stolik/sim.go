package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// simStats gathers the figures of a simulation.
type simStats struct {
	games, actions int
	scores         [][]int           // per seat, one per game
	wins           []int             // games in which the seat is among the winners
	sole           []int             // games the seat won alone
	share          [][]float64       // per seat, its share of each game's win (1/winners, 0)
	decisions      [][]time.Duration // per seat, the time of each decision a search player made
	cpu            [][]time.Duration // per seat, the CPU time of the same decisions
}

// simGameResult is one simulated game's outcome.
type simGameResult struct {
	actions   int
	res       engine.Result
	decisions map[engine.Seat][]time.Duration // search players' decision times
	cpu       map[engine.Seat][]time.Duration // the same decisions' CPU time on their thread
}

func (st *simStats) add(g simGameResult) {
	st.games++
	st.actions += g.actions
	for s, v := range g.res.Scores {
		st.scores[s] = append(st.scores[s], v)
		share := 0.0
		if slices.Contains(g.res.Winners, engine.Seat(s)) {
			share = 1 / float64(len(g.res.Winners))
		}
		st.share[s] = append(st.share[s], share)
	}
	for _, w := range g.res.Winners {
		st.wins[w]++
		if len(g.res.Winners) == 1 {
			st.sole[w]++
		}
	}
	if st.decisions == nil {
		st.decisions = make([][]time.Duration, len(st.scores))
		st.cpu = make([][]time.Duration, len(st.scores))
	}
	for s, d := range g.decisions {
		st.decisions[s] = append(st.decisions[s], d...)
	}
	for s, d := range g.cpu {
		st.cpu[s] = append(st.cpu[s], d...)
	}
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
	botList := fs.String("bots", "heuristic", "AI kind or level per seat, comma-separated, repeated to fill the seats (heuristic, random, search, easy, normal, hard)")
	verify := fs.Bool("verify", true, "check invariants: cards conserved, someone always acts, replay reproduces the state")
	maxSteps := fs.Int("max-steps", 100000, "a game longer than this is an error")
	budget := fs.Int("budget", 0, "simulated actions per decision of a search player (0: the default)")
	workers := fs.Int("workers", 1, "games played at once (each on its own goroutine)")
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
	if _, ok := g.(engine.Bots); !ok {
		return usageError{l.T("cli.sim.no_bots", map[string]any{"Game": l.T("game."+g.ID()+".name", nil)})}
	}
	kinds := strings.Split(*botList, ",")
	players := make([]engine.Player, *seats)
	for s := range players {
		kind := strings.TrimSpace(kinds[s%len(kinds)])
		p, err := ai.Player(g, kind, *seats, *budget)
		if err != nil {
			return usageError{l.T("cli.sim.bot", map[string]any{"Value": shownArg(kind), "List": strings.Join(append(ai.Kinds(), ai.Levels()...), ", ")})}
		}
		players[s] = p
	}
	stats := simStats{scores: make([][]int, *seats), wins: make([]int, *seats), sole: make([]int, *seats), share: make([][]float64, *seats)}
	games := make([]simGameResult, *n)
	errs := make([]error, *n)
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < max(*workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lockThread() // a decision's CPU time is its thread's
			for i := range next {
				su := engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed + uint64(i)}
				games[i], errs[i] = simGame(g, su, players, *verify, *maxSteps)
			}
		}()
	}
	for i := 0; i < *n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	for i := range games {
		if errs[i] != nil {
			return fmt.Errorf("game %d (seed %d): %s", i, *seed+uint64(i), simError(l, errs[i]))
		}
		stats.add(games[i])
	}
	fmt.Fprintf(out, "%s: %d games, %d seats, options %s, bots %s, verify %v\n", g.ID(), stats.games, *seats, optionList(opts), *botList, *verify)
	fmt.Fprintf(out, "time %v: %.1f games/s, %.0f actions/s, %.0f ns/action, %.1f actions/game\n",
		elapsed.Round(time.Millisecond), float64(stats.games)/elapsed.Seconds(), float64(stats.actions)/elapsed.Seconds(),
		float64(elapsed.Nanoseconds())/float64(max(stats.actions, 1)), float64(stats.actions)/float64(max(stats.games, 1)))
	fmt.Fprintln(out, "seat  bot         mean score   min   max   wins (shared incl.)   sole wins        win share (95% CI)")
	for s := 0; s < *seats; s++ {
		sc := stats.scores[s]
		sum := 0
		for _, v := range sc {
			sum += v
		}
		mean, half := meanCI(stats.share[s])
		fmt.Fprintf(out, "%4d  %-10s  %10.2f  %4d  %4d   %5d (%5.1f%%)        %5d (%5.1f%%)   %5.1f%% ± %.1f\n", s, strings.TrimSpace(kinds[s%len(kinds)]),
			float64(sum)/float64(len(sc)), slices.Min(sc), slices.Max(sc),
			stats.wins[s], 100*float64(stats.wins[s])/float64(stats.games), stats.sole[s], 100*float64(stats.sole[s])/float64(stats.games),
			100*mean, 100*half)
	}
	for s := 0; s < *seats; s++ {
		if d := stats.decisions[s]; len(d) > 0 {
			slices.Sort(d)
			fmt.Fprintf(out, "seat %d decision time: %d decisions, median %v, p99 %v, max %v\n", s, len(d),
				d[len(d)/2].Round(time.Microsecond), d[len(d)*99/100].Round(time.Microsecond), d[len(d)-1].Round(time.Microsecond))
		}
		if c := stats.cpu[s]; len(c) > 0 {
			slices.Sort(c)
			fmt.Fprintf(out, "seat %d decision CPU time (its thread): median %v, p99 %v, max %v\n", s,
				c[len(c)/2].Round(time.Microsecond), c[len(c)*99/100].Round(time.Microsecond), c[len(c)-1].Round(time.Microsecond))
		}
	}
	fmt.Fprintln(out, "errors: 0")
	return nil
}

// meanCI is the mean of xs and the half-width of its 95% confidence
// interval (normal approximation).
func meanCI(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
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

// simGame plays one AI game and checks its invariants. A search player's
// decisions are timed.
func simGame(g engine.Game, su engine.Setup, players []engine.Player, verify bool, maxSteps int) (simGameResult, error) {
	out := simGameResult{decisions: map[engine.Seat][]time.Duration{}, cpu: map[engine.Seat][]time.Duration{}}
	st, err := engine.Start(g, su, nil)
	if err != nil {
		return out, err
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
			return out, fmt.Errorf("no end after %d actions", maxSteps)
		}
		done, res := st.Result()
		if done {
			out.res = res
			break
		}
		acting := st.Acting()
		if len(acting) == 0 {
			return out, fmt.Errorf("action %d: nobody must act and the game is not over", steps)
		}
		s := acting[0]
		legal := st.Legal(s)
		if len(legal) == 0 {
			return out, fmt.Errorf("action %d: seat %d must act but has no legal action", steps, s)
		}
		r := engine.NewRand(su.Seed^0xa11ce, steps)
		var a engine.Action
		switch p := players[s].(type) {
		case engine.Random:
			a = p.Choose(nil, legal, r) // a random player needs no view
		case engine.Searcher:
			t0 := time.Now()
			c0, cpuOK := threadCPU()
			a = p.ChooseIn(st, s, r)
			out.decisions[s] = append(out.decisions[s], time.Since(t0))
			if c1, ok := threadCPU(); ok && cpuOK {
				out.cpu[s] = append(out.cpu[s], c1-c0)
			}
		default:
			a = p.Choose(st.View(s), legal, r)
		}
		if _, err := st.Apply(s, a, engine.NewRand(su.Seed, steps+1)); err != nil {
			return out, fmt.Errorf("action %d: seat %d's %q rejected: %w", steps, s, a, err)
		}
		if verify {
			log = append(log, engine.Move{Seat: s, Action: a.String()})
			if inventory != nil && !maps.Equal(inv.Inventory(), inventory) {
				return out, fmt.Errorf("action %d: cards not conserved", steps)
			}
		}
	}
	out.actions = steps
	if verify {
		again, err := engine.Replay(g, su, log)
		if err != nil {
			return out, err
		}
		if !reflect.DeepEqual(again, st) {
			return out, fmt.Errorf("replay of %d actions differs from the game", len(log))
		}
	}
	return out, nil
}
