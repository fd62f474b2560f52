package courtiers_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// Every rule error code of Courtisans has a message in every language.
func TestCourtiersErrorCodesAreLocalized(t *testing.T) {
	codes := []string{
		courtiers.CodeUnknownCard, courtiers.CodeUnknownArea, courtiers.CodeUnknownTarget, courtiers.CodeNotInHand,
		courtiers.CodeAreaUsed, courtiers.CodeNotOpponent, courtiers.CodeNotAssassin, courtiers.CodeTargetSide,
		courtiers.CodeNoTarget, courtiers.CodeGuard,
	}
	b := rendertest.Bundle(t)
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
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, e := range errs {
			if msg := render.Error(l, e); strings.Contains(msg, locales.MissingOpen) || msg == "" || msg == l.T("error.internal", nil) {
				t.Errorf("%s: %v renders as %q", lang, e, msg)
			}
		}
	}
}
