package chapters

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/scenario"
)

// A corrected card is a data change only: a game given another card table
// (here Goldilocks pays 2 stars instead of 4 gems) scores by it, with no
// other change, while the default table is untouched.
func TestAlternativeCardTable(t *testing.T) {
	alt := DefaultCards.Clone()
	alt[5].Abilities[0].Reward = Tokens{Stars: 2}
	alt[5].Provisional = GuessAbility
	src, err := readScenario("testdata/chapter2-example-round.scenario")
	if err != nil {
		t.Fatal(err)
	}
	// The default table: the rulebook's example passes.
	if err := scenario.Run(strings.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	old := DefaultCards
	DefaultCards = *alt
	defer func() { DefaultCards = old }()
	err = scenario.Run(strings.NewReader(src))
	if err == nil || !strings.Contains(err.Error(), "expected tokens of seat 1 stars=0 hearts=0 gems=4, found stars=2 hearts=0 gems=0") {
		t.Fatalf("with Goldilocks changed, want Kuba's tokens to change, got %v", err)
	}
	DefaultCards = old
	// The same through the Game's Cards field, without touching the package table.
	st, err := Game{Cards: alt}.New(engine.Options{}, 4, engine.NewRand(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	gains := roundGains(s.cards, []Play{{Seat: 0, Card: 35}, {Seat: 1, Card: 5}, {Seat: 2, Card: 30}, {Seat: 3, Card: 8}}, 0)
	if gains[1] != (Tokens{Stars: 2}) {
		t.Fatalf("alternative table: Goldilocks gives %v", gains[1])
	}
	if DefaultCards[5].Abilities[0].Reward != (Tokens{Gems: 4}) {
		t.Fatal("Clone shares the abilities with the default table")
	}
	if !slices.Contains(alt.Provisional(), 5) || slices.Contains(DefaultCards.Provisional(), 5) {
		t.Fatal("the provisional list follows the data")
	}
}

// Every card of the default table is complete and valid: values in place,
// a locale key, confirmed cards as the reference gives them.
func TestCardTable(t *testing.T) {
	for v := Card(1); v <= NumCards; v++ {
		d := DefaultCards[v]
		if d.Value != v || d.Key == "" {
			t.Errorf("card %d: value %d key %q", v, d.Value, d.Key)
		}
		for _, a := range d.Abilities {
			for _, c := range a.When {
				if c.Kind == WithCard && (c.Card < 1 || c.Card > NumCards) {
					t.Errorf("card %d names card %d", v, c.Card)
				}
			}
		}
	}
	confirmed := []Card{1, 3, 4, 5, 13, 14, 16, 30}
	if got := len(DefaultCards.Provisional()); got != NumCards-len(confirmed) {
		t.Errorf("%d provisional cards, want %d", got, NumCards-len(confirmed))
	}
	for _, c := range confirmed {
		if DefaultCards[c].IsProvisional() {
			t.Errorf("card %d is confirmed", c)
		}
	}
	if DefaultCards[1].Traits != AllTraits || !DefaultCards[50].Traits.Has(Monster) || !DefaultCards[5].Traits.Has(Child) {
		t.Error("confirmed traits")
	}
}

func readScenario(path string) (string, error) {
	b, err := testdataFS(path)
	return string(b), err
}

// isLegal must agree with Legal across random games of every size.
func TestIsLegalAgreesWithLegal(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		n := 2 + int(seed%5)
		st, err := Game{}.New(engine.Options{}, n, engine.NewRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for step := 1; ; step++ {
			if done, _ := s.Result(); done {
				break
			}
			var pool []Action
			for seat := 0; seat < n; seat++ {
				for _, a := range s.Legal(engine.Seat(seat)) {
					pool = append(pool, a.(Action))
				}
				for _, c := range s.hands[seat] {
					pool = append(pool, play(c), pick(c, 0), pick(c, c%50+1))
				}
			}
			for seat := 0; seat < n; seat++ {
				legal := s.Legal(engine.Seat(seat))
				for _, a := range pool {
					want := slices.Contains(legal, engine.Action(a))
					if got := s.acting(engine.Seat(seat)) && s.isLegal(engine.Seat(seat), a); got != want {
						t.Fatalf("seed %d step %d seat %d %v: isLegal %v, listed %v", seed, step, seat, a, got, want)
					}
				}
			}
			seat := s.Acting()[0]
			legal := s.Legal(seat)
			if _, err := s.Apply(seat, legal[int(seed+uint64(step))%len(legal)], engine.NewRand(seed, step)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func testdataFS(path string) ([]byte, error) { return os.ReadFile(path) }

// The chapter III events add up: every seat's tokens before the last
// move, plus what its last round's tokens, chapter_three and gem_bonus
// events give, are its
// final tokens; the gem bonus is told once, apart from the abilities.
func TestChapterThreeEventsAddUp(t *testing.T) {
	t.Parallel()
	bonuses := 0
	for seed := uint64(1); seed <= 60; seed++ {
		n := 2 + int(seed%5)
		st, err := Game{}.New(engine.Options{}, n, engine.NewRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for step := 1; ; step++ {
			if done, _ := s.Result(); done {
				break
			}
			before := slices.Clone(s.tokens)
			seat := s.Acting()[0]
			legal := s.Legal(seat)
			ev, err := s.Apply(seat, legal[int(seed+uint64(step))%len(legal)], engine.NewRand(seed, step))
			if err != nil {
				t.Fatal(err)
			}
			if done, _ := s.Result(); !done {
				continue
			}
			sum := before
			told := map[engine.Seat]int{}
			for _, e := range ev {
				if e.Type != "tokens" && e.Type != "chapter_three" && e.Type != "gem_bonus" {
					continue
				}
				i := e.Args["seat"].(engine.Seat)
				if e.Type != "tokens" {
					told[i]++
				}
				if e.Type == "gem_bonus" {
					bonuses++
					if e.Args["gems"].(int) < 4 {
						t.Fatalf("seed %d: the gem bonus gives %v gems", seed, e.Args["gems"])
					}
				}
				sum[i] = sum[i].Add(Tokens{Stars: e.Args["stars"].(int), Hearts: e.Args["hearts"].(int), Gems: e.Args["gems"].(int)})
			}
			for i := range n {
				if sum[i] != s.tokens[i] {
					t.Fatalf("seed %d seat %d: events add up to %+v, the tokens are %+v", seed, i, sum[i], s.tokens[i])
				}
				if told[engine.Seat(i)] == 0 {
					t.Fatalf("seed %d seat %d: no chapter III event", seed, i)
				}
			}
		}
	}
	if bonuses == 0 {
		t.Fatal("no game gave the gem bonus")
	}
}
