package render

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The small helpers every game's screen and words use.

// Capitalize is s with its first letter in upper case.
func Capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// At is xs[i], 0 when out of range.
func At(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

// FoldName is a name as a lookup compares it: lower case, letters, digits
// and single spaces only.
func FoldName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// NameMatch finds the candidate query names among names (each candidate's
// name in the reader's language, as the screen shows it): the one with the
// same words in any order ("Queen 7", "7 queen"), else the only one whose
// name holds every word of the query ("frog" in "«8» pets (frog)"). It is
// -1 when none matches, or several do.
func NameMatch(query string, names []string) int {
	want := strings.Fields(FoldName(query))
	if len(want) == 0 {
		return -1
	}
	slices.Sort(want)
	found := -1
	for i, n := range names {
		have := strings.Fields(FoldName(n))
		slices.Sort(have)
		if slices.Equal(have, want) {
			return i
		}
		all := true
		for _, w := range want {
			all = all && slices.Contains(have, w)
		}
		switch {
		case !all:
		case found == -1:
			found = i
		default:
			found = -2 // several
		}
	}
	return max(found, -1)
}
