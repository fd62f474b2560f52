package render

import (
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
