package lynx

import (
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
)

// Screen builds the screen of a Lynx view for a reader: the prompt and the
// hand for the seat that acts, the pool, the discard pile, the deck, the
// virtual player's row in a duel and the set in play in the center, and
// every seat's display layers, the top (stealable) layer last. Everything
// comes from the view, so nothing hidden from its seat can show.
func (Presenter) Screen(l *locales.Localizer, ev engine.View, names render.Names, parts render.Parts, legal []engine.Action) render.Screen {
	v, ok := ev.(*lynx.View)
	if !ok {
		return render.Screen{}
	}
	b := lynxScreen{l: l, v: v, names: names, hand: map[lynx.Card]bool{}, steal: map[lynx.Card]bool{}}
	// The cards to mark are those the legal actions take: every card of a
	// set the viewer may play, every set of the virtual player it may
	// steal.
	for _, ea := range legal {
		switch a, _ := ea.(lynx.Action); a.Kind {
		case lynx.KindPlay:
			for _, c := range a.Set().Cards() {
				b.hand[c] = true
			}
		case lynx.KindStealVirtual:
			b.steal[a.Value] = true
		}
	}
	return render.Build("lynx", v.Seat, parts, b)
}

// lynxScreen builds one screen; every part comes from v alone, the marks
// from the legal actions.
type lynxScreen struct {
	l           *locales.Localizer
	v           *lynx.View
	names       render.Names
	hand, steal map[lynx.Card]bool // the cards the legal actions take
}

// Acting are the seats that must act now.
func (b lynxScreen) Acting() []engine.Seat { return slices.Clone(b.v.Acting) }

// mustAct reports whether the viewer must act now.
func (b lynxScreen) mustAct() bool { return b.v.Seat >= 0 && slices.Contains(b.v.Acting, b.v.Seat) }

// card is one card as presenters draw it; a joker is named in words, a
// number card by its value.
func (b lynxScreen) card(c lynx.Card) render.Card {
	name := c.String()
	if c == lynx.Joker {
		name = b.l.T("lynx.screen.joker", nil)
	}
	return render.Card{Suit: c.String(), Value: c.String(), Name: name, Code: c.String()}
}

func (b lynxScreen) cards(cs []lynx.Card) []render.Card {
	out := make([]render.Card, len(cs))
	for i, c := range cs {
		out[i] = b.card(c)
	}
	return out
}

// Result is the end: the winners (in the second person when the viewer is
// one of them), why when the hands decided a tie, and every seat's final
// score with the cards left in its hand. None before the end.
func (b lynxScreen) Result() []string {
	v, l := b.v, b.l
	if v.Phase != "over" {
		return nil
	}
	e := lynxEnding(l, b.names, v.Scores, v.Places, v.TieBreak)
	e.Viewer = v.Seat
	e.Line = func(s engine.Seat) string {
		return l.T("lynx.screen.score", map[string]any{
			"Name":   b.names.Of(s),
			"Points": l.N("common.points", v.Scores[s], nil),
			"Cards":  l.N("lynx.screen.in_hand", v.HandSizes[s], nil),
		})
	}
	return e.Lines(l)
}

// lynxEnding is the end of a game: the most points win; a tie goes to
// fewer cards in hand.
func lynxEnding(l *locales.Localizer, names render.Names, scores, places, hands []int) render.Ending {
	return render.Ending{
		Game: "lynx", Viewer: engine.Spectator, Names: names,
		Scores: scores, Places: places, TieBreak: hands,
		Score: func(n int) string { return l.N("common.points", n, nil) },
		Rule:  l.T("lynx.end.tiebreak", nil),
		Break: func(s engine.Seat) string { return l.N("lynx.screen.in_hand", render.At(hands, int(s)), nil) },
	}
}

// Prompt says what the viewer, who must act, does now; empty when the
// viewer need not act.
func (b lynxScreen) Prompt() string {
	v, l := b.v, b.l
	if !b.mustAct() {
		return ""
	}
	switch v.Phase {
	case "play":
		return l.T("lynx.screen.prompt.play", nil)
	case "steal-virtual":
		return l.T("lynx.screen.prompt.virtual", map[string]any{"List": b.targets()})
	case "take":
		return l.T("lynx.screen.prompt.take", map[string]any{"Set": LynxSet(v.Stolen), "Victim": b.names.Of(v.Victim)})
	case "back":
		return l.T("lynx.screen.prompt.back", map[string]any{"Set": LynxSet(v.Stolen), "Name": b.names.Of(v.Active)})
	case "draw":
		if v.DeckSize == 0 {
			return l.N("lynx.screen.prompt.draw_pool", v.Owed, nil)
		}
		return l.N("lynx.screen.prompt.draw", v.Owed, nil)
	case "bonus":
		if v.DeckSize == 0 {
			return l.T("lynx.screen.prompt.bonus_pool", nil)
		}
		return l.T("lynx.screen.prompt.bonus", nil)
	}
	return ""
}

