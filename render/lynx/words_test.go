package lynx_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

var lynxCodes = []string{
	lynx.CodeUnknownCard, lynx.CodeMixedValues, lynx.CodeTooManyCards, lynx.CodeNotInHand, lynx.CodeWrongPhase,
	lynx.CodeDeckEmpty, lynx.CodeNotInPool, lynx.CodeAmbiguousPool, lynx.CodeNotStealable, lynx.CodeMustDraw,
}

// Every rule error code of lynx has a message in every language, and the
// errors the engine really returns render without a missing key or field.
func TestLynxErrorsAreLocalized(t *testing.T) {
	b := bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, code := range lynxCodes {
			if !l.Has("error." + code) {
				t.Errorf("%s: no message for error code %s", lang, code)
			}
		}
	}
	g := lynx.Game{}
	st, err := g.New(engine.Options{}, 2, engine.NewRand(5, 0))
	if err != nil {
		t.Fatal(err)
	}
	s := st.Acting()[0]
	var errs []error
	try := func(s engine.Seat, text string) {
		a, err := g.ParseAction(text)
		if err == nil {
			_, err = st.Apply(s, a, engine.NewRand(5, 1))
		}
		if err == nil {
			t.Fatalf("%q was accepted", text)
		}
		errs = append(errs, err)
	}
	try(s, "play 4 5")
	try(s, "play 14")
	try(s, "play 1 1 1 1 1 1 1 1 1 1 1 1 1 1")
	try(s, "play X X X")
	try(s, "take")
	try(s, "dance")
	try(1-s, "play X")
	for _, e := range errs {
		if engine.Code(e) == "" {
			t.Errorf("%v is not a rule error", e)
		}
	}
	for _, code := range lynxCodes {
		errs = append(errs, engine.Errorf(code, "card", "7", "value", "8", "count", 3))
	}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, e := range errs {
			if msg := render.Error(l, e); strings.Contains(msg, locales.MissingOpen) || msg == "" {
				t.Errorf("%s: %v renders as %q", lang, e, msg)
			}
		}
	}
}

// Over whole AI games of every seat count and mode, in every language, what
// each seat and a spectator are shown stays the same when everything they
// may not know (the other hands, the deck) is re-dealt: no rendered line
// depends on another seat's hand. Events render without missing text, and
// a seat's own hand is shown to it grouped by value.
func TestLynxRenderedViewsHideOtherHands(t *testing.T) {
	t.Parallel()
	b := bundle(t)
	r, ok := render.For("lynx")
	if !ok {
		t.Fatal("no lynx renderer")
	}
	names := render.Names{"Ala", "Bolek", "Celina", "Darek", "Ewa"}
	modes := []string{"basic", "advanced", "expert"}
	for seed := uint64(1); seed <= 8; seed++ {
		seats := 2 + int(seed%4)
		opts := engine.Options{"mode": modes[seed%3]}
		st, err := lynx.Game{}.New(opts, seats, engine.NewRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		ai := lynx.Heuristic{}
		for step := 1; ; step++ {
			if done, _ := st.Result(); done {
				break
			}
			for viewer := -1; viewer < seats && step%3 == 1; viewer++ {
				seat := engine.Seat(viewer)
				other := st.(engine.HiddenShuffler).ShuffleHidden(seat, engine.NewRand(seed, 1000+step))
				for _, lang := range locales.Languages() {
					l := b.Lang(lang)
					text := func(s engine.State) string {
						v := s.View(seat)
						return strings.Join(r.Public(l, v, names[:seats]), "\n") + "\n" +
							strings.Join(r.Private(l, v, names[:seats]), "\n") + "\n" + r.Hint(l, v)
					}
					got, shuffled := text(st), text(other)
					if strings.Contains(got, locales.MissingOpen) {
						t.Fatalf("%s seat %d: missing text in %q", lang, viewer, got)
					}
					if got != shuffled {
						t.Fatalf("seed %d step %d %s: seat %d's text depends on hidden cards:\n%s\n--- vs ---\n%s", seed, step, lang, viewer, got, shuffled)
					}
					if viewer >= 0 {
						hand := render.LynxHand(l, st.View(seat).(*lynx.View).Groups)
						if !strings.Contains(got, hand) {
							t.Fatalf("%s: seat %d is not shown its hand %q:\n%s", lang, viewer, hand, got)
						}
					}
				}
			}
			s := st.Acting()[0]
			legal := st.Legal(s)
			for _, a := range legal {
				if step%3 != 1 {
					break
				}
				for _, lang := range locales.Languages() {
					if text := r.Action(b.Lang(lang), a); text == "" || strings.Contains(text, locales.MissingOpen) {
						t.Fatalf("%s: action %s renders as %q", lang, a, text)
					}
				}
			}
			a := ai.Choose(st.View(s), legal, engine.NewRand(seed, -step))
			ev, err := st.Apply(s, a, engine.NewRand(seed, step))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				for _, lang := range locales.Languages() {
					text := r.Event(b.Lang(lang), e, names[:seats])
					if text == "" || strings.Contains(text, locales.MissingOpen) {
						t.Fatalf("%s: event %s %v renders as %q", lang, e.Type, e.Args, text)
					}
				}
			}
		}
	}
}
