package picture

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/render"
)

// MaxAlt is the most characters an alt text holds: Discord's limit for a
// media description.
const MaxAlt = 1024

// An altPart is one line of an alt text with shorter forms: forms[0] is the
// whole line, the next ones shorter, "" drops it. drop orders the parts
// shortened first (higher first).
type altPart struct {
	forms []string
	drop  int
}

// TableAlt describes a table in plain text: the result, the title, the
// rule, every centre pile, every seat (those who act marked ▶, the
// viewer's marked ●) and the status lines, in at most MaxAlt characters.
// Least important first, status lines, then the seats' details (never their
// names), the centre, the rule and the title give way; a word is never cut.
func TableAlt(sc render.Screen) string {
	var parts []altPart
	for _, r := range sc.Result {
		parts = append(parts, altPart{forms: []string{r}})
	}
	if sc.Title != "" {
		parts = append(parts, altPart{forms: []string{sc.Title, ""}, drop: 1})
	}
	if r := sc.Rule; r != nil && (r.Name != "" || r.Short != "") {
		parts = append(parts, altPart{forms: []string{joinNonEmpty(": ", r.Name, r.Short), r.Name, ""}, drop: 2})
	}
	for _, p := range sc.Center {
		parts = append(parts, altPart{forms: []string{pileLine(p), p.Label, ""}, drop: 3})
	}
	for _, s := range sc.Seats {
		mark := ""
		if s.Acting {
			mark = "▶ "
		}
		if s.You {
			mark += "● "
		}
		line := s.Line
		if line == "" {
			line = joinNonEmpty(": ", s.Name, strings.Join(s.Counts, ", "))
		}
		if !strings.Contains(line, s.Name) {
			line = joinNonEmpty(": ", s.Name, line)
		}
		forms := []string{mark + line, mark + joinNonEmpty(": ", s.Name, strings.Join(s.Counts, ", ")), mark + s.Name}
		if slices.ContainsFunc(sc.Result, func(r string) bool { return strings.Contains(r, s.Name) }) {
			forms = append(forms, "") // the result names the seat already
		}
		parts = append(parts, altPart{forms: forms, drop: 4})
	}
	for _, s := range sc.StatusLines() {
		parts = append(parts, altPart{forms: []string{s, ""}, drop: 5})
	}
	return fitAlt(parts)
}

// HandAlt describes the viewer's hand: what to do now, the hand, the secret
// piles, in at most MaxAlt characters.
func HandAlt(sc render.Screen) string {
	var parts []altPart
	if sc.Prompt != "" {
		parts = append(parts, altPart{forms: []string{sc.Prompt}})
	}
	if h := sc.Hand; h != nil {
		parts = append(parts, altPart{forms: []string{h.Line(), h.Label}, drop: 1})
	}
	for _, p := range sc.Secret {
		parts = append(parts, altPart{forms: []string{pileLine(p), p.Label, ""}, drop: 2})
	}
	return fitAlt(parts)
}

// pileLine is a pile in words, named once: its text alone when the text's
// head (before a colon) names the pile already, in the label's first word or
// another form of it
// ("Eliminated" over "Eliminated: …", "Played this turn" over "Bot 3 has
// played 10 this turn"), else as render.Pile.Line says it.
func pileLine(p render.Pile) string {
	if p.Label == "" || p.Text == "" {
		return p.Line()
	}
	lw := strings.Fields(strings.ToLower(p.Label))
	if len(lw) == 0 {
		return p.Line()
	}
	stem := []rune(lw[0])
	n := min(len(stem), 5)
	if n < 4 {
		return p.Line()
	}
	head, _, _ := strings.Cut(p.Text, ":")
	for _, w := range strings.FieldsFunc(strings.ToLower(head), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if r := []rune(w); len(r) >= n && string(r[:n]) == string(stem[:n]) {
			return p.Text
		}
	}
	return p.Line()
}

func joinNonEmpty(sep string, ss ...string) string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}

// fitAlt joins the parts one a line, shortening them, the highest drop
// first and the last of the same drop first, until the text fits MaxAlt;
// if it still does not fit, it ends at the last whole word that fits,
// followed by an ellipsis.
func fitAlt(parts []altPart) string {
	form := make([]int, len(parts))
	text := func() string {
		var ls []string
		for i, p := range parts {
			if s := strings.TrimSpace(p.forms[form[i]]); s != "" {
				ls = append(ls, s)
			}
		}
		return strings.Join(ls, "\n")
	}
	s := text()
	for utf8.RuneCountInString(s) > MaxAlt {
		// The next part to shorten: the highest drop, then the last.
		best := -1
		for i := len(parts) - 1; i >= 0; i-- {
			if form[i]+1 < len(parts[i].forms) && (best < 0 || parts[i].drop > parts[best].drop) {
				best = i
			}
		}
		if best < 0 {
			return cutWords(s, MaxAlt)
		}
		form[best]++
		s = text()
	}
	return s
}

// cutWords shortens s to at most n characters at a word boundary, ending
// with an ellipsis.
func cutWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := string(r[:n-1])
	if i := strings.LastIndexAny(cut, " \n"); i > 0 {
		cut = cut[:i]
	} else {
		return ellipsis
	}
	return strings.TrimRight(cut, " \n,;:·") + ellipsis
}

// TableSplitAlt describes TableSplit's pictures: the first as TableAlt
// does without the seats and the status lines, the second those (one
// description when TableSplit makes one picture).
func TableSplitAlt(sc render.Screen) []string {
	if !splits(sc) {
		return []string{TableAlt(sc)}
	}
	top := sc
	top.Seats, top.Doing, top.Status, top.Recent = nil, nil, nil, nil
	bottom := render.Screen{Game: sc.Game, Viewer: sc.Viewer, Seats: sc.Seats, Doing: sc.Doing, Status: sc.Status, Recent: sc.Recent}
	return []string{TableAlt(top), TableAlt(bottom)}
}
