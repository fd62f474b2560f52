package rendertest

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// This file and chapters_screen_test.go test the screens of Rebel Princess
// and 3 Chapters (render.Screen) on whole games played by the engine's AI
// players: at many points the screen of every seat and of a spectator is
// built in every language and checked against the state (pcs* helpers).

// ScreenGame describes what the shared checks need to know of a game.
type ScreenGame struct {
	// Suited: every face-up card on the table and in the hand has a suit
	// or a value (a name-only card is a secret or in front of a seat).
	Suited bool
	ID     string
	Names  render.Names
	// ids are the game's internal ids (princesses, round cards, card
	// keys): no text may show them.
	IDs []string
	// notation matches a card's notation in running text.
	Notation *regexp.Regexp
	// hand lists the notation of the view's own hand, in order.
	Hand func(v engine.View) []string
	// legal lists the hand cards (notation) that the legal actions of the
	// acting viewer choose, for the marks; ok false when the step chooses
	// no hand card.
	Legal func(v engine.View, legal []engine.Action) (cards []string, ok bool)
	// extra are the game's own checks.
	Extra func(t *testing.T, where string, l *locales.Localizer, st engine.State, v engine.View, sc render.Screen)
}

// Texts lists every text of a screen.
func Texts(sc render.Screen) []string {
	out := []string{sc.Title, sc.Prompt}
	out = append(out, sc.Result...)
	out = append(out, sc.StatusLines()...)
	pile := func(p render.Pile) {
		out = append(out, p.Label, p.Text)
		for _, c := range p.Cards {
			out = append(out, c.Name, c.Note)
		}
	}
	if sc.Hand != nil {
		pile(*sc.Hand)
	}
	for _, p := range sc.Secret {
		pile(p)
	}
	for _, p := range sc.Center {
		pile(p)
	}
	for _, s := range sc.Seats {
		out = append(out, s.Name, s.Line)
		out = append(out, s.Counts...)
		for _, p := range s.Piles {
			pile(p)
		}
	}
	if sc.Rule != nil {
		out = append(out, sc.Rule.Name, sc.Rule.Short, sc.Rule.Full)
	}
	if sc.Chart != nil {
		out = append(out, sc.Chart.Title)
		out = append(out, sc.Chart.Names...)
	}
	return out
}

// Cards calls f with every card of a screen and where it is.
func Cards(sc render.Screen, f func(where string, c render.Card)) {
	pile := func(where string, p render.Pile) {
		for i, c := range p.Cards {
			f(fmt.Sprintf("%s.Cards[%d]", where, i), c)
		}
	}
	if sc.Hand != nil {
		pile("Hand", *sc.Hand)
	}
	for i, p := range sc.Secret {
		pile(fmt.Sprintf("Secret[%d]", i), p)
	}
	for i, p := range sc.Center {
		pile(fmt.Sprintf("Center[%d]", i), p)
	}
	for i, s := range sc.Seats {
		for j, p := range s.Piles {
			pile(fmt.Sprintf("Seats[%d].Piles[%d]", i, j), p)
		}
	}
}

func Dump(sc render.Screen) string { return fmt.Sprintf("%+v", sc) }

// CheckScreens builds the screen of every seat and a spectator in every
// language and checks it against the state.
func CheckScreens(t *testing.T, b *locales.Bundle, g ScreenGame, st engine.State, where string, shuffleSeed uint64) {
	t.Helper()
	done, _ := st.Result()
	seats := len(g.Names)
	acting := st.Acting()
	for viewer := engine.Seat(-1); int(viewer) < seats; viewer++ {
		v := st.View(viewer)
		for li, lang := range locales.Languages() {
			l := b.Lang(lang)
			at := fmt.Sprintf("%s seat %d %s", where, viewer, lang)
			sc, ok := render.ScreenOf(g.ID, l, v, g.Names, LegalOf(st, viewer))
			if !ok {
				t.Fatalf("%s: no screen builder", g.ID)
			}
			checkOne(t, g, at, l, st, v, sc, acting, done)
			CheckPrivateParts(t, at, g.ID, l, v, g.Names, LegalOf(st, viewer))
			// The screen depends only on what the viewer may know: with
			// everything hidden from them re-dealt, it stays the same.
			if li == int(shuffleSeed%3) {
				hs, ok := st.(engine.HiddenShuffler)
				if !ok {
					t.Fatalf("%s has no HiddenShuffler", g.ID)
				}
				other := hs.ShuffleHidden(viewer, engine.NewRand(shuffleSeed, int(viewer)))
				again, _ := render.ScreenOf(g.ID, l, other.View(viewer), g.Names, LegalOf(other, viewer))
				if !reflect.DeepEqual(sc, again) {
					t.Fatalf("%s: the screen depends on what is hidden from the viewer:\n%s\n--- after re-dealing the hidden cards ---\n%s", at, Dump(sc), Dump(again))
				}
			}
			if t.Failed() {
				t.Fatalf("%s: screen:\n%s", at, Dump(sc))
			}
		}
	}
}

