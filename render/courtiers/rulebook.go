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

// Card finds a card by its code (carp-assassin), else a role by its name,
// else a card by its name as the screen shows it (Carp assassin); else it
// says how the cards are named.
func (Presenter) Card(l *locales.Localizer, _ engine.View, query string) (string, bool) {
	entry := func(c courtiers.Card) string {
		text := CourtierCard(l, c) + " [" + c.String() + "]"
		if r := c.Role().String(); l.Has("courtiers.role." + r + ".text") {
			text += ": " + l.T("courtiers.role."+r+".text", nil)
		}
		return text
	}
	if c, ok := courtiers.ParseCard(strings.ToLower(strings.TrimSpace(query))); ok {
		return entry(c), true
	}
	for _, r := range roles {
		name := l.T("courtiers.role."+r+".name", nil)
		if render.FoldName(name) == render.FoldName(query) || r == strings.ToLower(query) {
			return name + ": " + l.T("courtiers.role."+r+".text", nil), true
		}
	}
	var cards []courtiers.Card
	var names []string
	for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
		for r := courtiers.Plain; r < courtiers.NumRoles; r++ {
			c := courtiers.NewCard(f, r)
			cards, names = append(cards, c), append(names, CourtierCard(l, c))
		}
	}
	if i := render.NameMatch(query, names); i >= 0 {
		return entry(cards[i]), true
	}
	return l.T("term.card.range.courtiers", nil), false
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