// targets lists the virtual player's groups the set may steal, with their
// sizes ("4×2 · 7").
func (b lynxScreen) targets() string {
	v := b.v
	parts := make([]string, 0, len(v.Targets))
	for _, c := range v.Targets {
		g := lynx.Group{Card: c, Count: 1}
		for _, vg := range v.Virtual {
			if vg.Card == c {
				g = vg
			}
		}
		parts = append(parts, LynxGroup(b.l, g))
	}
	return strings.Join(parts, " · ")
}

// Hand is the viewer's hand, the cards of the sets it may play marked. None
// for a spectator.
func (b lynxScreen) Hand() *render.Pile {
	v, l := b.v, b.l
	if v.Seat < 0 {
		return nil
	}
	p := &render.Pile{Label: l.T("lynx.screen.hand", nil), Cards: b.cards(v.Hand)}
	for i, c := range v.Hand {
		p.Cards[i].Mark = b.hand[c]
	}
	if len(v.Hand) == 0 {
		p.Text = l.T("lynx.screen.hand_empty", nil)
	} else {
		p.Text = l.T("lynx.screen.hand_text", map[string]any{
			"Cards": l.N("lynx.cards", len(v.Hand), nil), "List": LynxHand(l, v.Groups),
		})
	}
	return p
}

// Secret: the game has none.
func (b lynxScreen) Secret() []render.Pile { return nil }

// Title is the mode, the duel, and the end once over.
func (b lynxScreen) Title() string {
	v, l := b.v, b.l
	parts := []string{l.T("lynx.mode."+v.Mode.String(), nil)}
	if v.Duel {
		parts = append(parts, l.T("lynx.mode.duel", nil))
	}
	if v.Phase == "over" {
		parts = append(parts, l.T("lynx.screen.over", nil))
	}
	return strings.Join(parts, " · ")
}

// Rule: the game has none.
func (b lynxScreen) Rule() *render.Rule { return nil }

// Center is what lies between the seats: the pool, the deck and the
// discard pile, the virtual player's row, and the set in play with the set
// stolen from it.
func (b lynxScreen) Center() []render.Pile {
	v, l := b.v, b.l
	var out []render.Pile

	pool := render.Pile{Label: l.T("lynx.screen.pool", nil), Group: "pool"}
	places := make([]string, len(v.Pool))
	for i, place := range v.Pool {
		places[i] = lynxPlace(place)
		for k, c := range place {
			card := b.card(c)
			if k > 0 {
				card.Note = l.T("lynx.screen.on", map[string]any{"Card": place[k-1].String()})
			}
			pool.Cards = append(pool.Cards, card)
		}
	}
	if len(places) == 0 {
		pool.Text = l.T("lynx.screen.pool_empty", nil)
	} else {
		pool.Text = l.T("lynx.screen.pool_text", map[string]any{"List": strings.Join(places, " · ")})
	}
	out = append(out, pool)

	deck := render.Pile{Label: l.T("lynx.screen.deck", nil), Count: v.DeckSize, Group: "deck"}
	if v.DeckSize == 0 {
		deck.Text = l.T("lynx.screen.deck_empty", nil)
	} else {
		deck.Text = l.T("lynx.screen.deck_text", map[string]any{"Cards": l.N("lynx.cards", v.DeckSize, nil)})
	}
	out = append(out, deck)

	discard := render.Pile{Label: l.T("lynx.screen.discard", nil), Group: "deck"}
	if n := len(v.Discard); n == 0 {
		discard.Text = l.T("lynx.screen.discard_empty", nil)
	} else {
		top := v.Discard[n-1]
		discard.Cards = []render.Card{b.card(top)}
		discard.Count = n
		discard.Text = l.T("lynx.screen.discard_text", map[string]any{"Cards": l.N("lynx.cards", n, nil), "Card": top.String()})
	}
	out = append(out, discard)

	if v.Duel {
		row := render.Pile{Label: l.T("lynx.screen.virtual", nil), Group: "virtual"}
		parts := make([]string, len(v.Virtual))
		for i, g := range v.Virtual {
			parts[i] = LynxSet(repeat(g))
			mark := b.steal[g.Card]
			for range g.Count {
				c := b.card(g.Card)
				c.Mark = mark
				row.Cards = append(row.Cards, c)
			}
		}
		list := strings.Join(parts, " · ")
		if len(parts) == 0 {
			list = l.T("lynx.ui.empty", nil)
		}
		row.Text = l.T("lynx.ui.virtual", map[string]any{"Cards": l.N("lynx.cards", v.VirtualN, nil), "List": list})
		out = append(out, row)
	}

	if len(v.Played) > 0 && v.Phase != "over" && v.Phase != "play" {
		played := render.Pile{Label: l.T("lynx.screen.played", nil), Cards: b.cards(v.Played), Group: "turn"}
		if v.Active == v.Seat {
			played.Text = l.T("lynx.screen.played_you", map[string]any{"Set": LynxSet(v.Played)})
		} else {
			played.Text = l.T("lynx.screen.played_text", map[string]any{"Name": b.names.Of(v.Active), "Set": LynxSet(v.Played)})
		}
		out = append(out, played)
	}
	if len(v.Stolen) > 0 {
		stolen := render.Pile{Label: l.T("lynx.screen.stolen", nil), Cards: b.cards(v.Stolen), Group: "turn"}
		if v.Victim == v.Seat {
			stolen.Text = l.T("lynx.screen.stolen_you", map[string]any{"Set": LynxSet(v.Stolen)})
		} else {
			stolen.Text = l.T("lynx.screen.stolen_text", map[string]any{"Victim": b.names.Of(v.Victim), "Set": LynxSet(v.Stolen)})
		}
		out = append(out, stolen)
	}
	return out
}

