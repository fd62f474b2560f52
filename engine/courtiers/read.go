package courtiers

import (
	"math"
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// Reading the others' missions, and the families of their face-down
// spies, from their play.
//
// Every placement is public but a spy's family, and so is all a player saw
// when making it, but for its hand (which the turn then shows: a turn
// plays the whole hand) and its missions. So a seat can replay each turn
// the others played, from the public record alone, and ask which pair of
// missions would have made the heuristic player place those cards so: a
// placement the heuristic would have made under a pair makes the pair
// likelier. A player who does not play as the heuristic (a person) makes
// no pair much likelier than another, since the odds keep room for any
// placement (readNoise). A face-down spy is read the same way: which family
// would have made the heuristic, holding it, place the cards of that turn
// it placed with the spy still in hand.

// readNoise is the chance given to a placement being anything but the
// heuristic's choice: spread evenly over the legal placements.
const readNoise = 0.3

// spyStandIn stands for a face-down spy in the replay: its family is
// unknown, and the replay never reads it.
var spyStandIn = NewCard(0, Spy)

// playReading is what seat s makes of the others' missions and spies: for
// each other seat, the weight of every (white, blue) pair s cannot rule
// out, and the odds of each of their face-down spies' families.
type playReading struct {
	hyps    [][2]Mission // every pair of missions s does not hold
	weights [][]float64  // per seat (nil for s): the pairs' weights
	// spies weighs the family of the others' face-down spies (each
	// family's log-likelihood), by the index in the record of the
	// sighting that placed the spy.
	spies map[int]*[NumFamilies]float64
}

// readPlay replays the game's placements from the public record and
// weighs, for every other seat, each pair of missions by how likely the
// heuristic holding it would have made that seat's placements. It reads
// only what s may know: the record, the seat count, the first player and
// s's own missions.
func (st *State) readPlay(s engine.Seat) *playReading {
	mine := st.missions[s]
	var hyps [][2]Mission
	for _, w := range Missions(true) {
		for _, b := range Missions(false) {
			if w != mine[0] && b != mine[1] {
				hyps = append(hyps, [2]Mission{w, b})
			}
		}
	}
	logw := make([][]float64, st.n)
	for i := range logw {
		if engine.Seat(i) != s {
			logw[i] = make([]float64, len(hyps))
		}
	}
	pub := newState(st.n)
	pub.first, pub.turn = st.first, st.first
	pub.deck = make([]Card, len(Deck())-Removed(st.n)-HandSize*st.n)
	for i := range pub.hands {
		pub.hands[i] = make([]Card, HandSize)
	}
	r := engine.NewRand(0, 0) // which stand-in spy an assassin takes: all alike
	seen := st.record()
	spies := map[int]*[NumFamilies]float64{}
	for i := 0; i < len(seen) && pub.phase == phasePlay; {
		o := pub.turn
		turn := seen[i:min(i+len(pub.hands[o]), len(seen))]
		cards := make([]Card, len(turn))
		for k, sg := range turn {
			if sg.Seat != o {
				return weigh(hyps, logw, nil) // not a record of this game: read nothing more
			}
			cards[k] = sg.Card
			if cards[k] == NoCard {
				cards[k] = spyStandIn
			}
		}
		known := len(turn) == len(pub.hands[o])
		pub.hands[o] = slices.Clone(cards)
		// A turn's one face-down spy is read from the placements made
		// with it in hand: which family would have made the heuristic
		// place them so.
		spyAt := -1
		if o != s && known && countIf(cards, func(c Card) bool { return c == spyStandIn }) == 1 {
			spyAt = slices.Index(cards, spyStandIn)
			spies[i+spyAt] = new([NumFamilies]float64)
		}
		for k, sg := range turn {
			rest := turn[k:]
			if o != s && known && !slices.ContainsFunc(rest, func(x sighting) bool { return x.Card == NoCard }) {
				pub.read(o, sg.Placement, hyps, logw[o])
			}
			// The spy's family is read under the missions read so far.
			if k <= spyAt {
				pub.readSpy(o, sg.Placement, k == spyAt, hyps, logw[o], spies[i+spyAt])
			}
			a := Action{Card: cards[k], Area: sg.Area, Opp: sg.Opp, Kill: sg.Kill, Target: sg.Target, Side: sg.Side}
			pub.place(o, a, r, true)
		}
		i += len(turn)
	}
	return weigh(hyps, logw, spies)
}

// read weighs every pair by whether the heuristic holding it, in pub, would
// have made placement pl for seat o.
func (pub *State) read(o engine.Seat, pl Placement, hyps [][2]Mission, logw []float64) {
	legal := pub.Legal(o)
	if len(legal) < 2 {
		return
	}
	v := pub.View(o).(*View)
	picks := chooseEach(v, legal, hyps)
	n := float64(len(legal))
	hit, miss := math.Log(1-readNoise+readNoise/n), math.Log(readNoise/n)
	for i, a := range picks {
		if a.(Action).made(pl) {
			logw[i] += hit
		} else {
			logw[i] += miss
		}
	}
}

// readSpy weighs each family the face-down spy in o's hand might be of by
// how likely the heuristic holding it, in pub, would have made placement pl
// (the spy's own when isSpy), over the pairs of missions o may hold as
// read so far (logw); it adds each family's log-likelihood to fam.
func (pub *State) readSpy(o engine.Seat, pl Placement, isSpy bool, hyps [][2]Mission, logw []float64, fam *[NumFamilies]float64) {
	hand := pub.hands[o]
	at := slices.Index(hand, spyStandIn)
	if at < 0 {
		return
	}
	top := slices.Max(logw)
	w := make([]float64, len(logw))
	total := 0.0
	for i, x := range logw {
		w[i] = math.Exp(x - top)
		total += w[i]
	}
	for f := range Family(NumFamilies) {
		spy := NewCard(f, Spy)
		hand[at] = spy
		legal := pub.Legal(o)
		want := pl
		if isSpy {
			want.Card = spy
		}
		picks := chooseEach(pub.View(o).(*View), legal, hyps)
		n := float64(len(legal))
		hit, miss := 1-readNoise+readNoise/n, readNoise/n
		p := 0.0
		for i, a := range picks {
			if a.(Action).made(want) {
				p += w[i] * hit
			} else {
				p += w[i] * miss
			}
		}
		fam[f] += math.Log(p / total)
	}
	hand[at] = spyStandIn
}

// made reports whether a is the placement pl, the card as its placer held it.
func (a Action) made(pl Placement) bool {
	return a.Card == pl.Card && a.Area == pl.Area && a.Opp == pl.Opp && a.Kill == pl.Kill && a.Target == pl.Target && a.Side == pl.Side
}

// weigh turns log-odds into weights (the likeliest pair weighing 1).
func weigh(hyps [][2]Mission, logw [][]float64, spies map[int]*[NumFamilies]float64) *playReading {
	mr := &playReading{hyps: hyps, weights: make([][]float64, len(logw)), spies: spies}
	for i, lw := range logw {
		if lw == nil {
			continue
		}
		top := slices.Max(lw)
		w := make([]float64, len(lw))
		for k, x := range lw {
			w[k] = math.Exp(x - top)
		}
		mr.weights[i] = w
	}
	return mr
}

// deal gives every other seat of c a pair drawn by its weight, among the
// pairs whose missions no seat dealt before it holds, and puts the rest
// back in the box. c's missions of the other seats and its box are
// replaced; s's stay.
func (mr *playReading) deal(c *State, s engine.Seat, r *engine.Rand) {
	taken := map[Mission]bool{c.missions[s][0]: true, c.missions[s][1]: true}
	for i := 0; i < c.n; i++ {
		if engine.Seat(i) == s {
			continue
		}
		total := 0.0
		for k, h := range mr.hyps {
			if !taken[h[0]] && !taken[h[1]] {
				total += mr.weights[i][k]
			}
		}
		x := float64(r.Uint64()>>11) / (1 << 53) * total
		pick := -1
		for k, h := range mr.hyps {
			if taken[h[0]] || taken[h[1]] {
				continue
			}
			pick = k
			if x -= mr.weights[i][k]; x < 0 {
				break
			}
		}
		c.missions[i] = mr.hyps[pick]
		taken[mr.hyps[pick][0]], taken[mr.hyps[pick][1]] = true, true
	}
	c.unused = c.unused[:0]
	for _, white := range []bool{true, false} {
		for _, m := range Missions(white) {
			if !taken[m] {
				c.unused = append(c.unused, m)
			}
		}
	}
}

// believed draws states seat s cannot tell from the real one, the others'
// missions and the families of their face-down spies weighed by what their
// play showed (engine.Believer).
type believed struct {
	st      *State
	s       engine.Seat
	reading *playReading
}

// Beliefs is what seat s makes of the hidden part of the game now: the
// cards re-dealt at random (ShuffleHidden, s's own spies kept), the others'
// missions and their spies' families drawn by how their play so far bears
// them out.
func (st *State) Beliefs(s engine.Seat) engine.Sampler {
	b := &believed{st: st, s: s}
	if st.phase == phasePlay && s >= 0 && int(s) < st.n {
		b.reading = st.readPlay(s)
	}
	return b
}

// Sample is one such state.
func (b *believed) Sample(r *engine.Rand) engine.State {
	if b.reading == nil {
		return b.st.ShuffleHidden(b.s, r)
	}
	c := b.st.redeal(b.s, r, b.reading.spies)
	b.reading.deal(c, b.s, r)
	return c
}
