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
	v := ev.(*courtiers.View)
	acting := v.Seat >= 0 && slices.Contains(v.Acting, v.Seat)
	sc := render.Screen{
		Game:   "courtiers",
		Acting: slices.Clone(v.Acting),
		Viewer: v.Seat,
	}
	if v.Final != nil {
		sc.Result = courtiersScreenResult(l, v, names)
	}
	if acting {
		sc.Prompt = courtiersScreenPrompt(l, v)
	}
	if v.Seat >= 0 {
		sc.Hand = courtiersScreenHand(l, v, acting)
		sc.Secret = courtiersScreenMissions(l, v)
	}
	if parts == render.PrivateParts {
		return sc
	}
	sc.Title = courtiersScreenTitle(l, v, names)
	sc.Center = courtiersScreenCenter(l, v)
	for s := 0; s < v.Seats; s++ {
		sc.Seats = append(sc.Seats, courtiersScreenSeat(l, v, names, engine.Seat(s)))
	}
	sc.Doing, sc.Status, sc.Recent = courtiersScreenStatus(l, v, names, acting)
	return sc
}

func courtiersScreenTitle(l *locales.Localizer, v *courtiers.View, names render.Names) string {
	switch {
	case v.Final != nil:
		return l.T("courtiers.screen.title.over", nil)
	case v.Turn == v.Seat:
		return l.T("courtiers.screen.title.you", nil)
	}
	return l.T("courtiers.screen.title.turn", map[string]any{"Name": names.Of(v.Turn)})
}

// courtiersScreenCard is a face-up card: its family's colour and symbol,
// the family's name, the role as its note. NoCard is a face-down spy: a
// back with no name and no family.
func courtiersScreenCard(l *locales.Localizer, c courtiers.Card) render.Card {
	if c == courtiers.NoCard {
		return render.Card{Down: true}
	}
	card := render.Card{
		Suit: c.Family().String(),
		Name: l.T("courtiers.card."+courtiers.NewCard(c.Family(), courtiers.Plain).String(), nil),
		Code: c.String(),
	}
	if c.Role() != courtiers.Plain {
		card.Note = l.T("courtiers.role."+roleKey(c.Role())+".name", nil)
	}
	return card
}

func courtiersScreenCards(l *locales.Localizer, cs []courtiers.Card) []render.Card {
	out := make([]render.Card, len(cs))
	for i, c := range cs {
		out[i] = courtiersScreenCard(l, c)
	}
	return out
}

// courtiersScreenDown is n face-down spies.
func courtiersScreenDown(n int) []render.Card {
	out := make([]render.Card, n)
	for i := range out {
		out[i] = render.Card{Down: true}
	}
	return out
}

// courtiersScreenHand is the viewer's hand; every card is marked on the
// viewer's turn (any card may go to any area still open).
func courtiersScreenHand(l *locales.Localizer, v *courtiers.View, acting bool) *render.Pile {
	p := &render.Pile{Label: l.T("courtiers.screen.hand", nil), Cards: courtiersScreenCards(l, v.Hand)}
	for i := range p.Cards {
		p.Cards[i].Mark = acting
	}
	if len(v.Hand) == 0 {
		p.Text = l.T("courtiers.screen.hand_empty", nil)
	} else {
		p.Text = l.T("courtiers.screen.hand_text", map[string]any{"Cards": courtierCards(l, v.Hand)})
	}
	return p
}

