package locales

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// sampleData holds a value for every template field used in the locale
// files. A template that uses a field not listed here fails TestTemplates:
// add the field here when you add a message that needs it.
var sampleData = map[string]any{
	"Scores":    "xScores",
	"Level":     "xLevel",
	"Count":     3,
	"Rank":      7,
	"Game":      "xGame",
	"Name":      "xName",
	"N":         "xN",
	"Cards":     "xCards",
	"List":      "xList",
	"Suit":      "xSuit",
	"Card":      "xCard",
	"Names":     "xNames",
	"Round":     "xRound",
	"Rounds":    "xRounds",
	"Edition":   "xEdition",
	"Plays":     "xPlays",
	"Tricks":    "xTricks",
	"Last":      "xLast",
	"Total":     "xTotal",
	"Power":     "xPower",
	"Princess":  "xPrincess",
	"Proposals": "xProposals",
	"Gave":      "xGave",
	"Text":      "xText",
	"Line":      "xLine",
	"Rule":      "xRule",
	"Form":      "xForm",
	"Key":       "xKey",
	"Value":     "xValue",
	"Min":       "xMin",
	"Max":       "xMax",
	"Seats":     "xSeats",
	"Players":   "xPlayers",
	"DB":        "xDB",
	"Moves":     "xMoves",
	"When":      "xWhen",
	"Status":    "xStatus",
	"ID":        "xID",
	"Action":    "xAction",
	"Take":      "xTake",
	"Took":      "xTook",
	"To":        "xTo",
	"Got":       "xGot",
	"From":      "xFrom",
	"Example":   "xExample",
	"Direction": "xDirection",
	"Needed":    "xNeeded",
	"Stars":     "xStars",
	"Hearts":    "xHearts",
	"Gems":      "xGems",
	"Tokens":    "xTokens",
	"Trait":     "xTrait",
	"Cond":      "xCond",
	"Time":      "xTime",
	"Left":      "xLeft",
	"Channel":   "xChannel",
	"Choice":    "xChoice",
	"Thread":    "xThread",
	"Games":     "xGames",
	"Won":       "xWon",
	"Score":     "xScore",
	"StandIns":  "xStandIns",
	"Family":    "xFamily",
	"Area":      "xArea",
	"Target":    "xTarget",
	"Owner":     "xOwner",
	"Up":        "xUp",
	"Down":      "xDown",
	"Points":    "xPoints",
	"Missions":  "xMissions",
	"Place":     "xPlace",
	"Mode":      "xMode",
	"Set":       "xSet",
	"Victim":    "xVictim",
	"Topic":     "xTopic",
}

// pluralForms lists the CLDR plural forms a language needs for integer
// counts, as N chooses them (CLDR through x/text), plus "other", which
// go-i18n falls back to and CLDR uses for fractions: en one, other; pl and
// uk one, few, many, other.
func pluralForms(t *testing.T, b *Bundle, lang string) []string {
	t.Helper()
	r := b.Lang(lang).rule
	seen := map[form]bool{formOther: true}
	for n := 0; n < 2*cachedCounts; n++ {
		f, _ := r.form(n)
		seen[f] = true
	}
	for n := 10 * cachedCounts; n > 0 && n <= math.MaxInt/10; n *= 10 {
		f, _ := r.form(n)
		seen[f] = true
	}
	var out []string
	for f := range numForms {
		if seen[f] {
			out = append(out, f.String())
		}
	}
	return out
}

