package engine_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// The chance source of a step depends on (seed, step) only: not on what an
// earlier step drew, and not on how the draws of a step are interleaved
// with other steps.
func TestRandDependsOnSeedAndStepOnly(t *testing.T) {
	draw := func(seed uint64, step int) [4]int {
		r := engine.NewRand(seed, step)
		return [4]int{r.IntN(1000), r.IntN(1000), r.IntN(1000), r.IntN(1000)}
	}
	a := draw(42, 7)
	busy := engine.NewRand(42, 6)
	for i := 0; i < 1000; i++ {
		busy.IntN(10)
	}
	if b := draw(42, 7); b != a {
		t.Fatalf("step 7 drew %v, then %v", a, b)
	}
	if c := draw(42, 8); c == a {
		t.Fatalf("steps 7 and 8 drew the same %v", a)
	}
	if d := draw(43, 7); d == a {
		t.Fatalf("seeds 42 and 43 drew the same %v", a)
	}
}

func TestStacksAreTakenOnceByKind(t *testing.T) {
	var s engine.Stacks
	s.Add(engine.Stack{Kind: "deal", Index: 0, Values: []string{"Q1"}, Line: 3})
	s.Add(engine.Stack{Kind: "first", Index: -1, Values: []string{"2"}, Line: 4})
	r := engine.NewRand(1, 1).WithStacks(&s)
	if got := r.Take("deal"); len(got) != 1 || got[0].Line != 3 {
		t.Fatalf("Take(deal) = %v", got)
	}
	if got := r.Take("deal"); len(got) != 0 {
		t.Fatalf("a stack was taken twice: %v", got)
	}
	if p := s.Pending(); len(p) != 1 || p[0].Kind != "first" {
		t.Fatalf("pending = %v", p)
	}
	if got := engine.NewRand(1, 1).Take("deal"); got != nil {
		t.Fatalf("a Rand without stacks gave %v", got)
	}
}
