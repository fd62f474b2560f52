package princesses_test

import (
	"strings"
	"testing"

	present "github.com/stolik-bot/stolik/render/princesses"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

func princessesGame(t *testing.T) render.Game {
	t.Helper()
	r, ok := render.For("princesses")
	if !ok {
		t.Fatal("no princesses renderer")
	}
	return r
}

func stepLabel(t *testing.T, l *locales.Localizer, v engine.View, names render.Names, s render.Step) string {
	t.Helper()
	label := render.StepLabel(princessesGame(t), l, v, names, s, princesses.Game{}.ParseAction)
	if strings.Contains(label, locales.MissingOpen) {
		t.Errorf("%s: %v: a missing key: %q", l.Tag(), s.Tokens, label)
	}
	return label
}

// A control that names a seat names the player as the table shows them,
// not a seat number.
func TestPrincessesControlsNameThePlayers(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"ala", "olena", "bob", "zosia"}
	v := &princesses.View{Seat: 0, Seats: 4, Phase: "power"}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, text := range []string{"declare ice-princess 2", "declare scheherazade 2", "declare pocahontas 2", "assign Q7 2", "pocahontas 2"} {
			label := stepLabel(t, l, v, names, render.Step{Tokens: strings.Fields(text), Whole: true})
			if !strings.Contains(label, "bob") || strings.Contains(label, l.T("princesses.power.seat", map[string]any{"N": 2})) {
				t.Errorf("%s: %q: %q", lang, text, label)
			}
		}
		// Without a seat, Action's words.
		a, _ := princesses.ParseAction("declare cinderella")
		if got, want := stepLabel(t, l, v, names, render.Step{Tokens: []string{"declare", "cinderella"}, Whole: true}), princessesGame(t).Action(l, a); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// After the lead of a Masquerade trick, a play is labelled face down.
func TestPrincessesMaskedPlayLabel(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"ala", "olena", "bob", "zosia"}
	card, _ := princesses.ParseCard("Q7")
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		masked := &princesses.View{Seat: 1, Seats: 4, Phase: "play", Leader: 0, Masked: make([]bool, 4)}
		got := stepLabel(t, l, masked, names, render.Step{Tokens: []string{"play", "Q7"}, Whole: true})
		if want := l.T("princesses.roundcard.action.play_masked", map[string]any{"Card": present.PrincessCard(l, card)}); got != want {
			t.Errorf("%s: masked play %q, want %q", lang, got, want)
		}
		open := &princesses.View{Seat: 1, Seats: 4, Phase: "play", Leader: 0}
		got = stepLabel(t, l, open, names, render.Step{Tokens: []string{"play", "Q7"}, Whole: true})
		if want := l.T("princesses.action.play", map[string]any{"Card": present.PrincessCard(l, card)}); got != want {
			t.Errorf("%s: play %q, want %q", lang, got, want)
		}
	}
}

// The beginning of several actions is named in words, not notation.
func TestPrincessesStepLabels(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"ala", "olena", "bob", "zosia"}
	v := &princesses.View{Seat: 0, Seats: 4, Phase: "play"}
	q7, _ := princesses.ParseCard("Q7")
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, tc := range []struct {
			tokens []string
			chosen int
			want   []string
		}{
			{[]string{"play"}, 0, []string{l.T("princesses.step.play", nil)}},
			{[]string{"declare"}, 0, []string{l.T("princesses.step.declare", nil)}},
			{[]string{"declare", "mermaid"}, 1, []string{l.T("princesses.princess.mermaid.power", nil)}},
			{[]string{"declare", "mermaid"}, 0, []string{l.T("princesses.step.declare", nil), l.T("princesses.princess.mermaid.power", nil)}},
			{[]string{"declare", "scheherazade", "2"}, 2, []string{"bob"}},
			{[]string{"swap", "Q7"}, 1, []string{present.PrincessCard(l, q7)}},
			{[]string{"split", "Q7"}, 0, []string{l.T("princesses.step.split", nil), present.PrincessCard(l, q7)}},
		} {
			got := stepLabel(t, l, v, names, render.Step{Tokens: tc.tokens, Chosen: tc.chosen})
			if !strings.HasSuffix(got, "…") {
				t.Errorf("%s: %v: %q does not end with …", lang, tc.tokens, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: %v from %d: %q does not name %q", lang, tc.tokens, tc.chosen, got, w)
				}
			}
			if strings.Contains(got, strings.Join(tc.tokens, " ")) {
				t.Errorf("%s: %v: %q shows the notation", lang, tc.tokens, got)
			}
		}
	}
}