// Princess and round-card ids from docs/games/princesses.md (Rebel Princess).
var (
	princessIDs = []string{
		"cinderella", "snow-white", "mermaid", "pocahontas", "sleeping-beauty", "alice",
		"mulan", "scheherazade", "ice-princess", "pea-princess", "rapunzel", "thumbelina",
		"karmezina",
	}
	roundIDs = []string{
		"once-upon-a-time", "late-to-the-ball", "magic-beans", "three-times-a-lady",
		"arranged-marriage", "royal-decree", "always-the-bridesmaid", "crystal-clear",
		"masquerade", "pets-revenge", "musical-chairs", "sisterhood", "after-party",
		"late-for-a-date", "wedding-gift", "haggle", "blind-mans-bluff", "poisoned-apple",
		"odds-and-evens", "single-fairy", "rings-twice", "midnight-makeover",
		"pass-the-bouquet", "upside-down", "bathroom-break", "dancing-queens", "invitation",
	}
)

// pluralKeys are the messages that must be plural messages.
var pluralKeys = []string{
	"common.seats", "common.rounds", "common.points", "common.players",
	"princesses.pass.left", "princesses.pass.right",
	"princesses.proposals", "princesses.tricks", "princesses.cards",
}

// requiredKeys is the key scheme for the princesses game.
func requiredKeys() []string {
	keys := []string{
		"game.princesses.name", "game.princesses.summary",
		"princesses.card.frog",
		"princesses.pass.both", "princesses.pass.none",
		"princesses.rules", "princesses.rebel", "princesses.snuck_in",
		"princesses.edition.deluxe", "princesses.edition.classic",
	}
	keys = append(keys, pluralKeys...)
	for _, s := range []string{"Q", "F", "A", "P"} {
		keys = append(keys, "princesses.suit."+s, "princesses.card."+s)
	}
	for _, w := range []string{"queens", "fairies", "pets", "princes"} {
		keys = append(keys, "princesses.suit_word."+w)
	}
	for _, id := range princessIDs {
		for _, f := range []string{"name", "power", "text", "text_classic"} {
			keys = append(keys, "princesses.princess."+id+"."+f)
		}
	}
	for _, id := range roundIDs {
		for _, f := range []string{"name", "text", "text_classic"} {
			keys = append(keys, "princesses.round."+id+"."+f)
		}
	}
	return keys
}

func mustLoad(t *testing.T) *Bundle {
	t.Helper()
	b, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return b
}

func messages(t *testing.T, lang string) map[string]*i18n.Message {
	t.Helper()
	msgs, _, err := parse(lang)
	if err != nil {
		t.Fatalf("parse %s: %v", lang, err)
	}
	m := make(map[string]*i18n.Message, len(msgs))
	for _, msg := range msgs {
		if _, dup := m[msg.ID]; dup {
			t.Errorf("%s: duplicate key %q", lang, msg.ID)
		}
		m[msg.ID] = msg
	}
	return m
}

// forms returns the non-empty plural forms of a message.
func forms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for name, v := range map[string]string{
		"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other,
	} {
		if v != "" {
			out[name] = v
		}
	}
	return out
}

func isPlural(m *i18n.Message) bool {
	return m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
}

func TestLoadAndLanguages(t *testing.T) {
	mustLoad(t)
	got := Languages()
	if len(got) == 0 || got[0] != Fallback || !sort.StringsAreSorted(got[1:]) {
		t.Fatalf("Languages() = %v, want the fallback first, then sorted", got)
	}
	for _, lang := range []string{"en", "pl", "uk"} {
		if !slices.Contains(got, lang) {
			t.Errorf("Languages() = %v, lacks %s", got, lang)
		}
	}
	for _, lang := range Languages() {
		keys, err := Keys(lang)
		if err != nil {
			t.Fatalf("Keys(%s): %v", lang, err)
		}
		if len(keys) == 0 || !sort.StringsAreSorted(keys) {
			t.Errorf("Keys(%s): %d keys, sorted=%v", lang, len(keys), sort.StringsAreSorted(keys))
		}
	}
	if _, err := Keys("fr"); err == nil {
		t.Error("Keys(fr): want an error")
	}
}

