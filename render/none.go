package render

import (
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// The parts of Game that some games have nothing for. A game that has
// nothing for one embeds the type saying so in its Presenter (a Lynx table
// has no free-form option: render.NoOptions), which states it where the
// game is declared; the compiler still asks for every other method.

// NoOptions: the game has no free-form table option, and every option
// value is its own best name.
type NoOptions struct{}

func (NoOptions) OptionSuggestions(*locales.Localizer, string, string, map[string]string) []Suggestion {
	return nil
}

func (NoOptions) OptionValue(*locales.Localizer, string, string, map[string]string) (string, bool) {
	return "", false
}

// NoTopics: the game's rules are the summary only.
type NoTopics struct{}

func (NoTopics) RulesTopics() []string                                { return nil }
func (NoTopics) RulesEntries(*locales.Localizer, string) []RulesEntry { return nil }

// NoAppendix: the summary of the rules says it all.
type NoAppendix struct{}

func (NoAppendix) RulesAppendix(*locales.Localizer) string { return "" }

// NoParamNames: rule errors show their parameters as they are.
type NoParamNames struct{}

func (NoParamNames) ParamName(*locales.Localizer, string, any) (string, bool) { return "", false }

// NoPick: the game never chooses several cards at once.
type NoPick struct{}

func (NoPick) Pick(*locales.Localizer, engine.View, []engine.Action) (Pick, bool) {
	return Pick{}, false
}

// PublicActions: every action of the game is public once done.
type PublicActions struct{}

func (PublicActions) Secret(engine.Action) bool { return false }

// NoPrefix: the notation and Action name every choice.
type NoPrefix struct{}

func (NoPrefix) Prefix(*locales.Localizer, engine.View, Names, Step) string { return "" }

// NoSecrets: the game has no secret objectives.
type NoSecrets struct{}

func (NoSecrets) Secrets(*locales.Localizer, engine.View) []string { return nil }

// NoOptionalActions: a seat acts only when it must.
type NoOptionalActions struct{}

func (NoOptionalActions) OfferOptional(engine.View) bool { return false }

// NoPowers: the game has no powers, roles or abilities to look up.
type NoPowers struct{}

func (NoPowers) Powers(*locales.Localizer, engine.View, Names) []string { return nil }

// Plain is what most games have nothing for, embedded at once: no
// free-form option, the rules summary only, rule errors' parameters as they
// are, no pick of several cards at once, every action public once done.
type Plain struct {
	NoOptions
	NoTopics
	NoParamNames
	NoPick
	PublicActions
}
