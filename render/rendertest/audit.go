package rendertest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// Audit checks the screens of whole AI games of one game: at sampled
// steps and at the end, for every seat and a spectator, in every language.
type Audit struct {
	Game engine.Game
	AI   engine.Player
	// english are notation words and internal ids of the game that a
	// Polish or Ukrainian reader must never see in the screen's words.
	English []string
	// marks lists the codes of the cards the viewer may play now (a hand
	// card is marked exactly when its code is listed) and of the center's
	// cards it may choose (a center card may be marked only when listed).
	Marks func(st engine.State, viewer engine.Seat) (hand, center map[string]bool)
	// check is the game's own checks of one screen.
	Check func(t *testing.T, st engine.State, viewer engine.Seat, sc render.Screen, l *locales.Localizer)
	// seen records what the screens showed (the prompts by phase), so the
	// test can tell that the games reached every situation.
	Seen func(st engine.State, viewer engine.Seat, sc render.Screen) string
}

var AuditNames = render.Names{"Ala", "Bolek", "Celina", "Darek", "Ewa"}

// play runs one AI game and audits its screens every `every` steps and at
// the end; it returns what the screens showed.
func (a Audit) Play(t *testing.T, b *locales.Bundle, seats int, opts engine.Options, seed uint64, every int) map[string]bool {
	t.Helper()
	st, err := a.Game.New(opts, seats, engine.NewRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	names := AuditNames[:seats]
	seen := map[string]bool{}
	for step := 0; ; step++ {
		done, _ := st.Result()
		if step%every == 0 || done {
			for viewer := engine.Seat(-1); int(viewer) < seats; viewer++ {
				for _, lang := range locales.Languages() {
					sc := a.audit(t, b.Lang(lang), st, viewer, names, seed, step)
					if k := a.Seen(st, viewer, sc); k != "" {
						seen[k] = true
					}
				}
			}
		}
		if done {
			return seen
		}
		if step > 20000 {
			t.Fatalf("seed %d: the game is not over after %d steps", seed, step)
		}
		s := st.Acting()[0]
		legal := st.Legal(s)
		move := a.AI.Choose(st.View(s), legal, engine.NewRand(seed, -step-1))
		if _, err := st.Apply(s, move, engine.NewRand(seed, step+1)); err != nil {
			t.Fatalf("seed %d step %d: %s: %v", seed, step, move, err)
		}
	}
}

// audit builds the screen of one view and checks it; it returns the screen.
func (a Audit) audit(t *testing.T, l *locales.Localizer, st engine.State, viewer engine.Seat, names render.Names, seed uint64, step int) render.Screen {
	t.Helper()
	id := a.Game.ID()
	where := fmt.Sprintf("%s seed %d step %d %s viewer %d", id, seed, step, l.Tag(), viewer)
	sc, ok := render.ScreenOf(id, l, st.View(viewer), names, LegalOf(st, viewer))
	if !ok {
		t.Fatalf("%s: no screen builder", id)
	}
	CheckPrivateParts(t, where, id, l, st.View(viewer), names, LegalOf(st, viewer))
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s\n%s", where, fmt.Sprintf(format, args...), AuditDump(sc))
	}
	done, _ := st.Result()
	acting := viewer >= 0 && engine.IsActing(st, viewer)

	if sc.Game != id || sc.Viewer != viewer {
		fail("game %q viewer %d", sc.Game, sc.Viewer)
	}
	if !slices.Equal(sc.Acting, st.Acting()) {
		fail("Acting %v, the state says %v", sc.Acting, st.Acting())
	}
	if (sc.Prompt != "") != acting {
		fail("prompt %q while the viewer must act: %v", sc.Prompt, acting)
	}
	if (len(sc.Result) > 0) != done {
		fail("result %q while the game is over: %v", sc.Result, done)
	}
	if (sc.Hand == nil) != (viewer < 0) {
		fail("hand %v for viewer %d", sc.Hand, viewer)
	}
	if viewer < 0 && len(sc.Secret) > 0 {
		fail("a spectator is shown secrets")
	}
	if sc.Title == "" || sc.Rule != nil || sc.Chart != nil || len(sc.Center) == 0 {
		fail("title %q, rule %v, chart %v, %d center piles", sc.Title, sc.Rule, sc.Chart, len(sc.Center))
	}
	if len(sc.Seats) != len(names) {
		fail("%d seats, want %d", len(sc.Seats), len(names))
	}
	for i, p := range sc.Seats {
		s := engine.Seat(i)
		if p.Seat != s || p.Name != names.Of(s) || p.You != (s == viewer) || p.Acting != engine.IsActing(st, s) || p.Line == "" || len(p.Counts) == 0 {
			fail("seat %d is %+v", i, p)
		}
	}

	// The words: every key resolves, nothing is empty, and a Polish or
	// Ukrainian reader sees none of the game's English ids.
	words := Words(sc)
	for _, w := range words {
		if w == "" || strings.Contains(w, locales.MissingOpen) {
			fail("a missing or empty text: %q", w)
		}
	}
	if l.Tag() != "en" {
		english := map[string]bool{}
		for _, w := range a.English {
			english[strings.ToLower(w)] = true
		}
		for _, w := range words {
			for _, tok := range Tokens(w) {
				if english[strings.ToLower(tok)] {
					fail("the English id %q in %q", tok, w)
				}
				if l.Tag() == "uk" && tok != "X" && !slices.Contains(names, tok) && strings.IndexFunc(tok, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
					fail("a Latin-script word %q in the Ukrainian %q", tok, w)
				}
			}
		}
	}

	// The screen speaks to the viewer in the second person: its name is
	// only on its seat and in the table of final scores.
	if viewer >= 0 {
		spoken := []string{sc.Title, sc.Prompt}
		spoken = append(spoken, sc.StatusLines()...)
		if len(sc.Result) > 0 {
			spoken = append(spoken, sc.Result[0])
		}
		var piles []render.Pile
		if sc.Hand != nil {
			piles = append(piles, *sc.Hand)
		}
		for _, p := range append(append(piles, sc.Secret...), sc.Center...) {
			spoken = append(spoken, p.Label, p.Text)
		}
		for _, w := range spoken {
			if slices.Contains(Tokens(w), names.Of(viewer)) {
				fail("the viewer is named in the third person: %q", w)
			}
		}
	}

	// The cards: face up with a name, or face down with nothing but the
	// back; marked only where the viewer may play or choose them now.
	hand, center := a.Marks(st, viewer)
	CardsByPart(sc, func(part string, c render.Card) {
		switch {
		case c.Down && (c.Name != "" || c.Suit != "" || c.Value != "" || c.Code != "" || c.Note != "" || c.Mark):
			fail("a face-down card shows %+v (%s)", c, part)
		case !c.Down && c.Name == "":
			fail("a face-up card without a name: %+v (%s)", c, part)
		case part == "hand" && c.Mark != hand[c.Code]:
			fail("hand card %s marked %v; playable now: %v", c.Code, c.Mark, hand)
		case part == "center" && c.Mark && !center[c.Code]:
			fail("center card %s marked; choosable now: %v", c.Code, center)
		case part != "hand" && part != "center" && c.Mark:
			fail("a %s card is marked: %+v", part, c)
		}
	})

	// Nothing hidden: re-dealing everything the viewer may not know
	// changes nothing on its screen.
	if hs, ok := st.(engine.HiddenShuffler); ok {
		other := hs.ShuffleHidden(viewer, engine.NewRand(seed, 1000000+step))
		again, _ := render.ScreenOf(id, l, other.View(viewer), names, LegalOf(other, viewer))
		if !reflect.DeepEqual(sc, again) {
			t.Fatalf("%s: the screen depends on what is hidden from the viewer:\n%s\n--- after re-dealing the hidden cards ---\n%s", where, AuditDump(sc), AuditDump(again))
		}
	}
	if a.Check != nil {
		a.Check(t, st, viewer, sc, l)
	}
	return sc
}

