// Package render turns engine views, actions, events and rule errors into
// text a player reads, in their language, from the locale files. The
// terminal front end and the Discord bot both use it; the engine never does.
package render

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine/ai"

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

// YouKey is key, or its second-person variant key+suffix ("_you" when
// the seat acting is the reader: "You place…", not "Player 0 (you)
// places…"; "_target_you" when the seat acted on is) when seat s is the
// reader and the variant exists.
func YouKey(l *locales.Localizer, names Names, key, suffix string, s engine.Seat) string {
	if isReader(l, names, s) && l.Has(key+suffix) {
		return key + suffix
	}
	return key
}

// ToReader is an event told to the reader at seat in the second person
// ("You play Queen 9."), or "" when the event is not about that seat or
// has no second-person form. It renders the event with the seat named
// ui.you, which makes YouKey choose the second-person keys, and keeps the
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

// YouKeys is key's variant for the seat acting (seat) when that is the
// reader, else its variant for the seat acted on (target) when that is.
func YouKeys(l *locales.Localizer, names Names, key string, seat, target engine.Seat) string {
	if k := YouKey(l, names, key, "_you", seat); k != key {
		return k
	}
	return YouKey(l, names, key, "_target_you", target)
}

// Game presents one game: everything a reader sees of it, in their language.
// Every game implements all of it in its own package (render/<game>) and
// registers it once (Register, called from the package's init; package games
// lists the packages); rendertest.Run proves an implementation on whole
// games. Every method takes the reader's localizer; views and events are
// presented for whoever they were built for, so a presenter can never show
// more than the view holds. A method with nothing to say for a game returns
// its zero value.
type Game interface {
	// ID is the game's id, the engine's.
	ID() string
	Words
	Screener
	Chooser
	Rulebook
	Optioner
	// Design is how the game's cards look in pictures.
	Design() Design
}

// Words says the game's actions, events and rule errors in words.
type Words interface {
	// Action describes an action in words ("Play Queen 7").
	Action(l *locales.Localizer, a engine.Action) string
	// Event describes an event; "" when there is nothing to say.
	Event(l *locales.Localizer, e engine.Event, names Names) string
	// Where says where a public event is shown on Discord.
	Where(e engine.Event) Where
	// ParamName names a rule error's parameter in the reader's language (a
	// card, a suit, a power) instead of its notation; false to show it as
	// it is.
	ParamName(l *locales.Localizer, key string, v any) (string, bool)
}

// Rulebook is the game's rules beyond the summary in the locale files
// (<game>.rules): topics generated from the game's data, a card looked up
// by its code or name, and examples of the notation.
type Rulebook interface {
	// RulesTopics lists the topics beyond the summary, in the order they
	// are offered; nil when the game has the summary only.
	RulesTopics() []string
	// RulesEntries lists a topic's entries in the reader's language; nil
	// for a topic the game does not have.
	RulesEntries(l *locales.Localizer, topic string) []RulesEntry
	// RulesAppendix is a part of the summary generated from the game's data
	// (3 Chapters: which cards are provisional); "" for none.
	RulesAppendix(l *locales.Localizer) string
	// Card explains one card looked up by its code or its name in the
	// reader's language, as the table of view v has it (v may be nil: the
	// game's default cards); false when no card matches, with a text
	// saying which cards the game has (the valid range, how they are named).
	Card(l *locales.Localizer, v engine.View, query string) (string, bool)
	// Examples are actions in the game's notation, for help texts; the
	// first card code of a hand (Example card) comes first in Examples'
	// first action.
	Examples() (actions []string, card string)
	// Powers lists, one line each, the powers, roles or abilities the view's
	// seat may look up now (the terminal's power command); nil for none.
	Powers(l *locales.Localizer, v engine.View, names Names) []string
	// Secrets lists the view's secret objectives in full (Courtisans'
	// missions); nil for a game without them.
	Secrets(l *locales.Localizer, v engine.View) []string
}

// Optioner names and suggests the game's table options.
type Optioner interface {
	// OptionSuggestions suggests values of option key for the text typed
	// so far, best first; nil when the option is not free-form. opts are
	// the other table options already given in the same command
	// (edition=classic), possibly incomplete.
	OptionSuggestions(l *locales.Localizer, key, typed string, opts map[string]string) []Suggestion
	// OptionValue names a table option's value better than its notation
	// (Rebel Princess: rounds=a,i as the cards' names); false when the
	// value is its own best name.
	OptionValue(l *locales.Localizer, key, value string, opts map[string]string) (string, bool)
}

var games = map[string]Game{}

// Register makes a game's presentation available by its id. A game's
// render package calls it from init.
func Register(g Game) {
	if _, dup := games[g.ID()]; dup {
		panic("render: game registered twice: " + g.ID())
	}
	games[g.ID()] = g
}

// For returns the presentation of a game.
func For(gameID string) (Game, bool) {
	g, ok := games[gameID]
	return g, ok
}

// Games lists the ids of the registered presentations, sorted.
func Games() []string {
	return slices.Sorted(maps.Keys(games))
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
	naming, _ := games[game]
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

// Rules is a game's rules summary in the reader's language, with any part
// generated from the game's data.
func Rules(l *locales.Localizer, gameID string) string {
	text := l.T(gameID+".rules", nil)
	if g, ok := games[gameID]; ok {
		if a := g.RulesAppendix(l); a != "" {
			text += "\n\n" + a
		}
	}
	return text
}

// Suggestion is one suggested value of a free-form table option: what the
// user reads (Name, in their language) and what is sent (Value).
type Suggestion struct {
	Name, Value string
}

// OptionValue names the value of a game's table option for a reader, given
// the table's other options; false when the game has no better name than
// the value itself.
func OptionValue(l *locales.Localizer, gameID, key, value string, opts map[string]string) (string, bool) {
	if g, ok := games[gameID]; ok {
		return g.OptionValue(l, key, value, opts)
	}
	return "", false
}

// OptionSuggestions suggests values of a game's free-form table option for
// the text typed so far; nil when the game suggests none. The values are
// only suggestions: the engine validates whatever is finally sent.
func OptionSuggestions(l *locales.Localizer, gameID, key, typed string, opts map[string]string) []Suggestion {
	if g, ok := games[gameID]; ok {
		return g.OptionSuggestions(l, key, typed, opts)
	}
	return nil
}

// inert is text a client sent, shown so that it mentions nobody: "@" is
// followed by a zero-width space, so that neither "@everyone" nor "<@123>"
// is read as a mention.
func inert(s string) string {
	return strings.ReplaceAll(s, "@", "@\u200b")
}

// BotName is an AI seat's name, "Bot N", with its level when it is not
// the usual one ("Bot 2 (hard)"); kind is the seat's AI (a level or a
// kind, engine/ai).
func BotName(l *locales.Localizer, n int, kind string) string {
	level := ai.LevelOf(kind)
	if level == "" || level == ai.Normal {
		return l.T("ui.bot", map[string]any{"N": n})
	}
	return l.T("ui.bot_level", map[string]any{"N": n, "Level": l.T("ai.level."+level, nil)})
}