// Seats are every seat in turn order (see seat).
func (b lynxScreen) Seats() []render.SeatPart {
	var out []render.SeatPart
	for s := 0; s < b.v.Seats; s++ {
		out = append(out, b.seat(engine.Seat(s)))
	}
	return out
}

// seat is one seat: its hand size and score in words, and its display, one
// pile per layer, the top layer last.
func (b lynxScreen) seat(seat engine.Seat) render.SeatPart {
	v, l := b.v, b.l
	s := int(seat)
	p := render.SeatPart{
		Seat: seat, Name: b.names.Of(seat), You: seat == v.Seat, Acting: slices.Contains(v.Acting, seat),
		Counts: []string{
			l.N("lynx.screen.in_hand", v.HandSizes[s], nil),
			l.N("common.points", v.Scores[s], nil),
		},
		Score: ptr(v.Scores[s]),
	}
	d := v.Displays[s]
	for i, layer := range d {
		label := l.T("lynx.screen.layer", map[string]any{"N": i + 1})
		if i == len(d)-1 {
			label = l.T("lynx.screen.top", nil)
		}
		cs := layer.Cards()
		p.Piles = append(p.Piles, render.Pile{Label: label, Text: label + ": " + LynxSet(cs), Cards: b.cards(cs)})
	}
	name := p.Name
	if seat == v.Active && v.Phase != "over" {
		name = l.T("lynx.ui.paw", map[string]any{"Name": name})
	}
	p.Line = name + ": " + lynxDisplay(l, d) + " · " + strings.Join(p.Counts, " · ")
	return p
}

// Doing says what the game waits for when the viewer is not the one to act
// (the prompt says it otherwise).
func (b lynxScreen) Doing() []string {
	v, l := b.v, b.l
	if b.mustAct() {
		return nil
	}
	active, victim := b.names.Of(v.Active), b.names.Of(v.Victim)
	var doing []string
	switch v.Phase {
	case "play":
		doing = append(doing, l.T("lynx.screen.status.play", map[string]any{"Name": active}))
	case "steal-virtual":
		doing = append(doing, l.T("lynx.screen.status.virtual", map[string]any{"Name": active, "List": b.targets()}))
	case "take":
		if v.Victim == v.Seat {
			doing = append(doing, l.T("lynx.screen.status.take_you", map[string]any{"Name": active, "Set": LynxSet(v.Stolen)}))
		} else {
			doing = append(doing, l.T("lynx.screen.status.take", map[string]any{"Name": active, "Set": LynxSet(v.Stolen), "Victim": victim}))
		}
	case "back":
		doing = append(doing, l.T("lynx.screen.status.back", map[string]any{"Name": victim, "Set": LynxSet(v.Stolen)}))
	case "draw":
		doing = append(doing, l.N("lynx.screen.status.draw", v.Owed, map[string]any{"Name": victim}))
	case "bonus":
		doing = append(doing, l.T("lynx.screen.status.bonus", map[string]any{"Name": active}))
	}
	return doing
}

// Status says who is still to be robbed, and how the game ended.
func (b lynxScreen) Status() []string {
	v, l := b.v, b.l
	var out []string
	if len(v.Pending) > 0 && v.Phase != "over" {
		pending := make([]string, len(v.Pending))
		for i, s := range v.Pending {
			pending[i] = b.names.Of(s)
			if s == v.Seat {
				pending[i] = l.T("lynx.screen.you", nil)
			}
		}
		out = append(out, l.T("lynx.screen.status.pending", map[string]any{"Names": strings.Join(pending, ", ")}))
	}
	if v.Phase == "over" && v.Reason != "" {
		key := "lynx.end." + v.Reason
		if v.Reason == "hand_empty" && v.Active == v.Seat {
			key += "_you"
		}
		out = append(out, l.T(key, map[string]any{"Name": b.names.Of(v.Active)}))
	}
	return out
}

// Recent: the game has none.
func (b lynxScreen) Recent() []string { return nil }

// Chart: the game has none.
func (b lynxScreen) Chart() *render.Chart { return nil }

// ptr is a copy of n to point to (a screen holds no pointer into a view).
func ptr(n int) *int { return &n }
