package render

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/lynx"
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

// Prefixer is implemented by renderers that name the steps of an action
// chosen token by token, where the plain notation would be unclear. It
// names the choice Tokens[Chosen:] makes for the view's seat, or returns ""
// to leave it to Action (a whole action) or to the notation (a beginning).
type Prefixer interface {
	Prefix(l *locales.Localizer, v engine.View, names Names, s Step) string
}

// Describer is implemented by renderers whose choices need a second line
// (a select menu option's description), e.g. what a card does. "" for none.
type Describer interface {
	Describe(l *locales.Localizer, v engine.View, s Step) string
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

// Picker is implemented by renderers of games where some steps choose
// several cards at once (Rebel Princess: the pass, the split).
type Picker interface {
	Pick(l *locales.Localizer, v engine.View) (Pick, bool)
}

// Discreet is implemented by renderers of games where an action can name
// a card that is on its way to where others may not see it (a card passed
// or given): once done, the front end does not repeat it.
type Discreet interface {
	Secret(a engine.Action) bool
}

// StepLabel names a step: the renderer's Prefixer when it has one and says
// something, else the action in words (a whole action) or the notation
// followed by an ellipsis (a beginning).
func StepLabel(g Game, l *locales.Localizer, v engine.View, names Names, s Step, parse func(string) (engine.Action, error)) string {
	if p, ok := g.(Prefixer); ok {
		if t := p.Prefix(l, v, names, s); t != "" {
			return t
		}
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

// StepDescription is the second line of a step ("" when the game has none).
func StepDescription(g Game, l *locales.Localizer, v engine.View, s Step) string {
	if d, ok := g.(Describer); ok {
		return d.Describe(l, v, s)
	}
	return ""
}

// ---------------------------------------------------------------- lynx

// Prefix names the steps of a set: first its value (with how many the hand
// holds), then how many and how many jokers.
func (lynxRenderer) Prefix(l *locales.Localizer, ev engine.View, _ Names, s Step) string {
	v, ok := ev.(*lynx.View)
	if !ok || s.Whole || len(s.Tokens) < 2 || s.Tokens[0] != "play" {
		return ""
	}
	if len(s.Tokens) == 2 {
		c := s.Tokens[1]
		for _, g := range v.Groups {
			if g.Card.String() == c {
				return l.T("lynx.step.value", map[string]any{"Card": c, "List": LynxGroup(l, g)})
			}
		}
		return ""
	}
	return l.T("lynx.step.more", map[string]any{"Set": strings.Join(s.Tokens[1:], " ")})
}

// ---------------------------------------------------------------- chapters

func chaptersStepCard(s Step) (chapters.Card, bool) {
	for k := len(s.Tokens) - 1; k > 0; k-- {
		if c, ok := chapters.ParseCard(s.Tokens[k]); ok {
			return c, true
		}
	}
	return 0, false
}

// Prefix names a 2-player pick in two steps (ChaptersPickOptions' halves):
// the card to keep, then the card for the ghost.
func (chaptersRenderer) Prefix(l *locales.Localizer, ev engine.View, _ Names, s Step) string {
	v, ok := ev.(*chapters.View)
	if !ok || len(s.Tokens) < 2 || s.Tokens[0] != "pick" {
		return ""
	}
	keep, ok := chapters.ParseCard(s.Tokens[1])
	if !ok {
		return ""
	}
	switch {
	case !s.Whole && len(s.Tokens) <= 3:
		return l.T("chapters.action.pick", map[string]any{"Card": ChaptersCard(l, v.Cards, keep)})
	case s.Whole && len(s.Tokens) == 4 && s.Chosen >= 2:
		ghost, ok := chapters.ParseCard(s.Tokens[3])
		if !ok {
			return ""
		}
		return l.T("chapters.step.ghost", map[string]any{"Card": ChaptersCard(l, v.Cards, ghost)})
	}
	return ""
}

// Describe tells what the card a step names is and does: its traits and
// abilities.
func (chaptersRenderer) Describe(l *locales.Localizer, ev engine.View, s Step) string {
	v, ok := ev.(*chapters.View)
	if !ok {
		return ""
	}
	c, ok := chaptersStepCard(s)
	if !ok || c < 1 || c > chapters.NumCards {
		return ""
	}
	t := v.Cards
	if t == nil {
		t = &chapters.DefaultCards
	}
	return l.T("chapters.step.desc", map[string]any{"List": ChaptersTraits(l, t.Card(c).Traits), "Text": ChaptersAbilities(l, t, c)})
}

// ---------------------------------------------------------------- courtiers

// courtierStepArea names an area token for the acting seat, opponents by
// name.
func courtierStepArea(l *locales.Localizer, v *courtiers.View, names Names, tok string) string {
	switch tok {
	case "up", "down", "own":
		return l.T("courtiers.area."+tok, nil)
	}
	if a, err := courtiers.ParseAction("place carp " + tok); err == nil && a.Area == courtiers.AreaOpp {
		if a.Opp == v.Seat {
			return l.T("courtiers.area.own", nil)
		}
		return l.T("courtiers.event.area_opp", map[string]any{"Owner": names.Of(a.Opp)})
	}
	return tok
}

// Prefix names a placement step by step: the card, then where it goes
// (opponents by name), then whether the assassin eliminates and whom.
func (courtiersRenderer) Prefix(l *locales.Localizer, ev engine.View, names Names, s Step) string {
	v, ok := ev.(*courtiers.View)
	if !ok || len(s.Tokens) < 2 || s.Tokens[0] != "place" {
		return ""
	}
	card, ok := courtiers.ParseCard(s.Tokens[1])
	if !ok {
		return ""
	}
	if len(s.Tokens) == 2 {
		return CourtierCard(l, card)
	}
	area := courtierStepArea(l, v, names, s.Tokens[2])
	text := l.T("courtiers.action.place", map[string]any{"Card": CourtierCard(l, card), "Area": area})
	if s.Chosen >= 2 {
		// The card is chosen already: name only where it goes.
		text = l.T("courtiers.step.area", map[string]any{"Area": area})
	}
	switch {
	case len(s.Tokens) == 3:
		return text
	case len(s.Tokens) == 4 && !s.Whole:
		return l.T("courtiers.step.kill", map[string]any{"Place": text})
	case s.Whole:
		a, err := courtiers.ParseAction(strings.Join(s.Tokens, " "))
		if err != nil || !a.Kill {
			return ""
		}
		target := courtierTarget(l, a.Target, a.Side.String())
		if s.Chosen >= 3 {
			return l.T("courtiers.step.target", map[string]any{"Target": target})
		}
		return l.T("courtiers.action.kill", map[string]any{"Place": text, "Target": target})
	}
	return ""
}
