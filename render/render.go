// Package render turns engine views, actions, events and rule errors into
// text a player reads, in their language, from the locale files. The
// terminal front end and the Discord bot both use it; the engine never does.
package render

import (
	"errors"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// Names are the display names of a table's seats.
type Names []string

// Of returns the name of seat s.
func (n Names) Of(s engine.Seat) string {
	if s >= 0 && int(s) < len(n) {
		return n[s]
	}
	return "?"
}

// List joins the names of several seats.
func (n Names) List(seats []engine.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = n.Of(s)
	}
	return strings.Join(parts, ", ")
}

// isReader reports whether seat s is the reader's own. The terminal names
// its human seat ui.you ("Player 0 (you)"); on Discord every seat bears a
// player's or an AI's name, so there is no reader among the seats.
func isReader(l *locales.Localizer, names Names, s engine.Seat) bool {
	return s >= 0 && int(s) < len(names) && names[s] == l.T("ui.you", nil)
}

// youKey is key, or its second-person variant key+suffix ("_you" when
// the seat acting is the reader: "You place…", not "Player 0 (you)
// places…"; "_target_you" when the seat acted on is) when seat s is the
// reader and the variant exists.
func youKey(l *locales.Localizer, names Names, key, suffix string, s engine.Seat) string {
	if isReader(l, names, s) && l.Has(key+suffix) {
		return key + suffix
	}
	return key
}

// ToReader is an event told to the reader at seat in the second person
// ("You play Queen 9."), or "" when the event is not about that seat or
// has no second-person form. It renders the event with the seat named
// ui.you, which makes youKey choose the second-person keys, and keeps the
// text only when that changed it and did not merely print ui.you as one
// name among others ("The princesses are revealed: Player 0 (you): …").
func ToReader(g Game, l *locales.Localizer, e engine.Event, names Names, seat engine.Seat) string {
	if seat < 0 || int(seat) >= len(names) || !e.VisibleTo(seat) {
		return ""
	}
	you := l.T("ui.you", nil)
	yn := append(Names(nil), names...)
	yn[seat] = you
	text := g.Event(l, e, yn)
	if text == "" || strings.Contains(text, you) || text == g.Event(l, e, names) {
		return ""
	}
	return text
}

// youKeys is key's variant for the seat acting (seat) when that is the
// reader, else its variant for the seat acted on (target) when that is.
func youKeys(l *locales.Localizer, names Names, key string, seat, target engine.Seat) string {
	if k := youKey(l, names, key, "_you", seat); k != key {
		return k
	}
	return youKey(l, names, key, "_target_you", target)
}

// Game renders one game. Every method takes the reader's localizer; views
// and events are rendered for whoever they were built for, so a renderer can
// never show more than the view holds.
type Game interface {
	// Public describes the public state: round, trick, who must act, scores.
	Public(l *locales.Localizer, v engine.View, names Names) []string
	// Private describes what only the view's seat knows: its hand, its
	// pending choices.
	Private(l *locales.Localizer, v engine.View, names Names) []string
	// Action describes an action in words ("Play Queen 7").
	Action(l *locales.Localizer, a engine.Action) string
	// Event describes an event; "" when there is nothing to say.
	Event(l *locales.Localizer, e engine.Event, names Names) string
	// Hint says how to type an action when there are too many to list.
	Hint(l *locales.Localizer, v engine.View) string
}

var games = map[string]Game{}

// For returns the renderer of a game.
func For(gameID string) (Game, bool) {
	g, ok := games[gameID]
	return g, ok
}

