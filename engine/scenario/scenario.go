// Package scenario runs scenario files: plain-text scripts that set up a
// table with a stacked deal, play actions in canonical notation and check
// what follows (the format is docs/scenarios.md). Rulings from the
// rulebooks and bug reports become scenario files.
package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Failure says which line of a scenario failed and why.
type Failure struct {
	Line int
	Msg  string
}

func (f *Failure) Error() string { return fmt.Sprintf("line %d: %s", f.Line, f.Msg) }

// RunFile runs one scenario file.
func RunFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return Run(f)
}

// Name is how a scenario file is named in reports: its base name without
// the extension.
func Name(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// runner is the state of one scenario run.
type runner struct {
	game   engine.Game
	setup  engine.Setup
	stacks engine.Stacks
	state  engine.State
	steps  int
	line   int
	// refused is the code of the last `!` line's refusal (expect refused).
	refused string
}

// Run runs a scenario read from src. It returns nil when every line held,
// or a *Failure naming the first line that did not.
func Run(src io.Reader) error {
	r := &runner{setup: engine.Setup{Options: engine.Options{}, Seed: 1}}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		r.line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if err := r.directive(text); err != nil {
			return r.fail(err)
		}
	}
	if err := sc.Err(); err != nil {
		return &Failure{Line: r.line, Msg: err.Error()}
	}
	if r.game == nil {
		return &Failure{Line: r.line, Msg: "no game line"}
	}
	if err := r.ensureStarted(); err != nil {
		return r.fail(err)
	}
	if p := r.stacks.Pending(); len(p) > 0 {
		return &Failure{Line: p[0].Line, Msg: fmt.Sprintf("stacked %s was never dealt", p[0].Kind)}
	}
	return nil
}

// fail names the current line, unless err already names its own.
func (r *runner) fail(err error) error {
	var f *Failure
	if errors.As(err, &f) && f.Line > 0 {
		return f
	}
	return &Failure{Line: r.line, Msg: err.Error()}
}

func (r *runner) directive(text string) error {
	word, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "game":
		if r.game != nil {
			return fmt.Errorf("game given twice")
		}
		g, err := engine.Lookup(rest)
		if err != nil {
			return fmt.Errorf("unknown game %q", rest)
		}
		r.game = g
		r.setup.Game = g.ID()
		return nil
	case "seats", "option", "seed":
		if r.game == nil {
			return fmt.Errorf("%s before the game line", word)
		}
		if r.state != nil {
			return fmt.Errorf("%s after the game has started", word)
		}
		return r.setupLine(word, rest)
	case "expect":
		if err := r.ensureStarted(); err != nil {
			return err
		}
		return r.expect(rest)
	}
	if r.game == nil {
		return fmt.Errorf("%q before the game line", text)
	}
	if word == "first" {
		return r.stack("first", "", rest)
	}
	if head, vals, ok := strings.Cut(text, ":"); ok {
		f := strings.Fields(head)
		if len(f) >= 1 && r.isStackKind(f[0]) {
			idx := ""
			if len(f) == 2 {
				idx = f[1]
			} else if len(f) > 2 {
				return fmt.Errorf("malformed %s line", f[0])
			}
			return r.stack(f[0], idx, vals)
		}
		seatText, reject := strings.TrimSpace(head), false
		if strings.HasPrefix(seatText, "!") {
			seatText, reject = strings.TrimSpace(seatText[1:]), true
		}
		if seat, err := strconv.Atoi(seatText); err == nil {
			return r.act(engine.Seat(seat), strings.TrimSpace(vals), reject)
		}
	}
	return fmt.Errorf("unknown directive %q", word)
}

func (r *runner) setupLine(word, rest string) error {
	switch word {
	case "seats":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return fmt.Errorf("seats needs a number, got %q", rest)
		}
		if err := engine.ValidateSeats(r.game, n); err != nil {
			return fmt.Errorf("%s cannot be played by %d seats", r.game.ID(), n)
		}
		r.setup.Seats = n
	case "seed":
		n, err := strconv.ParseUint(rest, 10, 64)
		if err != nil {
			return fmt.Errorf("seed needs a number, got %q", rest)
		}
		r.setup.Seed = n
	case "option":
		known := map[string]bool{}
		for _, o := range r.game.Options() {
			known[o.Key] = true
		}
		for _, kv := range strings.Fields(rest) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || !known[k] {
				return fmt.Errorf("unknown option %q", kv)
			}
			r.setup.Options[k] = v
		}
	}
	return nil
}

func (r *runner) isStackKind(kind string) bool {
	sk, ok := r.game.(engine.Stacker)
	return ok && slices.Contains(sk.StackKinds(), kind)
}

func (r *runner) stack(kind, idx, vals string) error {
	if !r.isStackKind(kind) {
		return fmt.Errorf("%s cannot stack %q", r.game.ID(), kind)
	}
	st := engine.Stack{Kind: kind, Index: -1, Values: strings.Fields(vals), Line: r.line}
	if idx != "" {
		n, err := strconv.Atoi(idx)
		if err != nil {
			return fmt.Errorf("bad index %q in %s line", idx, kind)
		}
		st.Index = n
	}
	r.stacks.Add(st)
	return nil
}

