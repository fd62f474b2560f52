package courtiers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// Every rule error code of Courtisans has a message in every language.
func TestCourtiersErrorCodesAreLocalized(t *testing.T) {
	codes := []string{
		courtiers.CodeUnknownCard, courtiers.CodeUnknownArea, courtiers.CodeUnknownTarget, courtiers.CodeNotInHand,
		courtiers.CodeAreaUsed, courtiers.CodeNotOpponent, courtiers.CodeNotAssassin, courtiers.CodeTargetSide,
		courtiers.CodeNoTarget, courtiers.CodeGuard,
	}
	b := bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, code := range codes {
			if !l.Has("error." + code) {
				t.Errorf("%s: no message for error code %s", lang, code)
			}
		}
	}
}

// Errors the engine really returns render without a missing key or field.
func TestCourtiersRuleErrorsRender(t *testing.T) {
	g := courtiers.Game{}
	var sk engine.Stacks
	sk.Add(engine.Stack{Kind: "first", Index: -1, Values: []string{"0"}})
	sk.Add(engine.Stack{Kind: "deal", Index: 0, Values: []string{"hare-assassin", "carp", "stag"}})
	sk.Add(engine.Stack{Kind: "deal", Index: 1, Values: []string{"toad-guard", "toad", "toad"}})
	st, err := g.New(nil, 2, engine.NewRand(3, 0).WithStacks(&sk))
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	try := func(s engine.Seat, text string) {
		a, err := g.ParseAction(text)
		if err == nil {
			_, err = st.Apply(s, a, engine.NewRand(3, 1))
		}
		if err == nil {
			t.Fatalf("%q was accepted", text)
		}
		errs = append(errs, err)
	}
	try(0, "dance")
	try(0, "place wolf up")
	try(0, "place carp left")
	try(0, "place hare-assassin up kill x@up")
	try(0, "place toad up")
	try(0, "place carp opp:0")
	try(0, "place carp up kill toad@up")
	try(0, "place hare-assassin up kill carp")
	try(0, "place hare-assassin up kill carp@up")
	try(1, "place toad up")
	if _, err := st.Apply(0, courtiers.Action{Card: courtiers.NewCard(courtiers.Carp, courtiers.Plain), Area: courtiers.AreaUp}, engine.NewRand(3, 1)); err != nil {
		t.Fatal(err)
	}
	try(0, "place stag down")
	errs = append(errs, engine.Errorf(courtiers.CodeGuard, "target", "toad-guard@up"))
	b := bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, e := range errs {
			if msg := render.Error(l, e); strings.Contains(msg, locales.MissingOpen) || msg == "" || msg == l.T("error.internal", nil) {
				t.Errorf("%s: %v renders as %q", lang, e, msg)
			}
		}
	}
}

func courtiersText(r render.Game, l *locales.Localizer, v engine.View, names render.Names) string {
	return strings.Join(r.Public(l, v, names), "\n") + "\n" + strings.Join(r.Private(l, v, names), "\n")
}

// Over whole games, in every language, what each seat and a spectator are
// shown does not depend on what they may not know (other hands, the deck,
// other missions, the identity of face-down spies: re-dealing them changes
// nothing), never names another seat's mission or a spy's identity before
// the end (except a spy in the viewer's own hand), and has no missing text.
// Public event lines never name a spy either.
func TestCourtiersRenderedViewsHideSecrets(t *testing.T) {
	t.Parallel()
	b := bundle(t)
	r, ok := render.For("courtiers")
	if !ok {
		t.Fatal("no renderer for courtiers")
	}
	names := render.Names{"Ala", "Bolek", "Celina", "Darek", "Ewa"}
	ai := courtiers.Heuristic{}
	for seed, n := uint64(1), sampledSeeds(t, 4, 8); seed <= n; seed++ {
		seats := 2 + int(seed%4)
		st, err := courtiers.Game{}.New(nil, seats, engine.NewRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		for step := 1; ; step++ {
			done, _ := st.Result()
			for _, lang := range locales.Languages() {
				l := b.Lang(lang)
				var spyNames []string
				for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
					spyNames = append(spyNames, render.CourtierCard(l, courtiers.NewCard(f, courtiers.Spy)))
				}
				for viewer := -1; viewer < seats; viewer++ {
					v := st.View(engine.Seat(viewer))
					text := courtiersText(r, l, v, names[:seats])
					if strings.Contains(text, locales.MissingOpen) {
						t.Fatalf("%s seat %d: missing text in %q", lang, viewer, text)
					}
					if step%4 == 0 {
						other := st.(engine.HiddenShuffler).ShuffleHidden(engine.Seat(viewer), engine.NewRand(seed, -step))
						if again := courtiersText(r, l, other.View(engine.Seat(viewer)), names[:seats]); again != text {
							t.Fatalf("seed %d step %d %s: seat %d's text depends on hidden information:\n%s\n---\n%s", seed, step, lang, viewer, text, again)
						}
					}
					if done {
						continue
					}
					cv := v.(*courtiers.View)
					for i, name := range spyNames {
						if strings.Contains(text, name) && !slices.Contains(cv.Hand, courtiers.NewCard(courtiers.Family(i), courtiers.Spy)) {
							t.Fatalf("seed %d step %d %s: seat %d is shown %q:\n%s", seed, step, lang, viewer, name, text)
						}
					}
					for other := 0; other < seats; other++ {
						if other == viewer {
							continue
						}
						for _, m := range st.View(engine.Seat(other)).(*courtiers.View).Missions {
							name, _ := render.CourtierMission(l, m)
							if strings.Contains(text, name) && !slices.Contains(cv.Missions[:], m) {
								t.Fatalf("seed %d step %d %s: seat %d is shown mission %s of seat %d:\n%s", seed, step, lang, viewer, m, other, text)
							}
						}
					}
				}
			}
			if done {
				break
			}
			s := st.Acting()[0]
			legal := st.Legal(s)
			for _, lang := range locales.Languages() {
				for _, a := range legal {
					if text := r.Action(b.Lang(lang), a); strings.Contains(text, locales.MissingOpen) {
						t.Fatalf("%s: action %s renders as %q", lang, a, text)
					}
				}
				if h := r.Hint(b.Lang(lang), st.View(s)); strings.Contains(h, locales.MissingOpen) || h == "" {
					t.Fatalf("%s: hint %q", lang, h)
				}
			}
			var a engine.Action
			if int(s)%2 == 0 {
				a = ai.Choose(st.View(s), legal, engine.NewRand(seed, -step))
			} else {
				a = legal[int(seed)*step%len(legal)]
			}
			ev, err := st.Apply(s, a, engine.NewRand(seed, step))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				for _, lang := range locales.Languages() {
					l := b.Lang(lang)
					text := r.Event(l, e, names[:seats])
					if strings.Contains(text, locales.MissingOpen) || text == "" {
						t.Fatalf("%s: event %s renders as %q", lang, e.Type, text)
					}
					if e.Audience != engine.Everyone || e.Type == "spies_revealed" || e.Type == "game_over" {
						continue
					}
					for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
						if name := render.CourtierCard(l, courtiers.NewCard(f, courtiers.Spy)); strings.Contains(text, name) {
							t.Fatalf("%s: public event %s names a spy: %q", lang, e.Type, text)
						}
					}
				}
			}
		}
	}
}
