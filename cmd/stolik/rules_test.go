package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// stolik rules prints a topic whole (every round card of the edition, by
// the engine's list) or one card, found by id, number or name in the
// reader's language, as plain text; a topic or card that does not exist is
// a usage error said in the reader's language.
func TestRulesCommand(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	en, pl, uk := b.Lang("en"), b.Lang("pl"), b.Lang("uk")
	dragon := func(l *locales.Localizer) string { return l.T("chapters.card.dragon", nil) }
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"rules", "princesses", "--lang", "pl", "--topic", "cards-deluxe"}, 0, roundNames(pl, princesses.Deluxe)},
		{[]string{"rules", "princesses", "--lang", "uk", "--topic", "cards-classic"}, 0, roundNames(uk, princesses.Classic)},
		{[]string{"rules", "princesses", "--card", "mulan"}, 0, []string{en.T("princesses.princess.mulan.power", nil)}},
		{[]string{"rules", "princesses", "--card", "Q7", "--lang", "pl"}, 0, []string{"Q7: Królowa 7"}},
		{[]string{"rules", "lynx", "--lang", "pl"}, 0, []string{pl.T("game.lynx.name", nil)}},
		{[]string{"rules", "chapters", "--card", "41"}, 0, []string{en.T("chapters.card.unicorn", nil) + " 41"}},
		{[]string{"rules", "chapters", "--card", "50", "--lang", "uk"}, 0, []string{dragon(uk) + " 50"}},
		{[]string{"rules", "chapters", "--card", dragon(pl), "--lang", "pl"}, 0, []string{dragon(pl) + " 50"}},
		{[]string{"rules", "chapters", "--card", strings.ToLower(dragon(uk)), "--lang", "uk"}, 0, []string{dragon(uk) + " 50"}},
		{[]string{"rules", "courtiers", "--card", "carp-assassin", "--lang", "pl"}, 0, []string{pl.T("courtiers.role.assassin.text", nil)}},
		{[]string{"rules", "lynx", "--topic", "cards-deluxe"}, 2, []string{"no such part"}},
		{[]string{"rules", "princesses", "--card", "zzz"}, 2, []string{"no card or power called “zzz”"}},
		{[]string{"rules", "chapters", "--card", "Dragon", "--lang", "pl"}, 2, []string{"nie ma"}},
		// By the names the screen shows, in the reader's language.
		{[]string{"rules", "princesses", "--card", "Frog"}, 0, []string{"A8: Frog"}},
		{[]string{"rules", "princesses", "--card", "Prince 7"}, 0, []string{"P7: Prince 7"}},
		{[]string{"rules", "princesses", "--card", "Żaba", "--lang", "pl"}, 0, []string{"A8: Żaba"}},
		{[]string{"rules", "princesses", "--card", "Królowa 7", "--lang", "pl"}, 0, []string{"Q7: Królowa 7"}},
		{[]string{"rules", "princesses", "--card", "королев 7", "--lang", "uk"}, 0, []string{"Q7: «7» королев"}},
		{[]string{"rules", "courtiers", "--card", "Karp (skrytobójca)", "--lang", "pl"}, 0, []string{"[carp-assassin]"}},
		{[]string{"rules", "courtiers", "--card", "Hare"}, 0, []string{"[hare]"}},
		{[]string{"rules", "lynx", "--card", "X"}, 0, []string{"jokers"}},
		// Nothing matches: said plainly, with the cards there are.
		{[]string{"rules", "lynx", "--card", "14"}, 2, []string{en.T("term.card.range.lynx", nil)}},
		{[]string{"rules", "chapters", "--card", "51"}, 2, []string{en.T("term.card.range.chapters", map[string]any{"Max": 50})}},
		{[]string{"rules", "princesses", "--card", "Queen 13", "--lang", "pl"}, 2, []string{pl.T("term.card.range.princesses", nil)}},
		{[]string{"rules", "courtiers", "--card", "Dragon", "--lang", "uk"}, 2, []string{uk.T("term.card.range.courtiers", nil)}},
		{[]string{"rules"}, 2, []string{"Which game?"}},
		{[]string{"rules", "--lang", "uk"}, 2, []string{"Яка гра?"}},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		if code := run(context.Background(), tc.args, nil, &out, &out); code != tc.code {
			t.Errorf("%v: exit %d, want %d:\n%s", tc.args, code, tc.code, out.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(unwrapped(out.String()), w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		if tc.code == 0 {
			for _, line := range strings.Split(out.String(), "\n") {
				if width(line) > termWidth {
					t.Errorf("%v: a line of %d columns: %q", tc.args, width(line), line)
				}
			}
			if m := markdown.FindString(out.String()); m != "" {
				t.Errorf("%v: the terminal output holds Markdown %q:\n%s", tc.args, m, out.String())
			}
		}
	}
}

// markdown finds what Discord reads as Markdown: bold, italics, code and
// quotes.
var markdown = regexp.MustCompile("\\*\\*|\\*[^ *]|`|(?m)^> ")

func TestPlainText(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"**Rebel Princess**: 3–6 players", "Rebel Princess: 3–6 players"},
		{"*classic:* powers do not change", "classic: powers do not change"},
		{"type `play Q7` to play", "type play Q7 to play"},
		{"**Cinderella** · *Midnight* `cinderella`", "Cinderella · Midnight [cinderella]"},
		{"> a quote\n> two", "a quote\ntwo"},
		{">\n>>> all of it", "\nall of it"},
		{"* one\n* two", "- one\n- two"},
		{"  * nested **bold**", "  - nested bold"},
		{"5 \\* 3", "5 * 3"},
		{"no marks at all: 2 > 1", "no marks at all: 2 > 1"},
		{"", ""},
	}
	for _, c := range cases {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Every game's rules, in every language, come out without Markdown.
	b := locales.MustLoad()
	for _, lang := range locales.Languages() {
		for _, g := range render.Games() {
			text := plainText(render.Rules(b.Lang(lang), g))
			if m := markdown.FindString(text); m != "" {
				t.Errorf("%s %s: %q left in:\n%s", g, lang, m, text)
			}
		}
	}
}

func roundNames(l *locales.Localizer, ed princesses.Edition) []string {
	var out []string
	for _, id := range princesses.RoundCardIDs(ed) {
		out = append(out, l.T("princesses.round."+id+".name", nil))
	}
	return out
}
