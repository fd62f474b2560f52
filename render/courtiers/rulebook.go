package courtiers

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ID is the game's id.
func (Presenter) ID() string { return "courtiers" }

// roles are the courtiers' roles, in the order they are explained.
var roles = []string{"noble", "guard", "assassin", "spy"}

// Card finds a card by its code (carp-assassin), else a role by its name.
func (Presenter) Card(l *locales.Localizer, _ engine.View, query string) (string, bool) {
	if c, ok := courtiers.ParseCard(strings.ToLower(query)); ok {
		text := CourtierCard(l, c) + " [" + c.String() + "]"
		if r := c.Role().String(); l.Has("courtiers.role." + r + ".text") {
			text += ": " + l.T("courtiers.role."+r+".text", nil)
		}
		return text, true
	}
	for _, r := range roles {
		name := l.T("courtiers.role."+r+".name", nil)
		if render.FoldName(name) == render.FoldName(query) || r == strings.ToLower(query) {
			return name + ": " + l.T("courtiers.role."+r+".text", nil), true
		}
	}
	return "", false
}

// Examples of the notation.
func (Presenter) Examples() ([]string, string) {
	return []string{"place carp own", "place hare-noble opp:1", "place carp-assassin down kill stag-noble@down"}, "carp-assassin"
}

// Powers are the courtiers' roles.
func (Presenter) Powers(l *locales.Localizer, _ engine.View, _ render.Names) []string {
	out := []string{l.T("term.power.courtiers", nil)}
	for _, r := range roles {
		out = append(out, l.T("courtiers.role."+r+".name", nil)+": "+l.T("courtiers.role."+r+".text", nil))
	}
	return out
}

// Secrets are the seat's secret missions in full.
func (Presenter) Secrets(l *locales.Localizer, ev engine.View) []string {
	v, ok := ev.(*courtiers.View)
	if !ok {
		return nil
	}
	out := []string{l.T("term.missions.header", nil)}
	for _, m := range v.Missions {
		name, text := CourtierMission(l, m)
		out = append(out, name+": "+text)
	}
	return out
}