// Words are all the words of a screen a reader may read.
func Words(sc render.Screen) []string {
	out := []string{sc.Title}
	out = append(out, sc.Result...)
	if sc.Prompt != "" {
		out = append(out, sc.Prompt)
	}
	out = append(out, sc.StatusLines()...)
	piles := func(ps []render.Pile) {
		for _, p := range ps {
			out = append(out, p.Label, p.Text)
			for _, c := range p.Cards {
				if !c.Down {
					out = append(out, c.Name)
				}
				if c.Note != "" {
					out = append(out, c.Note)
				}
			}
		}
	}
	if sc.Hand != nil {
		piles([]render.Pile{*sc.Hand})
	}
	piles(sc.Secret)
	piles(sc.Center)
	for _, p := range sc.Seats {
		out = append(out, p.Name, p.Line)
		out = append(out, p.Counts...)
		piles(p.Piles)
	}
	return out
}

// Tokens splits words into tokens of letters, digits, '_' and '-'.
func Tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	})
}

// CardsByPart calls f with every card of a screen and the part it is in:
// hand, secret, center or seat.
func CardsByPart(sc render.Screen, f func(part string, c render.Card)) {
	each := func(part string, ps []render.Pile) {
		for _, p := range ps {
			for _, c := range p.Cards {
				f(part, c)
			}
		}
	}
	if sc.Hand != nil {
		each("hand", []render.Pile{*sc.Hand})
	}
	each("secret", sc.Secret)
	each("center", sc.Center)
	for _, p := range sc.Seats {
		each("seat", p.Piles)
	}
}

// AuditDump writes a screen for a failure message.
func AuditDump(sc render.Screen) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title %q acting %v viewer %d prompt %q result %q status %q\n", sc.Title, sc.Acting, sc.Viewer, sc.Prompt, sc.Result, sc.StatusLines())
	pile := func(p render.Pile) {
		fmt.Fprintf(&b, "  [%s|%s] %q count %d:", p.Group, p.Label, p.Text, p.Count)
		for _, c := range p.Cards {
			fmt.Fprintf(&b, " %+v", c)
		}
		b.WriteByte('\n')
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
		fmt.Fprintf(&b, " seat %d %q you %v acting %v %q\n", s.Seat, s.Name, s.You, s.Acting, s.Line)
		for _, p := range s.Piles {
			pile(p)
		}
	}
	return b.String()
}

// AuditGames is how many games each case plays: fewer under -race and
// -short.
func AuditGames() int {
	if testing.Short() || RaceEnabled {
		return 1
	}
	return 2
}

func Btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func CenterTexts(sc render.Screen) []string {
	var out []string
	for _, p := range sc.Center {
		out = append(out, p.Text)
	}
	return out
}

func Prompt(sc render.Screen) []string { return []string{sc.Prompt} }
