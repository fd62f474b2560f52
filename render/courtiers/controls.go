package courtiers

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// ---------------------------------------------------------------- courtiers

// courtierStepArea names an area token for the acting seat, opponents by
// name.
func courtierStepArea(l *locales.Localizer, v *courtiers.View, names render.Names, tok string) string {
	switch tok {
	case "up", "down", "own":
		return l.T("courtiers.area."+tok, nil)
	}
	if a, err := courtiers.ParseAction("place carp " + tok); err == nil && a.Area == courtiers.AreaOpp {
		if a.Opp == v.Seat {
			return l.T("courtiers.area.own", nil)
		}
		return l.T("courtiers.event.area_opp", map[string]any{"Owner": names.Of(a.Opp)})
	}
	return tok
}

// Prefix names a whole placement as its player reads it, an opponent's
// domain by the opponent's name (Action can only number the seat): what
// the bot says was done.
func (Presenter) Prefix(l *locales.Localizer, ev engine.View, names render.Names, s render.Step) string {
	v, ok := ev.(*courtiers.View)
	if !ok || !s.Whole {
		return ""
	}
	a, err := courtiers.ParseAction(strings.Join(s.Tokens, " "))
	if err != nil {
		return ""
	}
	text := l.T("courtiers.action.place", map[string]any{"Card": CourtierCard(l, a.Card), "Area": courtierStepArea(l, v, names, a.AreaString())})
	if a.Kill {
		text = l.T("courtiers.action.kill", map[string]any{"Place": text, "Target": courtierTarget(l, a.Target, a.Side.String())})
	}
	return text
}

// ---------------------------------------------------------------- courtiers

// Stops: the card, where it goes, and for an assassin what it eliminates.
func (Presenter) Stops(t []string) []int {
	if len(t) > 3 && t[0] == "place" {
		return []int{2, 3, len(t)}
	}
	if len(t) == 3 && t[0] == "place" {
		return []int{2, 3}
	}
	return []int{len(t)}
}

// courtierPlace names an area as a button: the Queen's table above or
// below the mat, your domain, or the opponent's name.
func courtierPlace(l *locales.Localizer, v *courtiers.View, names render.Names, tok string) string {
	switch tok {
	case "up", "down", "own":
		return l.T("courtiers.control."+tok, nil)
	}
	if a, err := courtiers.ParseAction("place carp " + tok); err == nil && a.Area == courtiers.AreaOpp {
		if v != nil && a.Opp == v.Seat {
			return l.T("courtiers.control.own", nil)
		}
		return names.Of(a.Opp)
	}
	return tok
}

// courtierKill names an assassin's target and where it lies.
func courtierKill(l *locales.Localizer, v *courtiers.View, names render.Names, a courtiers.Action) (label, menu, placeholder string) {
	card := render.Capitalize(CourtierCard(l, a.Target))
	switch {
	case a.Side == courtiers.SideUp || a.Side == courtiers.SideDown:
		side := a.Side.String()
		return l.T("courtiers.target."+side, map[string]any{"Card": card}), "kill-" + side, l.T("courtiers.control.menu.kill_"+side, nil)
	case a.Area == courtiers.AreaOpp && (v == nil || a.Opp != v.Seat):
		name := names.Of(a.Opp)
		return l.T("courtiers.target.domain", map[string]any{"Card": card, "Owner": name}), "kill",
			l.T("courtiers.control.menu.kill_opp", map[string]any{"Name": name})
	}
	return l.T("courtiers.control.target_own", map[string]any{"Card": card}), "kill", l.T("courtiers.control.menu.kill_own", nil)
}

// Control: the card from a menu of the hand, with what its role does;
// then where it goes, as buttons; then, for an assassin, what it
// eliminates, from menus whose options each name the card and where it
// lies, or a button to eliminate nothing.
func (Presenter) Control(l *locales.Localizer, ev engine.View, names render.Names, s render.Step) render.Control {
	v, _ := ev.(*courtiers.View)
	t := s.Tokens
	if len(t) < 2 || t[0] != "place" {
		return render.Control{Label: strings.Join(t, " ")}
	}
	card, ok := courtiers.ParseCard(t[1])
	if !ok {
		return render.Control{Label: strings.Join(t, " ")}
	}
	var kill courtiers.Action
	if len(t) == 5 {
		kill, _ = courtiers.ParseAction(strings.Join(t, " "))
	}
	switch {
	case s.Chosen < 2:
		c := render.Control{Label: CourtierCard(l, card), Menu: "card", Placeholder: l.T("courtiers.control.menu.card", nil)}
		if r := card.Role(); r != courtiers.Plain {
			c.Description = l.T("courtiers.control.role."+r.String(), nil)
		}
		if len(t) >= 3 {
			c.Label = l.T("courtiers.control.card_at", map[string]any{"Card": c.Label, "Area": courtierPlace(l, v, names, t[2])})
		}
		if len(t) == 5 {
			target, _, _ := courtierKill(l, v, names, kill)
			c.Description = l.T("courtiers.control.eliminating", map[string]any{"Target": target})
		}
		return c
	case s.Chosen == 2:
		c := render.Control{Label: courtierPlace(l, v, names, t[2])}
		if len(t) == 5 {
			target, _, _ := courtierKill(l, v, names, kill)
			c.Label = l.T("courtiers.control.card_at", map[string]any{"Card": c.Label, "Area": target})
		}
		return c
	case len(t) == 3:
		return render.Control{Label: l.T("courtiers.control.no_kill", nil)}
	}
	label, menu, placeholder := courtierKill(l, v, names, kill)
	return render.Control{Label: label, Menu: menu, Placeholder: placeholder}
}

// Prompt names the card chosen and asks where it goes, then (an
// assassin) what it eliminates there.
func (Presenter) Prompt(l *locales.Localizer, ev engine.View, names render.Names, chosen []string) string {
	v, ok := ev.(*courtiers.View)
	if !ok || len(chosen) < 2 || chosen[0] != "place" {
		return ""
	}
	card, ok := courtiers.ParseCard(chosen[1])
	if !ok {
		return ""
	}
	if len(chosen) == 2 {
		return l.T("courtiers.control.prompt.where", map[string]any{"Card": CourtierCard(l, card)})
	}
	area := courtierStepArea(l, v, names, chosen[2])
	return l.T("courtiers.control.prompt.kill", map[string]any{"Card": CourtierCard(l, card), "Area": area})
}
