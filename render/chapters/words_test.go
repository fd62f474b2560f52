package chapters_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	present "github.com/stolik-bot/stolik/render/chapters"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// Every rule error code of 3 Chapters has a message in every language, and
// the errors the engine really returns render without a missing key.
func TestChaptersErrorsAreLocalized(t *testing.T) {
	codes := []string{
		chapters.CodeUnknownCard, chapters.CodeNotInHand, chapters.CodeWrongPhase,
		chapters.CodeGhostNeeded, chapters.CodeNoGhost, chapters.CodeSameCard,
	}
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		for _, code := range codes {
			if !b.Lang(lang).Has("error." + code) {
				t.Errorf("%s: no message for error code %s", lang, code)
			}
		}
	}
	var errs []error
	for _, seats := range []int{2, 4} {
		st, err := chapters.Game{}.New(engine.Options{}, seats, engine.NewRand(5, 0))
		if err != nil {
			t.Fatal(err)
		}
		hand := st.View(0).(*chapters.View).Hand
		other := st.View(1).(*chapters.View).Hand
		try := func(s engine.Seat, text string) {
			a, err := chapters.Game{}.ParseAction(text)
			if err == nil {
				_, err = st.Apply(s, a, engine.NewRand(5, 1))
			}
			if err == nil {
				t.Fatalf("%d seats: %q was accepted", seats, text)
			}
			errs = append(errs, err)
		}
		try(0, "dance")
		try(0, "pick 51")
		try(0, "pick "+hand[0].String()+" ghost "+hand[0].String())
		try(0, "play "+hand[0].String())
		try(0, "pick "+other[0].String()+" ghost "+other[1].String())
		if seats == 2 {
			try(0, "pick "+hand[0].String())
		} else {
			try(0, "pick "+hand[0].String()+" ghost "+hand[1].String())
		}
		try(-1, "pick "+hand[0].String())
	}
	_, err := chapters.Game{}.New(engine.Options{"colour": "red"}, 4, engine.NewRand(3, 0))
	errs = append(errs, err)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, e := range errs {
			msg := render.Error(l, e)
			if strings.Contains(msg, locales.MissingOpen) || msg == "" || msg == l.T("error.internal", nil) {
				t.Errorf("%s: %v renders as %q", lang, e, msg)
			}
		}
	}
}

// Every card's name, traits and abilities render in every language; the
// provisional list is generated from the data.
func TestChaptersCardTexts(t *testing.T) {
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		lines := present.ChaptersCardList(l, &chapters.DefaultCards)
		if len(lines) != chapters.NumCards+1 {
			t.Fatalf("%s: %d lines", lang, len(lines))
		}
		for _, line := range lines {
			if strings.Contains(line, locales.MissingOpen) {
				t.Errorf("%s: %q", lang, line)
			}
		}
		prov := lines[chapters.NumCards]
		for v := chapters.Card(1); v <= chapters.NumCards; v++ {
			marked := strings.Contains(lines[v-1], present.ChaptersCard(l, &chapters.DefaultCards, v)) &&
				strings.HasPrefix(lines[v-1], present.ChaptersCard(l, &chapters.DefaultCards, v))
			if !marked {
				t.Errorf("%s: line %d does not start with the card: %q", lang, v, lines[v-1])
			}
			inList := strings.Contains(prov+",", " "+v.String()+",") || strings.Contains(prov+",", " "+v.String()+".,")
			if inList != chapters.DefaultCards.Card(v).IsProvisional() {
				t.Errorf("%s: card %d provisional=%v, in the list: %v (%q)", lang, v, chapters.DefaultCards.Card(v).IsProvisional(), inList, prov)
			}
		}
		// Confirmed cards read as the reference words them.
		if lang == "en" {
			for v, want := range map[chapters.Card]string{
				5:  "Goldilocks 5 [Child]: With Three Bears 35†: 4 gems",
				26: "Geppetto 26† [no trait]: 1 heart for each card valued 1–9",
				16: "Friendly Dwarfs 16 [Dwarf]: If you have at least 4 hearts: 4 hearts (chapter III only)",
				29: "Princess 29† [Royal]: With Dragon 50†: 1 star, 1 heart, 1 gem",
				40: "Snow Queen 40† [Magic, Royal]: Nobody receives hearts or gems this round (chapter II only)",
				30: "Peter Pan 30 [Child]: 1 heart for each other card with the trait Child",
			} {
				if got := lines[v-1]; got != want {
					t.Errorf("card %d: %q, want %q", v, got, want)
				}
			}
		}
	}
}

// The rules summary fits a Discord message.
func TestChaptersRules(t *testing.T) {
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		rules := b.Lang(lang).T("chapters.rules", nil)
		if n := utf8.RuneCountInString(rules); n >= 2000 {
			t.Errorf("%s: chapters.rules is %d characters", lang, n)
		}
		if strings.Contains(rules, locales.MissingOpen) || !strings.Contains(rules, "**") || !strings.Contains(rules, "†") {
			t.Errorf("%s: chapters.rules looks wrong", lang)
		}
	}
}

// Play never marks a provisional card (the mark is for the card list): an
// action, a card's name and its line in a hand read without "†"; the card
// list marks it.
func TestChaptersPlayWithoutProvisionalMark(t *testing.T) {
	t.Parallel()
	prov := chapters.DefaultCards.Provisional()
	if len(prov) == 0 {
		t.Skip("no provisional card left")
	}
	r, _ := render.For("chapters")
	for _, lang := range locales.Languages() {
		l := locales.MustLoad().Lang(lang)
		for _, c := range prov {
			for _, text := range []string{
				present.ChaptersCard(l, nil, c),
				present.ChaptersCardLine(l, &chapters.DefaultCards, c),
				r.Action(l, chapters.Action{Kind: chapters.KindPlay, Card: c}),
			} {
				if strings.Contains(text, "†") {
					t.Errorf("%s: %q", lang, text)
				}
			}
			if e := present.ChaptersCardEntry(l, nil, c); !strings.Contains(e, present.ChaptersCard(l, nil, c)+"†") {
				t.Errorf("%s: the card list does not mark %d: %q", lang, c, e)
			}
		}
	}
}
