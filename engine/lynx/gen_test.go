package lynx

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
)

// TestGenerateScenarios writes the scenarios of rules that only show after
// the deck has run out (a whole game of draws): it searches seeded AI games
// for the situation and writes the game's log as a scenario. Run it with
// LYNX_GEN=1 go test ./engine/lynx -run GenerateScenarios; the files it
// writes are then checked like any other scenario.
func TestGenerateScenarios(t *testing.T) {
	if os.Getenv("LYNX_GEN") == "" {
		t.Skip("set LYNX_GEN=1 to regenerate the generated scenarios")
	}
	type want struct {
		file, header string
		seats        int
		mode         string
		// match inspects the state before and after the last action.
		match func(before, after *State, a Action) bool
	}
	wants := []want{
		{
			file: "game-end-cards-out.scenario", seats: 3, mode: "basic",
			header: `Rule (seed 002, "Koniec gry"): the game ends at once when the deck is
empty and a player takes the last card of the pool, even a robbed player who
still owes draws ("może nie być w stanie dobrać wszystkich kart"). The
discard pile is never shuffled into a new deck. Generated from a seeded game
of AI players (gen_test.go); the ruling is in the last lines.`,
			match: func(b, a *State, act Action) bool {
				return a.phase == phaseOver && a.reason == "cards_out" && b.phase == phaseDraw && b.owed > 1 && len(b.discard) > 0
			},
		},
		{
			file: "game-end-tiebreak.scenario", seats: 4, mode: "advanced",
			header: `Rule (seed 002, "Koniec gry"): on a tie for the highest total, the player
with the fewest cards in hand wins. Generated from a seeded game of AI
players (gen_test.go).`,
			match: func(b, a *State, act Action) bool { return a.phase == phaseOver && a.note == "tiebreak" },
		},
		{
			file: "game-end-shared-win.scenario", seats: 5, mode: "basic",
			header: `Rule (seed 002, "Koniec gry"): when the totals and the cards in hand are both
equal, the tied players share the victory. Generated from a seeded game of
AI players (gen_test.go).`,
			match: func(b, a *State, act Action) bool { return a.phase == phaseOver && a.note == "shared" },
		},
		{
			file: "duel-short-row.scenario", seats: 2, mode: "basic",
			header: `Duel (seed 002, "Uzupełnij karty wirtualnego gracza natychmiast po kradzieży"):
the virtual row is refilled right after each steal; once the deck has run
out it stays short (decision), and its groups can still be stolen.
Generated from a seeded game of AI players (gen_test.go).`,
			match: func(b, a *State, act Action) bool {
				return act.Kind == KindStealVirtual && a.virtual.Size() < virtualSize && len(a.deck) == 0 && b.virtual.Size() == virtualSize
			},
		},
	}
	for _, w := range wants {
		found := false
		for seed := uint64(1); seed < 20000 && !found; seed++ {
			lines, ok := genGame(w.seats, w.mode, seed, w.match)
			if !ok {
				continue
			}
			found = true
			var b strings.Builder
			for _, l := range strings.Split(w.header, "\n") {
				b.WriteString("# " + l + "\n")
			}
			fmt.Fprintf(&b, "game lynx\nseats %d\noption mode=%s\nseed %d\nfirst 0\n", w.seats, w.mode, seed)
			b.WriteString(strings.Join(lines, "\n") + "\n")
			if err := os.WriteFile("testdata/"+w.file, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if !found {
			t.Errorf("%s: no seed found", w.file)
		}
	}
}

// genGame plays a seeded AI game (as a scenario with "first 0" replays it)
// until match holds for an action, and returns the scenario lines: the
// actions, then expectations about the position.
func genGame(seats int, mode string, seed uint64, match func(before, after *State, a Action) bool) ([]string, bool) {
	var stacks engine.Stacks
	stacks.Add(engine.Stack{Kind: "first", Index: -1, Values: []string{"0"}})
	es, err := engine.Start(Game{}, engine.Setup{Game: "lynx", Options: engine.Options{"mode": mode}, Seats: seats, Seed: seed}, &stacks)
	if err != nil {
		panic(err)
	}
	st := es.(*State)
	var lines []string
	for step := 0; step < 5000; step++ {
		if st.phase == phaseOver {
			return nil, false
		}
		s := st.Acting()[0]
		a := Heuristic{}.Choose(st.View(s), st.Legal(s), engine.NewRand(seed^0xfeed, step)).(Action)
		before := st.clone()
		if _, err := st.Apply(s, a, engine.NewRand(seed, step+1)); err != nil {
			panic(err)
		}
		if match(before, st, a) {
			lines = append(lines, fmt.Sprintf("expect deck-size %d", len(before.deck)))
			if before.phase == phaseDraw {
				lines = append(lines, fmt.Sprintf("expect owed %d", before.owed))
			}
			lines = append(lines, "expect pool "+show(poolCards(before)))
			if st.cfg.duel {
				lines = append(lines, "expect virtual "+show(before.virtual.Cards()))
			}
			lines = append(lines, fmt.Sprintf("%d: %s", s, a))
			lines = append(lines, st.expectations()...)
			return lines, true
		}
		lines = append(lines, fmt.Sprintf("%d: %s", s, a))
	}
	return nil, false
}

func poolCards(st *State) []Card {
	var out []Card
	for _, p := range st.pool {
		out = append(out, p.List()...)
	}
	return out
}

// expectations describe a position in expect lines.
func (st *State) expectations() []string {
	var out []string
	if st.phase == phaseOver {
		out = append(out, "expect over")
		w := make([]string, len(st.winners))
		for i, s := range st.winners {
			w[i] = s.String()
		}
		out = append(out, "expect winner "+strings.Join(w, " "))
	} else {
		out = append(out, "expect turn "+st.Acting()[0].String(), "expect phase "+st.phase.String())
	}
	out = append(out, fmt.Sprintf("expect deck-size %d", len(st.deck)), "expect pool "+show(poolCards(st)))
	if st.cfg.duel {
		out = append(out, "expect virtual "+show(st.virtual.Cards()))
	}
	for s := 0; s < st.n; s++ {
		seat := engine.Seat(s)
		out = append(out, fmt.Sprintf("expect hand-size %d %d", s, st.hands[s].Size()), fmt.Sprintf("expect score %d %d", s, st.score(seat)))
	}
	return out
}
