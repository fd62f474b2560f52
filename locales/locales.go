// Package locales holds every text a player reads, in English, Polish and
// Ukrainian, and the small API the front ends use to look it up.
//
// The messages live in one file per language, <tag>.toml (en.toml, pl.toml,
// uk.toml), embedded into the binary: the files are the list of languages.
// They are in go-i18n's TOML format: nested tables are flattened with "."
// into message ids, a plain string is a simple message, and a table with the
// CLDR plural forms (one, few, many, other) is a plural message. Templates
// use Go's text/template syntax ({{.Name}}). The table [meta] is not a
// message: it describes the language (meta.discord_locales). See README.md
// for the key scheme.
package locales

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// Every <tag>.toml here is a language.
//
//go:embed *.toml
var files embed.FS

// languages lists the supported languages, one per embedded file: the
// fallback first, then the others sorted.
var languages = fileLanguages()

// fileLanguages names the languages of the embedded files (en.toml: "en").
// Load checks that the fallback is among them and that each name is a
// language tag.
func fileLanguages() []string {
	names, err := fs.Glob(files, "*.toml")
	if err != nil {
		return nil // only for a malformed pattern; Load then reports no fallback
	}
	var out []string
	for _, n := range names {
		out = append(out, strings.TrimSuffix(n, ".toml"))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i] == Fallback) != (out[j] == Fallback) {
			return out[i] == Fallback
		}
		return out[i] < out[j]
	})
	return out
}

// metaPrefix starts the keys of a file's [meta] table, which describes the
// language instead of holding messages.
const metaPrefix = "meta."

// metaDiscordLocales is the key of the Discord locale codes a language
// serves, comma-separated ("en-US,en-GB"; see
// https://discord.com/developers/docs/reference#locales).
const metaDiscordLocales = metaPrefix + "discord_locales"

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

// Languages returns the supported language tags, one per locale file, the
// fallback first: en, pl, uk.
func Languages() []string {
	return slices.Clone(languages)
}

// Bundle holds the parsed messages of every language. It is safe for
// concurrent use once loaded.
type Bundle struct {
	bundle     *i18n.Bundle
	langs      []string
	keys       map[string]map[string]bool // lang -> message id -> present
	discord    map[string][]string        // lang -> its Discord locale codes
	localizers map[string]*Localizer
}

// Load parses the embedded files. It fails if any of them cannot be parsed,
// if the fallback language has no file, or if a file's name or [meta] table
// is not valid.
func Load() (*Bundle, error) {
	if !slices.Contains(languages, Fallback) {
		return nil, fmt.Errorf("locales: no %s.toml for the fallback language", Fallback)
	}
	b := &Bundle{
		bundle:     i18n.NewBundle(language.Make(Fallback)),
		langs:      slices.Clone(languages),
		keys:       map[string]map[string]bool{},
		discord:    map[string][]string{},
		localizers: map[string]*Localizer{},
	}
	b.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	fast := map[string]map[string]*fastMsg{}
	tags := map[string]language.Tag{}
	servedBy := map[string]string{} // Discord locale -> language
	for _, lang := range b.langs {
		tag, err := languageTag(lang)
		if err != nil {
			return nil, err
		}
		tags[lang] = tag
		msgs, meta, err := parse(lang)
		if err != nil {
			return nil, err
		}
		codes, err := discordLocales(lang, meta[metaDiscordLocales])
		if err != nil {
			return nil, err
		}
		for _, c := range codes {
			if other, dup := servedBy[c]; dup {
				return nil, fmt.Errorf("locales: %s.toml and %s.toml both claim the Discord locale %q", other, lang, c)
			}
			servedBy[c] = lang
		}
		b.discord[lang] = codes
		if err := b.bundle.AddMessages(tag, msgs...); err != nil {
			return nil, fmt.Errorf("locales: %s: %w", lang, err)
		}
		set := make(map[string]bool, len(msgs))
		for _, m := range msgs {
			set[m.ID] = true
		}
		b.keys[lang] = set
		fast[lang] = compileMessages(msgs)
	}
	for _, lang := range b.langs {
		b.localizers[lang] = &Localizer{
			b:    b,
			tag:  lang,
			l10n: i18n.NewLocalizer(b.bundle, lang),

			fastMsgs: fast[lang],
			rule:     newPluralRule(tags[lang]),
		}
	}
	return b, nil
}

