package lynx_test

import (
	"fmt"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included.
func BenchmarkRandomPlayout(b *testing.B) {
	for seats := 2; seats <= 5; seats++ {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			g := lynx.Game{}
			actions := 0
			seed := uint64(1)
			st, _ := g.New(engine.Options{}, seats, engine.NewRand(seed, 0))
			chooser := engine.NewRand(99, 0)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if done, _ := st.Result(); done {
					seed++
					st, _ = g.New(engine.Options{}, seats, engine.NewRand(seed, 0))
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
