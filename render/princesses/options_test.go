package princesses_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

func roundSuggestions(l *locales.Localizer, typed string, opts map[string]string) []render.Suggestion {
	return render.OptionSuggestions(l, "princesses", "rounds", typed, opts)
}

func values(ss []render.Suggestion) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Value)
	}
	return out
}

func find(ss []render.Suggestion, value string) (render.Suggestion, bool) {
	i := slices.IndexFunc(ss, func(s render.Suggestion) bool { return s.Value == value })
	if i < 0 {
		return render.Suggestion{}, false
	}
	return ss[i], true
}

// Nothing typed yet: the presets, named in the reader's language.
func TestRoundSuggestionsPresets(t *testing.T) {
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		got := roundSuggestions(l, "", nil)
		if !slices.Equal(values(got), []string{"5", "3", "random", "random3"}) {
			t.Errorf("%s: %v", lang, got)
		}
		for _, s := range got {
			if s.Name != l.T("cmd.choice.rounds."+s.Value, nil) {
				t.Errorf("%s: preset %s named %q", lang, s.Value, s.Name)
			}
		}
		if got := values(roundSuggestions(l, "rand", nil)); !slices.Equal(got[:2], []string{"random", "random3"}) {
			t.Errorf("%s: rand: %v", lang, got)
		}
	}
	if got := values(roundSuggestions(rendertest.Bundle(t).Lang("pl"), "los", nil)); !slices.Contains(got, "random") || !slices.Contains(got, "random3") {
		t.Errorf("pl: los (losowe) does not offer the random presets: %v", got)
	}
}

// The last item of the list is completed by id, letter or name (accents
// optional), the earlier items kept as canonical ids, cards already listed
// left out.
func TestRoundSuggestionsComplete(t *testing.T) {
	b := rendertest.Bundle(t)
	pl, uk := b.Lang("pl"), b.Lang("uk")

	got := roundSuggestions(pl, "mas", nil)
	if s, ok := find(got, "masquerade"); !ok || s.Name != "Bal maskowy" {
		t.Errorf("pl mas: %v", got)
	}
	got = roundSuggestions(pl, "a,mas", nil)
	if s, ok := find(got, "once-upon-a-time,masquerade"); !ok || s.Name != "Dawno, dawno temu… · Bal maskowy" || got[0] != s {
		t.Errorf("pl a,mas: %v", got)
	}
	for _, typed := range []string{"slub", "ślub", "Prezent Ś", "o", "wedding g", "wedding-gift"} {
		if got := roundSuggestions(pl, typed, nil); len(got) == 0 || got[0].Value != "wedding-gift" || got[0].Name != "Prezent ślubny" {
			t.Errorf("pl %q: %v", typed, got)
		}
	}
	if got := roundSuggestions(uk, "маскар", nil); len(got) == 0 || got[0].Value != "masquerade" || got[0].Name != "Бал-маскарад" {
		t.Errorf("uk маскар: %v", got)
	}
	if got := roundSuggestions(uk, "i, весіл", nil); len(got) != 1 || got[0].Value != "masquerade,wedding-gift" || got[0].Name != "Бал-маскарад · Весільний подарунок" {
		t.Errorf("uk i, весіл: %v", got)
	}

	// An empty last item: every card not listed yet.
	got = roundSuggestions(pl, "masquerade,", nil)
	if len(got) != 25 || slices.ContainsFunc(got, func(s render.Suggestion) bool { return strings.HasSuffix(s.Value, ",masquerade") }) {
		t.Errorf("masquerade,: %d suggestions %v", len(got), values(got))
	}
	// Five cards listed: nothing to add.
	if got := roundSuggestions(pl, "a,b,c,d,e,", nil); len(got) != 0 {
		t.Errorf("a sixth card suggested: %v", got)
	}
	// Nothing matches, or an earlier item names no card.
	for _, typed := range []string{"a,zzzz", "zzzz,a", "a,,b,zz"} {
		if got := roundSuggestions(pl, typed, nil); len(got) != 0 {
			t.Errorf("%s: %v", typed, got)
		}
	}
	if got := roundSuggestions(pl, "a,,b,", nil); len(got) != 24 {
		t.Errorf("a,,b,: %v", got)
	}
	// Other options and games suggest nothing.
	if got := render.OptionSuggestions(pl, "princesses", "powers", "o", nil); got != nil {
		t.Errorf("powers: %v", got)
	}
	if got := render.OptionSuggestions(pl, "lynx", "rounds", "a", nil); got != nil {
		t.Errorf("lynx: %v", got)
	}
}

