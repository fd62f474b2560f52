package enginetest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/scenario"
)

// Scenarios runs every scenario file matching glob (normally
// "testdata/*.scenario") as a subtest, and fails when there is none.
func Scenarios(t *testing.T, glob string) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario files match %s", glob)
	}
	for _, f := range files {
		t.Run(scenario.Name(f), func(t *testing.T) {
			if err := scenario.RunFile(f); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkPlayout measures one applied action of a random player, legal-move
// generation included, for every seat count of the game (a sub-benchmark
// each).
func BenchmarkPlayout(b *testing.B, g engine.Game, opts engine.Options) {
	lo, hi := g.Seats()
	for seats := lo; seats <= hi; seats++ {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			seed := uint64(1)
			start := func() engine.State {
				st, err := engine.Start(g, engine.Setup{Game: g.ID(), Options: opts, Seats: seats, Seed: seed}, nil)
				if err != nil {
					b.Fatal(err)
				}
				return st
			}
			st := start()
			chooser := engine.NewRand(99, 0)
			actions := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if done, _ := st.Result(); done {
					seed++
					st, actions = start(), 0
				}
				s := st.Acting()[0]
				legal := st.Legal(s)
				if _, err := st.Apply(s, legal[chooser.IntN(len(legal))], engine.NewRand(seed, actions+1)); err != nil {
					b.Fatal(err)
				}
				actions++
			}
		})
	}
}
