package lynx

import (
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
)

func init() { render.Register(Presenter{}) }

// Presenter is the game's presentation (render.Game); the embedded types
// say what the game has nothing for.
type Presenter struct {
	render.Plain
	render.NoPrefix
	render.NoAppendix
	render.NoPowers
	render.NoSecrets
	render.NoOptionalActions
}

// LynxSet writes a set or any cards of the lynx game the way the cards show
// them: numbers, and X for a joker ("4 4 4 X").
func LynxSet(cs []lynx.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

func lynxTokens(ts []string) string { return strings.Join(ts, " ") }

// LynxGroup names one group of a hand grouped by value ("4×3", "X×2"), as
// the hand line, set pickers and buttons show it.
func LynxGroup(l *locales.Localizer, g lynx.Group) string {
	if g.Count == 1 {
		return g.Card.String()
	}
	return l.T("lynx.ui.group", map[string]any{"Card": g.Card.String(), "Count": g.Count})
}

// LynxHand is the viewer's hand grouped by value, for quick set selection.
func LynxHand(l *locales.Localizer, gs []lynx.Group) string {
	if len(gs) == 0 {
		return l.T("lynx.ui.empty", nil)
	}
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = LynxGroup(l, g)
	}
	return strings.Join(parts, " · ")
}

// lynxDisplay lists a display's layers bottom first, the top layer (the
// one that can be stolen) in brackets.
func lynxDisplay(l *locales.Localizer, d []lynx.Layer) string {
	if len(d) == 0 {
		return l.T("lynx.ui.no_display", nil)
	}
	parts := make([]string, len(d))
	for i, layer := range d {
		parts[i] = LynxSet(layer.Cards())
	}
	parts[len(d)-1] = "[" + parts[len(d)-1] + "]"
	return strings.Join(parts, " · ")
}

// lynxPlace writes a pool place: a single card, or a duel group bottom
// card first ("2+13").
func lynxPlace(cs []lynx.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "+")
}

func repeat(g lynx.Group) []lynx.Card {
	out := make([]lynx.Card, g.Count)
	for i := range out {
		out[i] = g.Card
	}
	return out
}

func (Presenter) Action(l *locales.Localizer, ea engine.Action) string {
	a := ea.(lynx.Action)
	switch a.Kind {
	case lynx.KindPlay:
		return l.T("lynx.action.play", map[string]any{"Set": LynxSet(a.Set().Cards())})
	case lynx.KindStealVirtual:
		return l.T("lynx.action.steal_virtual", map[string]any{"Card": a.Value.String()})
	case lynx.KindDrawPool:
		place := a.Value.String()
		if a.Under != 0 {
			place = lynxPlace([]lynx.Card{a.Under, a.Value})
		}
		return l.T("lynx.action.draw_pool", map[string]any{"Set": place})
	case lynx.KindTake:
		return l.T("lynx.action.take", nil)
	case lynx.KindLeave:
		return l.T("lynx.action.leave", nil)
	case lynx.KindBack:
		return l.T("lynx.action.back", nil)
	case lynx.KindDiscard:
		return l.T("lynx.action.discard", nil)
	case lynx.KindDrawDeck:
		return l.T("lynx.action.draw_deck", nil)
	case lynx.KindPass:
		return l.T("lynx.action.pass", nil)
	}
	return a.String()
}

// Hint shows how to type a set when there are too many to list: the
// example is the viewer's largest group, padded with a joker when held.
func (Presenter) Hint(l *locales.Localizer, ev engine.View) string {
	v := ev.(*lynx.View)
	if v.Seat < 0 || v.Phase != "play" || len(v.Groups) == 0 {
		return ""
	}
	best := v.Groups[0]
	jokers := 0
	for _, g := range v.Groups {
		if g.Card == lynx.Joker {
			jokers = g.Count
			continue
		}
		if g.Count > best.Count || best.Card == lynx.Joker {
			best = g
		}
	}
	cards := repeat(best)
	if best.Card != lynx.Joker && jokers > 0 {
		cards = append(cards, lynx.Joker)
	}
	return l.T("lynx.ui.play_hint", map[string]any{"Example": "play " + LynxSet(cards)})
}

func (Presenter) Event(l *locales.Localizer, e engine.Event, names render.Names) string {
	a := e.Args
	seat := func(k string) string {
		s, _ := a[k].(engine.Seat)
		return names.Of(s)
	}
	set := func(k string) string {
		cs, _ := a[k].([]string)
		return lynxTokens(cs)
	}
	// key is the event's message, or its second-person variant when the
	// seat acting, or else the victim, is the reader's.
	seatOf := func(k string) engine.Seat {
		if s, ok := a[k].(engine.Seat); ok {
			return s
		}
		return -1
	}
	key := render.YouKeys(l, names, "lynx.event."+e.Type, seatOf("seat"), seatOf("victim"))
	switch e.Type {
	case "played", "stolen_virtual", "taken_back", "discarded", "drew_pool":
		return l.T(key, map[string]any{"Name": seat("seat"), "Set": set("cards")})
	case "stolen":
		return l.T(key, map[string]any{"Name": seat("seat"), "Set": set("cards"), "Victim": seat("victim")})
	case "taken", "left":
		return l.T(key, map[string]any{"Name": seat("seat"), "Victim": seat("victim")})
	case "drew_deck", "passed", "turn":
		return l.T(key, map[string]any{"Name": seat("seat")})
	case "drew_card", "pool_refilled":
		return l.T("lynx.event."+e.Type, map[string]any{"Set": set("cards")})
	case "virtual_refilled":
		text := ""
		if cs, _ := a["cards"].([]string); len(cs) > 0 {
			text = l.T("lynx.event.virtual_refilled", map[string]any{"Set": set("cards")})
		}
		if cs, _ := a["pool"].([]string); len(cs) > 0 {
			if text != "" {
				text += " "
			}
			text += l.T("lynx.event.virtual_to_pool", map[string]any{"Set": set("pool")})
		}
		return text
	case "game_over":
		scores, _ := a["scores"].([]int)
		places, _ := a["places"].([]int)
		hands, _ := a["tiebreak"].([]int)
		reason, _ := a["reason"].(string)
		seat, _ := a["seat"].(engine.Seat)
		return l.T("lynx.end."+reason, map[string]any{"Name": names.Of(seat)}) + "\n" + lynxEnding(l, names, scores, places, hands).Post(l)
	}
	return ""
}

// Where posts only the end of the game: every move is on the table message
// (displays, pool, the set in play) and in its list of last moves.
func (Presenter) Where(e engine.Event) render.Where {
	switch e.Type {
	case "game_over":
		return render.Posted
	case "turn", "pool_refilled", "virtual_refilled":
		// The table message names the player whose turn it is and shows the
		// pool and the virtual player's row.
		return render.Unshown
	}
	return render.Recent
}