// The languages are the locale files, and each file says which Discord
// locales it serves.
func TestLanguagesAreData(t *testing.T) {
	b := mustLoad(t)
	if got := b.Languages(); !slices.Equal(got, Languages()) || got[0] != Fallback {
		t.Errorf("Bundle.Languages() = %v, Languages() = %v", got, Languages())
	}
	want := map[string][]string{"en": {"en-US", "en-GB"}, "pl": {"pl"}, "uk": {"uk"}}
	for _, lang := range b.Languages() {
		codes := b.DiscordLocales(lang)
		if w, ok := want[lang]; ok && !slices.Equal(codes, w) {
			t.Errorf("%s: Discord locales %v, want %v", lang, codes, w)
		}
		for _, c := range codes {
			// An interaction in that locale must reach this language.
			if got := b.Lang(c).Tag(); got != lang {
				t.Errorf("%s: Discord locale %q is served by %s", lang, c, got)
			}
		}
		keys, err := Keys(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if strings.HasPrefix(k, metaPrefix) {
				t.Errorf("%s: %s is listed as a message", lang, k)
			}
		}
	}
	if b.DiscordLocales("fr") != nil {
		t.Error("DiscordLocales(fr): want nil")
	}

	for _, tc := range []struct {
		list string
		want []string
	}{
		{"pl", []string{"pl"}},
		{"en-US, en-GB", []string{"en-US", "en-GB"}},
		{" zh-TW ,", []string{"zh-TW"}},
		{"", nil},
		{" , ", nil},
		{"pl,pl", nil},
	} {
		got, err := discordLocales("xx", tc.list)
		if !slices.Equal(got, tc.want) || (err == nil) != (tc.want != nil) {
			t.Errorf("discordLocales(%q) = %v, %v; want %v", tc.list, got, err, tc.want)
		}
	}
	for name, ok := range map[string]bool{"en": true, "pl": true, "de": true, "PL": false, "pt-BR": false, "zh_TW": false, "notes": false, "": false} {
		if _, err := languageTag(name); (err == nil) != ok {
			t.Errorf("languageTag(%q): %v", name, err)
		}
	}
}

func TestSameKeysInEveryLanguage(t *testing.T) {
	base, err := Keys(Fallback)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Languages() {
		if lang == Fallback {
			continue
		}
		t.Run(lang, func(t *testing.T) {
			keys, err := Keys(lang)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range base {
				if !slices.Contains(keys, k) {
					t.Errorf("%s lacks %q (present in %s)", lang, k, Fallback)
				}
			}
			for _, k := range keys {
				if !slices.Contains(base, k) {
					t.Errorf("%s lacks %q (present in %s)", Fallback, k, lang)
				}
			}
		})
	}
}

func TestKeySchemeComplete(t *testing.T) {
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			msgs := messages(t, lang)
			for _, k := range requiredKeys() {
				if _, ok := msgs[k]; !ok {
					t.Errorf("missing %q", k)
				}
			}
		})
	}
}

func TestPluralForms(t *testing.T) {
	b := mustLoad(t)
	en := messages(t, "en")
	want := map[string][]string{
		"en": {"one", "other"},
		"pl": {"one", "few", "many", "other"},
		"uk": {"one", "few", "many", "other"},
	}
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			needed := pluralForms(t, b, lang)
			if w, ok := want[lang]; ok && !slices.Equal(needed, w) {
				t.Errorf("CLDR forms for integers: %v, want %v", needed, w)
			}
			msgs := messages(t, lang)
			for _, k := range pluralKeys {
				if m, ok := msgs[k]; ok && !isPlural(m) {
					t.Errorf("%q must be a plural message", k)
				}
			}
			for id, m := range msgs {
				if base, ok := en[id]; ok && isPlural(base) != isPlural(m) {
					t.Errorf("%q: plural in en = %v, in %s = %v", id, isPlural(base), lang, isPlural(m))
				}
				if !isPlural(m) {
					continue
				}
				have := forms(m)
				for _, f := range needed {
					if have[f] == "" {
						t.Errorf("%q lacks the plural form %q", id, f)
					}
				}
				for f := range have {
					if !slices.Contains(needed, f) {
						t.Errorf("%q has the form %q, which %s never uses", id, f, lang)
					}
				}
			}
		})
	}
}