// ensureStarted creates the game at the first line that needs it.
func (r *runner) ensureStarted() error {
	if r.state != nil {
		return nil
	}
	if r.game == nil {
		return fmt.Errorf("no game line")
	}
	if r.setup.Seats == 0 {
		lo, _ := r.game.Seats()
		r.setup.Seats = lo
	}
	st, err := engine.Start(r.game, r.setup, &r.stacks)
	if err != nil {
		return r.explain(err)
	}
	r.state = st
	return nil
}

// explain turns a bad-stack error into a message naming the stack's line.
func (r *runner) explain(err error) error {
	var re *engine.RuleError
	if errors.As(err, &re) && re.Code == engine.CodeBadStack {
		line, _ := re.Params["line"].(int)
		return &Failure{Line: line, Msg: fmt.Sprintf("stacked %v cannot be a legal deal: %v", re.Params["kind"], re)}
	}
	return err
}

func (r *runner) act(seat engine.Seat, text string, reject bool) error {
	if err := r.ensureStarted(); err != nil {
		return err
	}
	a, err := r.game.ParseAction(text)
	if err != nil {
		if reject {
			r.refused = engine.Code(err)
			return nil
		}
		return fmt.Errorf("action %q does not parse: %v", text, err)
	}
	var before []engine.View
	if reject {
		before = allViews(r.state, r.setup.Seats)
	}
	_, err = r.state.Apply(seat, a, engine.NewRand(r.setup.Seed, r.steps+1).WithStacks(&r.stacks))
	switch {
	case err != nil && engine.Code(err) == engine.CodeBadStack:
		return r.explain(err)
	case reject && err == nil:
		return fmt.Errorf("expected %d: %s to be rejected, it was accepted", seat, text)
	case reject:
		if !reflect.DeepEqual(before, allViews(r.state, r.setup.Seats)) {
			return fmt.Errorf("rejected %d: %s changed the game", seat, text)
		}
		r.refused = engine.Code(err)
		return nil
	case err != nil:
		return fmt.Errorf("expected %d: %s to be accepted, it was rejected (%v)", seat, text, err)
	}
	r.steps++
	return nil
}

func allViews(st engine.State, seats int) []engine.View {
	out := []engine.View{st.View(engine.Spectator)}
	for s := 0; s < seats; s++ {
		out = append(out, st.View(engine.Seat(s)))
	}
	return out
}

func (r *runner) expect(rest string) error {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return fmt.Errorf("expect needs a key")
	}
	key, args := f[0], f[1:]
	switch key {
	case "turn":
		want, err := seats(args)
		if err != nil {
			return err
		}
		if got := sorted(r.state.Acting()); !slices.Equal(got, want) {
			return fmt.Errorf("expected turn %v, found %v", want, got)
		}
	case "refused":
		// A project extension: the code of the last `!` line's refusal.
		if len(args) != 1 {
			return fmt.Errorf("expect refused takes one error code")
		}
		if r.refused == "" {
			return fmt.Errorf("expected refusal %s, but no action has been refused yet", args[0])
		}
		if r.refused != args[0] {
			return fmt.Errorf("expected refusal %s, found %s", args[0], r.refused)
		}
	case "over":
		// "expect over" (or "over yes"); "over no": the game goes on.
		want := len(args) == 0 || (len(args) == 1 && args[0] == "yes")
		if !want && (len(args) != 1 || args[0] != "no") {
			return fmt.Errorf("expect over takes nothing, yes or no")
		}
		switch done, _ := r.state.Result(); {
		case want && !done:
			return fmt.Errorf("expected the game to be over, it is not (turn %v)", r.state.Acting())
		case !want && done:
			return fmt.Errorf("expected the game to go on, it is over")
		}
	case "winner":
		want, err := seats(args)
		if err != nil {
			return err
		}
		done, res := r.state.Result()
		if !done {
			return fmt.Errorf("expected winner %v, the game is not over", want)
		}
		if got := sorted(res.Winners); !slices.Equal(got, want) {
			return fmt.Errorf("expected winner %v, found %v", want, got)
		}
	case "places":
		// "expect places 1 3 2 1": every seat's place, in seat order.
		want := make([]int, len(args))
		for i, a := range args {
			n, err := strconv.Atoi(a)
			if err != nil || n < 1 {
				return fmt.Errorf("bad place %q", a)
			}
			want[i] = n
		}
		done, res := r.state.Result()
		if !done {
			return fmt.Errorf("expected places %v, the game is not over", want)
		}
		if !slices.Equal(res.Places, want) {
			return fmt.Errorf("expected places %v, found %v (tie-break %v)", want, res.Places, res.TieBreak)
		}
	default:
		ch, ok := r.state.(engine.Checker)
		if !ok {
			return fmt.Errorf("unknown expect key %q", key)
		}
		return ch.Check(key, args)
	}
	return nil
}

func seats(args []string) ([]engine.Seat, error) {
	out := make([]engine.Seat, 0, len(args))
	for _, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			return nil, fmt.Errorf("bad seat %q", a)
		}
		out = append(out, engine.Seat(n))
	}
	return sorted(out), nil
}

func sorted(s []engine.Seat) []engine.Seat {
	out := slices.Clone(s)
	slices.Sort(out)
	if out == nil {
		out = []engine.Seat{}
	}
	return out
}
