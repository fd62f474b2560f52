package picture

import (
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// realGames are the games played for real screens: a language and a seat
// count each.
var realGames = []realGame{
	{"princesses", "pl", 6}, {"lynx", "uk", 5}, {"chapters", "pl", 6}, {"courtiers", "uk", 5},
}

type realGame struct {
	game, lang string
	seats      int
}

// names are the seats' long names in the game's language.
func (rg realGame) names() render.Names {
	names := make(render.Names, rg.seats)
	src := plNames
	if rg.lang == "uk" {
		src = ukNames
	}
	copy(names, src)
	return names
}

// realScreens are screens from the games' own screen builders
// (render.ScreenOf), for seat 0, at a third, two thirds and the end of a
// game played by AI players; none for a game without a screen builder yet.
func realScreens(t testing.TB) map[string]render.Screen {
	t.Helper()
	out := map[string]render.Screen{}
	b := locales.MustLoad()
	for _, rg := range realGames {
		g, err := engine.Lookup(rg.game)
		if err != nil {
			t.Fatal(err)
		}
		l := b.Lang(rg.lang)
		names := rg.names()
		su := engine.Setup{Game: rg.game, Seats: rg.seats, Seed: 11}
		total := playGame(t, g, su, -1, nil)
		for _, at := range []struct {
			name string
			step int
		}{{"early", total / 3}, {"mid", 2 * total / 3}, {"end", total}} {
			playGame(t, g, su, at.step, func(st engine.State) {
				sc, ok := render.ScreenOf(rg.game, l, st.View(0), names, nil)
				if ok {
					out["real-"+rg.game+"-"+at.name] = sc
				}
			})
		}
	}
	return out
}

// playGame plays a game with random players up to step stop (-1: to the
// end), calls at with the state there, and returns the number of steps.
func playGame(t testing.TB, g engine.Game, su engine.Setup, stop int, at func(engine.State)) int {
	t.Helper()
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if done, _ := st.Result(); done || n == stop {
			break
		}
		acting := st.Acting()
		if len(acting) == 0 {
			break
		}
		s := acting[0]
		a := engine.Random{}.Choose(st.View(s), st.Legal(s), engine.NewRand(su.Seed^0x5eed, n))
		if _, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
			t.Fatalf("%s step %d: %v", su.Game, n, err)
		}
		n++
	}
	if at != nil {
		at(st)
	}
	return n
}
