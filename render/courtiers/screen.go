package courtiers

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/locales"
)

// Screen builds the screen of a Courtisans view for a reader: the prompt,
// the hand and the two secret missions for the seat, the Queen's table as
// six family columns above and below the mat with the Queen's column of
// face-down spies between the Nightingales and the Hares, the eliminated
// cards and the draw pile in the center, and every domain by family, its
// spies face down. Everything comes from the view: a face-down spy is a
// card with its back only, no name and no family.
func (Presenter) Screen(l *locales.Localizer, ev engine.View, names render.Names, parts render.Parts, legal []engine.Action) render.Screen {
	v, ok := ev.(*courtiers.View)
	if !ok {
		return render.Screen{}
	}
	b := courtierScreen{l: l, v: v, names: names, place: map[courtiers.Card]bool{}}
	for _, ea := range legal {
		if a, ok := ea.(courtiers.Action); ok {
			b.place[a.Card] = true
		}
	}
	return render.Build("courtiers", v.Seat, parts, b)
}

// courtierScreen builds one screen; every part comes from v alone, the
// marks from the legal actions.
type courtierScreen struct {
	l     *locales.Localizer
	v     *courtiers.View
	names render.Names
	place map[courtiers.Card]bool // the cards the legal actions place
}

// Acting are the seats that must act now.
func (b courtierScreen) Acting() []engine.Seat { return slices.Clone(b.v.Acting) }

// mustAct reports whether the viewer must act now.
func (b courtierScreen) mustAct() bool {
	return b.v.Seat >= 0 && slices.Contains(b.v.Acting, b.v.Seat)
}

// card is a face-up card: its family's colour and symbol, the family's
// name, the role as its note. NoCard is a face-down spy: a back with no
// name and no family.
func (b courtierScreen) card(c courtiers.Card) render.Card {
	if c == courtiers.NoCard {
		return render.Card{Down: true}
	}
	card := render.Card{
		Suit: c.Family().String(),
		Name: b.l.T("courtiers.card."+courtiers.NewCard(c.Family(), courtiers.Plain).String(), nil),
		Code: c.String(),
	}
	if c.Role() != courtiers.Plain {
		card.Note = b.l.T("courtiers.role."+roleKey(c.Role())+".name", nil)
	}
	return card
}

func (b courtierScreen) cards(cs []courtiers.Card) []render.Card {
	out := make([]render.Card, len(cs))
	for i, c := range cs {
		out[i] = b.card(c)
	}
	return out
}

// faceDown is n face-down spies.
func faceDown(n int) []render.Card {
	out := make([]render.Card, n)
	for i := range out {
		out[i] = render.Card{Down: true}
	}
	return out
}

// Result is the end: the winners (in the second person when the viewer is
// one of them), then every seat's total with its domain points and its
// missions, fulfilled or not. None before the end.
func (b courtierScreen) Result() []string {
	v, l := b.v, b.l
	fin := v.Final
	if fin == nil {
		return nil
	}
	e := courtierEnding(l, b.names, fin.Totals, fin.Places)
	e.Viewer = v.Seat
	e.Line = func(seat engine.Seat) string {
		s := int(seat)
		var ms []string
		for _, m := range fin.Missions[s] {
			name, _ := CourtierMission(l, m.Mission)
			key := "courtiers.ui.mission_failed"
			if m.Done {
				key = "courtiers.ui.mission_done"
			}
			ms = append(ms, l.T(key, map[string]any{"Name": name}))
		}
		return l.T("courtiers.screen.score", map[string]any{
			"Name": b.names.Of(seat), "Points": l.N("common.points", fin.Totals[s], nil),
			"Score": signed(fin.Points[s]), "Missions": strings.Join(ms, ", "),
		})
	}
	return e.Lines(l, b.statuses())
}

// courtierEnding is the end of a game: the most points win; the game has
// no tie-break, a tie is shared.
func courtierEnding(l *locales.Localizer, names render.Names, totals, places []int) render.Ending {
	return render.Ending{
		Game: "courtiers", Viewer: engine.Spectator, Names: names, Scores: totals, Places: places,
		Score: func(n int) string { return l.N("common.points", n, nil) },
		Rule:  l.T("courtiers.end.tiebreak", nil),
	}
}

