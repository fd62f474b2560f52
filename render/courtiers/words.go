package courtiers

import (
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
)

func init() { render.Register(Presenter{}) }

// Presenter is the game's presentation (render.Game); the embedded types
// say what the game has nothing for.
type Presenter struct {
	render.Plain
	render.NoAppendix
	render.NoOptionalActions
}

// CourtierCard names a card of Courtisans ("Hare noble"); NoCard is a
// face-down spy.
func CourtierCard(l *locales.Localizer, c courtiers.Card) string {
	if c == courtiers.NoCard {
		return l.T("courtiers.card.face_down", nil)
	}
	return l.T("courtiers.card."+c.String(), nil)
}

// CourtierFamily names a family ("Hares").
func CourtierFamily(l *locales.Localizer, f courtiers.Family) string {
	return l.T("courtiers.family."+f.String(), nil)
}

// CourtierMission names a mission and gives its text.
func CourtierMission(l *locales.Localizer, m courtiers.Mission) (name, text string) {
	return l.T("courtiers.mission."+m.String()+".name", nil), l.T("courtiers.mission."+m.String()+".text", nil)
}

// CourtierArea names the area of an action as the acting player reads it
// ("above the Queen's table", "in the domain of player 2").
func CourtierArea(l *locales.Localizer, a courtiers.Action) string {
	switch a.Area {
	case courtiers.AreaUp:
		return l.T("courtiers.area.up", nil)
	case courtiers.AreaDown:
		return l.T("courtiers.area.down", nil)
	case courtiers.AreaOwn:
		return l.T("courtiers.area.own", nil)
	}
	return l.T("courtiers.area.opp", map[string]any{"N": int(a.Opp)})
}

// courtierTarget names an assassin's target with its place.
func courtierTarget(l *locales.Localizer, c courtiers.Card, side string) string {
	card := CourtierCard(l, c)
	switch side {
	case "up", "down":
		return l.T("courtiers.target."+side, map[string]any{"Card": card})
	}
	return card
}

func courtierCards(l *locales.Localizer, cs []courtiers.Card) string {
	if len(cs) == 0 {
		return "—"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = CourtierCard(l, c)
	}
	return strings.Join(parts, ", ")
}

// roleList lists a column's cards by role (the family is the column's).
func roleList(l *locales.Localizer, cs []courtiers.Card) string {
	if len(cs) == 0 {
		return "—"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = l.T("courtiers.role."+roleKey(c.Role())+".name", nil)
	}
	return strings.Join(parts, ", ")
}

func roleKey(r courtiers.Role) string {
	if r == courtiers.Plain {
		return "plain"
	}
	return r.String()
}

func courtierTokens(l *locales.Localizer, ts []string) string {
	if len(ts) == 0 {
		return "—"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		c, ok := courtiers.ParseCard(t)
		if !ok {
			c = courtiers.NoCard
		}
		parts[i] = CourtierCard(l, c)
	}
	return strings.Join(parts, ", ")
}

// eventArea names an area in an event line: in the second person when the
// domain is the reader's.
func eventArea(l *locales.Localizer, area string, seat, owner engine.Seat, names render.Names) string {
	switch area {
	case "up", "down":
		return l.T("courtiers.area."+area, nil)
	case "own":
		return l.T(render.YouKey(l, names, "courtiers.event.area_own", "_you", seat), nil)
	}
	if owner == seat {
		return l.T(render.YouKey(l, names, "courtiers.event.area_own", "_you", seat), nil)
	}
	return l.T(render.YouKey(l, names, "courtiers.event.area_opp", "_you", owner), map[string]any{"Owner": names.Of(owner)})
}

func (Presenter) Action(l *locales.Localizer, ea engine.Action) string {
	a := ea.(courtiers.Action)
	text := l.T("courtiers.action.place", map[string]any{"Card": CourtierCard(l, a.Card), "Area": CourtierArea(l, a)})
	if a.Kill {
		text = l.T("courtiers.action.kill", map[string]any{"Place": text, "Target": courtierTarget(l, a.Target, a.Side.String())})
	}
	return text
}

func (Presenter) Hint(l *locales.Localizer, ev engine.View) string {
	v := ev.(*courtiers.View)
	if v.Seat < 0 || len(v.Hand) == 0 {
		return ""
	}
	area := "own"
	switch {
	case v.QueenOpen:
		area = "up"
	case v.OppOpen && !v.OwnOpen:
		area = "opp:" + strconv.Itoa((int(v.Seat)+1)%v.Seats)
	}
	return l.T("courtiers.ui.hint", map[string]any{"Example": "place " + v.Hand[0].String() + " " + area})
}

func (Presenter) Event(l *locales.Localizer, e engine.Event, names render.Names) string {
	a := e.Args
	seat := func(k string) engine.Seat {
		s, _ := a[k].(engine.Seat)
		return s
	}
	switch e.Type {
	case "card_placed":
		card, _ := a["card"].(string)
		area, _ := a["area"].(string)
		c, _ := courtiers.ParseCard(card)
		return l.T(render.YouKey(l, names, "courtiers.event.placed", "_you", seat("seat")), map[string]any{
			"Name": names.Of(seat("seat")), "Card": CourtierCard(l, c),
			"Area": eventArea(l, area, seat("seat"), seat("domain"), names),
		})
	case "card_killed":
		card, _ := a["card"].(string)
		side, _ := a["side"].(string)
		c, _ := courtiers.ParseCard(card)
		target := courtierTarget(l, c, side)
		if side == "" {
			target = l.T(render.YouKey(l, names, "courtiers.target.domain", "_you", seat("domain")), map[string]any{"Card": target, "Owner": names.Of(seat("domain"))})
		}
		return l.T(render.YouKey(l, names, "courtiers.event.kill", "_you", seat("seat")), map[string]any{"Name": names.Of(seat("seat")), "Target": target})
	case "cards_drawn":
		cs, _ := a["cards"].([]string)
		return l.T("courtiers.event.drawn", map[string]any{"Cards": courtierTokens(l, cs)})
	case "deck_empty":
		return l.T("courtiers.event.deck_empty", nil)
	case "turn":
		return l.T(render.YouKey(l, names, "courtiers.event.turn", "_you", seat("seat")), map[string]any{"Name": names.Of(seat("seat"))})
	case "spies_revealed":
		up, _ := a["up"].([]string)
		down, _ := a["down"].([]string)
		return l.T("courtiers.event.spies_revealed", map[string]any{"Up": courtierTokens(l, up), "Down": courtierTokens(l, down)})
	case "game_over":
		totals, _ := a["totals"].([]int)
		places, _ := a["places"].([]int)
		return courtierEnding(l, names, totals, places).Post(l)
	}
	return ""
}

// Where posts the turning points (the draw pile running out, the spies
// revealed) and the end; placements and eliminations are on the table
// message and in its list of last moves.
func (Presenter) Where(e engine.Event) render.Where {
	switch e.Type {
	case "card_placed", "card_killed":
		return render.Recent
	case "turn":
		return render.Unshown
	}
	return render.Posted
}
