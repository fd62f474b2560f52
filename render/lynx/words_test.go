package lynx_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

var lynxCodes = []string{
	lynx.CodeUnknownCard, lynx.CodeMixedValues, lynx.CodeTooManyCards, lynx.CodeNotInHand, lynx.CodeWrongPhase,
	lynx.CodeDeckEmpty, lynx.CodeNotInPool, lynx.CodeAmbiguousPool, lynx.CodeNotStealable, lynx.CodeMustDraw,
}

// Every rule error code of lynx has a message in every language, and the
// errors the engine really returns render without a missing key or field.
func TestLynxErrorsAreLocalized(t *testing.T) {
	b := rendertest.Bundle(t)
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
