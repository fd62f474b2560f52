package lynx

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ID is the game's id.
func (Presenter) ID() string { return "lynx" }

// Card: every Lynx card is its value (1 to 13, X the joker); what the
// cards are is one text, given for any card of the game, as the table's
// mode has it (expert: 1s steal jokers). Anything else is no card, and the
// answer says which cards there are.
func (Presenter) Card(l *locales.Localizer, ev engine.View, query string) (string, bool) {
	q := strings.ToUpper(strings.TrimSpace(query))
	if _, ok := lynx.ParseCard(q); !ok && render.FoldName(query) != render.FoldName(l.T("lynx.screen.joker", nil)) {
		return l.T("term.card.range.lynx", nil), false
	}
	if v, ok := ev.(*lynx.View); ok && v.Mode == lynx.Expert {
		return l.T("term.card.lynx_expert", nil), true
	}
	return l.T("term.card.lynx", nil), true
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"play 4 4 X", "take", "draw pool 5"}, "X"
}
