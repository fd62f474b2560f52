package render

import (
	"strings"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// Step is one choice of an action built token by token: a front end that
// cannot list every legal action at once (Discord: 25 options in a select
// menu) offers the next token of the notation instead.
type Step struct {
	// Tokens is the notation so far: what was chosen before, then this
	// choice's token(s).
	Tokens []string
	// Chosen is how many of Tokens were chosen (or implied) before this
	// choice; 0 at the first step.
	Chosen int
	// Whole reports whether Tokens is a whole legal action (else it is the
	// beginning of several).
	Whole bool
}

// A Pick is a choice of several cards at once, which a front end offers as
// one multi-select per part instead of a card at a time: part i takes
// exactly Parts[i].N of Options, none taken by an earlier part, and the
// action is Prefix followed by every value taken, in part order.
type Pick struct {
	Prefix  string
	Options []PickOption
	Parts   []PickPart
	// Taken says what the earlier parts took (their options' labels), above
	// the next part's menu; nil when there is a single part.
	Taken func(labels []string) string
}

// PickOption is one card of a pick: its notation and its name.
type PickOption struct{ Value, Label string }

// PickPart is one multi-select of a pick.
type PickPart struct {
	N           int
	Placeholder string
}

// Chooser lays out the choice of an action token by token: where the
// choice stops for the next step (the card, then where it goes), what each
// choice is called and whether it is a button or an option of a select
// menu, and the prompt of a step. The choice tree itself (Tree) is built
// from the engine's legal actions only; a Chooser names and groups them.
type Chooser interface {
	// Stops are the token counts of an action (its notation's tokens) at
	// which a choice ends, ascending; the last is len(tokens). "place
	// carp-assassin up kill carp" stops at 2 (the card), 3 (where) and 5.
	Stops(tokens []string) []int
	// Control shows the choice Tokens[Chosen:] of a step for the view's
	// seat. Tokens is a whole action or (not Whole) the beginning of
	// several, ending at one of their stops.
	Control(l *locales.Localizer, v engine.View, names Names, s Step) Control
	// Prompt is the line above a step's controls: once tokens are chosen,
	// it names the choice so far and asks for the next ("Queen 7: with
	// your power?"); at the first step it is "" unless the buttons need
	// it. It also carries whatever a description had to leave out.
	Prompt(l *locales.Localizer, v engine.View, names Names, chosen []string) string
	// Prefix names the choice Tokens[Chosen:] a step makes for the view's
	// seat where the plain notation would be unclear, or returns "" to
	// leave it to Action (a whole action) or to the notation (a beginning).
	Prefix(l *locales.Localizer, v engine.View, names Names, s Step) string
	// Pick offers a choice of several cards at once (Rebel Princess: the
	// pass, the split) as one multi-select per part, from the legal
	// actions; false when the choice is not such a pick.
	Pick(l *locales.Localizer, v engine.View, legal []engine.Action) (Pick, bool)
	// Hint says how to type an action when there are too many to list.
	Hint(l *locales.Localizer, v engine.View) string
	// OfferOptional reports whether a front end that plays other seats
	// itself (the terminal) should stop to offer the view's seat its
	// optional actions (engine.AnyLegal) now, where they matter.
	OfferOptional(v engine.View) bool
	// Secret reports whether an action names a card on its way to where
	// others may not see it (a card passed or given): once done, a front
	// end does not repeat it.
	Secret(a engine.Action) bool
}

// Discord's limits on the texts of a control. Control's texts keep to
// them by construction: a label is a name, not a sentence, and a
// description is built to fit.
const (
	MaxLabel       = 80  // a button's label
	MaxOptionText  = 100 // a select option's label or description
	MaxPlaceholder = 150 // a select menu's placeholder
)

// Length is a text's length as Discord counts it (code points).
func Length(s string) int { return utf8.RuneCountInString(s) }

// Control is how a front end shows one choice of a step (Controller).
type Control struct {
	// Label names what is chosen, shortly: a card, a place, a player, a
	// set. The verb is in the menu's placeholder or in the prompt above.
	Label string
	// Description is the second line of a select option: what the card
	// does. At most MaxOptionText characters, never cut.
	Description string
	// Detail is the whole of what the choice does when Description had to
	// leave part of it out: a front end shows it where the choice is
	// offered (the Discord bot above the controls, the terminal beside the
	// number).
	Detail string
	// Menu is the select menu the choice goes in, "" for a button. The
	// choices of one menu share its Placeholder, which says what choosing
	// one of them does.
	Menu, Placeholder string
}

// FirstFitting is the first of texts that holds at most n characters, and
// whether there was one: a description built to fit tries its whole form,
// then forms without the clauses it may drop.
func FirstFitting(n int, texts ...string) (string, bool) {
	for _, t := range texts {
		if t != "" && Length(t) <= n {
			return t, true
		}
	}
	return "", false
}

// StepLabel names a step: the renderer's Prefixer when it has one and says
// something, else the action in words (a whole action) or the notation
// followed by an ellipsis (a beginning).
func StepLabel(g Game, l *locales.Localizer, v engine.View, names Names, s Step, parse func(string) (engine.Action, error)) string {
	if t := g.Prefix(l, v, names, s); t != "" {
		return t
	}
	text := strings.Join(s.Tokens, " ")
	if s.Whole {
		if a, err := parse(text); err == nil {
			return g.Action(l, a)
		}
		return text
	}
	return text + "…"
}
