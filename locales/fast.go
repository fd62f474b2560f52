package locales

// The fast path: T and N render most messages without go-i18n.
//
// go-i18n's Localize matches the language, builds a config, looks the message
// up, and runs text/template (reflection, a bytes.Buffer, and for N a copy of
// the data map) on every call. Nearly every message in the three files is
// plain text or text with {{.Field}} substitutions, so Load compiles each
// plural form of each message once into a list of (text, field) parts, and
// T and N render those parts into a strings.Builder, printing each value
// exactly as text/template would. Anything else (another action, a pipeline,
// custom delimiters, a template that does not parse, a key this language
// lacks, a count whose absolute value an int cannot hold) goes through
// go-i18n as before. The plural form comes from CLDR through x/text
// (pluralRule). fast_test.go compares both paths for every key, language,
// plural form and several kinds of data.

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"text/template"
	tparse "text/template/parse"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// form is a CLDR plural form, in go-i18n's order.
type form uint8

const (
	formZero form = iota
	formOne
	formTwo
	formFew
	formMany
	formOther
	numForms
)

var formNames = [numForms]string{"zero", "one", "two", "few", "many", "other"}

func (f form) String() string { return formNames[f] }

// fastMsg is one message of one language, compiled. A nil form is one the
// message does not have (go-i18n fails on it: the missing marker).
type fastMsg struct {
	forms [numForms]*fastTmpl
}

// fastTmpl is one compiled plural form.
type fastTmpl struct {
	// slow: the form is not plain text with {{.Field}} substitutions; it is
	// rendered by go-i18n.
	slow bool
	// lit is the whole output of a form without fields.
	lit string
	// parts, when the form has fields: each part's text, then its field.
	parts []part
	// tail is the text after the last field.
	tail string
	// size is the length of all the text, a hint for the builder.
	size int
}

type part struct {
	text, field string
}

// compileMessages compiles the messages of one language. A message go-i18n
// would drop (no non-empty form) is left out, so it takes the slow path.
func compileMessages(msgs []*i18n.Message) map[string]*fastMsg {
	out := make(map[string]*fastMsg, len(msgs))
	for _, m := range msgs {
		srcs := [numForms]string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other}
		fm := &fastMsg{}
		has := false
		for f, src := range srcs {
			if src == "" {
				continue
			}
			has = true
			fm.forms[f] = compileForm(src, m.LeftDelim, m.RightDelim)
		}
		if has {
			out[m.ID] = fm
		}
	}
	return out
}

// compileForm compiles one template source the way go-i18n's TextParser
// would parse it.
func compileForm(src, leftDelim, rightDelim string) *fastTmpl {
	if leftDelim != "" || rightDelim != "" {
		return &fastTmpl{slow: true}
	}
	if !strings.Contains(src, "{{") {
		// go-i18n returns such a source as it is, without parsing it.
		return &fastTmpl{lit: src}
	}
	tmpl, err := template.New("").Option("missingkey=error").Parse(src)
	if err != nil || tmpl.Tree == nil || tmpl.Tree.Root == nil || len(tmpl.Templates()) != 1 {
		return &fastTmpl{slow: true}
	}
	t := &fastTmpl{}
	var text strings.Builder
	for _, n := range tmpl.Tree.Root.Nodes {
		switch n := n.(type) {
		case *tparse.TextNode:
			text.Write(n.Text)
		case *tparse.ActionNode:
			field, ok := singleField(n.Pipe)
			if !ok {
				return &fastTmpl{slow: true}
			}
			t.parts = append(t.parts, part{text: text.String(), field: field})
			t.size += text.Len()
			text.Reset()
		default:
			return &fastTmpl{slow: true}
		}
	}
	t.tail = text.String()
	t.size += len(t.tail)
	if len(t.parts) == 0 {
		return &fastTmpl{lit: t.tail}
	}
	return t
}

