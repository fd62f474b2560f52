package lynx

import (
	"github.com/stolik-bot/stolik/engine"
)

// Heuristic is the AI player: it plays large and high sets that are hard to
// steal, steals whenever it can, keeps its jokers for sets that steal or
// end the game, empties its hand when that wins, takes stolen cards only
// when they fit its hand, and draws jokers and cards that extend its
// groups.
type Heuristic struct{}

// Choose picks an action from the seat's view and legal actions only.
func (Heuristic) Choose(ev engine.View, legal []engine.Action, r *engine.Rand) engine.Action {
	v, ok := ev.(*View)
	if !ok || len(legal) == 0 || v.Seat < 0 {
		return engine.Random{}.Choose(ev, legal, r)
	}
	if k := legal[0].(Action).Kind; (k == KindTake || k == KindBack) && r.IntN(8) == 0 {
		// Now and then decide a steal at random: a table of AI players
		// that always leave stolen sets and take them back could pass the
		// same cards round for ever without drawing.
		return legal[r.IntN(len(legal))]
	}
	best, bestScore := legal[0], -1e18
	for _, ea := range legal {
		a := ea.(Action)
		var s float64
		switch a.Kind {
		case KindPlay:
			s = ratePlay(v, a)
		case KindStealVirtual:
			s = float64(int(v.countOf(a.Value))*4 + int(v.handCount(a.Value)))
		case KindTake, KindLeave:
			s = rateTake(v)
			if a.Kind == KindLeave {
				s = -s
			}
		case KindBack, KindDiscard:
			s = rateDiscard(v)
			if a.Kind == KindBack {
				s = -s
			}
		case KindDrawDeck, KindDrawPool, KindPass:
			s = rateDraw(v, a)
		}
		// A little noise varies the play, so that AI players never
		// repeat a steal-and-give-back cycle for ever.
		s += float64(r.IntN(64)) / 128
		if s > bestScore {
			best, bestScore = ea, s
		}
	}
	return best
}

// handCount is how many cards of kind c the viewer holds.
func (v *View) handCount(c Card) int {
	for _, g := range v.Groups {
		if g.Card == c {
			return g.Count
		}
	}
	return 0
}

// countOf is the size of the virtual row's group of value c.
func (v *View) countOf(c Card) int {
	for _, g := range v.Virtual {
		if g.Card == c {
			return g.Count
		}
	}
	return 0
}

func (v *View) handSize() int { return len(v.Hand) }

// stealRisk estimates how likely a top layer of this set is to be stolen
// before the viewer's next turn.
func stealRisk(set Layer, ones bool, opponents int) float64 {
	k := set.Size()
	var higher float64
	switch {
	case set.JokersOnly():
		if !ones {
			return 0
		}
		higher = 0.08
	case set.Value == 13:
		higher = 0.05
		if ones {
			higher = 0.12
		}
	default:
		higher = float64(13-int(set.Value)) / 13
	}
	sizeFactor := [...]float64{0, 0.9, 0.55, 0.3, 0.15, 0.08}
	f := 0.05
	if k < len(sizeFactor) {
		f = sizeFactor[k]
	}
	p := higher * f * float64(opponents) / 3
	if p > 1 {
		p = 1
	}
	return p
}

func ratePlay(v *View, a Action) float64 {
	set := a.Set()
	k := float64(set.Size())
	ones := v.Mode.rules().onesStealHigh
	left := v.handSize() - set.Size()
	if left == 0 {
		// Playing out ends the game at once: do it when it wins.
		mine := v.Scores[v.Seat] + 2*set.Size()
		for s, sc := range v.Scores {
			if engine.Seat(s) != v.Seat && sc > mine {
				return -1000
			}
		}
		return 1000
	}
	score := 2 * k
	// Steals: the victims lose their top layer.
	opponents := 0
	for i := 1; i < v.Seats; i++ {
		t := engine.Seat((int(v.Seat) + i) % v.Seats)
		opponents++
		if top, ok := v.Top(t); ok && beats(set, top, ones) {
			score += 2.5 * float64(top.Size())
			if v.Scores[t] >= v.Scores[v.Seat] {
				score += float64(top.Size())
			}
		}
	}
	if v.Duel {
		bestGroup := 0
		for _, g := range v.Virtual {
			if beats(set, Layer{Value: g.Card, N: uint8(g.Count)}, ones) && g.Count > bestGroup {
				bestGroup = g.Count
			}
		}
		score += 1.5 * float64(bestGroup)
	}
	// Jokers are worth keeping for later sets.
	score -= 1.2 * float64(set.J)
	// Splitting a group leaves a weaker remainder.
	if !set.JokersOnly() && int(set.N) < v.handCount(set.Value) {
		score -= 0.8 * float64(v.handCount(set.Value)-int(set.N))
	}
	// A top layer that is easy to steal will likely be lost.
	score -= stealRisk(set, ones, opponents) * 2.5 * k
	// Low cards are best played early, in sets that cover them.
	score += 0.05 * float64(13-int(min(set.Value, 13)))
	return score
}

// rateTake is how much better taking the stolen set is than leaving it.
func rateTake(v *View) float64 {
	if len(v.Stolen) == 0 {
		return 0
	}
	s := -0.5 * float64(len(v.Stolen))
	for _, c := range v.Stolen {
		switch {
		case c == Joker:
			s += 2
		case v.handCount(c) > 0:
			s += 0.9
		}
	}
	if v.DeckSize < 15 {
		s -= float64(len(v.Stolen))
	}
	return s
}

// rateDiscard is how much better discarding a left set (and drawing as
// many) is than taking it back: drawing brings the end nearer, which suits
// the leader, and the pool may offer jokers.
func rateDiscard(v *View) float64 {
	s := -0.1
	if v.leading() {
		s = 0.1
	}
	for _, p := range v.Pool {
		for _, c := range p {
			if c == Joker {
				s += 1
			}
		}
	}
	if len(v.Stolen) > 2 {
		s -= 0.5
	}
	return s
}

// leading reports whether the viewer's score is at least everyone else's.
func (v *View) leading() bool {
	for s, sc := range v.Scores {
		if engine.Seat(s) != v.Seat && sc > v.Scores[v.Seat] {
			return false
		}
	}
	return true
}

func cardWorth(v *View, c Card) float64 {
	switch {
	case c == Joker:
		return 3
	case v.handCount(c) > 0:
		return 1 + 0.5*float64(v.handCount(c))
	}
	return 0.6 + 0.04*float64(c)
}

func rateDraw(v *View, a Action) float64 {
	switch a.Kind {
	case KindPass:
		if v.DeckSize < 20 {
			return 1.5
		}
		return 0.9
	case KindDrawDeck:
		return 1
	}
	for _, p := range v.Pool {
		if len(p) == 0 || p[len(p)-1] != a.Value {
			continue
		}
		if a.Under != 0 && (len(p) < 2 || p[0] != a.Under) {
			continue
		}
		s := 0.0
		for _, c := range p {
			s += cardWorth(v, c)
		}
		return s
	}
	return 0
}
