// Package rendertest is the conformance suite of a game's presentation
// (render.Game): Run plays whole games of the game at every seat count and
// checks every part of the contract. Every game's render package runs it
// (conformance_test.go), as every engine runs enginetest.Run and every
// store storetest. It also holds the screen harnesses the games' own screen
// tests share.
package rendertest

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// Config is what the suite needs to know of a game beyond its contract.
type Config struct {
	// Shown are notation tokens the game shows players as they are (Lynx's
	// joker is an X on the card): the controls may name them.
	Shown []string
}

// Bundle loads the locale files or fails the test.
func Bundle(t testing.TB) *locales.Bundle {
	t.Helper()
	b, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// names are the seats' names of the suite's games.
var names = render.Names{"Ala", "Olena", "Bob", "Zosia", "Marek", "Iryna"}

// Run proves a game's presentation r on whole games of the engine game of
// the same id, registered with the engine:
//   - registered: render.For finds r by its id;
//   - hidden: everything a seat or a spectator reads (its whole screen, the
//     words of its legal actions, the hint) does not change when everything
//     hidden from it is re-dealt;
//   - private parts: a hand message's parts are the whole screen's;
//   - controls: every choice of every legal action, as the game lays it
//     out, names something, fits Discord's limits and shows no notation;
//     every later step has a prompt; a pick offers only cards of legal
//     actions;
//   - words: every event and every action is said without a missing text,
//     and placed;
//   - rules: every topic renders in every language, the examples parse
//     and the example card is found;
//   - design: every suit has a colour and a symbol the drawer has.
func Run(t *testing.T, r render.Game, cfg Config) {
	g, err := engine.Lookup(r.ID())
	if err != nil {
		t.Fatalf("no engine game %q: %v", r.ID(), err)
	}
	b := Bundle(t)
	t.Run("registered", func(t *testing.T) {
		if got, ok := render.For(r.ID()); !ok || got != r {
			t.Fatalf("render.For(%q) = %v, %v; want the game's presentation", r.ID(), got, ok)
		}
	})
	t.Run("rules", func(t *testing.T) { t.Parallel(); rules(t, b, g, r) })
	t.Run("design", func(t *testing.T) { t.Parallel(); design(t, r) })
	lo, hi := g.Seats()
	for seats := lo; seats <= hi; seats++ {
		t.Run(strconv.Itoa(seats), func(t *testing.T) {
			t.Parallel()
			t.Run("hidden", func(t *testing.T) { t.Parallel(); hidden(t, b, g, r, seats) })
			t.Run("controls", func(t *testing.T) { t.Parallel(); controls(t, b, g, r, cfg, seats) })
			t.Run("words", func(t *testing.T) { t.Parallel(); words(t, b, g, r, seats) })
		})
	}
}

// randomGame plays one game of random legal moves from seed, calling at
// with the state before every move; it stops after 5,000 moves.
func randomGame(t *testing.T, g engine.Game, seats int, seed uint64, at func(step int, st engine.State)) engine.State {
	t.Helper()
	st, err := engine.Start(g, engine.Setup{Game: g.ID(), Seats: seats, Seed: seed, Options: engine.Options{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pick := engine.NewRand(seed, 5)
	for step := 0; step < 5000; step++ {
		if done, _ := st.Result(); done {
			break
		}
		if at != nil {
			at(step, st)
		}
		acting := st.Acting()
		s := acting[pick.IntN(len(acting))]
		legal := st.Legal(s)
		if _, err := engine.Step(g, st, seed, step, engine.Move{Seat: s, Action: legal[pick.IntN(len(legal))].String()}, nil); err != nil {
			t.Fatalf("%s seed %d step %d: %v", g.ID(), seed, step, err)
		}
	}
	return st
}

// games is how many games a check plays per seat count: 1 under -race or
// -short, n otherwise, five times n in the soak step (STOLIK_SOAK=1);
// STOLIK_HIDDEN_GAMES overrides it for the hidden check (the
// thousands-of-games run: STOLIK_HIDDEN_GAMES=200 go test -run
// Conformance/./hidden ./render/...).
func games(n int, env string) int {
	switch {
	case enginetest.Soak():
		n *= 5 // .ci/run's soak step: the long runs in full
	case testing.Short() || RaceEnabled:
		n = 1
	}
	if v := os.Getenv(env); env != "" && v != "" {
		n, _ = strconv.Atoi(v)
	}
	return n
}

func hidden(t *testing.T, b *locales.Bundle, g engine.Game, r render.Game, seats int) {
	nm := names[:seats]
	type read struct {
		Screen  render.Screen
		Hint    string
		Actions []string
	}
	text := func(s engine.State, seat engine.Seat, l *locales.Localizer) read {
		v := s.View(seat)
		legal := LegalOf(s, seat)
		sc, _ := render.ScreenOf(g.ID(), l, v, nm, legal)
		out := read{Screen: sc, Hint: r.Hint(l, v)}
		for _, a := range legal {
			out.Actions = append(out.Actions, r.Action(l, a))
		}
		return out
	}
	for k := range games(4, "STOLIK_HIDDEN_GAMES") {
		seed := uint64(1000*seats + k + 1)
		randomGame(t, g, seats, seed, func(step int, st engine.State) {
			hs, ok := st.(engine.HiddenShuffler)
			if !ok {
				t.Fatalf("%s has no HiddenShuffler: the suite cannot prove its screens blind", g.ID())
			}
			if step%4 != 0 {
				return
			}
			for viewer := -1; viewer < seats; viewer++ {
				seat := engine.Seat(viewer)
				other := hs.ShuffleHidden(seat, engine.NewRand(seed, -1-step))
				for _, lang := range locales.Languages() {
					l := b.Lang(lang)
					if got, shuffled := text(st, seat, l), text(other, seat, l); !reflect.DeepEqual(got, shuffled) {
						t.Fatalf("%s seed %d step %d %s: seat %d's screen depends on what is hidden from it:\n%s\n--- after re-dealing the hidden cards ---\n%s",
							g.ID(), seed, step, lang, viewer, Dump(got.Screen), Dump(shuffled.Screen))
					}
					if seat >= 0 && step%16 == 0 {
						CheckPrivateParts(t, fmt.Sprintf("%s seed %d step %d %s seat %d", g.ID(), seed, step, lang, seat), g.ID(), l, st.View(seat), nm, engine.AnyLegal(st, seat))
					}
				}
			}
		})
	}
}

// CheckPrivateParts: the private parts of a screen (what a hand message
// shows) are the whole screen's, and the table's parts are left empty.
func CheckPrivateParts(t *testing.T, where, game string, l *locales.Localizer, v engine.View, names render.Names, legal []engine.Action) {
	t.Helper()
	whole, ok := render.ScreenOf(game, l, v, names, legal)
	if !ok {
		t.Fatalf("%s: no screen builder", where)
	}
	got, _ := render.ScreenParts(game, render.PrivateParts, l, v, names, legal)
	want := render.Screen{Game: whole.Game, Viewer: whole.Viewer, Acting: whole.Acting, Result: whole.Result,
		Prompt: whole.Prompt, Hand: whole.Hand, Secret: whole.Secret}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the private parts differ from the whole screen's:\n%+v\nwant\n%+v", where, got, want)
	}
}

var (
	hasLetter = regexp.MustCompile(`[A-Za-z]`)
	// An id or a card code that English text may not show either.
	internalID = regexp.MustCompile(`[-:@]|^[QFAPWB][0-9]{1,2}$`)
)

// notation is the tokens of the actions' notation a player's text must
// not show, as whole words: any token with a letter in Polish and
// Ukrainian (but those the game shows as they are), ids and card codes in
// English.
func notation(cfg Config, lang string, legal []engine.Action) []*regexp.Regexp {
	seen := map[string]bool{}
	for _, s := range cfg.Shown {
		seen[s] = true
	}
	var out []*regexp.Regexp
	for _, a := range legal {
		for _, tok := range strings.Fields(a.String()) {
			if seen[tok] || !hasLetter.MatchString(tok) || lang == "en" && !internalID.MatchString(tok) {
				continue
			}
			seen[tok] = true
			out = append(out, regexp.MustCompile(`(^|[^\p{L}\p{N}_-])`+regexp.QuoteMeta(tok)+`($|[^\p{L}\p{N}_-])`))
		}
	}
	return out
}

// notationIn is the first of the tokens a text shows, "" for none.
func notationIn(text string, tokens []*regexp.Regexp) string {
	for _, re := range tokens {
		if re.MatchString(text) {
			return re.String()
		}
	}
	return ""
}

func controls(t *testing.T, b *locales.Bundle, g engine.Game, r render.Game, cfg Config, seats int) {
	id := g.ID()
	nm := names[:seats]
	checked := 0
	bad := map[string]bool{}
	fail := func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); !bad[msg] && len(bad) < 30 {
			bad[msg] = true
			t.Error(msg)
		}
	}
	randomGame(t, g, seats, uint64(7*seats+1), func(step int, st engine.State) {
		for _, seat := range st.Acting() {
			if RaceEnabled && step%5 != 0 {
				break // a sample is enough under the race detector
			}
			legal := st.Legal(seat)
			v := st.View(seat)
			for _, lang := range locales.Languages() {
				l := b.Lang(lang)
				tokens := notation(cfg, lang, legal)
				if p, ok := r.Pick(l, v, legal); ok {
					pickable := map[string]bool{}
					for _, a := range legal {
						for _, tok := range strings.Fields(a.String())[1:] {
							pickable[tok] = true
						}
					}
					for _, o := range p.Options {
						if !pickable[o.Value] {
							fail("%s %s: the pick offers %q, which no legal action takes", id, lang, o.Value)
						}
					}
				}
				for _, a := range legal {
					toks := strings.Fields(a.String())
					stops := r.Stops(toks)
					if len(stops) == 0 || stops[len(stops)-1] != len(toks) || stops[0] < 1 {
						fail("%s: stops %v of %q", id, stops, a)
						continue
					}
					from := 0
					for i, stop := range stops {
						if i > 0 && stop <= stops[i-1] {
							fail("%s: stops %v of %q do not ascend", id, stops, a)
						}
						for _, chosen := range []int{from, 0} {
							c := r.Control(l, v, nm, render.Step{Tokens: toks[:stop], Chosen: chosen, Whole: stop == len(toks)})
							checked++
							limit := render.MaxLabel
							if c.Menu != "" {
								limit = render.MaxOptionText
								if c.Placeholder == "" || render.Length(c.Placeholder) > render.MaxPlaceholder {
									fail("%s %s: %q: placeholder %q", id, lang, a, c.Placeholder)
								}
							}
							if c.Label == "" || render.Length(c.Label) > limit || render.Length(c.Description) > render.MaxOptionText {
								fail("%s %s: %q from %d: label %q, description %q", id, lang, toks[:stop], chosen, c.Label, c.Description)
							}
							for _, text := range []string{c.Label, c.Description, c.Placeholder} {
								if strings.Contains(text, locales.MissingOpen) {
									fail("%s %s: %q: missing text %q", id, lang, a, text)
								}
								if tok := notationIn(text, tokens); tok != "" {
									fail("%s %s: %q: %q shows the notation (%s)", id, lang, a, text, tok)
								}
							}
						}
						if i < len(stops)-1 {
							p := r.Prompt(l, v, nm, toks[:stop])
							if strings.TrimSpace(p) == "" || strings.Contains(p, locales.MissingOpen) {
								fail("%s %s: no prompt after %q", id, lang, toks[:stop])
							}
							if tok := notationIn(p, tokens); tok != "" {
								fail("%s %s: the prompt %q shows the notation (%s)", id, lang, p, tok)
							}
						}
						from = stop
					}
				}
			}
		}
	})
	if checked == 0 {
		t.Error("no control checked")
	}
}

func words(t *testing.T, b *locales.Bundle, g engine.Game, r render.Game, seats int) {
	nm := names[:seats]
	var events []engine.Event
	st, err := engine.Start(g, engine.Setup{Game: g.ID(), Seats: seats, Seed: uint64(31 * seats), Options: engine.Options{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pick := engine.NewRand(uint64(31*seats), 9)
	for step := 0; step < 5000; step++ {
		if done, _ := st.Result(); done {
			break
		}
		acting := st.Acting()
		s := acting[pick.IntN(len(acting))]
		legal := st.Legal(s)
		a := legal[pick.IntN(len(legal))]
		for _, lang := range locales.Languages() {
			if text := r.Action(b.Lang(lang), a); text == "" || strings.Contains(text, locales.MissingOpen) {
				t.Errorf("%s %s: the action %q reads %q", g.ID(), lang, a, text)
			}
		}
		ev, err := engine.Step(g, st, uint64(31*seats), step, engine.Move{Seat: s, Action: a.String()}, nil)
		if err != nil {
			t.Fatalf("%s step %d: %v", g.ID(), step, err)
		}
		events = append(events, ev...)
	}
	if done, _ := st.Result(); !done {
		t.Fatalf("%s: a random game of %d seats did not end", g.ID(), seats)
	}
	if len(events) == 0 {
		t.Fatal("no events")
	}
	for _, e := range events {
		if w := r.Where(e); w != render.Recent && w != render.Posted && w != render.Unshown {
			t.Errorf("%s: event %s placed at %d", g.ID(), e.Type, w)
		}
		for _, lang := range locales.Languages() {
			if text := r.Event(b.Lang(lang), e, nm); strings.Contains(text, locales.MissingOpen) {
				t.Errorf("%s %s: event %s reads %q", g.ID(), lang, e.Type, text)
			}
		}
	}
}

func rules(t *testing.T, b *locales.Bundle, g engine.Game, r render.Game) {
	examples, card := r.Examples()
	if len(examples) == 0 || card == "" {
		t.Errorf("%s: no examples of the notation (%q, %q)", g.ID(), examples, card)
	}
	for _, ex := range examples {
		if _, err := g.ParseAction(ex); err != nil {
			t.Errorf("%s: the example %q does not parse: %v", g.ID(), ex, err)
		}
	}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, topic := range render.RulesTopics(g.ID()) {
			pages, ok := render.RulesPages(l, g.ID(), topic, 2000)
			if !ok || len(pages) == 0 {
				t.Errorf("%s %s: topic %q has no pages", g.ID(), lang, topic)
			}
			for _, p := range pages {
				if strings.Contains(p, locales.MissingOpen) || render.Length(p) > 2000 {
					t.Errorf("%s %s: topic %q: a page of %d characters or with a missing text", g.ID(), lang, topic, render.Length(p))
				}
			}
		}
		if text, ok := r.Card(l, nil, card); !ok || text == "" || strings.Contains(text, locales.MissingOpen) {
			t.Errorf("%s %s: the example card %q is not found (%q)", g.ID(), lang, card, text)
		}
		if _, ok := r.Card(l, nil, "no such card at all"); ok {
			t.Errorf("%s %s: a card no game has is found", g.ID(), lang)
		}
	}
}

func design(t *testing.T, r render.Game) {
	d := r.Design()
	if d.Plain.Symbol == "" {
		t.Errorf("the plain style has no symbol")
	}
	for suit, s := range d.Suits {
		if s.Symbol == "" {
			t.Errorf("suit %q has no symbol", suit)
		}
	}
}

// LegalOf is what seat may do now in st (engine.AnyLegal), nil for a
// spectator: the legal actions a screen is built with.
func LegalOf(st engine.State, seat engine.Seat) []engine.Action {
	if seat < 0 {
		return nil
	}
	return engine.AnyLegal(st, seat)
}
