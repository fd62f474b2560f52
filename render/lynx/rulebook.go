package lynx

import (
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ID is the game's id.
func (Presenter) ID() string { return "lynx" }

// Card: every Lynx card is its value; what the cards are is one text.
func (Presenter) Card(l *locales.Localizer, _ engine.View, _ string) (string, bool) {
	return l.T("term.card.lynx", nil), true
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"play 4 4 X", "take", "draw pool 5"}, "X"
}

// Powers: Lynx has no powers.
func (Presenter) Powers(*locales.Localizer, engine.View, render.Names) []string { return nil }

// Secrets: Lynx has no secret missions.
func (Presenter) Secrets(*locales.Localizer, engine.View) []string { return nil }

// OfferOptional: Lynx has no optional actions.
func (Presenter) OfferOptional(engine.View) bool { return false }
