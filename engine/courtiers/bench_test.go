package courtiers_test

import (
	"fmt"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included.
func BenchmarkRandomPlayout(b *testing.B) {
	for seats := 2; seats <= 5; seats++ {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			g := courtiers.Game{}
			actions := 0
			seed := uint64(1)
			st, _ := g.New(nil, seats, engine.NewRand(seed, 0))
			chooser := engine.NewRand(99, 0)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if done, _ := st.Result(); done {
					seed++
					st, _ = g.New(nil, seats, engine.NewRand(seed, 0))
				}
				s := st.Acting()[0]
				legal := st.Legal(s)
				a := legal[chooser.IntN(len(legal))]
				if _, err := st.Apply(s, a, engine.NewRand(seed, actions+1)); err != nil {
					b.Fatal(err)
				}
				actions++
			}
		})
	}
}

// BenchmarkHeuristicChoose measures one decision of the heuristic player.
func BenchmarkHeuristicChoose(b *testing.B) {
	g := courtiers.Game{}
	st, _ := g.New(nil, 3, engine.NewRand(5, 0))
	for k := 0; k < 30; k++ {
		s := st.Acting()[0]
		legal := st.Legal(s)
		st.Apply(s, legal[k%len(legal)], engine.NewRand(5, k+1))
	}
	s := st.Acting()[0]
	v, legal := st.View(s), st.Legal(s)
	ai := courtiers.Heuristic{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ai.Choose(v, legal, engine.NewRand(1, i))
	}
}