// signed writes a score with its sign: +3, −2, 0.
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// Prompt asks the viewer to place a card in one of the areas still open
// this turn; empty when it is not the viewer's turn.
func (b courtierScreen) Prompt() string {
	v, l := b.v, b.l
	if !b.mustAct() {
		return ""
	}
	var areas []string
	if v.QueenOpen {
		areas = append(areas, l.T("courtiers.screen.where.queen", nil))
	}
	if v.OwnOpen {
		areas = append(areas, l.T("courtiers.screen.where.own", nil))
	}
	if v.OppOpen {
		areas = append(areas, l.T("courtiers.screen.where.opp", nil))
	}
	key := "courtiers.screen.prompt.each"
	if len(areas) == 1 {
		key = "courtiers.screen.prompt.single"
	}
	return l.T(key, map[string]any{"List": b.and(areas)})
}

// and joins words with commas and the reader's "and".
func (b courtierScreen) and(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return b.l.T("courtiers.screen.and", map[string]any{
		"List": strings.Join(parts[:len(parts)-1], ", "), "Last": parts[len(parts)-1],
	})
}

// Hand is the viewer's hand, the cards the legal actions place marked.
// None for a spectator.
func (b courtierScreen) Hand() *render.Pile {
	v, l := b.v, b.l
	if v.Seat < 0 {
		return nil
	}
	p := &render.Pile{Label: l.T("courtiers.screen.hand", nil), Cards: b.cards(v.Hand)}
	for i, c := range v.Hand {
		p.Cards[i].Mark = b.place[c]
	}
	if len(v.Hand) == 0 {
		p.Text = l.T("courtiers.screen.hand_empty", nil)
	} else {
		p.Text = l.T("courtiers.screen.hand_text", map[string]any{"Cards": courtierCards(l, v.Hand)})
	}
	return p
}

// Secret are the viewer's white and blue missions, each a pile of one card
// that carries only the mission's name. None for a spectator.
func (b courtierScreen) Secret() []render.Pile {
	v, l := b.v, b.l
	if v.Seat < 0 {
		return nil
	}
	var out []render.Pile
	for k, m := range v.Missions {
		if m == courtiers.NoMission {
			continue
		}
		name, text := CourtierMission(l, m)
		label, key := "courtiers.screen.mission_white", "courtiers.ui.mission_white"
		if k == 1 {
			label, key = "courtiers.screen.mission_blue", "courtiers.ui.mission_blue"
		}
		out = append(out, render.Pile{
			Label: l.T(label, nil),
			Text:  l.T(key, map[string]any{"Name": name, "Text": text}),
			Cards: []render.Card{{Name: name}},
		})
	}
	return out
}

// Title says whose turn it is, or that the game is over.
func (b courtierScreen) Title() string {
	v, l := b.v, b.l
	switch {
	case v.Final != nil:
		return l.T("courtiers.screen.title.over", nil)
	case v.Turn == v.Seat:
		return l.T("courtiers.screen.title.you", nil)
	}
	return l.T("courtiers.screen.title.turn", map[string]any{"Name": b.names.Of(v.Turn)})
}

// Rule: the game has none.
func (b courtierScreen) Rule() *render.Rule { return nil }

// Center is the Queen's table column by column (left to right, the Queen's
// column between the Nightingales and the Hares), each column a pile above
// the mat (group "up") and one below (group "down"), then the eliminated
// cards and the draw pile (group "aside").
func (b courtierScreen) Center() []render.Pile {
	v, l := b.v, b.l
	var out []render.Pile
	// A column's short form is its weight on each side (the face-down
	// spies by their number): what decides esteem.
	column := func(label string, up, down []render.Card, upText, downText string, upWeight, downWeight int) {
		out = append(out,
			render.Pile{Label: label, Group: "up", Cards: up, Text: l.T("courtiers.screen.up", map[string]any{"Family": label, "List": upText}),
				Short: l.T("courtiers.screen.up_short", map[string]any{"Family": label, "N": upWeight})},
			render.Pile{Label: label, Group: "down", Cards: down, Text: l.T("courtiers.screen.down", map[string]any{"Family": label, "List": downText}),
				Short: l.T("courtiers.screen.down_short", map[string]any{"Family": label, "N": downWeight})},
		)
	}
	for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
		col := v.Table[f]
		column(CourtierFamily(l, f), b.cards(col.Up), b.cards(col.Down),
			b.column(col.Up, col.UpWeight), b.column(col.Down, col.DownWeight), col.UpWeight, col.DownWeight)
		if f == courtiers.Nightingale && v.Final == nil {
			column(l.T("courtiers.screen.queen", nil), faceDown(v.QueenUp), faceDown(v.QueenDown),
				b.spies(v.QueenUp), b.spies(v.QueenDown), v.QueenUp, v.QueenDown)
		}
	}

	killed := render.Pile{Label: l.T("courtiers.screen.killed", nil), Group: "aside", Cards: b.cards(v.Killed)}
	killed.Cards = append(killed.Cards, faceDown(v.Ghosts)...)
	killed.Text = l.T("courtiers.ui.killed", map[string]any{"Cards": b.withHidden(v.Killed, v.Ghosts)})
	killed.Short = l.T("courtiers.screen.killed_short", map[string]any{"N": len(killed.Cards)})
	out = append(out, killed)

	deck := render.Pile{Label: l.T("courtiers.screen.deck", nil), Group: "aside", Count: v.Deck}
	if v.Deck == 0 {
		deck.Text = l.T("courtiers.screen.deck_empty", nil)
	} else {
		deck.Text = l.T("courtiers.screen.deck_text", map[string]any{"Cards": l.N("courtiers.cards", v.Deck, nil)})
	}
	deck.Short = deck.Text
	return append(out, deck)
}

