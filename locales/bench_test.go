package locales

import (
	"sort"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// benchCase is one call of T or N with the data a caller would pass: the
// message's own template fields, valued from sampleData.
type benchCase struct {
	l     *Localizer
	key   string
	count int
	data  map[string]any
}

// benchCases lists every message of every language once (T: the simple
// messages; N: the plural messages, each with several counts), in a fixed
// order.
func benchCases(tb testing.TB, plural bool) []benchCase {
	tb.Helper()
	b, err := Load()
	if err != nil {
		tb.Fatal(err)
	}
	var out []benchCase
	for _, lang := range Languages() {
		msgs, _, err := parse(lang)
		if err != nil {
			tb.Fatal(err)
		}
		sort.Slice(msgs, func(i, j int) bool { return msgs[i].ID < msgs[j].ID })
		for _, m := range msgs {
			if isPlural(m) != plural {
				continue
			}
			data := benchData(m)
			if !plural {
				out = append(out, benchCase{l: b.Lang(lang), key: m.ID, data: data})
				continue
			}
			delete(data, "Count")
			if len(data) == 0 {
				data = nil
			}
			for _, n := range []int{1, 2, 5, 12, 22} {
				out = append(out, benchCase{l: b.Lang(lang), key: m.ID, count: n, data: data})
			}
		}
	}
	return out
}

func benchData(m *i18n.Message) map[string]any {
	fs := fields(m)
	if len(fs) == 0 {
		return nil
	}
	data := make(map[string]any, len(fs))
	for _, f := range fs {
		data[f] = sampleData[f]
	}
	return data
}

var benchSink string

// go test -run '^$' -bench 'Benchmark[TN]$' -benchmem -count 5 ./locales/
func BenchmarkT(b *testing.B) {
	cases := benchCases(b, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &cases[i%len(cases)]
		benchSink = c.l.T(c.key, c.data)
	}
}

func BenchmarkN(b *testing.B) {
	cases := benchCases(b, true)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &cases[i%len(cases)]
		benchSink = c.l.N(c.key, c.count, c.data)
	}
}

var formSink form

// BenchmarkPluralForm measures choosing the plural form alone: a count
// under cachedCounts (looked up in the table built at Load), and a larger
// one (asking x/text).
//
// go test -run '^$' -bench 'BenchmarkPluralForm' -count 5 ./locales/
func BenchmarkPluralForm(b *testing.B) {
	bundle, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, lang := range Languages() {
		r := bundle.Lang(lang).rule
		b.Run(lang+"/cached", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				formSink, _ = r.form(i % cachedCounts)
			}
		})
		b.Run(lang+"/cldr", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				formSink, _ = r.form(cachedCounts + i%100000)
			}
		})
	}
}
