package chapters

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
)

// Screen builds 3 Chapters' screen of a view: the chapter and round, the
// cards of the round, every seat's tokens and played cards, the reader's
// hand (in the draft: the cards to choose from) and kept cards, and what
// the reader must do now. Cards are named without the provisional mark.
//
// A card's Suit is its first trait's id ("monster" … "royal"), "all" for
// the Shapeshifter, "" for a card without traits; its Note in a hand or
// before a seat lists its traits, in the round's cards who played it.
func (Presenter) Screen(l *locales.Localizer, ev engine.View, names render.Names, parts render.Parts, legal []engine.Action) render.Screen {
	v, ok := ev.(*chapters.View)
	if !ok {
		return render.Screen{Game: "chapters", Viewer: ev.ViewerSeat()}
	}
	t := v.Cards
	if t == nil {
		t = &chapters.DefaultCards
	}
	b := chapterScreen{l: l, v: v, t: t, names: names, legal: legal}
	return render.Build("chapters", v.Seat, parts, b)
}

// chapterScreen builds one screen; every part comes from v alone.
type chapterScreen struct {
	l     *locales.Localizer
	v     *chapters.View
	t     *chapters.Table
	names render.Names
	legal []engine.Action // what the viewer may do now: the marks
}

// Acting are the seats that must act now; none once the game is over.
func (b chapterScreen) Acting() []engine.Seat {
	if b.v.Phase == "over" {
		return nil
	}
	return slices.Clone(b.v.Acting)
}

func (b chapterScreen) own() bool { return b.v.Seat >= 0 && int(b.v.Seat) < b.v.Seats }

func (b chapterScreen) mustAct() bool {
	return b.own() && b.v.Phase != "over" && slices.Contains(b.v.Acting, b.v.Seat)
}

// who names a seat or a ghost in words the screen builds: "You" for the
// viewer.
func (b chapterScreen) who(p chapters.Play) string {
	switch {
	case p.IsGhost():
		return b.l.T("chapters.ui.ghost", map[string]any{"N": p.Ghost + 1})
	case b.own() && p.Seat == b.v.Seat:
		return b.l.T("chapters.screen.you", nil)
	}
	return b.names.Of(p.Seat)
}

func (b chapterScreen) seatWho(s engine.Seat) string {
	return b.who(chapters.Play{Seat: s, Ghost: -1})
}

// name is a card's name and value without the provisional mark:
// "Goldilocks 5".
func (b chapterScreen) name(c chapters.Card) string {
	return b.l.T("chapters.ui.card", map[string]any{"Name": b.l.T("chapters.card."+b.t.Card(c).Key, nil), "Value": int(c)})
}

// card is a card as presenters draw it, its traits below its name.
func (b chapterScreen) card(c chapters.Card) render.Card {
	d := b.t.Card(c)
	suit := ""
	switch list := d.Traits.List(); {
	case d.Traits == chapters.AllTraits:
		suit = "all"
	case len(list) > 0:
		suit = list[0].ID()
	}
	return render.Card{
		Suit: suit, Value: strconv.Itoa(int(c)), Name: b.l.T("chapters.card."+d.Key, nil),
		Note: ChaptersTraits(b.l, d.Traits), Code: c.String(),
	}
}

func (b chapterScreen) cards(cs []chapters.Card) []render.Card {
	out := make([]render.Card, len(cs))
	for i, c := range cs {
		out[i] = b.card(c)
	}
	return out
}

// text is cards in words: "Goldilocks 5 · Hansel 6".
func (b chapterScreen) text(cs []chapters.Card) string {
	if len(cs) == 0 {
		return b.l.T("chapters.ui.none", nil)
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = b.name(c)
	}
	return strings.Join(parts, " · ")
}

func (b chapterScreen) pile(label string, cs []chapters.Card) render.Pile {
	return render.Pile{Label: label, Text: b.text(cs), Cards: b.cards(cs)}
}

// plays is a round's cards, each noting who played it.
func (b chapterScreen) plays(label string, ps []chapters.Play) render.Pile {
	p := render.Pile{Label: label}
	parts := make([]string, len(ps))
	for i, pl := range ps {
		c := b.card(pl.Card)
		c.Note = b.who(pl)
		p.Cards = append(p.Cards, c)
		parts[i] = c.Note + ": " + b.name(pl.Card)
	}
	p.Text = strings.Join(parts, " · ")
	return p
}

