package lynx

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

type phase uint8

const (
	phasePlay    phase = iota + 1 // the active player plays a set
	phaseVirtual                  // duel: the active player picks the virtual group to steal
	phaseTake                     // the active player takes the stolen set or leaves it
	phaseBack                     // the robbed player takes a left set back or discards it
	phaseDraw                     // the robbed player draws replacements, one at a time
	phaseBonus                    // basic mode, nothing stolen: the active player may draw 1 card
	phaseOver
)

var phaseNames = [...]string{
	phasePlay: "play", phaseVirtual: "steal-virtual", phaseTake: "take", phaseBack: "back",
	phaseDraw: "draw", phaseBonus: "bonus", phaseOver: "over",
}

func (p phase) String() string { return phaseNames[p] }

// State is a game of lynx.
type State struct {
	cfg   config
	n     int
	phase phase

	hands    []Hand
	displays [][]Layer // per seat, bottom layer first
	pool     []PoolSpot
	deck     []Card // top first
	discard  []Card // in the order discarded
	virtual  Hand   // the duel's virtual row, grouped by value (1..12)

	active  engine.Seat   // the paw holder
	played  Layer         // the set played this turn
	targets []engine.Seat // players still to be robbed this turn, in order
	victim  engine.Seat   // the player being robbed or drawing; -1 none
	stolen  Layer         // the stolen set awaiting take/leave and back/discard
	owed    int           // draws the victim still owes
	stole   bool          // someone was robbed this turn

	scores  []int
	winners []engine.Seat
	note    string // "", "tiebreak" or "shared"
	reason  string // how the game ended: "hand_empty" or "cards_out"
}

func newState(c config, n int) *State {
	st := &State{cfg: c, n: n, victim: -1}
	st.hands = make([]Hand, n)
	st.displays = make([][]Layer, n)
	st.scores = make([]int, n)
	return st
}

func (st *State) next(s engine.Seat, k int) engine.Seat {
	return engine.Seat((int(s) + k) % st.n)
}

// Clone returns an independent copy.
func (st *State) Clone() engine.State { return st.clone() }

func (st *State) clone() *State {
	c := *st
	c.hands = slices.Clone(st.hands)
	c.displays = make([][]Layer, st.n)
	for i, d := range st.displays {
		if d != nil {
			c.displays[i] = slices.Clone(d)
		}
	}
	c.pool = slices.Clone(st.pool)
	c.deck = slices.Clone(st.deck)
	c.discard = slices.Clone(st.discard)
	c.targets = slices.Clone(st.targets)
	c.scores = slices.Clone(st.scores)
	c.winners = slices.Clone(st.winners)
	return &c
}

// Acting lists the seat that must act now: the active player, or the
// robbed player while they choose and draw.
func (st *State) Acting() []engine.Seat {
	switch st.phase {
	case phaseOver:
		return nil
	case phaseBack, phaseDraw:
		return []engine.Seat{st.victim}
	}
	return []engine.Seat{st.active}
}

func (st *State) acting(s engine.Seat) bool {
	switch st.phase {
	case phaseOver:
		return false
	case phaseBack, phaseDraw:
		return s == st.victim
	}
	return s == st.active
}

// Legal lists every action seat s may take now.
func (st *State) Legal(s engine.Seat) []engine.Action {
	if !st.acting(s) {
		return nil
	}
	var out []engine.Action
	switch st.phase {
	case phasePlay:
		out = appendPlays(out, &st.hands[s])
	case phaseVirtual:
		for _, v := range st.virtualTargets() {
			out = append(out, stealVirtual(v))
		}
	case phaseTake:
		out = append(out, simple(KindTake), simple(KindLeave))
	case phaseBack:
		out = append(out, simple(KindBack), simple(KindDiscard))
	case phaseDraw, phaseBonus:
		if len(st.deck) > 0 {
			out = append(out, simple(KindDrawDeck))
		}
		for _, pc := range st.poolChoices() {
			out = append(out, pc.a)
		}
		if st.phase == phaseBonus {
			out = append(out, simple(KindPass))
		}
	}
	return out
}

// appendPlays appends every set the hand can play: for each value, 1 to
// all its cards with 0 to all the jokers; then jokers alone.
func appendPlays(out []engine.Action, h *Hand) []engine.Action {
	j := h[Joker]
	for v := Card(1); v <= 13; v++ {
		for n := uint8(1); n <= h[v]; n++ {
			for k := uint8(0); k <= j; k++ {
				out = append(out, play(Layer{Value: v, N: n, J: k}))
			}
		}
	}
	for k := uint8(1); k <= j; k++ {
		out = append(out, play(Layer{Value: Joker, J: k}))
	}
	return out
}

// poolChoice is a canonical draw-pool action and the pool place it takes.
type poolChoice struct {
	a   Action
	pos int
}

