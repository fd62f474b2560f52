package render_test

import (
	"slices"
	"strings"
	"testing"

	chaptersview "github.com/stolik-bot/stolik/render/chapters"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// Every game's rules fit one Discord message in every language, and the
// 3 Chapters rules name every provisional card of the card table.
func TestRulesOfEveryGame(t *testing.T) {
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, id := range engine.Games() {
			text := render.Rules(l, id)
			if strings.Contains(text, locales.MissingOpen) || len([]rune(text)) > 2000 {
				t.Errorf("%s %s: %d characters, or a missing key:\n%s", lang, id, len([]rune(text)), text)
			}
		}
		text := render.Rules(l, "chapters")
		prov := chapters.DefaultCards.Provisional()
		if len(prov) == 0 {
			t.Fatal("no provisional card: the test would prove nothing")
		}
		line := chaptersview.ChaptersProvisional(l, &chapters.DefaultCards)
		if !strings.Contains(text, line) {
			t.Errorf("%s: the rules lack the provisional list %q", lang, line)
		}
		named := strings.FieldsFunc(line, func(r rune) bool { return r < '0' || r > '9' })
		for _, c := range prov {
			if !slices.Contains(named, c.String()) {
				t.Errorf("%s: %q does not name provisional card %s", lang, line, c)
			}
		}
	}
}

// Every topic of every game's rules renders in every language as pages
// that fit a Discord message, and Rebel Princess's topics hold every round
// card and princess power of their edition, name and rule text, as listed
// by the engine's data.
func TestRulesTopicsOfEveryGame(t *testing.T) {
	b := rendertest.Bundle(t)
	type want struct {
		prefix string // locale key prefix of an entry
		ids    []string
		ed     princesses.Edition
	}
	wants := map[string]want{
		"cards-deluxe":   {"princesses.round.", princesses.RoundCardIDs(princesses.Deluxe), princesses.Deluxe},
		"cards-classic":  {"princesses.round.", princesses.RoundCardIDs(princesses.Classic), princesses.Classic},
		"powers-deluxe":  {"princesses.princess.", princesses.PrincessIDs(princesses.Deluxe, true), princesses.Deluxe},
		"powers-classic": {"princesses.princess.", princesses.PrincessIDs(princesses.Classic, true), princesses.Classic},
	}
	if got := render.RulesTopics("princesses"); len(got) != len(wants)+1 || got[0] != render.RulesBase {
		t.Fatalf("princesses topics %v", got)
	}
	if !slices.Contains(princesses.RoundCardIDs(princesses.Classic), "invitation") || !slices.Contains(princesses.PrincessIDs(princesses.Classic, true), "karmezina") {
		t.Fatal("the classic edition lacks Invitation or Carmesina: the test would prove less")
	}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, id := range engine.Games() {
			for _, topic := range render.RulesTopics(id) {
				if key := render.RulesTopicKey(id, topic); !l.Has(key) {
					t.Errorf("%s %s %s: no topic name %s", lang, id, topic, key)
				}
				pages, ok := render.RulesPages(l, id, topic, 2000)
				if !ok || len(pages) == 0 {
					t.Errorf("%s %s %s: no pages", lang, id, topic)
					continue
				}
				for i, p := range pages {
					if n := len([]rune(p)); n > 2000 || n == 0 || strings.Contains(p, locales.MissingOpen) {
						t.Errorf("%s %s %s page %d: %d characters, or a missing key:\n%s", lang, id, topic, i+1, n, p)
					}
				}
				all := strings.Join(pages, "\n\n")
				if topic == render.RulesBase {
					if all != render.Rules(l, id) {
						t.Errorf("%s %s: the summary topic is not the rules summary", lang, id)
					}
					continue
				}
				w, ok := wants[topic]
				if id != "princesses" || !ok {
					t.Errorf("%s %s: topic %q is not tested", lang, id, topic)
					continue
				}
				text := ".text"
				if w.ed == princesses.Classic {
					text = ".text_classic"
				}
				for _, card := range w.ids {
					parts := []string{l.T(w.prefix+card+".name", nil), l.T(w.prefix+card+text, nil)}
					if w.prefix == "princesses.princess." {
						parts = append(parts, l.T(w.prefix+card+".power", nil))
					}
					for _, s := range parts {
						if !strings.Contains(all, s) {
							t.Errorf("%s %s: %s lacks %q", lang, topic, card, s)
						}
					}
				}
			}
			if _, ok := render.RulesPages(l, id, "no-such-topic", 2000); ok {
				t.Errorf("%s %s: an unknown topic renders", lang, id)
			}
		}
	}
}

// A card or power is found by its id or its name in the reader's language,
// and the answer fits a message however many cards match.
func TestRulesLookup(t *testing.T) {
	t.Parallel()
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, ed := range []princesses.Edition{princesses.Deluxe, princesses.Classic} {
			text := ".text"
			if ed == princesses.Classic {
				text = ".text_classic"
			}
			for _, id := range princesses.RoundCardIDs(ed) {
				want := l.T("princesses.round."+id+text, nil)
				for _, q := range []string{id, strings.ToUpper(l.T("princesses.round."+id+".name", nil))} {
					if got, ok := render.RulesLookup(l, "princesses", q, 2000); !ok || !strings.Contains(got, want) {
						t.Errorf("%s %q: %v %q lacks %q", lang, q, ok, got, want)
					}
				}
			}
			for _, id := range princesses.PrincessIDs(ed, true) {
				want := l.T("princesses.princess."+id+text, nil)
				for _, q := range []string{id, l.T("princesses.princess."+id+".name", nil), l.T("princesses.princess."+id+".power", nil)} {
					if got, ok := render.RulesLookup(l, "princesses", q, 2000); !ok || !strings.Contains(got, want) {
						t.Errorf("%s %q: %v %q lacks %q", lang, q, ok, got, want)
					}
				}
			}
		}
		for _, q := range []string{"a", "e", "-"} {
			got, ok := render.RulesLookup(l, "princesses", q, 2000)
			if n := len([]rune(got)); !ok || n > 2000 || strings.Contains(got, locales.MissingOpen) {
				t.Errorf("%s %q: %v, %d characters", lang, q, ok, n)
			}
		}
		if _, ok := render.RulesLookup(l, "princesses", "no such card", 2000); ok {
			t.Errorf("%s: an unknown card is found", lang)
		}
		if _, ok := render.RulesLookup(l, "lynx", "a", 2000); ok {
			t.Errorf("%s: a game without cards to look up finds one", lang)
		}
	}
}