// languageTag checks that a file's name is a language Normalize can
// reach: a lowercase base language tag ("pl", not "pt-BR").
func languageTag(lang string) (language.Tag, error) {
	tag, err := language.Parse(lang)
	if err != nil || lang != strings.ToLower(lang) || strings.ContainsAny(lang, "-_") {
		return language.Tag{}, fmt.Errorf("locales: %s.toml: a locale file must be named by a lowercase base language tag (en, pl, uk)", lang)
	}
	return tag, nil
}

// discordLocales parses a file's meta.discord_locales.
func discordLocales(lang, list string) ([]string, error) {
	var out []string
	for _, c := range strings.Split(list, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if slices.Contains(out, c) {
			return nil, fmt.Errorf("locales: %s.toml: %s names %q twice", lang, metaDiscordLocales, c)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("locales: %s.toml: %s is missing or empty", lang, metaDiscordLocales)
	}
	return out, nil
}

// Languages returns the languages the bundle loaded, the fallback first.
func (b *Bundle) Languages() []string {
	return slices.Clone(b.langs)
}

// DiscordLocales returns the Discord locale codes a loaded language serves,
// from its file's meta.discord_locales ("pl"; "en-US", "en-GB"), or nil for
// a language the bundle did not load.
func (b *Bundle) DiscordLocales(lang string) []string {
	return slices.Clone(b.discord[lang])
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

// Normalize maps a language tag or Discord locale to one of Languages() by
// its base language ("pl-PL": "pl"), English for anything unknown or empty.
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
	// (fast.go); rule chooses its CLDR plural forms there.
	fastMsgs map[string]*fastMsg
	rule     *pluralRule
}

// Tag returns the language: "en", "pl", "uk".
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

// withMinusSign is data with every negative int written with the minus
// sign (−3), not a hyphen, as every number a message prints; data itself
// is left as it is.
func withMinusSign(data map[string]any) map[string]any {
	var out map[string]any
	for k, v := range data {
		if n, ok := v.(int); ok && n < 0 {
			if out == nil {
				out = make(map[string]any, len(data))
				for k, v := range data {
					out[k] = v
				}
			}
			out[k] = "−" + strconv.Itoa(-n)
		}
	}
	if out == nil {
		return data
	}
	return out
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
		td = withMinusSign(data)
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

// Keys lists the message ids of one language's file, sorted (the [meta]
// table is not a message).
func Keys(lang string) ([]string, error) {
	msgs, _, err := parse(lang)
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

// parse reads and parses the embedded file of one language: its messages,
// and its [meta] table (key -> text, the keys with metaPrefix).
func parse(lang string) ([]*i18n.Message, map[string]string, error) {
	if !slices.Contains(languages, lang) {
		return nil, nil, fmt.Errorf("locales: unknown language %q", lang)
	}
	name := lang + ".toml"
	buf, err := files.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("locales: %w", err)
	}
	mf, err := i18n.ParseMessageFileBytes(buf, name, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		return nil, nil, fmt.Errorf("locales: %s: %w", name, err)
	}
	msgs := make([]*i18n.Message, 0, len(mf.Messages))
	meta := map[string]string{}
	for _, m := range mf.Messages {
		if strings.HasPrefix(m.ID, metaPrefix) {
			meta[m.ID] = m.Other
			continue
		}
		msgs = append(msgs, m)
	}
	return msgs, meta, nil
}