// courtiersScreenMissions are the viewer's white and blue missions, each a
// pile of one card that carries only the mission's name.
func courtiersScreenMissions(l *locales.Localizer, v *courtiers.View) []render.Pile {
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

// courtiersScreenPrompt asks the viewer to place a card in one of the areas
// still open this turn.
func courtiersScreenPrompt(l *locales.Localizer, v *courtiers.View) string {
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
	return l.T(key, map[string]any{"List": courtiersScreenAnd(l, areas)})
}

// courtiersScreenAnd joins words with commas and the reader's "and".
func courtiersScreenAnd(l *locales.Localizer, parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return l.T("courtiers.screen.and", map[string]any{
		"List": strings.Join(parts[:len(parts)-1], ", "), "Last": parts[len(parts)-1],
	})
}

// courtiersScreenCenter is the Queen's table column by column (left to
// right, the Queen's column between the Nightingales and the Hares), each
// column a pile above the mat (group "up") and one below (group "down"),
// then the eliminated cards and the draw pile (group "aside").
func courtiersScreenCenter(l *locales.Localizer, v *courtiers.View) []render.Pile {
	var out []render.Pile
	column := func(label string, up, down []render.Card, upText, downText string) {
		out = append(out,
			render.Pile{Label: label, Group: "up", Cards: up, Text: l.T("courtiers.screen.up", map[string]any{"Family": label, "List": upText})},
			render.Pile{Label: label, Group: "down", Cards: down, Text: l.T("courtiers.screen.down", map[string]any{"Family": label, "List": downText})},
		)
	}
	for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
		col := v.Table[f]
		column(CourtierFamily(l, f), courtiersScreenCards(l, col.Up), courtiersScreenCards(l, col.Down),
			courtiersScreenColumn(l, col.Up, col.UpWeight), courtiersScreenColumn(l, col.Down, col.DownWeight))
		if f == courtiers.Nightingale && v.Final == nil {
			column(l.T("courtiers.screen.queen", nil), courtiersScreenDown(v.QueenUp), courtiersScreenDown(v.QueenDown),
				courtiersScreenSpies(l, v.QueenUp), courtiersScreenSpies(l, v.QueenDown))
		}
	}

	killed := render.Pile{Label: l.T("courtiers.screen.killed", nil), Group: "aside", Cards: courtiersScreenCards(l, v.Killed)}
	killed.Cards = append(killed.Cards, courtiersScreenDown(v.Ghosts)...)
	list := l.T("courtiers.screen.none", nil)
	if len(v.Killed) > 0 || v.Ghosts > 0 {
		var parts []string
		if len(v.Killed) > 0 {
			parts = append(parts, courtierCards(l, v.Killed))
		}
		if v.Ghosts > 0 {
			parts = append(parts, l.N("courtiers.face_down", v.Ghosts, nil))
		}
		list = strings.Join(parts, " + ")
	}
	killed.Text = l.T("courtiers.ui.killed", map[string]any{"Cards": list})
	out = append(out, killed)

	deck := render.Pile{Label: l.T("courtiers.screen.deck", nil), Group: "aside", Count: v.Deck}
	if v.Deck == 0 {
		deck.Text = l.T("courtiers.screen.deck_empty", nil)
	} else {
		deck.Text = l.T("courtiers.screen.deck_text", map[string]any{"Cards": l.N("courtiers.cards", v.Deck, nil)})
	}
	return append(out, deck)
}

// courtiersScreenColumn lists one side of a family's column by role, with
// its weight (a noble counts 2); "none" when empty.
func courtiersScreenColumn(l *locales.Localizer, cs []courtiers.Card, weight int) string {
	if len(cs) == 0 {
		return l.T("courtiers.screen.none", nil)
	}
	return roleList(l, cs) + " (" + l.T("courtiers.screen.weight", map[string]any{"N": weight}) + ")"
}

func courtiersScreenSpies(l *locales.Localizer, n int) string {
	if n == 0 {
		return l.T("courtiers.screen.none", nil)
	}
	return l.N("courtiers.face_down", n, nil)
}

// courtiersScreenSeat is one seat: its hand size, its domain's size (its
// points once the game is over), and its domain by family, the face-down
// spies last.
func courtiersScreenSeat(l *locales.Localizer, v *courtiers.View, names render.Names, seat engine.Seat) render.SeatPart {
	s := int(seat)
	d := v.Domains[s]
	p := render.SeatPart{
		Seat: seat, Name: names.Of(seat), You: seat == v.Seat, Acting: slices.Contains(v.Acting, seat),
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
		p.Piles = append(p.Piles, render.Pile{Label: label, Text: label + ": " + roleList(l, cs), Cards: courtiersScreenCards(l, cs)})
	}
	if d.Hidden > 0 {
		label := l.T("courtiers.screen.spies", nil)
		p.Piles = append(p.Piles, render.Pile{Label: label, Text: l.N("courtiers.face_down", d.Hidden, nil), Cards: courtiersScreenDown(d.Hidden)})
	}
	domain := l.T("courtiers.screen.none", nil)
	if len(d.Cards) > 0 || d.Hidden > 0 {
		var parts []string
		if len(d.Cards) > 0 {
			parts = append(parts, courtierCards(l, d.Cards))
		}
		if d.Hidden > 0 {
			parts = append(parts, l.N("courtiers.face_down", d.Hidden, nil))
		}
		domain = strings.Join(parts, " + ")
	}
	p.Line = p.Name + ": " + domain + " · " + strings.Join(p.Counts, " · ")
	return p
}

