package princesses

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// TestAIUsesPowers plays heuristic games and checks that the AI uses its
// power in most rounds, legally (every action comes from Legal or
// OptionalLegal and is accepted).
func TestAIUsesPowers(t *testing.T) {
	for _, opts := range []engine.Options{{"rounds": "random"}, {"rounds": "random", "edition": "classic", "promo": "on"}} {
		seatRounds, used := 0, 0
		perPower := map[string]int{}
		for seed := uint64(1); seed <= 100; seed++ {
			n := 3 + int(seed%4)
			st0, err := Game{}.New(opts, n, engine.NewRand(seed, 0))
			if err != nil {
				t.Fatal(err)
			}
			st := st0.(*State)
			round := -1
			for step := 1; ; step++ {
				if done, _ := st.Result(); done {
					break
				}
				if st.round != round && st.phase != phaseChoose {
					round = st.round
					seatRounds += n
				}
				s := st.Acting()[0]
				a := Heuristic{}.Choose(st.View(s), st.Legal(s), engine.NewRand(seed^0xa11ce, step))
				before := append([]bool(nil), st.used...)
				if _, err := st.Apply(s, a, engine.NewRand(seed, step)); err != nil {
					t.Fatalf("seed %d: %v rejected: %v", seed, a, err)
				}
				for i := range before {
					if !before[i] && st.used[i] && st.round == round {
						used++
						perPower[st.chosen[i].String()]++
					}
				}
			}
		}
		rate := float64(used) / float64(seatRounds)
		t.Logf("%v: powers used in %.0f%% of seat-rounds (%d/%d); by princess %v", opts, 100*rate, used, seatRounds, perPower)
		if rate < 0.5 {
			t.Errorf("%v: the AI used its power in only %.0f%% of seat-rounds", opts, 100*rate)
		}
	}
}

// TestCardPowersHideCards plays heuristic games and checks, whenever
// Scheherazade, the Ice Princess or Sleeping Beauty holds cards, that only
// she sees them, and that every card is still counted.
func TestCardPowersHideCards(t *testing.T) {
	seen := map[Kind]int{}
	for _, opts := range []engine.Options{{"rounds": "random"}, {"rounds": "random", "edition": "classic", "promo": "on"}} {
		for seed := uint64(1); seed <= 60; seed++ {
			n := 3 + int(seed%4)
			st0, err := Game{}.New(opts, n, engine.NewRand(seed, 0))
			if err != nil {
				t.Fatal(err)
			}
			st := st0.(*State)
			want := st.Inventory()
			for step := 1; ; step++ {
				if done, _ := st.Result(); done {
					break
				}
				if st.phase == phasePower && st.sub.kind >= KindTrade {
					seen[st.sub.kind]++
					for v := -1; v < n; v++ {
						view := st.View(engine.Seat(v)).(*View)
						her := engine.Seat(v) == st.sub.seat
						held := st.sub.kind == KindTrade || st.sub.kind == KindFreeze
						if (len(view.Held) > 0) != (her && held) || (view.Offers != nil) != (her && !held) {
							t.Fatalf("seed %d: seat %d (user %d) sees held %v, offers %v", seed, v, st.sub.seat, view.Held, view.Offers)
						}
					}
				}
				got := st.Inventory()
				for k, c := range want {
					if got[k] != c {
						t.Fatalf("seed %d step %d: card %s counted %d, want %d", seed, step, k, got[k], c)
					}
				}
				s := st.Acting()[0]
				a := Heuristic{}.Choose(st.View(s), st.Legal(s), engine.NewRand(seed^0xbeef, step))
				if _, err := st.Apply(s, a, engine.NewRand(seed, step)); err != nil {
					t.Fatalf("seed %d: %v rejected: %v", seed, a, err)
				}
			}
		}
	}
	for _, k := range []Kind{KindTrade, KindFreeze, KindRetain, KindAssign} {
		if seen[k] == 0 {
			t.Errorf("no %s step met", kindWords[k])
		}
	}
}

// TestMulanHaggleTwoExchanges plays Haggle rounds with random and heuristic
// players and checks that a winner who used Mulan's power in the trick is
// offered, and makes, a second exchange (ruling 26), that nobody else is,
// and that every card is still counted.
func TestMulanHaggleTwoExchanges(t *testing.T) {
	doubles := 0
	for _, ed := range []string{"deluxe", "classic"} {
		opts := engine.Options{"rounds": "haggle,haggle,haggle,haggle,haggle", "edition": ed}
		for seed := uint64(1); seed <= 150; seed++ {
			n := 3 + int(seed%4)
			st0, err := Game{}.New(opts, n, engine.NewRand(seed, 0))
			if err != nil {
				t.Fatal(err)
			}
			st := st0.(*State)
			want := st.Inventory()
			swaps := 0
			for step := 1; ; step++ {
				if done, _ := st.Result(); done {
					break
				}
				s := st.Acting()[0]
				var bot engine.Player = engine.Random{}
				if seed%2 == 0 {
					bot = Heuristic{}
				}
				if st.phase != phaseHaggle {
					swaps = 0
				}
				mulan := st.phase == phaseHaggle && st.mulanCard() != 0
				a := bot.Choose(st.View(s), st.Legal(s), engine.NewRand(seed^0x4a6, step))
				if _, err := st.Apply(s, a, engine.NewRand(seed, step)); err != nil {
					t.Fatalf("seed %d: %v rejected: %v", seed, a, err)
				}
				if a.(Action).Kind == KindSwap {
					swaps++
					if swaps == 2 {
						doubles++
					}
					if st.phase == phaseHaggle && !mulan && swaps == 1 {
						t.Fatalf("seed %d: haggle still open after %v without a Mulan card", seed, a)
					}
				}
				got := st.Inventory()
				for k, c := range want {
					if got[k] != c {
						t.Fatalf("seed %d step %d: card %s counted %d, want %d", seed, step, k, got[k], c)
					}
				}
			}
		}
	}
	t.Logf("double exchanges: %d", doubles)
	if doubles == 0 {
		t.Error("no Mulan double exchange met")
	}
}

// Every princess of each edition (promotional ones included) has a power
// in the table, but classic Karmezina, whose power copies another's: no
// princess is left without one silently.
func TestEveryPrincessHasAPower(t *testing.T) {
	for _, ed := range []Edition{Deluxe, Classic} {
		for _, p := range princessPool(ed, true) {
			if powerFor(ed, p) == nil && !(p == pid("karmezina") && ed == Classic) {
				t.Errorf("edition %v: %s has no power", ed, p)
			}
		}
	}
}
