package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// cmdRules prints a game's rules in the terminal, as /stolik rules shows
// them on Discord but as plain text: a topic (the summary by default; Rebel
// Princess has its round cards and princess powers per edition) or one
// card found by its id, number or name.
func cmdRules(args []string, stdout io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "rules", stdout)
	}
	g, rest, err := needGame(l, "rules", args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.String("lang", "en", "language: en, pl or uk (read by cliLang)")
	topic := fs.String("topic", render.RulesBase, "what to show")
	card := fs.String("card", "", "one card or power, by id, number or name")
	if err := parseFlags(l, "rules", fs, rest); err != nil {
		return err
	}
	data := map[string]any{"Game": l.T("game."+g.ID()+".name", nil), "Name": *card, "List": render.RulesTopicList(l, g.ID())}
	if *card != "" {
		text, ok := cardInfo(l, g.ID(), *card, nil)
		if !ok {
			return usageError{l.T("ui.rules.no_card", data)}
		}
		fmt.Fprintln(stdout, text)
		return nil
	}
	const whole = 1 << 20 // the terminal has no message limit: one page
	pages, ok := render.RulesPages(l, g.ID(), *topic, whole)
	if !ok {
		return usageError{l.T("ui.rules.no_topic", data) + " (--topic " + strings.Join(render.RulesTopics(g.ID()), ", ") + ")"}
	}
	for _, p := range pages {
		fmt.Fprintln(stdout, plainText(p))
	}
	return nil
}

// cardInfo explains one card of a game, as plain text in the reader's
// language: in Rebel Princess a round card or a princess (by id or name,
// render.RulesLookup) or a card by its code (Q7); in 3 Chapters a card by
// its number or its name (every card whose name holds the words typed);
// in Courtisans a card by its code or a role by its name; in Lynx what the
// cards are. v, when not nil, is the reader's view (3 Chapters: its card
// table).
func cardInfo(l *locales.Localizer, gameID, query string, v engine.View) (string, bool) {
	q := strings.TrimSpace(query)
	if q == "" {
		return "", false
	}
	const whole = 1 << 20
	switch gameID {
	case "princesses":
		if text, ok := render.RulesLookup(l, gameID, q, whole); ok {
			return plainText(text), true
		}
		if c, ok := princesses.ParseCard(strings.ToUpper(q)); ok {
			return l.T("term.card.code", map[string]any{"Text": c.String(), "Card": render.PrincessCard(l, c),
				"Suit": l.T("princesses.suit."+c.Suit().Letter(), nil)}), true
		}
	case "chapters":
		t := &chapters.DefaultCards
		if cv, ok := v.(*chapters.View); ok && cv.Cards != nil {
			t = cv.Cards
		}
		if c, ok := chapters.ParseCard(q); ok && c >= 1 && c <= chapters.NumCards {
			return render.ChaptersCardEntry(l, t, c), true
		}
		var exact, partial []string
		want := foldName(q)
		for c := chapters.Card(1); c <= chapters.NumCards; c++ {
			name := foldName(l.T("chapters.card."+t.Card(c).Key, nil))
			switch {
			case name == want:
				exact = append(exact, render.ChaptersCardEntry(l, t, c))
			case strings.Contains(name, want):
				partial = append(partial, render.ChaptersCardEntry(l, t, c))
			}
		}
		if len(exact) == 0 {
			exact = partial
		}
		if len(exact) > 0 {
			return strings.Join(exact, "\n"), true
		}
	case "courtiers":
		if c, ok := courtiers.ParseCard(strings.ToLower(q)); ok {
			text := render.CourtierCard(l, c) + " [" + c.String() + "]"
			if r := c.Role().String(); l.Has("courtiers.role." + r + ".text") {
				text += ": " + l.T("courtiers.role."+r+".text", nil)
			}
			return text, true
		}
		for _, r := range []string{"noble", "guard", "assassin", "spy"} {
			name := l.T("courtiers.role."+r+".name", nil)
			if foldName(name) == foldName(q) || r == strings.ToLower(q) {
				return name + ": " + l.T("courtiers.role."+r+".text", nil), true
			}
		}
	case "lynx":
		return l.T("term.card.lynx", nil), true
	}
	return "", false
}

// foldName is a name as it is compared: lower case, letters, digits and
// single spaces only.
func foldName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