// column lists one side of a family's column by role, with its weight (a
// noble counts 2); "none" when empty.
func (b courtierScreen) column(cs []courtiers.Card, weight int) string {
	if len(cs) == 0 {
		return b.l.T("courtiers.screen.none", nil)
	}
	return roleList(b.l, cs) + " (" + b.l.T("courtiers.screen.weight", map[string]any{"N": weight}) + ")"
}

// spies is n face-down spies in words; "none" when there are none.
func (b courtierScreen) spies(n int) string {
	if n == 0 {
		return b.l.T("courtiers.screen.none", nil)
	}
	return b.l.N("courtiers.face_down", n, nil)
}

// Seats are every seat in turn order (see seat).
func (b courtierScreen) Seats() []render.SeatPart {
	var out []render.SeatPart
	for s := 0; s < b.v.Seats; s++ {
		out = append(out, b.seat(engine.Seat(s)))
	}
	return out
}

// seat is one seat: its hand size, its domain's size (its points once the
// game is over), and its domain by family, the face-down spies last.
func (b courtierScreen) seat(seat engine.Seat) render.SeatPart {
	v, l := b.v, b.l
	s := int(seat)
	d := v.Domains[s]
	p := render.SeatPart{
		Seat: seat, Name: b.names.Of(seat), You: seat == v.Seat, Acting: slices.Contains(v.Acting, seat),
		Counts: []string{
			l.N("courtiers.screen.in_hand", v.HandSizes[s], nil),
			l.N("courtiers.screen.in_domain", len(d.Cards)+d.Hidden, nil),
		},
	}
	if v.Final != nil && s < len(v.Final.Totals) {
		p.Counts = append(p.Counts, l.N("common.points", v.Final.Totals[s], nil))
	}
	for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
		var cs []courtiers.Card
		for _, c := range d.Cards {
			if c.Family() == f {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		label := CourtierFamily(l, f)
		p.Piles = append(p.Piles, render.Pile{Label: label, Text: label + ": " + roleList(l, cs), Cards: b.cards(cs),
			Short: l.T("courtiers.screen.domain_short", map[string]any{"Family": label, "N": len(cs)})})
	}
	if d.Hidden > 0 {
		label := l.T("courtiers.screen.spies", nil)
		p.Piles = append(p.Piles, render.Pile{Label: label, Text: l.N("courtiers.face_down", d.Hidden, nil), Cards: faceDown(d.Hidden),
			Short: l.T("courtiers.screen.domain_short", map[string]any{"Family": label, "N": d.Hidden})})
	}
	p.Line = p.Name + ": " + b.withHidden(d.Cards, d.Hidden) + " · " + strings.Join(p.Counts, " · ")
	return p
}

// Doing says whose turn it is and what is still to fill, when it is not
// the viewer's (the prompt says it then); nothing once the game is over.
func (b courtierScreen) Doing() []string {
	v, l := b.v, b.l
	if v.Final != nil || b.mustAct() {
		return nil
	}
	var slots []string
	if v.QueenOpen {
		slots = append(slots, l.T("courtiers.screen.slot.queen", nil))
	}
	if v.OwnOpen {
		slots = append(slots, l.T("courtiers.screen.slot.own", nil))
	}
	if v.OppOpen {
		slots = append(slots, l.T("courtiers.screen.slot.opp", nil))
	}
	return []string{l.T("courtiers.screen.turn", map[string]any{"Name": b.names.Of(v.Turn), "List": strings.Join(slots, ", ")})}
}

// Status is the empty draw pile, the cards set aside, and at the end each
// family's standing.
func (b courtierScreen) Status() []string {
	v, l := b.v, b.l
	var out []string
	if v.Deck == 0 && v.Final == nil {
		out = append(out, l.T("courtiers.event.deck_empty", nil))
	}
	if v.Removed > 0 {
		out = append(out, l.T("courtiers.screen.removed", map[string]any{"Cards": l.N("courtiers.cards", v.Removed, nil)}))
	}
	return out
}

// statuses names the families that ended esteemed, disgraced and neither:
// what the domains' scores follow from.
func (b courtierScreen) statuses() string {
	l := b.l
	var by [3][]string
	for f, st := range b.v.Final.Status {
		by[st] = append(by[st], CourtierFamily(l, courtiers.Family(f)))
	}
	list := func(st courtiers.Status) string {
		if len(by[st]) == 0 {
			return l.T("courtiers.screen.none", nil)
		}
		return strings.Join(by[st], ", ")
	}
	return l.T("courtiers.screen.statuses", map[string]any{
		"Up": list(courtiers.Esteemed), "Down": list(courtiers.Disgraced), "List": list(courtiers.Neutral),
	})
}

// Recent are this turn's and the previous turn's placements.
func (b courtierScreen) Recent() []string {
	v, l := b.v, b.l
	var recent []string
	if len(v.Moves) > 0 && v.Final == nil {
		recent = append(recent, l.T("courtiers.ui.this_turn", map[string]any{"List": b.moves(v.Turn, v.Moves)}))
	}
	if len(v.Last) > 0 && v.LastSeat >= 0 {
		list := b.moves(v.LastSeat, v.Last)
		if v.LastSeat == v.Seat {
			recent = append(recent, l.T("courtiers.screen.last_you", map[string]any{"List": list}))
		} else {
			recent = append(recent, l.T("courtiers.screen.last", map[string]any{"Name": b.names.Of(v.LastSeat), "List": list}))
		}
	}
	return recent
}

// moves describes a turn's placements by seat, in the second person when
// the seat or the domain is the viewer's.
func (b courtierScreen) moves(seat engine.Seat, ps []courtiers.Placement) string {
	v, l, names := b.v, b.l, b.names
	parts := make([]string, len(ps))
	for i, p := range ps {
		a := courtiers.Action{Area: p.Area, Opp: p.Opp}
		var text string
		if seat == v.Seat {
			area := CourtierArea(l, a)
			if p.Area == courtiers.AreaOpp {
				area = l.T("courtiers.event.area_opp", map[string]any{"Owner": names.Of(p.Opp)})
			}
			text = l.T("courtiers.screen.you_placed", map[string]any{"Card": CourtierCard(l, p.Card), "Area": area})
		} else {
			var area string
			switch {
			case p.Area == courtiers.AreaOpp && p.Opp == v.Seat:
				area = l.T("courtiers.screen.area_yours", nil)
			default:
				area = eventArea(l, a.AreaString(), seat, p.Opp, names)
			}
			text = l.T("courtiers.event.placed", map[string]any{"Name": names.Of(seat), "Card": CourtierCard(l, p.Card), "Area": area})
		}
		if p.Kill {
			text += " " + l.T("courtiers.event.killed", map[string]any{"Target": courtierTarget(l, p.Target, p.Side.String())})
		}
		parts[i] = text
	}
	return strings.Join(parts, " ")
}

// Chart: the game has none.
func (b courtierScreen) Chart() *render.Chart { return nil }

// withHidden names cards face up and how many more lie face down
// ("Carp + 2 face down"), or says there are none.
func (b courtierScreen) withHidden(cs []courtiers.Card, hidden int) string {
	var parts []string
	if len(cs) > 0 {
		parts = append(parts, courtierCards(b.l, cs))
	}
	if hidden > 0 {
		parts = append(parts, b.l.N("courtiers.face_down", hidden, nil))
	}
	if len(parts) == 0 {
		return b.l.T("courtiers.screen.none", nil)
	}
	return strings.Join(parts, " + ")
}