var fieldRE = regexp.MustCompile(`\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)`)

func fields(m *i18n.Message) []string {
	set := map[string]bool{}
	for _, src := range forms(m) {
		for _, match := range fieldRE.FindAllStringSubmatch(src, -1) {
			set[match[1]] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func TestTemplates(t *testing.T) {
	en := messages(t, "en")
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			for id, m := range messages(t, lang) {
				for form, src := range forms(m) {
					tmpl, err := template.New(id).Option("missingkey=error").Parse(src)
					if err != nil {
						t.Errorf("%q (%s): parse: %v", id, form, err)
						continue
					}
					var sb strings.Builder
					if err := tmpl.Execute(&sb, sampleData); err != nil {
						t.Errorf("%q (%s): execute: %v", id, form, err)
						continue
					}
					out := sb.String()
					if strings.TrimSpace(out) == "" || strings.Contains(out, "<no value>") || strings.Contains(out, MissingOpen) {
						t.Errorf("%q (%s): bad output %q", id, form, out)
					}
				}
				if base, ok := en[id]; ok && !slices.Equal(fields(base), fields(m)) {
					t.Errorf("%q: template fields %v, en has %v", id, fields(m), fields(base))
				}
			}
		})
	}
}

func TestEveryMessageRenders(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range Languages() {
		l := b.Lang(lang)
		if l.Tag() != lang {
			t.Fatalf("Lang(%s).Tag() = %s", lang, l.Tag())
		}
		msgs := messages(t, lang)
		for id, m := range msgs {
			if !l.Has(id) {
				t.Errorf("%s: Has(%q) = false", lang, id)
			}
			var outs []string
			if isPlural(m) {
				for _, n := range []int{0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111, -1, -10} {
					outs = append(outs, l.N(id, n, sampleData))
				}
			} else {
				outs = append(outs, l.T(id, sampleData))
			}
			for _, out := range outs {
				if strings.Contains(out, MissingOpen) || out == "" {
					t.Errorf("%s: %q renders as %q", lang, id, out)
				}
			}
		}
	}
}