func (b chapterScreen) Result() []string {
	v, l := b.v, b.l
	if v.Phase != "over" {
		return nil
	}
	e := chapterEnding(l, b.names, v.Points, v.Places, v.TieBreak)
	e.Viewer = v.Seat
	e.Line = func(s engine.Seat) string {
		var tok chapters.Tokens
		if int(s) < len(v.Tokens) {
			tok = v.Tokens[s]
		}
		return l.T("chapters.screen.final", map[string]any{
			"Name": b.seatWho(s), "Total": l.N("common.points", render.At(v.Points, int(s)), nil), "Tokens": ChaptersTokens(l, tok),
		})
	}
	var bonus []string
	for i, s := range v.Bonus {
		if i >= len(v.BonusGot) {
			break
		}
		key := "chapters.event.gem_bonus"
		if s == v.Seat {
			key += "_you"
		}
		bonus = append(bonus, l.T(key, map[string]any{"Name": b.names.Of(s), "Tokens": chaptersReward(l, v.BonusGot[i])}))
	}
	return e.Lines(l, bonus...)
}

// chapterEnding is the end of a game: the most points win; a tie goes to
// the highest card played.
func chapterEnding(l *locales.Localizer, names render.Names, points, places, top []int) render.Ending {
	return render.Ending{
		Game: "chapters", Viewer: engine.Spectator, Names: names,
		Scores: points, Places: places, TieBreak: top,
		Score: func(n int) string { return l.N("common.points", n, nil) },
		Rule:  l.T("chapters.end.tiebreak", nil),
		Break: func(s engine.Seat) string {
			return l.T("chapters.end.card", map[string]any{"Card": render.At(top, int(s))})
		},
	}
}

func (b chapterScreen) Prompt() string {
	if !b.mustAct() {
		return ""
	}
	switch {
	case b.v.Phase == "draft" && b.v.Ghosts:
		return b.l.T("chapters.screen.prompt.pick_ghost", nil)
	case b.v.Phase == "draft":
		return b.l.T("chapters.screen.prompt.pick", nil)
	}
	return b.l.T("chapters.screen.prompt.play", nil)
}

// hand is the viewer's hand (in the draft, the cards to choose from); every
// card may be chosen while the viewer must act.
func (b chapterScreen) Hand() *render.Pile {
	if !b.own() {
		return nil
	}
	label := "chapters.screen.hand"
	if b.v.Phase == "draft" {
		label = "chapters.screen.draft_hand"
	}
	p := b.pile(b.l.T(label, nil), b.v.Hand)
	// The cards the legal actions take (the card picked or played, the
	// card put on the ghost deck) are marked.
	take := map[chapters.Card]bool{}
	for _, ea := range b.legal {
		if a, ok := ea.(chapters.Action); ok {
			take[a.Card] = true
			if a.Ghost != 0 {
				take[a.Ghost] = true
			}
		}
	}
	for i, c := range b.v.Hand {
		p.Cards[i].Mark = take[c]
	}
	return &p
}

func (b chapterScreen) Secret() []render.Pile {
	v, l := b.v, b.l
	if !b.own() || v.Phase != "draft" {
		return nil
	}
	out := []render.Pile{b.pile(l.T("chapters.screen.kept", nil), v.Kept)}
	if v.MyPick.Kind != 0 && v.MyPick.Card != 0 {
		p := b.pile(l.T("chapters.screen.pick", nil), []chapters.Card{v.MyPick.Card})
		if g := v.MyPick.Ghost; g != 0 {
			c := b.card(g)
			c.Note = l.T("chapters.screen.for_ghost", nil)
			p.Cards = append(p.Cards, c)
			p.Text += " · " + c.Note + ": " + b.name(g)
		}
		out = append(out, p)
	}
	return out
}

func (b chapterScreen) Title() string {
	v, l := b.v, b.l
	switch v.Phase {
	case "draft":
		return l.T("chapters.ui.draft", map[string]any{"Round": v.Deal, "Rounds": v.Deals, "N": v.Picks + 1, "Count": v.PerDeal})
	case "play":
		return l.T("chapters.ui.round", map[string]any{"Round": v.Round, "Rounds": v.Rounds})
	}
	return l.T("chapters.ui.over", nil)
}

