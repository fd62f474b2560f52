package locales

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// The fast path (fast.go) must render exactly what go-i18n renders (slowT,
// slowN): every key, every language, every plural form, and the same
// missing marker for missing data and unknown keys.

// equalityCounts are the counts N is checked with: every plural form of
// en, pl and uk, the teens, and negative counts.
var equalityCounts = []int{
	0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 102, 111, 112, 1001,
	-1, -2, -5, -12, -21, -22,
}

// simpleAction and simpleSource pick the sources the fast path must handle itself: text
// with {{.Field}} substitutions only.
var simpleAction = regexp.MustCompile(`\{\{\.[A-Za-z_][A-Za-z0-9_]*\}\}`)

func simpleSource(src string) bool {
	return !strings.Contains(simpleAction.ReplaceAllString(src, ""), "{{")
}

// dataVariants builds template data from a message's own fields: distinct
// strings, distinct ints, other kinds of values, nothing, and each field
// missing in turn.
func dataVariants(fields []string) map[string]map[string]any {
	strs := map[string]any{}
	ints := map[string]any{}
	mixed := map[string]any{}
	empty := map[string]any{}
	nils := map[string]any{}
	odd := []any{
		int64(-42), uint8(7), 1.5, true, stringer{"st"}, &ptrStringer{"pst"},
		(*ptrStringer)(nil), errors.New("an error"), []string{"a", "b"},
		struct{ A, B int }{1, 2}, &struct{ A int }{3}, named("nm"), 'x',
	}
	for i, f := range fields {
		strs[f] = "‹" + f + "›"
		ints[f] = 1000*i - 7
		mixed[f] = odd[i%len(odd)]
		empty[f] = ""
		nils[f] = nil
	}
	out := map[string]map[string]any{
		"nil":     nil,
		"none":    {},
		"strings": strs,
		"ints":    ints,
		"mixed":   mixed,
		"empty":   empty,
		"nils":    nils,
		"extra":   {"Unused": 1, "Count": "data's Count"},
	}
	for _, f := range fields {
		d := map[string]any{}
		for k, v := range strs {
			if k != f {
				d[k] = v
			}
		}
		out["without "+f] = d
	}
	return out
}

type stringer struct{ s string }

func (s stringer) String() string { return "S(" + s.s + ")" }

type ptrStringer struct{ s string }

func (p *ptrStringer) String() string { return "P(" + p.s + ")" }

type named string

func TestFastMatchesGoI18n(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			l := b.Lang(lang)
			fastCalls, simpleMsgs := 0, 0
			for id, m := range messages(t, lang) {
				simple := true
				for _, src := range forms(m) {
					simple = simple && simpleSource(src)
				}
				if simple {
					simpleMsgs++
				}
				for name, data := range dataVariants(fields(m)) {
					// T: the "other" form, for plural messages too.
					want := l.slowT(id, data)
					got, ok := l.fast(id, false, 0, data)
					if ok {
						fastCalls++
						if got != want {
							t.Errorf("T(%q, %s): fast %q, go-i18n %q", id, name, got, want)
						}
					} else if simple {
						t.Errorf("T(%q, %s): the fast path refused a simple message", id, name)
					}
					if got := l.T(id, data); got != want {
						t.Errorf("T(%q, %s) = %q, go-i18n %q", id, name, got, want)
					}
					// N: every count, for simple messages too (go-i18n
					// then lacks the form "one" in English).
					for _, n := range equalityCounts {
						want := l.slowN(id, n, data)
						got, ok := l.fast(id, true, n, data)
						if ok {
							fastCalls++
							if got != want {
								t.Errorf("N(%q, %d, %s): fast %q, go-i18n %q", id, n, name, got, want)
							}
						} else if simple {
							t.Errorf("N(%q, %d, %s): the fast path refused a simple message", id, n, name)
						}
						if got := l.N(id, n, data); got != want {
							t.Errorf("N(%q, %d, %s) = %q, go-i18n %q", id, n, name, got, want)
						}
					}
				}
			}
			if simpleMsgs == 0 || fastCalls == 0 {
				t.Errorf("%d simple messages, %d fast calls: the comparison compared nothing", simpleMsgs, fastCalls)
			}
		})
	}
}

