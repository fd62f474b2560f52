package princesses

import "github.com/stolik-bot/stolik/locales"

// The parts of render.Game this game has nothing for.

// RulesAppendix: the summary says it all.
func (Presenter) RulesAppendix(*locales.Localizer) string { return "" }
