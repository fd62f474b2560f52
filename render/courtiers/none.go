package courtiers

// The parts of render.Game this game has nothing for.

import (
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// OptionSuggestions: the game has no free-form table option.
func (Presenter) OptionSuggestions(*locales.Localizer, string, string, map[string]string) []render.Suggestion {
	return nil
}

// OptionValue: every option value is its own best name.
func (Presenter) OptionValue(*locales.Localizer, string, string, map[string]string) (string, bool) {
	return "", false
}

// ParamName: rule errors show their parameters as they are.
func (Presenter) ParamName(*locales.Localizer, string, any) (string, bool) { return "", false }

// Pick: the game never chooses several cards at once.
func (Presenter) Pick(*locales.Localizer, engine.View, []engine.Action) (render.Pick, bool) {
	return render.Pick{}, false
}

// RulesAppendix: the summary says it all.
func (Presenter) RulesAppendix(*locales.Localizer) string { return "" }

// RulesEntries: the game has the summary only.
func (Presenter) RulesEntries(*locales.Localizer, string) []render.RulesEntry { return nil }

// RulesTopics: the game has the summary only.
func (Presenter) RulesTopics() []string { return nil }

// Secret: every action of the game is public once done.
func (Presenter) Secret(engine.Action) bool { return false }
