package enginetest

import (
	"fmt"
	"reflect"

	"github.com/stolik-bot/stolik/engine"
)

// CheckArbitrary plays a seeded random game of g for steps actions, then
// parses text and applies it for seat. Whatever the input, nothing may
// panic; a text that does not parse, or an action that is rejected, must
// leave every view and the acting seats unchanged. A game's fuzz target is
// one line:
//
//	f.Fuzz(func(t *testing.T, seed uint64, steps uint8, seat int8, text string) {
//		if err := enginetest.CheckArbitrary(Game{}, su(seed), int(steps), engine.Seat(seat), text); err != nil {
//			t.Fatal(err)
//		}
//	})
func CheckArbitrary(g engine.Game, su engine.Setup, steps int, seat engine.Seat, text string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic on %q for seat %d after %d steps: %v", text, seat, steps, p)
		}
	}()
	st, err := engine.Start(g, su, nil)
	if err != nil {
		return nil // a rejected setup is fine; it must only not panic
	}
	pick := engine.NewRand(su.Seed^0xf022, 0)
	n := 0
	for ; n < steps; n++ {
		if done, _ := st.Result(); done {
			break
		}
		acting := st.Acting()
		s := acting[pick.IntN(len(acting))]
		legal := st.Legal(s)
		if _, err := st.Apply(s, legal[pick.IntN(len(legal))], engine.NewRand(su.Seed, n+1)); err != nil {
			return fmt.Errorf("legal action rejected: %w", err)
		}
	}
	a, perr := g.ParseAction(text)
	if perr != nil {
		if engine.Code(perr) == "" {
			return fmt.Errorf("parse error of %q is not a rule error: %v", text, perr)
		}
		return nil
	}
	if a.String() != "" {
		again, err := g.ParseAction(a.String())
		if err != nil || again != a {
			return fmt.Errorf("%q parsed to %q, which does not parse back to the same action (%v)", text, a, err)
		}
	}
	before, beforeActing := views(st, su.Seats), st.Acting()
	if _, err := st.Apply(seat, a, engine.NewRand(su.Seed, n+1)); err != nil {
		if engine.Code(err) == "" {
			return fmt.Errorf("rejection of %q is not a rule error: %v", text, err)
		}
		if !reflect.DeepEqual(views(st, su.Seats), before) || !reflect.DeepEqual(st.Acting(), beforeActing) {
			return fmt.Errorf("rejected %q of seat %d changed the state", text, seat)
		}
	}
	return nil
}
