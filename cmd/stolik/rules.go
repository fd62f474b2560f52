package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stolik-bot/stolik/render"
)

// cmdRules prints a game's rules in the terminal, as /stolik rules shows
// them on Discord: a topic (the summary by default; Rebel Princess has its
// round cards and princess powers per edition) or one card found by its id
// or name.
func cmdRules(args []string, stdout io.Writer) error {
	g, rest, err := splitGame("rules", args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stdout)
	lang := fs.String("lang", "en", "language: en, pl or uk")
	topic := fs.String("topic", render.RulesBase, "what to show: "+strings.Join(render.RulesTopics(g.ID()), ", "))
	card := fs.String("card", "", "one card or power, by id or name")
	if err := fs.Parse(rest); err != nil {
		return usageError{err.Error()}
	}
	l, _, err := textFor(g, *lang)
	if err != nil {
		return err
	}
	const whole = 1 << 20 // the terminal has no message limit: one page
	if *card != "" {
		text, ok := render.RulesLookup(l, g.ID(), *card, whole)
		if !ok {
			return usageError{fmt.Sprintf("no card or power %q in %s", *card, g.ID())}
		}
		fmt.Fprintln(stdout, text)
		return nil
	}
	pages, ok := render.RulesPages(l, g.ID(), *topic, whole)
	if !ok {
		return usageError{fmt.Sprintf("no topic %q in %s (topics: %s)", *topic, g.ID(), strings.Join(render.RulesTopics(g.ID()), ", "))}
	}
	for _, p := range pages {
		fmt.Fprintln(stdout, p)
	}
	return nil
}