func TestFastUnknownKeys(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range Languages() {
		l := b.Lang(lang)
		for _, key := range []string{"no.such.key", "", "princesses.suit", "princesses", "princesses.card.Q.x"} {
			for _, data := range []map[string]any{nil, {"Rank": 1}} {
				if got, want := l.T(key, data), l.slowT(key, data); got != want || got != missing(key) {
					t.Errorf("%s: T(%q) = %q, go-i18n %q", lang, key, got, want)
				}
				for _, n := range []int{0, 1, 2, 5} {
					if got, want := l.N(key, n, data), l.slowN(key, n, data); got != want || got != missing(key) {
						t.Errorf("%s: N(%q, %d) = %q, go-i18n %q", lang, key, n, got, want)
					}
				}
			}
		}
	}
}

// Every kind of value prints as text/template prints it.
func TestFastValues(t *testing.T) {
	b := mustLoad(t)
	x := 5
	px := &x
	values := []any{
		"s", "", 0, 7, -7, math.MaxInt, math.MinInt, int8(-3), int32(3), int64(1) << 40,
		uint(3), uint64(math.MaxUint64), 1.5, float32(2.25), 1e21, complex(1, 2), true, false, 'x', byte('y'),
		nil, stringer{"v"}, &stringer{"p"}, ptrStringer{"v"}, &ptrStringer{"p"}, (*ptrStringer)(nil),
		(*stringer)(nil), errors.New("err"), fmt.Errorf("wrapped: %w", errors.New("inner")),
		[]string{"a", "b"}, []int{1, 2}, [2]int{3, 4}, map[string]int{"b": 2, "a": 1},
		struct{ A, B int }{1, 2}, &struct{ A int }{3}, px, &px, (*int)(nil), named("n"),
		[]byte("bytes"), func() {}, make(chan int), panicker{}, "<b>&amp;</b>", "{{.Rank}}",
	}
	for _, lang := range Languages() {
		l := b.Lang(lang)
		for _, v := range values {
			data := map[string]any{"Rank": v}
			want := l.slowT("princesses.card.Q", data)
			got, ok := l.fast("princesses.card.Q", false, 0, data)
			if !ok || got != want {
				t.Errorf("%s: %T %#v: fast %q (%v), go-i18n %q", lang, v, v, got, ok, want)
			}
			data = map[string]any{"Name": v, "Target": v, "Rank": v}
			for _, n := range []int{1, 3, 5} {
				if got, want := l.N("princesses.tricks", n, data), l.slowN("princesses.tricks", n, data); got != want {
					t.Errorf("%s: N with %T: %q, go-i18n %q", lang, v, got, want)
				}
			}
		}
	}
}

type panicker struct{}

func (panicker) String() string { panic("boom") }

