// Package search is the search player: determinized Monte Carlo search with
// the game's heuristic player as the playout policy.
//
// At each decision it samples states that its seat cannot tell from the
// real one (engine.HiddenShuffler re-deals everything the seat may not
// know, from the seat's view and the search's own randomness alone; a game
// whose players show part of what they hold by how they play weighs the
// re-deal by it, engine.Believer), plays
// each candidate action in every sample and finishes the game with the
// heuristic playing every seat, and takes the candidate that did best:
// wins first, then the seat's rank among the final scores. Every candidate
// meets the same samples and the same chance (common random numbers), so
// that the comparison is between the actions and not the luck of the deal.
//
// The budget counts simulated actions, not time: a decision is the same for
// the same seed on any machine, however busy.
package search

import (
	"math"
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// DefaultBudget is the simulated actions a decision may spend by default:
// well within 50 ms on one core of the reference machine for every game
// (the sim command reports the figure).
const DefaultBudget = 1500

// DefaultWidth is how many candidate actions a decision weighs at most by
// default: the heuristic's choice and others drawn from the legal ones.
const DefaultWidth = 6

// Player is the search player. Its zero value is not usable: use New.
type Player struct {
	policy engine.Player
	budget int
	width  int
	depth  int // the actions a playout may take before it is estimated; 0: to the end
}

// Option tunes a Player.
type Option func(*Player)

// Budget sets the simulated actions a decision may spend (at least one
// playout per candidate is always made).
func Budget(n int) Option { return func(p *Player) { p.budget = max(n, 1) } }

// Depth cuts playouts short after n actions, valued by the state's
// forecast of each seat's chances (engine.Forecaster), for games whose
// playouts to the end are too long for the budget; 0 (or a game without
// a forecast) plays to the end.
func Depth(n int) Option { return func(p *Player) { p.depth = max(n, 0) } }

// Width sets how many candidate actions a decision weighs at most (at
// least 1): more lets the search find what the policy overlooks, at fewer
// samples each, which pays when the playouts' values are smooth enough to
// tell the candidates apart.
func Width(n int) Option { return func(p *Player) { p.width = max(n, 1) } }

// New makes a search player that plays out with policy (the game's
// heuristic player), which also proposes its first candidate.
func New(policy engine.Player, opts ...Option) *Player {
	p := &Player{policy: policy, budget: DefaultBudget, width: DefaultWidth}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Choose is the policy's choice: without the state there is nothing to
// sample from. Front ends call engine.Decide, which gives a search player
// the state.
func (p *Player) Choose(v engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	return p.policy.Choose(v, legal, r)
}

// ChooseIn picks seat s's action in st. It reads st only through
// engine.HiddenShuffler (or engine.Believer), s's view and s's legal
// actions, so that two states with the same view for s give the same
// action for the same r.
func (p *Player) ChooseIn(st engine.State, s engine.Seat, r *engine.Rand) engine.Action {
	legal := engine.AnyLegal(st, s)
	if len(legal) == 0 {
		return nil
	}
	view := st.View(s)
	first := p.policy.Choose(view, legal, r)
	hs, ok := st.(engine.HiddenShuffler)
	if len(legal) == 1 || !ok {
		return first
	}
	draw := func(r *engine.Rand) engine.State { return hs.ShuffleHidden(s, r) }
	if b, ok := st.(engine.Believer); ok {
		draw = b.Beliefs(s).Sample
	}
	seed := r.Uint64()
	cands := p.candidates(view, legal, first, engine.NewRand(seed, 0))
	vals := make([][]float64, len(cands))
	spent, samples := 0, 0
	for samples == 0 || spent < p.budget {
		sample := draw(engine.NewRand(seed, 1+2*samples))
		chance := seed ^ uint64(samples+1)*0x9e3779b97f4a7c15
		for i, a := range cands {
			v, n := p.playout(sample.Clone(), s, a, chance)
			vals[i] = append(vals[i], v)
			spent += n
		}
		samples++
		if samples >= 1<<16 {
			break
		}
	}
	return cands[pick(vals)]
}

// pick is the candidate to play: the policy's own (the first) unless
// another did better over the same samples by a margin the samples bear
// out (its mean difference at least Confidence standard errors above
// zero), so that the noise of few playouts does not overrule the policy.
func pick(vals [][]float64) int {
	best, bestMean := 0, 0.0
	for i := 1; i < len(vals); i++ {
		n := float64(len(vals[i]))
		mean, ss := 0.0, 0.0
		for k, v := range vals[i] {
			mean += v - vals[0][k]
		}
		mean /= n
		for k, v := range vals[i] {
			d := v - vals[0][k] - mean
			ss += d * d
		}
		se := math.Sqrt(ss/max(n-1, 1)/n) + 1e-9
		if n >= MinSamples && mean > bestMean && mean > Confidence*se {
			best, bestMean = i, mean
		}
	}
	return best
}

// MinSamples is how many samples a candidate must have been tried on
// before it may overrule the policy: with fewer, the spread says nothing
// (one sample has none) and the search would follow noise.
const MinSamples = 3

// Confidence is how many standard errors a candidate's gain over the
// policy's choice must reach for the search to overrule the policy.
const Confidence = 1.0

// candidates lists the actions to weigh: the policy's choice first, then
// those its own randomness also picks, then others drawn at random, up to
// the player's width.
func (p *Player) candidates(view engine.View, legal []engine.Action, first engine.Action, r *engine.Rand) []engine.Action {
	if len(legal) <= p.width {
		out := []engine.Action{first}
		for _, a := range legal {
			if a != first {
				out = append(out, a)
			}
		}
		return out
	}
	out := []engine.Action{first}
	for i := 0; i < p.width && len(out) < p.width/2; i++ {
		if a := p.policy.Choose(view, legal, engine.NewRand(r.Uint64(), i)); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	rest := make([]engine.Action, 0, len(legal))
	for _, a := range legal {
		if !slices.Contains(out, a) {
			rest = append(rest, a)
		}
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(out, rest[:p.width-len(out)]...)
}

// maxPlayout bounds one playout, so that a game that does not end under
// the policy (a cycle) cannot hold a decision.
const maxPlayout = 5000

// playout plays a for s in st, then the policy for everyone to the end;
// it returns s's value of the outcome and the actions simulated.
func (p *Player) playout(st engine.State, s engine.Seat, a engine.Action, chance uint64) (float64, int) {
	apply := func(s engine.Seat, a engine.Action, r *engine.Rand) error {
		_, err := st.Apply(s, a, r)
		return err
	}
	if sim, ok := st.(engine.Simulator); ok {
		apply = sim.Simulate
	}
	if err := apply(s, a, engine.NewRand(chance, 0)); err != nil {
		return -1, 1
	}
	fc, _ := st.(engine.Forecaster)
	for n := 1; n < maxPlayout; n++ {
		if done, res := st.Result(); done {
			return value(res, s), n
		}
		if fc != nil && p.depth > 0 && n >= p.depth {
			return forecastValue(fc.Forecast(), s), n
		}
		acting := st.Acting()
		if len(acting) == 0 {
			return 0, n
		}
		who := acting[0]
		legal := st.Legal(who)
		if len(legal) == 0 {
			return 0, n
		}
		b := p.policy.Choose(st.View(who), legal, engine.NewRand(chance^0xa11ce, n))
		if err := apply(who, b, engine.NewRand(chance, n)); err != nil {
			return 0, n
		}
	}
	return 0, maxPlayout
}

// forecastValue is value's expectation under a forecast: the chance to
// win, and a quarter more spread by the chances to end ahead of each other.
func forecastValue(f engine.Forecast, s engine.Seat) float64 {
	if int(s) >= len(f.Win) {
		return 0
	}
	v := f.Win[s]
	if n := len(f.Ahead[s]); n > 1 {
		ahead := 0.0
		for o, p := range f.Ahead[s] {
			if engine.Seat(o) != s {
				ahead += p
			}
		}
		v += 0.25 * ahead / float64(n-1)
	}
	return v
}

// value is what a finished game is worth to s: a win (shared: its share)
// counts 1, and a quarter more is spread by how many others s outscored,
// in the direction the winners' scores tell (some games are won with the
// fewest points).
func value(res engine.Result, s engine.Seat) float64 {
	v := 0.0
	if slices.Contains(res.Winners, s) {
		v = 1 / float64(len(res.Winners))
	}
	if len(res.Winners) == 0 || int(s) >= len(res.Scores) || len(res.Scores) < 2 {
		return v
	}
	w := res.Scores[res.Winners[0]]
	low := w == slices.Min(res.Scores) && w != slices.Max(res.Scores)
	beaten := 0.0
	for i, sc := range res.Scores {
		if engine.Seat(i) == s {
			continue
		}
		d := res.Scores[s] - sc
		if low {
			d = -d
		}
		switch {
		case d > 0:
			beaten++
		case d == 0:
			beaten += 0.5
		}
	}
	return v + 0.25*beaten/float64(len(res.Scores)-1)
}