// courtiersScreenStatus: whose turn it is and what is still to fill (when
// it is not the viewer's: the prompt says it then: doing); the empty draw
// pile, the cards set aside, and at the end each family's standing
// (status); this turn's and the previous turn's placements (recent).
func courtiersScreenStatus(l *locales.Localizer, v *courtiers.View, names render.Names, acting bool) (doing, out, recent []string) {
	if v.Final == nil && !acting {
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
		doing = append(doing, l.T("courtiers.screen.turn", map[string]any{"Name": names.Of(v.Turn), "List": strings.Join(slots, ", ")}))
	}
	if len(v.Moves) > 0 && v.Final == nil {
		recent = append(recent, l.T("courtiers.ui.this_turn", map[string]any{"List": courtiersScreenMoves(l, v, v.Turn, v.Moves, names)}))
	}
	if len(v.Last) > 0 && v.LastSeat >= 0 {
		list := courtiersScreenMoves(l, v, v.LastSeat, v.Last, names)
		if v.LastSeat == v.Seat {
			recent = append(recent, l.T("courtiers.screen.last_you", map[string]any{"List": list}))
		} else {
			recent = append(recent, l.T("courtiers.screen.last", map[string]any{"Name": names.Of(v.LastSeat), "List": list}))
		}
	}
	if v.Deck == 0 && v.Final == nil {
		out = append(out, l.T("courtiers.event.deck_empty", nil))
	}
	if v.Removed > 0 {
		out = append(out, l.T("courtiers.screen.removed", map[string]any{"Cards": l.N("courtiers.cards", v.Removed, nil)}))
	}
	if v.Final != nil {
		var by [3][]string
		for f, st := range v.Final.Status {
			by[st] = append(by[st], CourtierFamily(l, courtiers.Family(f)))
		}
		list := func(st courtiers.Status) string {
			if len(by[st]) == 0 {
				return l.T("courtiers.screen.none", nil)
			}
			return strings.Join(by[st], ", ")
		}
		out = append(out, l.T("courtiers.screen.statuses", map[string]any{
			"Up": list(courtiers.Esteemed), "Down": list(courtiers.Disgraced), "List": list(courtiers.Neutral),
		}))
	}
	return doing, out, recent
}

// courtiersScreenMoves describes a turn's placements by seat, in the
// second person when the seat or the domain is the viewer's.
func courtiersScreenMoves(l *locales.Localizer, v *courtiers.View, seat engine.Seat, ps []courtiers.Placement, names render.Names) string {
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

// courtiersScreenResult is the end: the winners (in the second person when
// the viewer is one of them), then every seat's total with its domain
// points and its missions, fulfilled or not.
func courtiersScreenResult(l *locales.Localizer, v *courtiers.View, names render.Names) []string {
	fin := v.Final
	out := []string{render.WinnersOf(l, "courtiers", v.Seat, fin.Winners, names)}
	for s := range fin.Totals {
		var ms []string
		for _, m := range fin.Missions[s] {
			name, _ := CourtierMission(l, m.Mission)
			key := "courtiers.ui.mission_failed"
			if m.Done {
				key = "courtiers.ui.mission_done"
			}
			ms = append(ms, l.T(key, map[string]any{"Name": name}))
		}
		out = append(out, l.T("courtiers.screen.score", map[string]any{
			"Name": names.Of(engine.Seat(s)), "Points": l.N("common.points", fin.Totals[s], nil),
			"Score": courtiersScreenSigned(fin.Points[s]), "Missions": strings.Join(ms, ", "),
		}))
	}
	return out
}

// courtiersScreenSigned writes a score with its sign: +3, −2, 0.
func courtiersScreenSigned(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}