func checkOne(t *testing.T, g ScreenGame, at string, l *locales.Localizer, st engine.State, v engine.View, sc render.Screen, acting []engine.Seat, done bool) {
	t.Helper()
	viewer := v.ViewerSeat()
	if sc.Game != g.ID || sc.Viewer != viewer {
		t.Errorf("%s: Game %q Viewer %d", at, sc.Game, sc.Viewer)
	}
	// Acting, Result, Prompt.
	if !slices.Equal(sc.Acting, acting) && !(len(sc.Acting) == 0 && len(acting) == 0) {
		t.Errorf("%s: Acting %v, the state's %v", at, sc.Acting, acting)
	}
	if done != (len(sc.Result) > 0) {
		t.Errorf("%s: over %v, Result %q", at, done, sc.Result)
	}
	for _, r := range sc.Result {
		if strings.TrimSpace(r) == "" {
			t.Errorf("%s: an empty Result line", at)
		}
	}
	mustAct := viewer >= 0 && slices.Contains(acting, viewer)
	if mustAct != (sc.Prompt != "") {
		t.Errorf("%s: must act %v, Prompt %q", at, mustAct, sc.Prompt)
	}
	if sc.Title == "" {
		t.Errorf("%s: no Title", at)
	}
	// Texts: every key found, no ids, no notation, no provisional marks.
	you := l.T(g.ID+".screen.you", nil)
	for _, text := range Texts(sc) {
		switch {
		case text == "":
		case strings.Contains(text, locales.MissingOpen):
			t.Errorf("%s: a missing key or template data: %q", at, text)
		case strings.Contains(text, "†"):
			t.Errorf("%s: a provisional mark: %q", at, text)
		case g.Notation != nil && g.Notation.MatchString(text):
			t.Errorf("%s: notation: %q", at, text)
		case strings.ContainsAny(text, "[-"):
			// An id in brackets, or a hyphenated id.
			for _, id := range g.IDs {
				if strings.Contains(text, "["+id+"]") || (strings.Contains(id, "-") && strings.Contains(text, id)) {
					t.Errorf("%s: the id %q: %q", at, id, text)
				}
			}
		}
	}
	// Every card has a name.
	Cards(sc, func(w string, c render.Card) {
		if c.Name == "" {
			t.Errorf("%s: %s has no Name: %+v", at, w, c)
		}
		if !c.Down && c.Suit == "" && c.Value == "" && g.Suited && !strings.HasPrefix(w, "Secret") && !strings.Contains(w, "Piles") {
			t.Errorf("%s: %s: a face-up card without suit and value: %+v", at, w, c)
		}
	})
	// The hand is the view's own hand, marked as the legal actions allow.
	if (viewer < 0) != (sc.Hand == nil) {
		t.Fatalf("%s: viewer %d, Hand %v", at, viewer, sc.Hand)
	}
	if sc.Hand != nil {
		var codes, marked []string
		for _, c := range sc.Hand.Cards {
			codes = append(codes, c.Code)
			if c.Mark {
				marked = append(marked, c.Code)
			}
		}
		if want := g.Hand(v); !slices.Equal(codes, want) {
			t.Errorf("%s: Hand %v, the view's %v", at, codes, want)
		}
		var want []string
		if mustAct {
			if cs, ok := g.Legal(v, st.Legal(viewer)); ok {
				want = cs
			}
		}
		slices.Sort(marked)
		want = slices.Compact(slices.Sorted(slices.Values(want)))
		if !slices.Equal(marked, want) {
			t.Errorf("%s: marked %v, the legal actions choose %v", at, marked, want)
		}
	}
	if viewer < 0 && len(sc.Secret) > 0 {
		t.Errorf("%s: a spectator has secrets: %+v", at, sc.Secret)
	}
	// Seats.
	if len(sc.Seats) != len(g.Names) {
		t.Fatalf("%s: %d seats", at, len(sc.Seats))
	}
	for i, s := range sc.Seats {
		seat := engine.Seat(i)
		if s.Seat != seat || s.Name != g.Names[i] || s.You != (seat == viewer) || s.Acting != slices.Contains(acting, seat) {
			t.Errorf("%s: seat %d: %+v", at, i, s)
		}
		if len(s.Counts) == 0 || s.Line == "" {
			t.Errorf("%s: seat %d without counts or line: %+v", at, i, s)
		}
		if startsYou := strings.HasPrefix(s.Line, you+":"); startsYou != (seat == viewer) {
			t.Errorf("%s: seat %d (viewer %d): line %q", at, i, viewer, s.Line)
		}
	}
	if g.Extra != nil {
		g.Extra(t, at, l, st, v, sc)
	}
}

// PlayScreens plays a game with AI players (the game's heuristic at even
// seats, the random player at odd ones), checking the screens every
// `every` steps and at the end.
func PlayScreens(t *testing.T, b *locales.Bundle, g ScreenGame, opts engine.Options, seed uint64, every int) {
	t.Helper()
	eg, err := engine.Lookup(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	su := engine.Setup{Game: g.ID, Seats: len(g.Names), Seed: seed, Options: opts}
	st, err := engine.Start(eg, su, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", g.ID, opts, err)
	}
	heuristic, err := eg.(engine.Bots).Bot("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	players := []engine.Player{heuristic, engine.Random{}}
	r := engine.NewRand(seed, 99)
	for step := 0; step < 20000; step++ {
		done, _ := st.Result()
		if done || step%every == 0 {
			CheckScreens(t, b, g, st, fmt.Sprintf("%s %v seed %d step %d", g.ID, opts, seed, step), seed+uint64(step))
		}
		if done {
			return
		}
		acting := st.Acting()
		s := acting[r.IntN(len(acting))]
		legal := st.Legal(s)
		a := players[int(s)%2].Choose(st.View(s), legal, r)
		if _, err := engine.Step(eg, st, seed, step, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
			t.Fatalf("%s seed %d step %d: %s: %v", g.ID, seed, step, a, err)
		}
	}
	t.Fatalf("%s seed %d: the game did not end", g.ID, seed)
}

// Every is how often the screens are checked: less often under -race
// and -short.
func Every(n int) int {
	if testing.Short() || RaceEnabled {
		return 4 * n
	}
	return n
}
