package princesses

import (
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

// isLegal must agree with Legal on every action Legal lists and on actions
// it does not list, across random games.
func TestIsLegalAgreesWithLegal(t *testing.T) {
	n := uint64(60)
	if enginetest.Sampled() {
		n = 12 // under -race: every seat count thrice; STOLIK_SOAK=1 plays all 60 (.ci/run's soak step)
	}
	for seed := uint64(1); seed <= n; seed++ {
		for _, opts := range []engine.Options{{}, {"edition": "classic"}, {"rounds": "random"}, {"edition": "classic", "rounds": "random"}, {"powers": "off", "rounds": "random3"}} {
			st, err := Game{}.New(opts, 3+int(seed%4), engine.NewRand(seed, 0))
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			for step := 1; ; step++ {
				if done, _ := s.Result(); done {
					break
				}
				var pool []Action // candidates: everything legal for any seat now, plus every card played by anyone
				for seat := 0; seat < s.n; seat++ {
					for _, a := range s.Legal(engine.Seat(seat)) {
						pool = append(pool, a.(Action))
					}
					for _, c := range s.hands[seat] {
						pool = append(pool, play(c))
					}
				}
				for seat := 0; seat < s.n; seat++ {
					legal := s.Legal(engine.Seat(seat))
					for _, a := range pool {
						want := slices.Contains(legal, engine.Action(a))
						if got := s.acting(engine.Seat(seat)) && s.isLegal(engine.Seat(seat), a); got != want {
							t.Fatalf("seed %d step %d seat %d %v: isLegal %v, Legal lists it: %v", seed, step, seat, a, got, want)
						}
					}
				}
				acting := s.Acting()
				seat := acting[0]
				legal := s.Legal(seat)
				a := legal[int(seed+uint64(step))%len(legal)]
				if _, err := s.Apply(seat, a, engine.NewRand(seed, step)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
