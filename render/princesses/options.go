package princesses

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/stolik-bot/stolik/render"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// Rebel Princess's rounds option takes a preset (5, 3, random, random3) or
// a comma-separated list of one to five round cards, each by its id or its
// deluxe letter (docs/games/princesses.md). Its suggestions are the presets while
// the text typed could still be one, and otherwise the round cards of the
// chosen edition completing the last item of the list.

// roundPresets are the preset values of rounds, in the order offered.
var roundPresets = []string{"5", "3", "random", "random3"}

// Limits of the suggestions: Discord shows at most 25, each name and value
// at most 100 characters; a game has at most 5 round cards.
const (
	maxSuggestions    = 25
	maxSuggestionText = 100
	maxRoundCards     = 5
)

// roundSep separates the cards' names in a suggestion's name: a comma
// would be ambiguous, since a name may hold one (Dawno, dawno temu…).
const roundSep = " · "

func (Presenter) OptionSuggestions(l *locales.Localizer, key, typed string, opts map[string]string) []render.Suggestion {
	if key != "rounds" {
		return nil
	}
	ed := princesses.Deluxe
	if plain(opts["edition"]) == princesses.Classic.String() {
		ed = princesses.Classic
	}
	var out []render.Suggestion
	q := plain(typed)
	if !strings.Contains(typed, ",") {
		for _, p := range roundPresets {
			label := l.T("cmd.choice.rounds."+p, nil)
			if q == "" || strings.HasPrefix(p, q) || wordPrefix(plain(label), q) {
				out = append(out, render.Suggestion{Name: render.ClipRunes(label, maxSuggestionText), Value: p})
			}
		}
		if q == "" {
			return out
		}
	}
	out = append(out, roundSuggestions(l, ed, typed)...)
	return out[:min(len(out), maxSuggestions)]
}

// OptionValue names a list of round cards by the cards' names in the
// reader's language, in order.
func (Presenter) OptionValue(l *locales.Localizer, key, value string, opts map[string]string) (string, bool) {
	if key != "rounds" || slices.Contains(roundPresets, value) {
		return "", false
	}
	ed := princesses.Deluxe
	if plain(opts["edition"]) == princesses.Classic.String() {
		ed = princesses.Classic
	}
	var names []string
	for _, item := range strings.Split(value, ",") {
		id, ok := exactRound(l, ed, strings.TrimSpace(item))
		if !ok {
			return "", false
		}
		names = append(names, roundName(l, id))
	}
	return strings.Join(names, roundSep), true
}

// roundSuggestions completes the last item of a list of round cards: each
// suggestion is the earlier items as canonical ids followed by a card of
// the edition that matches the last item and is not listed yet. There is
// none when an earlier item names no card of the edition. Five ids joined
// take at most 93 characters: a value always fits Discord's 100.
func roundSuggestions(l *locales.Localizer, ed princesses.Edition, typed string) []render.Suggestion {
	items := strings.Split(typed, ",")
	last := plain(items[len(items)-1])
	var ids, names []string
	for _, it := range items[:len(items)-1] {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		id, ok := exactRound(l, ed, it)
		if !ok {
			// No value with it can be right: the engine will say what is
			// wrong with it when the command is sent.
			return nil
		}
		ids, names = append(ids, id), append(names, roundName(l, id))
	}
	if len(ids) >= maxRoundCards {
		return nil
	}
	var out []render.Suggestion
	for _, id := range matchRounds(l, ed, last) {
		if slices.Contains(ids, id) {
			continue
		}
		out = append(out, render.Suggestion{
			Name:  render.ClipRunes(strings.Join(append(slices.Clip(names), roundName(l, id)), roundSep), maxSuggestionText),
			Value: strings.Join(append(slices.Clip(ids), id), ","),
		})
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// roundLetters maps the round cards' ids to their deluxe letters: the
// deluxe edition's cards are lettered a, b, c… in the order the engine
// lists them (RoundCardIDs is in letter order).
var roundLetters = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for i, id := range princesses.RoundCardIDs(princesses.Deluxe) {
		m[id] = string(rune('a' + i))
	}
	return m
})

// exactRound finds the card of an edition an item names exactly: by id,
// deluxe letter or name in the reader's language.
func exactRound(l *locales.Localizer, ed princesses.Edition, item string) (string, bool) {
	q := plain(item)
	for _, id := range princesses.RoundCardIDs(ed) {
		if q == id || q == roundLetters()[id] || q == plain(roundName(l, id)) {
			return id, true
		}
	}
	return "", false
}

// matchRounds lists the cards of an edition that q (plain) may stand for,
// best first: named exactly (id, letter, name), then by the start of the
// id or name, then by the start of a word of either, then (from three
// characters) anywhere in either; each group in letter order. An empty q
// lists every card.
func matchRounds(l *locales.Localizer, ed princesses.Edition, q string) []string {
	var tiers [4][]string
	for _, id := range princesses.RoundCardIDs(ed) {
		name, spaced := plain(roundName(l, id)), strings.ReplaceAll(id, "-", " ")
		tier := -1
		switch {
		case q == "":
			tier = 1
		case q == id || q == spaced || q == roundLetters()[id] || q == name:
			tier = 0
		case strings.HasPrefix(id, q) || strings.HasPrefix(spaced, q) || strings.HasPrefix(name, q):
			tier = 1
		case wordPrefix(name, q) || wordPrefix(spaced, q):
			tier = 2
		case len([]rune(q)) >= 3 && (strings.Contains(name, q) || strings.Contains(spaced, q)):
			tier = 3
		}
		if tier >= 0 {
			tiers[tier] = append(tiers[tier], id)
		}
	}
	return slices.Concat(tiers[:]...)
}

// wordPrefix reports whether a word of s starts with q.
func wordPrefix(s, q string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.HasPrefix(w, q) {
			return true
		}
	}
	return false
}

// plain is the form in which typed text and names are compared: fold's,
// without accents (ślubny ~ slubny, ł ~ l, й ~ и, ї ~ і).
func plain(s string) string {
	s = render.Fold(s)
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	if out, _, err := transform.String(t, s); err == nil {
		s = out
	}
	return strings.NewReplacer("ł", "l", "’", "'").Replace(s)
}