// Error explains a rule error in the reader's language. Any other error is
// reported as an internal one without its details.
func Error(l *locales.Localizer, err error) string {
	var re *engine.RuleError
	if !errors.As(err, &re) {
		return l.T("error.internal", nil)
	}
	key := "error." + re.Code
	if !l.Has(key) {
		return l.T("error.illegal", map[string]any{"Action": ""})
	}
	game, _, _ := strings.Cut(re.Code, ".")
	naming, _ := games[game].(paramNamer)
	data := map[string]any{}
	for k, v := range re.Params {
		named := false
		if naming != nil {
			if text, ok := naming.ParamName(l, k, v); ok {
				v, named = text, true
			}
		}
		if s, ok := v.(string); ok && !named {
			// A parameter may repeat what a client sent ("not an action of
			// this game: …"): it never mentions or pings anyone.
			v = inert(s)
		}
		data[strings.ToUpper(k[:1])+k[1:]] = v
	}
	text := l.T(key, data)
	if n, ok := data["Count"].(int); ok {
		// A plural message ("pass exactly 3 cards") takes its form from the
		// count; N fails on a simple message, which T has rendered already.
		if p := l.N(key, n, data); !strings.HasPrefix(p, locales.MissingOpen) {
			text = p
		}
	}
	// A refused option says why, when the game gave a reason.
	if why, ok := re.Params["why"].(string); ok && re.Code == engine.CodeBadOption && l.Has("error.bad_option_why."+why) {
		text += " " + l.T("error.bad_option_why."+why, data)
	}
	return text
}

// paramNamer is implemented by renderers that name a rule error's
// parameters in the reader's language (a card, a suit, a power) instead of
// their notation.
type paramNamer interface {
	ParamName(l *locales.Localizer, key string, v any) (string, bool)
}

// appendixer is implemented by renderers whose rules text has a part
// generated from the game's data (3 Chapters: which cards are provisional).
type appendixer interface {
	RulesAppendix(l *locales.Localizer) string
}

// Rules is a game's rules summary in the reader's language, with any part
// generated from the game's data.
func Rules(l *locales.Localizer, gameID string) string {
	text := l.T(gameID+".rules", nil)
	if a, ok := games[gameID].(appendixer); ok {
		text += "\n\n" + a.RulesAppendix(l)
	}
	return text
}

// Suggestion is one suggested value of a free-form table option: what the
// user reads (Name, in their language) and what is sent (Value).
type Suggestion struct {
	Name, Value string
}

// optionSuggester is implemented by renderers of games with free-form
// table options (Rebel Princess's rounds): it suggests values for what the
// user has typed so far.
type optionSuggester interface {
	// OptionSuggestions suggests values of option key for the text typed
	// so far, best first. opts are the other table options already given
	// in the same command (edition=classic), possibly incomplete.
	OptionSuggestions(l *locales.Localizer, key, typed string, opts map[string]string) []Suggestion
}

// optionNamer is implemented by renderers that name a table option's value
// better than its notation (Rebel Princess: rounds=a,i as the cards' names).
type optionNamer interface {
	OptionValue(l *locales.Localizer, key, value string, opts map[string]string) (string, bool)
}

// OptionValue names the value of a game's table option for a reader, given
// the table's other options; false when the game has no better name than
// the value itself.
func OptionValue(l *locales.Localizer, gameID, key, value string, opts map[string]string) (string, bool) {
	if n, ok := games[gameID].(optionNamer); ok {
		return n.OptionValue(l, key, value, opts)
	}
	return "", false
}

// OptionSuggestions suggests values of a game's free-form table option for
// the text typed so far; nil when the game suggests none. The values are
// only suggestions: the engine validates whatever is finally sent.
func OptionSuggestions(l *locales.Localizer, gameID, key, typed string, opts map[string]string) []Suggestion {
	if s, ok := games[gameID].(optionSuggester); ok {
		return s.OptionSuggestions(l, key, typed, opts)
	}
	return nil
}

// inert is text a client sent, shown so that it mentions nobody: "@" is
// followed by a zero-width space, so that neither "@everyone" nor "<@123>"
// is read as a mention.
func inert(s string) string {
	return strings.ReplaceAll(s, "@", "@\u200b")
}