// poolChoices names each pool place by its top card; where several places
// show the same top card with different cards beneath, a group is named by
// its top card and the card beneath it. Identical places are one choice
// (the leftmost).
func (st *State) poolChoices() []poolChoice {
	out := make([]poolChoice, 0, len(st.pool))
	for i, p := range st.pool {
		top := p.Top()
		ambiguous := false
		for _, q := range st.pool {
			if q.Top() == top && q != p {
				ambiguous = true
				break
			}
		}
		a := drawPool(top, 0)
		if ambiguous && p.N > 1 {
			a = drawPool(top, p.Cards[0])
		}
		if !slices.ContainsFunc(out, func(c poolChoice) bool { return c.a == a }) {
			out = append(out, poolChoice{a: a, pos: i})
		}
	}
	return out
}

// virtualTargets lists the values of the virtual row's groups that the
// played set must steal (one of them).
func (st *State) virtualTargets() []Card {
	var out []Card
	for v := Card(1); v < maxHighValue; v++ {
		if n := st.virtual[v]; n > 0 && beats(st.played, Layer{Value: v, N: n}, st.cfg.mode.rules().onesStealHigh) {
			out = append(out, v)
		}
	}
	return out
}

// Apply performs action a for seat s. Nothing in lynx draws at random after
// the deal, so a validated action always applies.
func (st *State) Apply(s engine.Seat, a engine.Action, _ *engine.Rand) ([]engine.Event, error) {
	act, err := engine.Admit(a, st.phase == phaseOver, s, func(Action) bool { return st.acting(s) })
	if err != nil {
		return nil, err
	}
	pos, err := st.validate(s, act)
	if err != nil {
		return nil, err
	}
	switch act.Kind {
	case KindPlay:
		return st.applyPlay(s, act.Set()), nil
	case KindStealVirtual:
		return st.applyStealVirtual(act.Value), nil
	case KindTake:
		return st.applyTake(), nil
	case KindLeave:
		st.phase = phaseBack
		return []engine.Event{engine.Public("left", map[string]any{"seat": s, "victim": st.victim})}, nil
	case KindBack:
		return st.applyBack(), nil
	case KindDiscard:
		return st.applyDiscard(), nil
	case KindDrawDeck, KindDrawPool:
		return st.applyDraw(s, act.Kind == KindDrawDeck, pos), nil
	case KindPass:
		ev := []engine.Event{engine.Public("passed", map[string]any{"seat": s})}
		return st.endTurn(ev), nil
	}
	return nil, engine.Errorf(engine.CodeIllegal, "action", act.String())
}

// validate checks a against the rules Legal lists, without listing them,
// and explains a refusal. For a pool draw it returns the place taken.
func (st *State) validate(s engine.Seat, a Action) (int, error) {
	wrong := engine.Errorf(CodeWrongPhase, "phase", st.phase.String(), "action", a.String())
	switch st.phase {
	case phasePlay:
		if a.Kind != KindPlay {
			return 0, wrong
		}
		h := &st.hands[s]
		valid := a.Size() > 0 && ((a.Value == Joker && a.N == 0) || (a.Value >= 1 && a.Value <= 13 && a.N > 0))
		if !valid {
			return 0, engine.Errorf(engine.CodeIllegal, "action", a.String())
		}
		if a.Value != Joker && h[a.Value] < a.N {
			return 0, engine.Errorf(CodeNotInHand, "card", a.Value.String(), "count", int(a.N))
		}
		if h[Joker] < a.J {
			return 0, engine.Errorf(CodeNotInHand, "card", Joker.String(), "count", int(a.J))
		}
		return 0, nil
	case phaseVirtual:
		if a.Kind != KindStealVirtual {
			return 0, wrong
		}
		if !slices.Contains(st.virtualTargets(), a.Value) {
			return 0, engine.Errorf(CodeNotStealable, "card", a.Value.String())
		}
		return 0, nil
	case phaseTake:
		if a.Kind != KindTake && a.Kind != KindLeave {
			return 0, wrong
		}
		return 0, nil
	case phaseBack:
		if a.Kind != KindBack && a.Kind != KindDiscard {
			return 0, wrong
		}
		return 0, nil
	case phaseDraw, phaseBonus:
		switch a.Kind {
		case KindDrawDeck:
			if len(st.deck) == 0 {
				return 0, engine.Errorf(CodeDeckEmpty)
			}
			return 0, nil
		case KindDrawPool:
			return st.poolPlace(a)
		case KindPass:
			if st.phase == phaseDraw {
				return 0, engine.Errorf(CodeMustDraw, "count", st.owed)
			}
			return 0, nil
		}
	}
	return 0, wrong
}

// Size is the number of cards a play action puts down.
func (a Action) Size() int { return int(a.N) + int(a.J) }

// poolPlace finds the pool place a draw-pool action names.
func (st *State) poolPlace(a Action) (int, error) {
	for _, pc := range st.poolChoices() {
		if pc.a == a {
			return pc.pos, nil
		}
	}
	shown := slices.ContainsFunc(st.pool, func(p PoolSpot) bool { return p.Top() == a.Value })
	switch {
	case !shown:
		return 0, engine.Errorf(CodeNotInPool, "card", a.Value.String())
	case a.Under == 0:
		return 0, engine.Errorf(CodeAmbiguousPool, "card", a.Value.String())
	}
	return 0, engine.Errorf(engine.CodeIllegal, "action", a.String())
}
