// Package locales holds every text a player reads, in English, Polish and
// Ukrainian, and the small API the front ends use to look it up.
//
// The messages live in en.toml, pl.toml and uk.toml (embedded into the binary)
// in go-i18n's TOML format: nested tables are flattened with "." into message
// ids, a plain string is a simple message, and a table with the CLDR plural
// forms (one, few, many, other) is a plural message. Templates use Go's
// text/template syntax ({{.Name}}). See README.md for the key scheme.
package locales

import (
	"embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

//go:embed en.toml pl.toml uk.toml
var files embed.FS

// languages lists the supported languages; the first is the fallback.
var languages = []string{"en", "pl", "uk"}

// Fallback is the language used for unknown locales and for messages that a
// translation lacks.
const Fallback = "en"

// MissingOpen and MissingClose wrap the key that T or N returns when a
// message cannot be produced (unknown key, broken template, missing template
// data). Tests search rendered text for MissingOpen.
const (
	MissingOpen  = "⟦"
	MissingClose = "⟧"
)

// parser executes templates strictly: a field missing from the template data
// is an error (rendered as the missing marker), not "<no value>".
var parser = &template.TextParser{Option: "missingkey=error"}

// Languages returns the supported language tags: en, pl, uk.
func Languages() []string {
	return append([]string(nil), languages...)
}

// Bundle holds the parsed messages of every language. It is safe for
// concurrent use once loaded.
type Bundle struct {
	bundle     *i18n.Bundle
	keys       map[string]map[string]bool // lang -> message id -> present
	localizers map[string]*Localizer
}

// Load parses the three embedded files. It fails if any of them cannot be
// parsed.
func Load() (*Bundle, error) {
	b := &Bundle{
		bundle:     i18n.NewBundle(language.English),
		keys:       map[string]map[string]bool{},
		localizers: map[string]*Localizer{},
	}
	b.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	fast := map[string]map[string]*fastMsg{}
	for _, lang := range languages {
		msgs, err := parse(lang)
		if err != nil {
			return nil, err
		}
		if err := b.bundle.AddMessages(language.Make(lang), msgs...); err != nil {
			return nil, fmt.Errorf("locales: %s: %w", lang, err)
		}
		set := make(map[string]bool, len(msgs))
		for _, m := range msgs {
			set[m.ID] = true
		}
		b.keys[lang] = set
		fast[lang] = compileMessages(msgs)
	}
	for _, lang := range languages {
		b.localizers[lang] = &Localizer{
			b:    b,
			tag:  lang,
			l10n: i18n.NewLocalizer(b.bundle, lang),

			fastMsgs: fast[lang],
			rule:     pluralRule(lang),
		}
	}
	return b, nil
}

// MustLoad is Load that panics on error (for main packages and tests).
func MustLoad() *Bundle {
	b, err := Load()
	if err != nil {
		panic(err)
	}
	return b
}

// Lang returns the localizer for a language tag or a Discord locale
// ("en-US", "en-GB", "pl", "uk", ...). Anything unknown falls back to English.
func (b *Bundle) Lang(tag string) *Localizer {
	return b.localizers[Normalize(tag)]
}

// Normalize maps a language tag or Discord locale to "en", "pl" or "uk"
// (English for anything unknown or empty).
func Normalize(tag string) string {
	base := strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(base, "-_"); i >= 0 {
		base = base[:i]
	}
	for _, l := range languages {
		if base == l {
			return l
		}
	}
	return Fallback
}

// Localizer renders messages in one language.
type Localizer struct {
	b    *Bundle
	tag  string
	l10n *i18n.Localizer

	// fastMsgs are this language's messages compiled for the fast path
	// (fast.go); rule is its plural rule there.
	fastMsgs map[string]*fastMsg
	rule     func(n int64) form
}

// Tag returns "en", "pl" or "uk".
func (l *Localizer) Tag() string { return l.tag }

// Has reports whether the message exists in this language or in the English
// fallback, i.e. whether T would find it.
func (l *Localizer) Has(key string) bool {
	return l.b.keys[l.tag][key] || l.b.keys[Fallback][key]
}

// T renders a message with template data (nil for none). It never panics: an
// unknown key or a template that fails yields "⟦key⟧". A key missing from
// this language only is rendered from English.
func (l *Localizer) T(key string, data map[string]any) (out string) {
	defer func() {
		if recover() != nil {
			out = missing(key)
		}
	}()
	if s, ok := l.fast(key, false, 0, data); ok {
		return s
	}
	return l.slowT(key, data)
}

// slowT is T through go-i18n alone.
func (l *Localizer) slowT(key string, data map[string]any) string {
	return l.render(key, data, nil)
}

// N renders a plural message, choosing the CLDR form for count. The count is
// also available to the template as {{.Count}}.
func (l *Localizer) N(key string, count int, data map[string]any) (out string) {
	defer func() {
		if recover() != nil {
			out = missing(key)
		}
	}()
	if s, ok := l.fast(key, true, count, data); ok {
		return s
	}
	return l.slowN(key, count, data)
}

// slowN is N through go-i18n alone.
func (l *Localizer) slowN(key string, count int, data map[string]any) string {
	d := make(map[string]any, len(data)+1)
	for k, v := range data {
		d[k] = v
	}
	d["Count"] = count
	if count < 0 {
		// A negative count is printed with the minus sign (−3), not a hyphen.
		d["Count"] = "−" + strconv.Itoa(-count)
	}
	return l.render(key, d, count)
}

// render renders a message through go-i18n.
func (l *Localizer) render(key string, data map[string]any, count any) (out string) {
	defer func() {
		if recover() != nil {
			out = missing(key)
		}
	}()
	if !l.Has(key) {
		return missing(key)
	}
	var td any
	if data != nil {
		td = data
	}
	cfg := &i18n.LocalizeConfig{
		MessageID:      key,
		TemplateData:   td,
		PluralCount:    count,
		TemplateParser: parser,
	}
	msg, err := l.l10n.Localize(cfg)
	if err != nil && !isNotFound(err) {
		// A template that fails or a missing plural form: go-i18n may
		// return a best-effort rendering, but a marker is easier to catch.
		return missing(key)
	}
	if msg == "" {
		return missing(key)
	}
	return msg
}

// isNotFound reports go-i18n's "not in this language" error, which it also
// returns when it rendered the message from the English fallback.
func isNotFound(err error) bool {
	var nf *i18n.MessageNotFoundErr
	return errors.As(err, &nf)
}

func missing(key string) string { return MissingOpen + key + MissingClose }

// Keys lists the message ids of one language's file, sorted.
func Keys(lang string) ([]string, error) {
	msgs, err := parse(lang)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(msgs))
	for _, m := range msgs {
		keys = append(keys, m.ID)
	}
	sort.Strings(keys)
	return keys, nil
}

// parse reads and parses the embedded file of one language.
func parse(lang string) ([]*i18n.Message, error) {
	known := false
	for _, l := range languages {
		known = known || l == lang
	}
	if !known {
		return nil, fmt.Errorf("locales: unknown language %q", lang)
	}
	name := lang + ".toml"
	buf, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	mf, err := i18n.ParseMessageFileBytes(buf, name, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		return nil, fmt.Errorf("locales: %s: %w", name, err)
	}
	return mf.Messages, nil
}
