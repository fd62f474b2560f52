package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stolik-bot/stolik/engine"
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
			return usageError{strings.TrimSpace(l.T("ui.rules.no_card", data) + " " + text)}
		}
		for _, line := range wrap(text, termWidth, "  ") {
			fmt.Fprintln(stdout, line)
		}
		return nil
	}
	const whole = 1 << 20 // the terminal has no message limit: one page
	pages, ok := render.RulesPages(l, g.ID(), *topic, whole)
	if !ok {
		return usageError{l.T("ui.rules.no_topic", data) + " (--topic " + strings.Join(render.RulesTopics(g.ID()), ", ") + ")"}
	}
	for _, p := range pages {
		for _, line := range wrap(plainText(p), termWidth, "  ") {
			fmt.Fprintln(stdout, line)
		}
	}
	return nil
}

// cardInfo explains one card of a game, as plain text in the reader's
// language, found by its code or its name (render.Rulebook.Card). v, when
// not nil, is the reader's view (3 Chapters: its card table).
func cardInfo(l *locales.Localizer, gameID, query string, v engine.View) (string, bool) {
	q := strings.TrimSpace(query)
	r, ok := render.For(gameID)
	if q == "" || !ok {
		return "", false
	}
	text, ok := r.Card(l, v, q)
	return plainText(text), ok
}
