// Package enginetest is the conformance suite every game runs in one line:
//
//	func TestConformance(t *testing.T) { enginetest.Run(t, Game{}, enginetest.Config{}) }
//
// It plays seeded random games and checks that a game that is not over
// always has someone to act with a legal action, that legal actions are
// accepted and survive a notation round trip, that illegal ones are rejected
// without changing the state, that replaying (seed, log) reproduces the live
// state, that clones are independent, that a seat's view does not change when
// what it may not know is re-dealt, that cards are conserved, and that
// nothing panics.
package enginetest

import (
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// Config tunes a conformance run. Zero values pick defaults.
type Config struct {
	Seats    []int            // seat counts to try; default: every count the game allows
	Options  []engine.Options // option sets to try; default: the game's defaults
	Games    int              // playouts in all; default 600 (2000 with STOLIK_SOAK=1 without -race, RaceGames under -race, 200 with -short; see Soak)
	MaxSteps int              // a playout longer than this fails; default 20000
	Seed     uint64           // first table seed; default 1
	Every    int              // run the costly checks every Every steps; default 5
}

func (c *Config) defaults(g engine.Game) {
	if len(c.Seats) == 0 {
		lo, hi := g.Seats()
		for n := lo; n <= hi; n++ {
			c.Seats = append(c.Seats, n)
		}
	}
	if len(c.Options) == 0 {
		c.Options = []engine.Options{{}}
	}
	if c.Games == 0 {
		// The README's command plays 600; .ci/run's soak step the 2000.
		c.Games = 600
		switch {
		case Sampled():
			c.Games = RaceGames
		case Soak() && !raceDetector:
			c.Games = 2000
		}
		if testing.Short() && c.Games > 200 {
			c.Games = 200
		}
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 20000
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Every == 0 {
		c.Every = 5
	}
}

// RaceGames is how many seeded playouts (seeds 1 to RaceGames) a game's
// conformance run plays under -race without STOLIK_SOAK=1: CI's race step
// (scripts/race.sh) must stay within its time budget, and the engines
// are single-goroutine code the race detector finds nothing in. .ci/run's
// soak step plays the full run (2000 playouts, seeds 1 to 2000) without
// -race: STOLIK_SOAK=1 go test -run Conformance ./engine/...
const RaceGames = 60

// Soak reports whether STOLIK_SOAK=1 asks for the long runs in full even
// under -race (the thousands of games, the long loops) that the README's
// test command samples. .ci/run runs them as named steps after it.
func Soak() bool { return os.Getenv("STOLIK_SOAK") == "1" }

// Sampled reports whether the long runs are sampled in this run: under
// -race without STOLIK_SOAK=1 (scripts/race.sh; the README's command,
// without -race, plays the walks in full and 600 of the conformance
// suite's 2000 games). A test that samples names what it leaves out and
// plays all of it otherwise.
func Sampled() bool { return raceDetector && !Soak() }

// Run plays cfg.Games random games of g and fails t on any breach.
func Run(t *testing.T, g engine.Game, cfg Config) {
	t.Helper()
	cfg.defaults(g)
	for i := 0; i < cfg.Games; i++ {
		su := engine.Setup{
			Game:    g.ID(),
			Seats:   cfg.Seats[i%len(cfg.Seats)],
			Options: cfg.Options[(i/len(cfg.Seats))%len(cfg.Options)],
			Seed:    cfg.Seed + uint64(i),
		}
		if err := Playout(g, su, cfg.MaxSteps, cfg.Every); err != nil {
			t.Fatalf("game %d (seats %d, options %v, seed %d): %v", i, su.Seats, su.Options, su.Seed, err)
		}
	}
}

// Playout plays one random game and checks every invariant on the way. It
// returns the first breach; a panic is turned into an error.
func Playout(g engine.Game, su engine.Setup, maxSteps, every int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	st, err := engine.Start(g, su, nil)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	var inventory map[string]int
	if inv, ok := st.(engine.Inventory); ok {
		inventory = inv.Inventory()
	}
	chooser := engine.NewRand(su.Seed^0x9e3779b97f4a7c15, 0)
	var log []engine.Move
	var seen []engine.Action // actions legal at some earlier point
	for step := 0; ; step++ {
		done, res := st.Result()
		acting := st.Acting()
		if done {
			if len(acting) != 0 {
				return fmt.Errorf("step %d: game over but seats %v must act", step, acting)
			}
			if err := checkPlaces(res, su.Seats); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
			if err := checkForecast(st, su.Seats, res.Winners); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
			break
		}
		if step >= maxSteps {
			return fmt.Errorf("no end after %d steps", maxSteps)
		}
		if len(acting) == 0 {
			return fmt.Errorf("step %d: game not over and nobody must act", step)
		}
		s := acting[chooser.IntN(len(acting))]
		legal := st.Legal(s)
		if len(legal) == 0 {
			return fmt.Errorf("step %d: seat %d must act but has no legal action", step, s)
		}
		// Now and then a seat that need not act takes an optional action.
		if opt, ok := st.(engine.Optional); ok && chooser.IntN(4) == 0 {
			o := engine.Seat(chooser.IntN(su.Seats))
			if ol := opt.OptionalLegal(o); len(ol) > 0 && !slices.Contains(acting, o) {
				s, legal = o, ol
			}
		}
		costly := step%every == 0
		if costly {
			if err := checkIllegal(g, st, su.Seats, acting, seen, su.Seed, len(log), chooser); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
			if err := checkHidden(st, su.Seats, chooser); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
			if err := checkForecast(st, su.Seats, nil); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
			// Reading what the others showed replays the game so far:
			// checked more rarely.
			if step%(every*16) == 0 {
				if err := checkBeliefs(st, s, chooser); err != nil {
					return fmt.Errorf("step %d: %w", step, err)
				}
			}
			// Remember a few actions legal now, to try them later when
			// they no longer are.
			for k := 0; k < 3; k++ {
				a := legal[chooser.IntN(len(legal))]
				if len(seen) < 64 {
					seen = append(seen, a)
				} else {
					seen[chooser.IntN(len(seen))] = a
				}
			}
		}
		a := legal[chooser.IntN(len(legal))]
		parsed, perr := g.ParseAction(a.String())
		if perr != nil || parsed != a || parsed.String() != a.String() {
			return fmt.Errorf("step %d: notation round trip of %q gave %v, %v", step, a.String(), parsed, perr)
		}
		var before engine.State
		var beforeViews []engine.View
		if costly {
			before = st.Clone()
			beforeViews = views(before, su.Seats)
		}
		var simulated engine.State
		if _, ok := st.(engine.Simulator); ok && costly {
			simulated = st.Clone()
			if err := simulated.(engine.Simulator).Simulate(s, a, engine.NewRand(su.Seed, len(log)+1)); err != nil {
				return fmt.Errorf("step %d: legal action %q of seat %d not simulated: %v", step, a, s, err)
			}
		}
		ev, aerr := st.Apply(s, a, engine.NewRand(su.Seed, len(log)+1))
		if aerr != nil {
			return fmt.Errorf("step %d: legal action %q of seat %d rejected: %v", step, a, s, aerr)
		}
		log = append(log, engine.Move{Seat: s, Action: a.String()})
		for _, e := range ev {
			if e.Audience != engine.Everyone && (e.Audience < 0 || int(e.Audience) >= su.Seats) {
				return fmt.Errorf("step %d: event %s has audience %d", step, e.Type, e.Audience)
			}
		}
		if simulated != nil && !reflect.DeepEqual(simulated, st) {
			return fmt.Errorf("step %d: simulating %q left another state than applying it", step, a)
		}
		if costly {
			if !reflect.DeepEqual(views(before, su.Seats), beforeViews) {
				return fmt.Errorf("step %d: applying to the original changed a clone", step)
			}
		}
		if inventory != nil {
			if got := st.(engine.Inventory).Inventory(); !maps.Equal(got, inventory) {
				return fmt.Errorf("step %d: cards not conserved after %q: %v, want %v", step, a, got, inventory)
			}
		}
	}
	replayed, err := engine.Replay(g, su, log)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(replayed, st) {
		return fmt.Errorf("replay of %d actions differs from the live state", len(log))
	}
	return nil
}

func views(st engine.State, seats int) []engine.View {
	out := []engine.View{st.View(engine.Spectator)}
	for s := 0; s < seats; s++ {
		out = append(out, st.View(engine.Seat(s)))
	}
	return out
}

// checkIllegal tries actions that are not legal now — earlier legal actions,
// the acting seats' actions played by other seats, and garbage — and checks
// that each is rejected with a rule error and changes nothing.
func checkIllegal(g engine.Game, st engine.State, seats int, acting []engine.Seat, seen []engine.Action, seed uint64, n int, r *engine.Rand) error {
	before := views(st, seats)
	beforeActing := st.Acting()
	try := func(s engine.Seat, a engine.Action) error {
		_, err := st.Apply(s, a, engine.NewRand(seed, n+1))
		if err == nil {
			return fmt.Errorf("illegal action %q accepted for seat %d", a, s)
		}
		if engine.Code(err) == "" {
			return fmt.Errorf("rejection of %q is not a rule error: %v", a, err)
		}
		if !reflect.DeepEqual(views(st, seats), before) || !slices.Equal(st.Acting(), beforeActing) {
			return fmt.Errorf("rejected action %q of seat %d changed the state", a, s)
		}
		return nil
	}
	for s := 0; s < seats; s++ {
		if !slices.Contains(acting, engine.Seat(s)) && len(st.Legal(engine.Seat(s))) > 0 {
			return fmt.Errorf("seat %d is not acting but has legal actions", s)
		}
	}
	// allowed reports whether seat may take a now: a legal action, or an
	// optional one of a seat that need not act (engine.Optional).
	allowed := func(seat engine.Seat, a engine.Action) bool {
		return slices.Contains(engine.AnyLegal(st, seat), engine.Canonical(st, seat, a))
	}
	// Earlier legal actions that are not legal now, by random seats.
	for k := 0; k < 4 && len(seen) > 0; k++ {
		seat := engine.Seat(r.IntN(seats))
		a := seen[r.IntN(len(seen))]
		if !allowed(seat, a) {
			if err := try(seat, a); err != nil {
				return err
			}
		}
	}
	// An acting seat's action, by someone else: a spectator, a seat that
	// does not exist, another seat.
	s := acting[r.IntN(len(acting))]
	legal := st.Legal(s)
	a := legal[r.IntN(len(legal))]
	others := []engine.Seat{engine.Spectator, engine.Seat(seats), engine.Seat(r.IntN(seats))}
	for _, other := range others {
		if other != s && !allowed(other, a) {
			if err := try(other, a); err != nil {
				return err
			}
		}
	}
	for _, text := range []string{"", " ", "xyzzy", "play", "play Z99", "pass", "choose nobody", "\x00\xff"} {
		if _, err := g.ParseAction(text); err == nil {
			continue
		} else if engine.Code(err) == "" {
			return fmt.Errorf("parse error for %q is not a rule error: %v", text, err)
		}
	}
	return nil
}

// checkHidden re-deals what each seat may not know and checks that the seat's
// view stays the same.
func checkHidden(st engine.State, seats int, r *engine.Rand) error {
	hs, ok := st.(engine.HiddenShuffler)
	if !ok {
		return nil
	}
	for s := -1; s < seats; s++ {
		seat := engine.Seat(s)
		shuffled := hs.ShuffleHidden(seat, r)
		if !reflect.DeepEqual(shuffled.View(seat), st.View(seat)) {
			return fmt.Errorf("seat %d's view changed when hidden cards were re-dealt: %+v vs %+v", s, shuffled.View(seat), st.View(seat))
		}
	}
	return nil
}

// checkBeliefs checks a Believer's samples for seat s: each has s's view,
// and the beliefs read from a state re-dealt behind s's back draw the same
// samples for the same randomness (they read only what s may know).
func checkBeliefs(st engine.State, s engine.Seat, r *engine.Rand) error {
	b, ok := st.(engine.Believer)
	hs, ok2 := st.(engine.HiddenShuffler)
	if !ok || !ok2 {
		return nil
	}
	other, ok := hs.ShuffleHidden(s, r).(engine.Believer)
	if !ok {
		return fmt.Errorf("a state re-dealt for seat %d is no longer a Believer", s)
	}
	seed := r.Uint64()
	want := st.View(s)
	mine, theirs := b.Beliefs(s), other.Beliefs(s)
	for k := range 2 {
		got := mine.Sample(engine.NewRand(seed, k))
		if !reflect.DeepEqual(got.View(s), want) {
			return fmt.Errorf("seat %d's view differs in a sample of its beliefs: %+v vs %+v", s, got.View(s), want)
		}
		if o := theirs.Sample(engine.NewRand(seed, k)); !reflect.DeepEqual(o, got) {
			return fmt.Errorf("seat %d's beliefs changed with what it may not know", s)
		}
	}
	return nil
}

// checkForecast checks a Forecaster's chances: a chance to win for every
// seat, summing to one; each pair of seats' chances to end ahead of the
// other summing to one; nothing changed by forecasting; and, once the game
// is over (winners given), the winners' even shares and nobody else's.
func checkForecast(st engine.State, seats int, winners []engine.Seat) error {
	fc, ok := st.(engine.Forecaster)
	if !ok {
		return nil
	}
	before := views(st, seats)
	f := fc.Forecast()
	if !reflect.DeepEqual(views(st, seats), before) {
		return fmt.Errorf("forecasting changed the game")
	}
	const eps = 1e-9
	chance := func(p float64) bool { return p >= 0 && p <= 1 }
	if len(f.Win) != seats || len(f.Ahead) != seats {
		return fmt.Errorf("forecast of %d seats: %d chances to win, %d rows ahead", seats, len(f.Win), len(f.Ahead))
	}
	sum := 0.0
	for s, p := range f.Win {
		if !chance(p) || len(f.Ahead[s]) != seats {
			return fmt.Errorf("forecast: seat %d's chance to win %v, %d chances ahead", s, p, len(f.Ahead[s]))
		}
		sum += p
		for o := range s {
			if a, b := f.Ahead[s][o], f.Ahead[o][s]; !chance(a) || !chance(b) || math.Abs(a+b-1) > eps {
				return fmt.Errorf("forecast: seats %d and %d end ahead of each other with chances %v and %v", s, o, a, b)
			}
		}
	}
	if math.Abs(sum-1) > eps {
		return fmt.Errorf("forecast: the chances to win sum to %v", sum)
	}
	for s, p := range f.Win {
		if won := slices.Contains(winners, engine.Seat(s)); winners != nil && (won != (p > 0) || won && math.Abs(p-1/float64(len(winners))) > eps) {
			return fmt.Errorf("the forecast of a finished game gives seat %d a chance of %v to win (winners %v)", s, p, winners)
		}
	}
	return nil
}

// checkPlaces checks a finished game's ranking: a place for every seat,
// the winners (and only they) placed first, seats sharing a place equal on
// the score and the tie-break, and a shared place followed by as many
// skipped places.
func checkPlaces(res engine.Result, seats int) error {
	if len(res.Places) != seats || len(res.Scores) != seats || (res.TieBreak != nil && len(res.TieBreak) != seats) {
		return fmt.Errorf("result of %d seats with places %v, scores %v, tie-break %v", seats, res.Places, res.Scores, res.TieBreak)
	}
	for s, p := range res.Places {
		if (p == 1) != slices.Contains(res.Winners, engine.Seat(s)) {
			return fmt.Errorf("places %v, winners %v", res.Places, res.Winners)
		}
		if below := countIf(res.Places, func(q int) bool { return q < p }); below != p-1 {
			return fmt.Errorf("places %v: seat %d is placed %d behind %d seats", res.Places, s, p, below)
		}
	}
	for a := range res.Places {
		for b := range res.Places {
			if res.Places[a] == res.Places[b] && (res.Scores[a] != res.Scores[b] || res.TieBreak != nil && res.TieBreak[a] != res.TieBreak[b]) {
				return fmt.Errorf("seats %d and %d share place %d with scores %v, tie-break %v", a, b, res.Places[a], res.Scores, res.TieBreak)
			}
		}
	}
	return nil
}

func countIf(xs []int, f func(int) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}
