package lynx

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
)

// ID is the game's id.
func (Presenter) ID() string { return "lynx" }

// Card: every Lynx card is its value (1 to 13, X the joker); what the
// cards are is one text, given for any card of the game.
func (Presenter) Card(l *locales.Localizer, _ engine.View, query string) (string, bool) {
	if _, ok := lynx.ParseCard(strings.ToUpper(strings.TrimSpace(query))); !ok {
		return "", false
	}
	return l.T("term.card.lynx", nil), true
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"play 4 4 X", "take", "draw pool 5"}, "X"
}
