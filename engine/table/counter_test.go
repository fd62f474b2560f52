package table_test

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// counter is a tiny test-only game: 2–4 seats take turns in an order
// shuffled at creation, each adding 1..3 to a shared total; the seat that
// brings the total to the target (option "target", default 10) wins. Every
// action also draws a number from the step's chance source, so that replay
// determinism shows in the state. The action "boom" parses but panics when
// applied, standing for a bug in game code.
type counter struct{}

func init() { engine.Register(counter{}) }

func (counter) ID() string            { return "counter" }
func (counter) Seats() (min, max int) { return 2, 4 }
func (counter) Options() []engine.OptionSpec {
	return []engine.OptionSpec{{Key: "target", Default: "10"}}
}

func (counter) New(opts engine.Options, seats int, r *engine.Rand) (engine.State, error) {
	target := 10
	for k, v := range opts {
		if k != "target" {
			return nil, engine.Errorf(engine.CodeBadOption, "key", k)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, engine.Errorf(engine.CodeBadOption, "key", k, "value", v)
		}
		target = n
	}
	st := &counterState{Target: target, Scores: make([]int, seats), Winner: -1}
	for s := range seats {
		st.Order = append(st.Order, engine.Seat(s))
	}
	r.Shuffle(seats, func(i, j int) { st.Order[i], st.Order[j] = st.Order[j], st.Order[i] })
	return st, nil
}

type add struct{ N int }

func (a add) String() string { return "add " + strconv.Itoa(a.N) }

type boom struct{}

func (boom) String() string { return "boom" }

func (counter) ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(text)
	if len(f) == 1 && f[0] == "boom" {
		return boom{}, nil
	}
	if len(f) == 2 && f[0] == "add" {
		if n, err := strconv.Atoi(f[1]); err == nil {
			return add{n}, nil
		}
	}
	return nil, engine.Errorf(engine.CodeUnknownAction, "text", text)
}

type counterState struct {
	Target int
	Order  []engine.Seat
	Turn   int
	Total  int
	Scores []int
	Draws  []int
	Winner engine.Seat
}

func (st *counterState) done() bool { return st.Winner >= 0 }

func (st *counterState) Acting() []engine.Seat {
	if st.done() {
		return nil
	}
	return []engine.Seat{st.Order[st.Turn%len(st.Order)]}
}

func (st *counterState) Legal(s engine.Seat) []engine.Action {
	if !engine.IsActing(st, s) {
		return nil
	}
	return []engine.Action{add{1}, add{2}, add{3}}
}

func (st *counterState) Apply(s engine.Seat, a engine.Action, r *engine.Rand) ([]engine.Event, error) {
	if st.done() {
		return nil, engine.Errorf(engine.CodeGameOver)
	}
	if !engine.IsActing(st, s) {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat", s)
	}
	if _, ok := a.(boom); ok {
		panic("counter: boom")
	}
	ad, ok := a.(add)
	if !ok || ad.N < 1 || ad.N > 3 {
		return nil, engine.Errorf(engine.CodeIllegal, "action", a.String())
	}
	d := r.IntN(1000)
	st.Draws = append(st.Draws, d)
	st.Total += ad.N
	st.Scores[s] += ad.N
	st.Turn++
	if st.Total >= st.Target {
		st.Winner = s
	}
	return []engine.Event{
		engine.Public("added", map[string]any{"seat": s, "n": ad.N, "total": st.Total}),
		engine.Private(s, "drew", map[string]any{"draw": d}),
	}, nil
}

type counterView struct {
	Seat  engine.Seat
	Total int
}

func (v counterView) ViewerSeat() engine.Seat { return v.Seat }

func (st *counterState) View(s engine.Seat) engine.View { return counterView{s, st.Total} }

func (st *counterState) Result() (bool, engine.Result) {
	if !st.done() {
		return false, engine.Result{}
	}
	return true, engine.Result{Scores: slices.Clone(st.Scores), Winners: []engine.Seat{st.Winner}}
}

func (st *counterState) Clone() engine.State {
	c := *st
	c.Order = slices.Clone(st.Order)
	c.Scores = slices.Clone(st.Scores)
	c.Draws = slices.Clone(st.Draws)
	return &c
}