// singleField reports whether a pipeline is just {{.Field}}.
func singleField(p *tparse.PipeNode) (string, bool) {
	if p == nil || p.IsAssign || len(p.Decl) != 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := p.Cmds[0].Args[0].(*tparse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	return f.Ident[0], true
}

// pluralRule chooses a language's CLDR cardinal plural form for integer
// counts, from the CLDR data in golang.org/x/text/feature/plural (the rules
// go-i18n applies too; TestFastPluralRules compares them). The forms of the
// counts below cachedCounts are looked up once, at Load; a larger count asks
// x/text on each call.
type pluralRule struct {
	tag    language.Tag
	cached [cachedCounts]form
}

// cachedCounts bounds the counts whose forms are cached: every count a game
// shows (cards, tricks, points, rounds, seats) is far below it.
const cachedCounts = 1000

func newPluralRule(tag language.Tag) *pluralRule {
	r := &pluralRule{tag: tag}
	for n := range r.cached {
		r.cached[n] = r.cldr(n)
	}
	return r
}

// form is the form of count. Like go-i18n, it uses the absolute value. ok
// is false for a count whose absolute value an int cannot hold
// (math.MinInt), which N leaves to go-i18n.
func (r *pluralRule) form(count int) (f form, ok bool) {
	if count < 0 {
		count = -count
		if count < 0 {
			return formOther, false
		}
	}
	if count < cachedCounts {
		return r.cached[count], true
	}
	return r.cldr(count), true
}

// cldr asks x/text for the form of a non-negative integer: i = n and no
// visible fraction digits (v = w = f = t = 0).
func (r *pluralRule) cldr(n int) form {
	return formOf[plural.Cardinal.MatchPlural(r.tag, n, 0, 0, 0, 0)]
}

// formOf maps x/text's forms to ours.
var formOf = [...]form{
	plural.Zero: formZero, plural.One: formOne, plural.Two: formTwo,
	plural.Few: formFew, plural.Many: formMany, plural.Other: formOther,
}

// fast renders a message without go-i18n. ok is false when the message must
// go through go-i18n (render) instead. plural is true for N, and then count
// chooses the form and is the value of {{.Count}}.
func (l *Localizer) fast(key string, plural bool, count int, data map[string]any) (out string, ok bool) {
	m := l.fastMsgs[key]
	if m == nil {
		return "", false
	}
	f := formOther
	if plural {
		var ok bool
		if f, ok = l.rule.form(count); !ok {
			return "", false
		}
	}
	t := m.forms[f]
	switch {
	case t == nil:
		// go-i18n: "message has no plural form".
		return missing(key), true
	case t.slow:
		return "", false
	case t.parts == nil:
		if t.lit == "" {
			return missing(key), true
		}
		return t.lit, true
	}
	var sb strings.Builder
	sb.Grow(t.size + 8*len(t.parts))
	for _, p := range t.parts {
		sb.WriteString(p.text)
		if plural && p.field == "Count" {
			// N's {{.Count}}: see N.
			if count < 0 {
				sb.WriteString("−")
				sb.WriteString(strconv.Itoa(-count))
			} else {
				var buf [20]byte
				sb.Write(strconv.AppendInt(buf[:0], int64(count), 10))
			}
			continue
		}
		v, found := data[p.field]
		if !found {
			// missingkey=error
			return missing(key), true
		}
		if err := writeValue(&sb, v); err != nil {
			return missing(key), true
		}
	}
	sb.WriteString(t.tail)
	if sb.Len() == 0 {
		return missing(key), true
	}
	return sb.String(), true
}

var errCannotPrint = errors.New("locales: value cannot be printed")

// writeValue prints a template value as text/template does for {{.Field}}
// with map data: fmt.Fprint of printableValue (text/template/exec.go).
func writeValue(sb *strings.Builder, v any) error {
	switch v := v.(type) {
	case string:
		sb.WriteString(v)
		return nil
	case int:
		// A negative number with the minus sign, as render writes it
		// (withMinusSign).
		if v < 0 {
			sb.WriteString("−")
			v = -v
		}
		var buf [20]byte
		sb.Write(strconv.AppendInt(buf[:0], int64(v), 10))
		return nil
	case nil:
		// A nil interface in the map: text/template unwraps it to an
		// invalid value and prints "<no value>" (missingkey only covers
		// absent keys).
		sb.WriteString("<no value>")
		return nil
	}
	iface, ok := printableValue(reflect.ValueOf(v))
	if !ok {
		return errCannotPrint
	}
	// fmt.Sprint prints as fmt.Fprint does; passing sb to fmt would move
	// it to the heap on every call.
	sb.WriteString(fmt.Sprint(iface))
	return nil
}

var (
	errorType       = reflect.TypeFor[error]()
	fmtStringerType = reflect.TypeFor[fmt.Stringer]()
)

// printableValue and indirect are copied from text/template/exec.go (Go
// 1.26).
func printableValue(v reflect.Value) (any, bool) {
	if v.Kind() == reflect.Pointer {
		v, _ = indirect(v) // fmt.Fprint handles nil.
	}
	if !v.IsValid() {
		return "<no value>", true
	}

	if !v.Type().Implements(errorType) && !v.Type().Implements(fmtStringerType) {
		if v.CanAddr() && (reflect.PointerTo(v.Type()).Implements(errorType) || reflect.PointerTo(v.Type()).Implements(fmtStringerType)) {
			v = v.Addr()
		} else {
			switch v.Kind() {
			case reflect.Chan, reflect.Func:
				return nil, false
			}
		}
	}
	return v.Interface(), true
}

func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}