func (b chapterScreen) Center() []render.Pile {
	v, l := b.v, b.l
	var out []render.Pile
	switch {
	case v.Phase != "play":
	case len(v.Table) > 0:
		out = append(out, b.plays(l.T("chapters.screen.table", map[string]any{"Round": v.Round}), v.Table))
	case v.Last != nil && len(v.Last.Plays) > 0:
		label := l.T("chapters.screen.last_you", map[string]any{"Round": v.Last.Round})
		if w := v.Last.Plays[v.Last.Winner]; !b.own() || w.Seat != v.Seat {
			label = l.T("chapters.screen.last", map[string]any{"Round": v.Last.Round, "Name": b.who(w)})
		}
		out = append(out, b.plays(label, v.Last.Plays))
	}
	if v.Ghosts && v.Phase != "over" {
		for g, n := range v.GhostSizes {
			out = append(out, render.Pile{
				Label: l.T("chapters.screen.ghost_deck", map[string]any{"N": g + 1}),
				Text:  l.N("chapters.cards", n, nil), Count: n,
			})
		}
	}
	return out
}

func (b chapterScreen) Seats() []render.SeatPart {
	v, l := b.v, b.l
	out := make([]render.SeatPart, v.Seats)
	for i := range out {
		s := engine.Seat(i)
		sp := render.SeatPart{Seat: s, Name: b.names.Of(s), You: b.own() && s == v.Seat, Acting: v.Phase != "over" && slices.Contains(v.Acting, s)}
		if v.Phase == "draft" {
			sp.Counts = append(sp.Counts,
				l.N("chapters.screen.kept_count", render.At(v.KeptSizes, i), nil),
				l.N("chapters.screen.in_hand", render.At(v.HandSizes, i), nil))
		} else {
			var tok chapters.Tokens
			if i < len(v.Tokens) {
				tok = v.Tokens[i]
			}
			points := render.At(v.Points, i)
			sp.Score = &points
			sp.Counts = append(sp.Counts,
				l.N("common.points", points, nil),
				l.N("chapters.stars", tok.Stars, nil), l.N("chapters.hearts", tok.Hearts, nil), l.N("chapters.gems", tok.Gems, nil),
				l.N("chapters.screen.wins", render.At(v.Wins, i), nil))
			if v.Phase == "play" {
				sp.Counts = append(sp.Counts, l.N("chapters.screen.in_hand", render.At(v.HandSizes, i), nil))
			}
			if v.Phase == "over" && i < len(v.Chapter3) {
				sp.Counts = append(sp.Counts, l.T("chapters.ui.chapter3_gain", map[string]any{"Tokens": chaptersReward(l, v.Chapter3[i])}))
			}
		}
		if i < len(v.Played) && len(v.Played[i]) > 0 {
			sp.Piles = append(sp.Piles, b.pile(l.T("chapters.screen.played", nil), v.Played[i]))
		}
		sp.Line = b.seatWho(s) + ": " + strings.Join(sp.Counts, " · ")
		out[i] = sp
	}
	return out
}

func (b chapterScreen) Status() []string {
	v, l := b.v, b.l
	var out []string
	switch v.Phase {
	case "draft":
		if v.Ghosts {
			out = append(out, l.T("chapters.ui.draft_ghosts", nil))
		}
	case "play":
		if res := v.Last; res != nil && len(res.Plays) > 0 {
			w := res.Plays[res.Winner]
			// The sentence's subject is a name (the viewer's too: "You
			// won" would not agree with the verb in every language).
			name := b.names.Of(w.Seat)
			if w.IsGhost() {
				name = b.who(w)
			}
			text := l.T("chapters.ui.last_round", map[string]any{"Round": res.Round, "Name": name, "Card": b.name(w.Card)})
			var gains []string
			for i, p := range res.Plays {
				if !p.IsGhost() && i < len(res.Gains) && !res.Gains[i].Zero() {
					gains = append(gains, b.names.Of(p.Seat)+": "+chaptersReward(l, res.Gains[i]))
				}
			}
			if len(gains) > 0 {
				text += " " + l.T("chapters.ui.gains", map[string]any{"List": strings.Join(gains, "; ")})
			}
			out = append(out, text)
			if res.Frozen {
				out = append(out, l.T("chapters.ui.frozen", nil))
			}
		}
	}
	return out
}

// Rule: the game has none.
func (b chapterScreen) Rule() *render.Rule { return nil }

// Chart: the game has none.
func (b chapterScreen) Chart() *render.Chart { return nil }

// Doing: the game has none.
func (b chapterScreen) Doing() []string { return nil }

// Recent: the game has none.
func (b chapterScreen) Recent() []string { return nil }