func TestPluralSelection(t *testing.T) {
	b := mustLoad(t)
	tests := []struct {
		lang, key string
		count     int
		want      string
	}{
		{"en", "princesses.tricks", 1, "1 trick"},
		{"en", "princesses.tricks", 2, "2 tricks"},
		{"en", "princesses.tricks", 0, "0 tricks"},
		{"pl", "princesses.tricks", 1, "1 lewa"},
		{"pl", "princesses.tricks", 2, "2 lewy"},
		{"pl", "princesses.tricks", 5, "5 lew"},
		{"pl", "princesses.tricks", 22, "22 lewy"},
		{"pl", "princesses.tricks", 25, "25 lew"},
		{"pl", "princesses.tricks", 0, "0 lew"},
		{"pl", "princesses.tricks", 12, "12 lew"},
		{"pl", "princesses.tricks", 21, "21 lew"},
		{"pl", "princesses.cards", 1, "1 karta"},
		{"pl", "princesses.cards", 4, "4 karty"},
		{"pl", "princesses.cards", 14, "14 kart"},
		{"pl", "princesses.proposals", 1, "1 oświadczyny"},
		{"pl", "princesses.proposals", 3, "3 oświadczyn"},
		{"pl", "princesses.proposals", 6, "6 oświadczyn"},
		{"pl", "princesses.proposals", -10, "−10 oświadczyn"},
		{"pl", "common.players", 1, "1 gracz"},
		{"pl", "common.players", 2, "2 graczy"},
		{"pl", "common.players", 5, "5 graczy"},
		{"pl", "common.points", 22, "22 punkty"},
		{"pl", "common.rounds", 5, "5 rund"},
		{"pl", "princesses.pass.left", 1, "Przekaż 1 kartę osobie z lewej strony"},
		{"pl", "princesses.pass.right", 2, "Przekaż 2 karty osobie z prawej strony"},
		{"pl", "princesses.pass.left", 5, "Przekaż 5 kart osobie z lewej strony"},
		{"uk", "princesses.tricks", 1, "1 взятка"},
		{"uk", "princesses.tricks", 2, "2 взятки"},
		{"uk", "princesses.tricks", 5, "5 взяток"},
		{"uk", "princesses.tricks", 11, "11 взяток"},
		{"uk", "princesses.tricks", 21, "21 взятка"},
		{"uk", "princesses.tricks", 22, "22 взятки"},
		{"uk", "princesses.tricks", 25, "25 взяток"},
		{"uk", "princesses.proposals", 1, "1 пропозиція"},
		{"uk", "princesses.proposals", 3, "3 пропозиції"},
		{"uk", "princesses.proposals", 5, "5 пропозицій"},
		{"uk", "common.players", 2, "2 гравці"},
		{"uk", "common.points", 5, "5 балів"},
		{"uk", "princesses.pass.left", 3, "Віддайте 3 карти гравцеві ліворуч"},
		{"uk", "princesses.pass.right", 1, "Віддайте 1 карту гравцеві праворуч"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%s/%d", tc.lang, tc.key, tc.count), func(t *testing.T) {
			if got := b.Lang(tc.lang).N(tc.key, tc.count, nil); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNestedKeysAndTemplateData(t *testing.T) {
	b := mustLoad(t)
	tests := []struct {
		lang, key string
		data      map[string]any
		want      string
	}{
		{"en", "princesses.suit.Q", nil, "Queens"},
		{"pl", "princesses.suit.Q", nil, "Królowe"},
		{"uk", "princesses.suit.Q", nil, "Королеви"},
		{"uk", "princesses.suit_word.queens", nil, "королеви"},
		{"en", "princesses.card.Q", map[string]any{"Rank": 7}, "Queen 7"},
		{"pl", "princesses.card.P", map[string]any{"Rank": 12}, "Książę 12"},
		{"uk", "princesses.card.A", map[string]any{"Rank": 3}, "«3» звіряток"},
		{"pl", "princesses.card.frog", nil, "Żaba"},
		{"pl", "princesses.princess.cinderella.name", nil, "Kopciuszek"},
		{"uk", "princesses.round.bathroom-break.name", nil, "Лиш припудрила носик"},
		{"pl", "princesses.rebel", nil, "Buntowniczka Balu"},
		{"pl", "princesses.snuck_in", nil, "Na bal wkradli się książęta!"},
		{"uk", "princesses.snuck_in", nil, "Принцам вдалося прослизнути на вечірку!"},
	}
	for _, tc := range tests {
		t.Run(tc.lang+"/"+tc.key, func(t *testing.T) {
			if got := b.Lang(tc.lang).T(tc.key, tc.data); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEditionTextsDiffer(t *testing.T) {
	b := mustLoad(t)
	// Where the editions differ, .text and .text_classic must differ too.
	for _, key := range []string{
		"princesses.round.midnight-makeover", "princesses.round.bathroom-break",
		"princesses.princess.ice-princess", "princesses.princess.pocahontas",
		"princesses.princess.pea-princess", "princesses.princess.sleeping-beauty",
		"princesses.princess.mermaid",
	} {
		for _, lang := range Languages() {
			l := b.Lang(lang)
			if l.T(key+".text", nil) == l.T(key+".text_classic", nil) {
				t.Errorf("%s: %s.text and .text_classic are identical", lang, key)
			}
		}
	}
}

func TestRulesSummary(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range Languages() {
		rules := b.Lang(lang).T("princesses.rules", nil)
		if n := utf8.RuneCountInString(rules); n >= 1800 {
			t.Errorf("%s: princesses.rules is %d characters, want < 1800", lang, n)
		}
		if strings.Contains(rules, MissingOpen) || !strings.Contains(rules, "**") {
			t.Errorf("%s: princesses.rules looks wrong: %q", lang, rules)
		}
	}
}

func TestLangFallback(t *testing.T) {
	b := mustLoad(t)
	tests := map[string]string{
		"en": "en", "en-US": "en", "en-GB": "en", "pl": "pl", "pl-PL": "pl", "PL": "pl",
		"uk": "uk", "uk-UA": "uk", "uk_UA": "uk",
		"": "en", "fr": "en", "de": "en", "ru": "en", "es-ES": "en", "zh-CN": "en", "ukr": "en", "xx-yy": "en",
	}
	for in, want := range tests {
		base, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(in), "_", "-"), "-")
		if want == Fallback && base != Fallback && slices.Contains(Languages(), base) {
			continue // a language added since: not unknown any more
		}
		if got := b.Lang(in).Tag(); got != want {
			t.Errorf("Lang(%q).Tag() = %q, want %q", in, got, want)
		}
	}
	if got := b.Lang("xx-yy").T("princesses.card.frog", nil); got != "Frog" {
		t.Errorf("xx-yy falls back to English: got %q", got)
	}
}

func TestMissingKey(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range Languages() {
		l := b.Lang(lang)
		if got := l.T("no.such.key", nil); got != "⟦no.such.key⟧" {
			t.Errorf("%s: T(missing) = %q", lang, got)
		}
		if got := l.N("no.such.key", 2, nil); got != "⟦no.such.key⟧" {
			t.Errorf("%s: N(missing) = %q", lang, got)
		}
		if l.Has("no.such.key") {
			t.Errorf("%s: Has(missing) = true", lang)
		}
		// A table is not a message.
		if got := l.T("princesses.suit", nil); !strings.HasPrefix(got, MissingOpen) {
			t.Errorf("%s: T(table) = %q", lang, got)
		}
		// Missing template data is reported with the marker, not "<no value>".
		if got := l.T("princesses.card.Q", nil); got != "⟦princesses.card.Q⟧" {
			t.Errorf("%s: T without data = %q", lang, got)
		}
		if got := l.T("princesses.card.Q", map[string]any{"Name": "x"}); got != "⟦princesses.card.Q⟧" {
			t.Errorf("%s: T with wrong data = %q", lang, got)
		}
	}
}

func TestMissingTranslationFallsBackToEnglish(t *testing.T) {
	b := mustLoad(t)
	if err := b.bundle.AddMessages(language.English, &i18n.Message{ID: "test.only_en", Other: "only {{.Count}}"}); err != nil {
		t.Fatal(err)
	}
	b.keys["en"]["test.only_en"] = true
	pl := b.Lang("pl")
	if !pl.Has("test.only_en") {
		t.Error("Has: want true through the English fallback")
	}
	if got := pl.N("test.only_en", 2, nil); got != "only 2" {
		t.Errorf("got %q, want the English text", got)
	}
}

func TestNDoesNotMutateData(t *testing.T) {
	b := mustLoad(t)
	data := map[string]any{"Rank": 1}
	_ = b.Lang("pl").N("princesses.tricks", 5, data)
	if _, ok := data["Count"]; ok {
		t.Error("N wrote Count into the caller's map")
	}
}

// A negative count prints with the minus sign and still takes its plural
// form by its absolute value.
func TestNegativeCounts(t *testing.T) {
	b := mustLoad(t)
	tests := []struct {
		lang string
		n    int
		want string
	}{
		{"en", -1, "−1 proposal"},
		{"en", -10, "−10 proposals"},
		{"pl", -2, "−2 oświadczyn"},
		{"pl", -5, "−5 oświadczyn"},
		{"uk", -3, "−3 пропозиції"},
	}
	for _, tc := range tests {
		if got := b.Lang(tc.lang).N("princesses.proposals", tc.n, nil); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}
