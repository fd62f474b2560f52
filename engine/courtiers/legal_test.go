package courtiers

import (
	"slices"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
)

// candidates are actions worth trying for seat s: everything legal for any
// seat, and each card of every hand into each area, with a kill of every
// card kind and a face-down spy on both sides and in domains.
func candidates(st *State) []Action {
	var out []Action
	for seat := 0; seat < st.n; seat++ {
		for _, a := range st.Legal(engine.Seat(seat)) {
			out = append(out, a.(Action))
		}
	}
	areas := []Action{{Area: AreaUp}, {Area: AreaDown}, {Area: AreaOwn}}
	for o := 0; o <= st.n; o++ {
		areas = append(areas, Action{Area: AreaOpp, Opp: engine.Seat(o)})
	}
	for _, c := range AllCards() {
		for _, ar := range areas {
			a := ar
			a.Card = c
			out = append(out, a)
			if c.Role() != Assassin {
				continue
			}
			for _, t := range append(AllCards(), NoCard) {
				for _, side := range []Side{SideNone, SideUp, SideDown} {
					k := a
					k.Kill, k.Target, k.Side = true, t, side
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// check must accept exactly the actions Legal lists, across random games.
func TestCheckAgreesWithLegal(t *testing.T) {
	n := uint64(12)
	if enginetest.Sampled() {
		n = 4 // under -race: every seat count once; STOLIK_SOAK=1 plays all 12 (.ci/run's soak step)
	}
	for seed := uint64(1); seed <= n; seed++ {
		g, err := Game{}.New(nil, 2+int(seed%4), engine.NewRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		st := g.(*State)
		for step := 1; ; step++ {
			if done, _ := st.Result(); done {
				break
			}
			s := st.Acting()[0]
			legal := st.Legal(s)
			if step%3 == 1 {
				for _, a := range candidates(st) {
					want := slices.Contains(legal, engine.Action(a))
					if got := st.check(s, a) == nil; got != want {
						t.Fatalf("seed %d step %d seat %d %v: check accepts %v, Legal lists it %v", seed, step, s, a, got, want)
					}
				}
			}
			a := legal[int(seed*7+uint64(step))%len(legal)]
			if _, err := st.Apply(s, a, engine.NewRand(seed, step)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A placed spy shows as a face-down card to everyone, its owner included,
// until the end; then the spies of the Queen's column join their families.
func TestSpiesAreFaceDownForEveryone(t *testing.T) {
	st := newState(2)
	st.phase = phasePlay
	st.hands[0] = []Card{NewCard(Hare, Spy), NewCard(Carp, Spy), NewCard(Toad, Spy)}
	st.hands[1] = []Card{NewCard(Stag, Plain), NewCard(Stag, Plain), NewCard(Stag, Plain)}
	st.missions = [][2]Mission{{1, 11}, {2, 12}}
	r := engine.NewRand(1, 1)
	for _, a := range []Action{{Card: NewCard(Hare, Spy), Area: AreaUp}, {Card: NewCard(Carp, Spy), Area: AreaOwn}, {Card: NewCard(Toad, Spy), Area: AreaOpp, Opp: 1}} {
		if _, err := st.Apply(0, a, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, seat := range []engine.Seat{engine.Spectator, 0, 1} {
		v := st.View(seat).(*View)
		if v.QueenUp != 1 || v.Domains[0].Hidden != 1 || len(v.Domains[0].Cards) != 0 || v.Domains[1].Hidden != 1 {
			t.Fatalf("seat %d sees %+v", seat, v)
		}
		for _, col := range v.Table {
			if len(col.Up)+len(col.Down) != 0 {
				t.Fatalf("seat %d sees a spy's family at the table: %+v", seat, v.Table)
			}
		}
		for _, m := range v.Last {
			if m.Card != NoCard {
				t.Fatalf("seat %d sees a placed spy %v", seat, m.Card)
			}
		}
	}
}

// ShuffleHidden really re-deals: over a game, some other hand, the deck and
// some spy's identity change, while the seat's own hand stays.
func TestShuffleHiddenRedeals(t *testing.T) {
	g, _ := Game{}.New(nil, 3, engine.NewRand(4, 0))
	st := g.(*State)
	var hands, decks, spies, missions bool
	for step := 1; ; step++ {
		if done, _ := st.Result(); done {
			break
		}
		c := st.ShuffleHidden(0, engine.NewRand(9, step)).(*State)
		if !slices.Equal(c.hands[0], st.hands[0]) || c.missions[0] != st.missions[0] {
			t.Fatal("the seat's own hand or missions changed")
		}
		hands = hands || !slices.Equal(c.hands[1], st.hands[1])
		decks = decks || !slices.Equal(c.deck, st.deck)
		missions = missions || c.missions[1] != st.missions[1]
		for i := range st.queen {
			spies = spies || !slices.Equal(c.queen[i], st.queen[i])
		}
		s := st.Acting()[0]
		legal := st.Legal(s)
		if _, err := st.Apply(s, legal[step%len(legal)], engine.NewRand(4, step)); err != nil {
			t.Fatal(err)
		}
	}
	if !hands || !decks || !spies || !missions {
		t.Fatalf("re-dealt: hands %v, deck %v, spies %v, missions %v", hands, decks, spies, missions)
	}
}

// Stacks that cannot be a legal deal are rejected with a bad-stack error.
func TestBadStacks(t *testing.T) {
	for _, stacks := range [][]engine.Stack{
		{{Kind: "deal", Index: 0, Values: []string{"hare", "hare"}}},
		{{Kind: "deal", Index: 5, Values: []string{"hare", "hare", "hare"}}},
		{{Kind: "deal", Index: 0, Values: []string{"hare-spy", "hare-spy", "hare-spy"}}},
		{{Kind: "deal", Index: 0, Values: []string{"wolf", "hare", "hare"}}},
		{{Kind: "missions", Index: 0, Values: []string{"B1", "W1"}}},
		{{Kind: "missions", Index: 0, Values: []string{"W1", "B1"}}, {Kind: "missions", Index: 1, Values: []string{"W1", "B2"}}},
		{{Kind: "first", Index: -1, Values: []string{"7"}}},
		{{Kind: "deck", Index: -1, Values: make([]string, 60)}},
	} {
		var sk engine.Stacks
		for _, s := range stacks {
			sk.Add(s)
		}
		_, err := Game{}.New(nil, 2, engine.NewRand(1, 0).WithStacks(&sk))
		if engine.Code(err) != engine.CodeBadStack {
			t.Errorf("%v: got %v, want a bad stack", stacks, err)
		}
	}
}

// Notation round trip and rejection of malformed text.
func TestParseAction(t *testing.T) {
	for _, text := range []string{
		"place carp up", "place hare-noble down", "place stag-spy own", "place toad-guard opp:3",
		"place hare-assassin down kill stag-noble@up", "place hare-assassin up kill spy@down",
		"place carp-assassin opp:1 kill carp", "place carp-assassin own kill spy",
	} {
		a, err := ParseAction(text)
		if err != nil || a.String() != text {
			t.Errorf("%q: %v, %v", text, a, err)
		}
	}
	for text, code := range map[string]string{
		"":                                      engine.CodeUnknownAction,
		"place":                                 engine.CodeUnknownAction,
		"place carp":                            engine.CodeUnknownAction,
		"put carp up":                           engine.CodeUnknownAction,
		"place carp up kill":                    engine.CodeUnknownAction,
		"place carp up slay hare@up":            engine.CodeUnknownAction,
		"place wolf up":                         CodeUnknownCard,
		"place carp-king up":                    CodeUnknownCard,
		"place carp left":                       CodeUnknownArea,
		"place carp opp:":                       CodeUnknownArea,
		"place carp opp:01":                     CodeUnknownArea,
		"place carp opp:-1":                     CodeUnknownArea,
		"place hare-assassin up kill x@up":      CodeUnknownTarget,
		"place hare-assassin up kill spy@x":     CodeUnknownTarget,
		"place hare-assassin own kill carp-spy": CodeUnknownTarget,
	} {
		if _, err := ParseAction(text); engine.Code(err) != code {
			t.Errorf("%q: got %v, want %s", text, err, code)
		}
	}
}
