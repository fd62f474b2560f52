package render_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// Every game's rules fit one Discord message in every language, and the
// 3 Chapters rules name every provisional card of the card table.
func TestRulesOfEveryGame(t *testing.T) {
	b := bundle(t)
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
		line := render.ChaptersProvisional(l, &chapters.DefaultCards)
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
