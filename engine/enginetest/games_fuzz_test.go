package enginetest_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"

	_ "github.com/stolik-bot/stolik/engine/chapters"
	_ "github.com/stolik-bot/stolik/engine/courtiers"
	_ "github.com/stolik-bot/stolik/engine/lynx"
	_ "github.com/stolik-bot/stolik/engine/princesses"
)

// pick chooses a registered game and a seat count from two fuzzed bytes.
func pick(gi, si uint8) (engine.Game, int) {
	ids := engine.Games()
	g, _ := engine.Lookup(ids[int(gi)%len(ids)])
	lo, hi := g.Seats()
	return g, lo + int(si)%(hi-lo+1)
}

// seeds are action texts in every game's notation and some that are not.
var seeds = []string{"play Q7", "pass A3 F5", "pick 35", "place queen-up deer", "choose mulan", "draw pool 7",
	"steal 3 7", "play 7 7 7", "", " ", "play", "play Q99", "pass Q1 Q1 Q1", "\x00", "place toad-spy up", "keep",
	"play Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7 Q7"}

// FuzzParseAction: every game's action parser, on any text, returns an
// action that prints to a text parsing back to it, or a rule error; never a
// panic.
//
//	go test -run XXX -fuzz FuzzParseAction -fuzztime 60s ./engine/enginetest/
func FuzzParseAction(f *testing.F) {
	for gi := range len(engine.Games()) {
		for _, s := range seeds {
			f.Add(uint8(gi), s)
		}
	}
	f.Fuzz(func(t *testing.T, gi uint8, text string) {
		g, _ := pick(gi, 0)
		a, err := g.ParseAction(text)
		if err != nil {
			if engine.Code(err) == "" {
				t.Fatalf("%s: error for %q is not a rule error: %v", g.ID(), text, err)
			}
			return
		}
		again, err := g.ParseAction(a.String())
		if err != nil || again != a {
			t.Fatalf("%s: %q parsed to %q, which parses to %v (%v)", g.ID(), text, a, again, err)
		}
	})
}

// FuzzApplyArbitrary: any text applied for any seat at any point of a
// random game of every game and seat count is accepted or rejected with a
// rule error that leaves the state unchanged (enginetest.CheckArbitrary).
//
//	go test -run XXX -fuzz FuzzApplyArbitrary -fuzztime 60s ./engine/enginetest/
func FuzzApplyArbitrary(f *testing.F) {
	for gi := range len(engine.Games()) {
		for k, s := range seeds {
			f.Add(uint8(gi), uint8(k), uint64(k+1), uint8(k*7), int8(k%5-1), s)
		}
	}
	f.Fuzz(func(t *testing.T, gi, si uint8, seed uint64, steps uint8, seat int8, text string) {
		g, seats := pick(gi, si)
		su := engine.Setup{Game: g.ID(), Seats: seats, Seed: seed, Options: engine.Options{}}
		if err := enginetest.CheckArbitrary(g, su, int(steps), engine.Seat(seat), text); err != nil {
			t.Fatalf("%s, %d seats: %v", g.ID(), seats, err)
		}
	})
}