// The edition chosen in the same command decides which cards are offered:
// Invitation only in the classic edition, Magic Beans only in the deluxe.
func TestRoundSuggestionsEdition(t *testing.T) {
	en := rendertest.Bundle(t).Lang("en")
	classic := map[string]string{"edition": "classic"}
	if got := roundSuggestions(en, "inv", classic); len(got) == 0 || got[0].Value != "invitation" || got[0].Name != "Invitation" {
		t.Errorf("classic inv: %v", got)
	}
	if got := roundSuggestions(en, "inv", nil); slices.Contains(values(got), "invitation") {
		t.Errorf("deluxe inv: %v", got)
	}
	all := values(roundSuggestions(en, "a,", classic))
	for _, id := range princesses.RoundCardIDs(princesses.Classic) {
		if id != "once-upon-a-time" && !slices.Contains(all, "once-upon-a-time,"+id) {
			t.Errorf("classic: %s not offered: %v", id, all)
		}
	}
	if slices.Contains(all, "once-upon-a-time,magic-beans") {
		t.Errorf("classic: a deluxe-only card offered: %v", all)
	}
	if got := roundSuggestions(en, "magic-beans,a", classic); len(got) != 0 {
		t.Errorf("classic magic-beans,a: %v", got)
	}
	if got := roundSuggestions(en, "magic", classic); len(got) != 0 {
		t.Errorf("classic magic: %v", got)
	}
}

// Every suggestion, for many texts typed in every language and both
// editions, fits Discord (25 at most, name 1–100 characters, value 1–100)
// and is accepted by the engine as it stands.
func TestRoundSuggestionsFitAndAreAccepted(t *testing.T) {
	b := rendertest.Bundle(t)
	typed := []string{"", "5", "3", "r", "ra", "random3", "a", "m", "ma", "mas", "x", "a,", "a,m", "i,o,",
		"always-the-bridesmaid,three-times-a-lady,pass-the-bouquet,midnight-makeover,",
		"always-the-bridesmaid,three-times-a-lady,pass-the-bouquet,midnight-makeover,a",
		"g,d,w,v,", "zap", "Бал", "do", "d"}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, ed := range []string{"deluxe", "classic"} {
			for _, q := range typed {
				got := roundSuggestions(l, q, map[string]string{"edition": ed})
				if len(got) > 25 {
					t.Errorf("%s %s %q: %d suggestions", lang, ed, q, len(got))
				}
				seen := map[string]bool{}
				for _, s := range got {
					if n := utf8.RuneCountInString(s.Name); n < 1 || n > 100 || strings.Contains(s.Name, locales.MissingOpen) {
						t.Errorf("%s %s %q: name %q", lang, ed, q, s.Name)
					}
					if n := len(s.Value); n < 1 || n > 100 || seen[s.Value] {
						t.Errorf("%s %s %q: value %q", lang, ed, q, s.Value)
					}
					seen[s.Value] = true
					if _, err := (princesses.Game{}).New(engine.Options{"edition": ed, "rounds": s.Value}, 4, engine.NewRand(1, 0)); err != nil {
						t.Errorf("%s %s %q: %q rejected: %v", lang, ed, q, s.Value, err)
					}
				}
			}
		}
	}
}

// The deluxe letters the suggestions use for long lists are the engine's:
// a table opened with a letter starts with the card of that id.
func TestRoundLettersAreTheEngines(t *testing.T) {
	l := rendertest.Bundle(t).Lang("en")
	if got := roundSuggestions(l, "g,D , w,v,arr", nil); len(got) != 1 || got[0].Value != "always-the-bridesmaid,three-times-a-lady,pass-the-bouquet,midnight-makeover,arranged-marriage" {
		t.Fatalf("letters: %v", got)
	}
	for i, id := range princesses.RoundCardIDs(princesses.Deluxe) {
		letter := string(rune('a' + i))
		st, err := (princesses.Game{}).New(engine.Options{"rounds": letter, "powers": "off"}, 4, engine.NewRand(1, 0))
		if err != nil {
			t.Fatalf("%s: %v", letter, err)
		}
		if v := st.View(0).(*princesses.View); v.RoundCard != id {
			t.Errorf("letter %s starts with %s, want %s", letter, v.RoundCard, id)
		}
	}
}

// A list of round cards is shown by the cards' names in the reader's
// language; presets and lists the edition does not have keep their text.
func TestRoundsOptionValue(t *testing.T) {
	b := locales.MustLoad()
	for _, tc := range []struct {
		lang, value, edition string
		want                 []string // round card ids, in order; nil: not named
	}{
		{"pl", "a,masquerade", "", []string{"once-upon-a-time", "masquerade"}},
		{"uk", "i, wedding-gift", "classic", []string{"masquerade", "wedding-gift"}},
		{"en", "invitation", "classic", []string{"invitation"}},
		{"en", "invitation", "deluxe", nil},
		{"pl", "random", "", nil},
		{"pl", "5", "", nil},
		{"pl", "a,nope", "", nil},
	} {
		l := b.Lang(tc.lang)
		got, ok := render.OptionValue(l, "princesses", "rounds", tc.value, map[string]string{"edition": tc.edition})
		if ok != (tc.want != nil) {
			t.Errorf("%s %q (%s): named %v, want %v", tc.lang, tc.value, tc.edition, ok, tc.want != nil)
			continue
		}
		var names []string
		for _, id := range tc.want {
			names = append(names, l.T("princesses.round."+id+".name", nil))
		}
		if want := strings.Join(names, " · "); ok && got != want {
			t.Errorf("%s %q: %q, want %q", tc.lang, tc.value, got, want)
		}
	}
	if _, ok := render.OptionValue(b.Lang("en"), "lynx", "mode", "basic", nil); ok {
		t.Error("lynx named an option it has no names for")
	}
}
