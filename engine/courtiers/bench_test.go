package courtiers_test

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

// BenchmarkRandomPlayout measures one applied action of a random player,
// legal-move generation included.
func BenchmarkRandomPlayout(b *testing.B) {
	enginetest.BenchmarkPlayout(b, courtiers.Game{}, engine.Options{})
}

// BenchmarkHeuristicChoose measures one decision of the heuristic player.
func BenchmarkHeuristicChoose(b *testing.B) {
	st := midGame(3)
	s := st.Acting()[0]
	v, legal := st.View(s), st.Legal(s)
	ai := courtiers.Heuristic{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ai.Choose(v, legal, engine.NewRand(1, i))
	}
}

// BenchmarkSearchDecision measures one decision of the search player at
// its default budget (engine/ai's hard level), 4 seats, mid-game.
func BenchmarkSearchDecision(b *testing.B) {
	st := midGame(4)
	p, err := ai.Player(courtiers.Game{}, ai.Hard, 4, 0)
	if err != nil {
		b.Fatal(err)
	}
	s := st.Acting()[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		engine.Decide(p, st, s, engine.NewRand(1, i))
	}
}

// midGame is a game of n seats after 30 placements.
func midGame(n int) engine.State {
	st, _ := courtiers.Game{}.New(nil, n, engine.NewRand(5, 0))
	for k := 0; k < 30; k++ {
		s := st.Acting()[0]
		legal := st.Legal(s)
		st.Apply(s, legal[k%len(legal)], engine.NewRand(5, k+1))
	}
	return st
}