// The plural forms the fast path takes from CLDR through x/text are the
// forms go-i18n chooses from its own copy of CLDR, for counts inside and
// outside the cache, negative ones included.
func TestFastPluralRules(t *testing.T) {
	b := mustLoad(t)
	probe := i18n.NewBundle(language.English)
	msg := &i18n.Message{ID: "probe", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	for _, lang := range Languages() {
		if err := probe.AddMessages(language.Make(lang), msg); err != nil {
			t.Fatal(err)
		}
	}
	var counts []int
	for n := -3000; n <= 3000; n++ {
		counts = append(counts, n)
	}
	for _, base := range []int{10000, 1000000, math.MaxInt32, math.MaxInt - 200} {
		for d := 0; d < 200; d++ {
			counts = append(counts, base+d, -base-d)
		}
	}
	counts = append(counts, math.MaxInt, math.MinInt+1)
	for _, lang := range Languages() {
		rule := b.Lang(lang).rule
		loc := i18n.NewLocalizer(probe, lang)
		for _, n := range counts {
			want, err := loc.Localize(&i18n.LocalizeConfig{MessageID: "probe", PluralCount: n})
			if err != nil {
				t.Fatal(err)
			}
			f, ok := rule.form(n)
			if !ok || f.String() != want {
				t.Errorf("%s %d: %s (%v), go-i18n %s", lang, n, f, ok, want)
			}
		}
		// -math.MinInt is not an int: N leaves it to go-i18n.
		if _, ok := rule.form(math.MinInt); ok {
			t.Errorf("%s: math.MinInt takes the fast path", lang)
		}
		if got, want := b.Lang(lang).N("princesses.tricks", math.MinInt, nil), b.Lang(lang).slowN("princesses.tricks", math.MinInt, nil); got != want {
			t.Errorf("%s: N(math.MinInt) = %q, go-i18n %q", lang, got, want)
		}
	}
}

// The forms N chooses are CLDR's cardinal forms for pl and uk (and en),
// written out here by hand from the CLDR rules:
//
//	pl one: i = 1 and v = 0; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
//	   many: v = 0 and (i != 1 and i % 10 = 0..1, or i % 10 = 5..9, or i % 100 = 12..14);
//	   other: the rest (fractions)
//	uk one: v = 0 and i % 10 = 1 and i % 100 != 11; few: as pl;
//	   many: v = 0 and (i % 10 = 0, or i % 10 = 5..9, or i % 100 = 11..14);
//	   other: the rest (fractions)
//	en one: i = 1 and v = 0; other: the rest
//
// N takes integers only, so fractions never reach it; the rows with a
// fraction pin what x/text says for the "1,5 karty" the README mentions.
func TestPluralRuleForms(t *testing.T) {
	b := mustLoad(t)
	type row struct {
		n    int
		want form
	}
	integers := map[string][]row{
		"pl": {
			{0, formMany}, {1, formOne}, {2, formFew}, {3, formFew}, {4, formFew}, {5, formMany},
			{10, formMany}, {11, formMany}, {12, formMany}, {13, formMany}, {14, formMany}, {15, formMany},
			{20, formMany}, {21, formMany}, {22, formFew}, {24, formFew}, {25, formMany},
			{101, formMany}, {102, formFew}, {111, formMany}, {112, formMany}, {114, formMany}, {122, formFew},
			{999, formMany}, {1000, formMany}, {1001, formMany}, {1002, formFew}, {1012, formMany}, {1022, formFew},
			{-1, formOne}, {-2, formFew}, {-5, formMany}, {-1002, formFew},
		},
		"uk": {
			{0, formMany}, {1, formOne}, {2, formFew}, {3, formFew}, {4, formFew}, {5, formMany},
			{10, formMany}, {11, formMany}, {12, formMany}, {13, formMany}, {14, formMany}, {15, formMany},
			{20, formMany}, {21, formOne}, {22, formFew}, {24, formFew}, {25, formMany},
			{101, formOne}, {102, formFew}, {111, formMany}, {112, formMany}, {114, formMany}, {121, formOne},
			{999, formMany}, {1000, formMany}, {1001, formOne}, {1002, formFew}, {1011, formMany}, {1021, formOne},
			{-1, formOne}, {-21, formOne}, {-11, formMany}, {-1001, formOne},
		},
		"en": {
			{0, formOther}, {1, formOne}, {2, formOther}, {11, formOther}, {21, formOther}, {101, formOther},
			{1001, formOther}, {-1, formOne},
		},
	}
	for lang, rows := range integers {
		r := b.Lang(lang).rule
		for _, tc := range rows {
			if got, ok := r.form(tc.n); !ok || got != tc.want {
				t.Errorf("%s %d: %s (%v), want %s", lang, tc.n, got, ok, tc.want)
			}
		}
	}
	fractions := []struct {
		lang           string
		i, v, w, f, tt int
		want           plural.Form
		number         string
	}{
		{"pl", 1, 1, 1, 5, 5, plural.Other, "1,5"},
		{"pl", 2, 1, 1, 5, 5, plural.Other, "2,5"},
		{"pl", 5, 1, 1, 5, 5, plural.Other, "5,5"},
		{"uk", 1, 1, 1, 5, 5, plural.Other, "1,5"},
		{"uk", 21, 1, 1, 5, 5, plural.Other, "21,5"},
		{"uk", 2, 1, 1, 5, 5, plural.Other, "2,5"},
		{"en", 1, 1, 1, 5, 5, plural.Other, "1.5"},
		{"en", 1, 1, 0, 0, 0, plural.Other, "1.0"},
	}
	for _, tc := range fractions {
		if got := plural.Cardinal.MatchPlural(language.Make(tc.lang), tc.i, tc.v, tc.w, tc.f, tc.tt); got != tc.want {
			t.Errorf("%s %s: form %d, want %d", tc.lang, tc.number, got, tc.want)
		}
	}
}

// Templates beyond {{.Field}} are left to go-i18n, and still render.
func TestFastCompile(t *testing.T) {
	tests := []struct {
		src  string
		slow bool
		lit  string
	}{
		{"plain", false, "plain"},
		{"a }} b", false, "a }} b"},
		{"{{/* note */}}x", false, "x"},
		{"a  {{- .N -}}  b", false, ""},
		{"{{.A.B}}", true, ""},
		{"{{if .A}}x{{end}}", true, ""},
		{"{{range .A}}x{{end}}", true, ""},
		{"{{.A | printf \"%d\"}}", true, ""},
		{"{{printf \"%d\" .A}}", true, ""},
		{"{{$x := .A}}{{$x}}", true, ""},
		{"{{.}}", true, ""},
		{"{{template \"x\"}}", true, ""},
		{"{{define \"x\"}}y{{end}}z", true, ""},
		{"{{.A", true, ""},
	}
	for _, tc := range tests {
		got := compileForm(tc.src, "", "")
		if got.slow != tc.slow || (tc.lit != "" && got.lit != tc.lit) {
			t.Errorf("%q: slow=%v lit=%q, want slow=%v lit=%q", tc.src, got.slow, got.lit, tc.slow, tc.lit)
		}
	}
	if !compileForm("x {{.A}}", "<<", ">>").slow {
		t.Error("custom delimiters must take the slow path")
	}

	// Such messages, added to a loaded bundle, render as go-i18n renders
	// them.
	b := mustLoad(t)
	extra := []*i18n.Message{
		{ID: "test.if", Other: "{{if .A}}yes {{.A}}{{else}}no{{end}}"},
		{ID: "test.trim", One: "a  {{- .Count -}}  b", Other: "{{.Count}} {{/* c */}} {{.A}}"},
		{ID: "test.bad", Other: "{{.A"},
		{ID: "test.field", Other: "{{.A.B}}"},
		{ID: "test.lit", Other: "{{/* only a comment */}}"},
		{ID: "test.only", One: "{{.A}}", Other: "{{.A}}{{.Count}}"},
	}
	for _, lang := range Languages() {
		if err := b.bundle.AddMessages(language.Make(lang), extra...); err != nil {
			t.Fatal(err)
		}
		for _, m := range extra {
			b.keys[lang][m.ID] = true
		}
		b.Lang(lang).fastMsgs = compileMessages(extra)
	}
	for _, lang := range Languages() {
		l := b.Lang(lang)
		for _, m := range extra {
			for _, data := range []map[string]any{nil, {"A": "x"}, {"A": ""}, {"A": 0}, {"A": map[string]any{"B": 2}}, {"A": "", "Count": ""}} {
				if got, want := l.T(m.ID, data), l.slowT(m.ID, data); got != want {
					t.Errorf("%s: T(%q, %v) = %q, go-i18n %q", lang, m.ID, data, got, want)
				}
				for _, n := range []int{0, 1, 2, 5} {
					if got, want := l.N(m.ID, n, data), l.slowN(m.ID, n, data); got != want {
						t.Errorf("%s: N(%q, %d, %v) = %q, go-i18n %q", lang, m.ID, n, data, got, want)
					}
				}
			}
		}
	}
}

// T and N render concurrently (go test -race).
func TestFastConcurrent(t *testing.T) {
	b := mustLoad(t)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- true }()
			l := b.Lang(Languages()[g%len(Languages())])
			for i := 0; i < 200; i++ {
				_ = l.T("princesses.card.Q", map[string]any{"Rank": i})
				_ = l.N("princesses.tricks", i, nil)
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// TestNegativeNumbersWithMinusSign: a negative number in a message is
// written with the minus sign (−9), never a hyphen, by T and N alike and
// by the fast path and go-i18n alike; a positive one as it is.
func TestNegativeNumbersWithMinusSign(t *testing.T) {
	l := MustLoad().Lang("en")
	for _, c := range []struct {
		n    int
		want string
	}{{-9, "−9"}, {0, "0"}, {13, "13"}, {-130, "−130"}} {
		data := map[string]any{"Name": "A", "N": c.n}
		for name, got := range map[string]string{
			"fast T": l.T("bot.lobby_seat", data), "go-i18n T": l.slowT("bot.lobby_seat", data),
			"fast N": l.N("common.points", c.n, nil), "go-i18n N": l.slowN("common.points", c.n, nil),
		} {
			if !strings.Contains(got, c.want) || strings.Contains(got, "-") {
				t.Errorf("%s of %d: %q, want %q in it and no hyphen", name, c.n, got, c.want)
			}
		}
		if data["N"] != c.n {
			t.Errorf("the caller's data changed: %v", data)
		}
	}
}
