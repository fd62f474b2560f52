package princesses

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// Screen builds Rebel Princess's screen of a view: the round card's rule,
// the trick, the seats with their princesses and counts, the reader's hand
// with the cards they may play marked, what the reader must do now, and the
// proposals after every round.
func (Presenter) Screen(l *locales.Localizer, ev engine.View, names render.Names, parts render.Parts, legal []engine.Action) render.Screen {
	v, ok := ev.(*princesses.View)
	if !ok {
		return render.Screen{Game: "princesses", Viewer: ev.ViewerSeat()}
	}
	b := princessScreen{l: l, v: v, names: names, legal: legal}
	return render.Build("princesses", v.Seat, parts, b)
}

// princessScreen builds one screen; every part comes from v alone.
type princessScreen struct {
	l     *locales.Localizer
	v     *princesses.View
	names render.Names
	legal []engine.Action
}

// Acting are the seats that must act now; none once the game is over.
func (b princessScreen) Acting() []engine.Seat {
	if b.v.Phase == "over" {
		return nil
	}
	return slices.Clone(b.v.Acting)
}

// own reports whether the screen is a seat's (not a spectator's).
func (b princessScreen) own() bool { return b.v.Seat >= 0 && int(b.v.Seat) < b.v.Seats }

// acting reports whether the viewer must act now.
func (b princessScreen) mustAct() bool {
	return b.own() && b.v.Phase != "over" && slices.Contains(b.v.Acting, b.v.Seat)
}

// who names a seat in words the screen builds: "You" for the viewer.
func (b princessScreen) who(s engine.Seat) string {
	if b.own() && s == b.v.Seat {
		return b.l.T("princesses.screen.you", nil)
	}
	return b.names.Of(s)
}

// neighbour is the seat k places to the left (k > 0, seat+k) or to the
// right (k < 0) of the viewer.
func (b princessScreen) neighbour(k int) engine.Seat {
	n := b.v.Seats
	return engine.Seat(((int(b.v.Seat)+k)%n + n) % n)
}

// princessCardOf is a card as presenters draw it.
func princessCardOf(l *locales.Localizer, c princesses.Card) render.Card {
	return render.Card{Suit: c.Suit().Letter(), Value: strconv.Itoa(c.Rank()), Name: PrincessCard(l, c), Code: c.String()}
}

func princessCardsOf(l *locales.Localizer, cs []princesses.Card) []render.Card {
	out := make([]render.Card, len(cs))
	for i, c := range cs {
		out[i] = princessCardOf(l, c)
	}
	return out
}

// princessFaceDown is a card shown by its back only.
func princessFaceDown(l *locales.Localizer) render.Card {
	return render.Card{Name: l.T("princesses.roundcard.face_down", nil), Down: true}
}

// cardsText is a pile in words: "Queen 7 · Fairy 3".
func (b princessScreen) cardsText(cs []render.Card) string {
	if len(cs) == 0 {
		return b.l.T("princesses.screen.no_cards", nil)
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name
	}
	return strings.Join(parts, " · ")
}

// pile is a pile of face-up cards with its words.
func (b princessScreen) pile(label string, cs []princesses.Card) render.Pile {
	cards := princessCardsOf(b.l, cs)
	return render.Pile{Label: label, Text: b.cardsText(cards), Cards: cards}
}

// princessCard is a princess as a card: her name, her power's name below.
func (b princessScreen) princessCard(id string) render.Card {
	return render.Card{Suit: "princess", Name: princessName(b.l, id), Note: b.l.T("princesses.princess."+id+".power", nil)}
}

// powerText is a princess's power in full, as the table's edition has it.
func (b princessScreen) powerText(id string) string {
	key := "princesses.princess." + id + ".text"
	if b.v.Edition == princesses.Classic && b.l.Has(key+"_classic") {
		key += "_classic"
	}
	return b.l.T(key, nil)
}

func (b princessScreen) princessText(id string) string {
	return b.l.T("princesses.screen.princess", map[string]any{"Name": princessName(b.l, id), "Power": b.l.T("princesses.princess."+id+".power", nil)})
}

// ---------------------------------------------------------------- the end

func (b princessScreen) Result() []string {
	v, l := b.v, b.l
	if v.Phase != "over" {
		return nil
	}
	e := princessEnding(l, v.Edition, b.names, v.Totals, v.Places, v.TieBreak)
	e.Viewer = v.Seat
	e.Line = func(s engine.Seat) string { return b.who(s) + ": " + l.N("princesses.proposals", v.Totals[s], nil) }
	return e.Lines(l)
}

// princessEnding is the end of a game: the fewest proposals win; a tie
// goes to the rounds that count, as the edition counts them.
func princessEnding(l *locales.Localizer, ed princesses.Edition, names render.Names, totals, places, good []int) render.Ending {
	rule := "princesses.end.tiebreak"
	if ed == princesses.Classic {
		rule += "_classic"
	}
	return render.Ending{
		Game: "princesses", Viewer: engine.Spectator, Names: names,
		Scores: totals, Places: places, TieBreak: good,
		Score: func(n int) string { return l.N("princesses.proposals", n, nil) },
		Rule:  l.T(rule, nil),
		Break: func(s engine.Seat) string { return l.N("common.rounds", render.At(good, int(s)), nil) },
	}
}

// ---------------------------------------------------------------- the prompt

func (b princessScreen) Prompt() string {
	v, l := b.v, b.l
	if !b.mustAct() {
		return ""
	}
	switch v.Phase {
	case "choose":
		return l.T("princesses.screen.prompt.choose", nil)
	case "pass":
		left, right := b.neighbour(1), b.neighbour(-1)
		switch {
		case v.PassLeft > 0 && v.PassRight > 0:
			return l.T("princesses.screen.prompt.pass_both", map[string]any{"Name": b.names.Of(left), "Target": b.names.Of(right)})
		case v.PassLeft > 0:
			return l.N("princesses.screen.prompt.pass", v.PassLeft, map[string]any{"Name": b.names.Of(left)})
		default:
			return l.N("princesses.screen.prompt.pass", v.PassRight, map[string]any{"Name": b.names.Of(right)})
		}
	case "split":
		return l.N("princesses.ui.split_pick", len(v.Hand)/2, nil)
	case "aside", "reveal", "gift", "haggle":
		return l.T("princesses.screen.prompt."+v.Phase, nil)
	case "give":
		return l.T("princesses.screen.prompt.give", map[string]any{"Name": b.names.Of(b.neighbour(-1))})
	case "offer":
		return l.T("princesses.screen.prompt.offer", map[string]any{"Name": b.names.Of(v.PowerSeat)})
	case "play":
		if len(v.Masked) > 0 && v.Seat != v.Leader {
			return l.T("princesses.screen.prompt.play_masked", nil)
		}
		return l.T("princesses.screen.prompt.play", nil)
	case "power":
		switch v.PowerStep {
		case "trade", "freeze":
			return l.T("princesses.screen.prompt."+v.PowerStep, map[string]any{"Name": b.names.Of(v.PowerTarget)})
		case "sing", "mulan", "alice", "pocahontas", "retain", "assign":
			return l.T("princesses.screen.prompt."+v.PowerStep, nil)
		}
	}
	// A step this screen does not know yet: the generic words.
	return l.T("princesses.screen.prompt.act", nil)
}

// ---------------------------------------------------------------- the hand

func (b princessScreen) Hand() *render.Pile {
	v, l := b.v, b.l
	if !b.own() {
		return nil
	}
	marks := b.marks()
	cards := princessCardsOf(l, v.Hand)
	for i, c := range v.Hand {
		cards[i].Mark = marks[c]
		switch {
		case v.MyFrozen != 0 && v.FrozenSeat == v.Seat && c == v.MyFrozen:
			cards[i].Note = l.T("princesses.screen.frozen", nil)
		case int(v.Seat) < len(v.Revealed) && slices.Contains(v.Revealed[v.Seat], c):
			cards[i].Note = l.T("princesses.screen.shown", nil)
		}
	}
	return &render.Pile{Label: l.T("princesses.screen.hand", nil), Text: b.cardsText(cards), Cards: cards}
}

// marks are the cards the seat may play now, as the engine's legal actions
// take them from its hand: the card of a play without a power, of a card
// set aside, given, offered or swapped; every card of a pass or a split.
func (b princessScreen) marks() map[princesses.Card]bool {
	out := map[princesses.Card]bool{}
	for _, ea := range b.legal {
		a, ok := ea.(princesses.Action)
		if !ok {
			continue
		}
		switch {
		case a.Kind == princesses.KindPlay && a.Pow == 0 && b.v.Phase == "play",
			a.Kind == princesses.KindAside, a.Kind == princesses.KindGift, a.Kind == princesses.KindGive,
			a.Kind == princesses.KindOffer, a.Kind == princesses.KindSwap:
			out[a.Cards[0]] = true
		case a.Kind == princesses.KindPass, a.Kind == princesses.KindSplit:
			for _, c := range a.CardList() {
				out[c] = true
			}
			if len(out) == len(b.v.Hand) {
				return out // a pass or a split lists every combination: the hand is covered
			}
		}
	}
	return out
}

// ---------------------------------------------------------------- secrets

func (b princessScreen) Secret() []render.Pile {
	v, l := b.v, b.l
	if !b.own() {
		return nil
	}
	var out []render.Pile
	me := v.Seat
	mine := ""
	if int(me) < len(v.Princess) {
		mine = v.Princess[me]
	}
	if mine != "" {
		text := b.princessText(mine)
		if int(me) < len(v.Used) && v.Used[me] && v.Phase != "over" {
			text += " · " + l.T("princesses.screen.power_used", nil)
		}
		out = append(out, render.Pile{Label: l.T("princesses.screen.secret.princess", nil), Text: text, Cards: []render.Card{b.princessCard(mine)}})
	}
	if len(v.Offered) > 0 {
		p := render.Pile{Label: l.T("princesses.screen.secret.offered", nil)}
		var parts []string
		for _, id := range v.Offered {
			c := b.princessCard(id)
			c.Code = id // the notation of the choice: choose <id>
			c.Mark = b.mustAct()
			p.Cards = append(p.Cards, c)
			// Chosen here: each power explained in full, where it is chosen.
			parts = append(parts, b.princessText(id)+": "+b.powerText(id))
		}
		p.Text = strings.Join(parts, "\n")
		out = append(out, p)
	}
	if len(v.MyPowers) > 0 && !(len(v.MyPowers) == 1 && v.MyPowers[0] == mine) && v.Phase != "over" {
		// Karmezina: the powers she may copy this round.
		p := render.Pile{Label: l.T("princesses.screen.secret.powers", nil)}
		var parts []string
		for _, id := range v.MyPowers {
			p.Cards = append(p.Cards, b.princessCard(id))
			parts = append(parts, b.princessText(id))
		}
		p.Text = strings.Join(parts, " · ")
		out = append(out, p)
	}
	if len(v.MyPass) > 0 {
		key := "princesses.screen.secret.pass"
		if v.Phase != "pass" {
			key = "princesses.screen.secret.chosen"
		}
		out = append(out, b.pile(l.T(key, nil), v.MyPass))
	}
	if v.MyReveal != "" {
		var cs []princesses.Card
		if su, ok := princesses.ParseSuit(v.MyReveal); ok {
			for _, c := range v.Hand {
				if c.Suit() == su {
					cs = append(cs, c)
				}
			}
		}
		p := b.pile(l.T("princesses.screen.secret.reveal", nil), cs)
		p.Text = suitName(l, v.MyReveal) + ": " + p.Text
		out = append(out, p)
	}
	if len(v.MySetAside) > 0 {
		out = append(out, b.pile(l.T("princesses.screen.secret.set_aside", nil), v.MySetAside))
	}
	if v.MyGift != 0 {
		out = append(out, b.pile(l.T("princesses.screen.secret.gift", nil), []princesses.Card{v.MyGift}))
	}
	if v.MyMasked != 0 {
		out = append(out, b.pile(l.T("princesses.screen.secret.masked", nil), []princesses.Card{v.MyMasked}))
	}
	if len(v.Held) > 0 && (v.PowerStep == "trade" || v.PowerStep == "freeze") {
		out = append(out, b.pile(l.T("princesses.screen.secret.held_"+v.PowerStep, map[string]any{"Name": b.names.Of(v.PowerTarget)}), v.Held))
	}
	if v.Offers != nil {
		p := render.Pile{Label: l.T("princesses.screen.secret.offers", nil)}
		var parts []string
		for s, c := range v.Offers {
			if c == 0 {
				continue
			}
			card := princessCardOf(l, c)
			card.Note = b.who(engine.Seat(s))
			p.Cards = append(p.Cards, card)
			parts = append(parts, card.Note+": "+card.Name)
		}
		p.Text = strings.Join(parts, " · ")
		if len(parts) == 0 {
			p.Text = l.T("princesses.screen.no_cards", nil)
		}
		out = append(out, p)
	}
	if v.MyFrozen != 0 && v.FrozenSeat >= 0 && v.FrozenSeat != me {
		// The deluxe Ice Princess knows the card she froze.
		out = append(out, b.pile(l.T("princesses.screen.secret.frozen", map[string]any{"Name": b.names.Of(v.FrozenSeat)}), []princesses.Card{v.MyFrozen}))
	}
	return out
}

// ---------------------------------------------------------------- title and rule

// taken is the number of tricks taken this round.
func (b princessScreen) taken() int {
	n := 0
	for _, t := range b.v.Tricks {
		n += t
	}
	return n
}

func (b princessScreen) Title() string {
	v, l := b.v, b.l
	if v.Phase == "over" {
		return l.T("princesses.screen.title_over", nil)
	}
	var text string
	switch v.Phase {
	case "choose", "pass", "aside", "reveal", "split", "give", "haggle":
		text = l.T("princesses.screen.phase."+v.Phase, nil)
	default:
		text = l.T("princesses.screen.phase.trick", map[string]any{"N": b.taken() + 1})
	}
	if v.Extra {
		return l.T("princesses.screen.title_tiebreak", map[string]any{"Text": text})
	}
	return l.T("princesses.screen.title", map[string]any{"Round": v.Round, "Rounds": v.Rounds, "Text": text})
}

func (b princessScreen) Rule() *render.Rule {
	v, l := b.v, b.l
	if v.Phase == "over" || v.RoundCard == "" {
		return nil
	}
	key := "princesses.round." + v.RoundCard
	short, text := key+".short", key+".text"
	if v.Edition == princesses.Classic {
		text += "_classic"
		if l.Has(key + ".short_classic") {
			short = key + ".short_classic"
		}
	}
	return &render.Rule{
		Name:  roundName(l, v.RoundCard),
		Short: l.T(short, nil),
		Full:  l.T(text, nil) + " " + passText(l, v.PassLeft, v.PassRight) + ".",
	}
}

// ---------------------------------------------------------------- the table

func (b princessScreen) Center() []render.Pile {
	v, l := b.v, b.l
	var out []render.Pile
	played := func(ps []princesses.Play) []render.Card {
		cards := make([]render.Card, 0, len(ps))
		for _, p := range ps {
			c := princessCardOf(l, p.Card)
			c.Note = b.who(p.Seat)
			cards = append(cards, c)
		}
		return cards
	}
	text := func(cards []render.Card) string {
		parts := make([]string, len(cards))
		for i, c := range cards {
			parts[i] = c.Note + ": " + c.Name
		}
		return strings.Join(parts, " · ")
	}
	cards := played(v.Trick)
	if len(v.Masked) == v.Seats {
		// Masquerade: the face-down plays after the lead, in turn order.
		for k := 1; k < v.Seats; k++ {
			s := engine.Seat((int(v.Leader) + k) % v.Seats)
			if v.Masked[s] {
				c := princessFaceDown(l)
				c.Note = b.who(s)
				cards = append(cards, c)
			}
		}
	}
	switch {
	case len(cards) > 0:
		out = append(out, render.Pile{Label: l.T("princesses.screen.trick", nil), Text: text(cards), Cards: cards})
	case len(v.LastTrick) > 0 && b.taken() > 0 && v.LastWin >= 0 && v.Phase != "over":
		label := l.T("princesses.screen.last_trick", map[string]any{"Name": b.names.Of(v.LastWin)})
		if b.own() && v.LastWin == v.Seat {
			label = l.T("princesses.screen.last_trick_you", nil)
		}
		last := played(v.LastTrick)
		out = append(out, render.Pile{Label: label, Text: text(last), Cards: last})
	}
	if v.Gifts > 0 {
		gifts := make([]render.Card, v.Gifts)
		for i := range gifts {
			gifts[i] = princessFaceDown(l)
		}
		out = append(out, render.Pile{Label: l.T("princesses.screen.gifts", nil), Text: l.N("princesses.cards", v.Gifts, nil), Cards: gifts})
	}
	return out
}

func (b princessScreen) Seats() []render.SeatPart {
	v, l := b.v, b.l
	out := make([]render.SeatPart, v.Seats)
	for i := range out {
		s := engine.Seat(i)
		sp := render.SeatPart{Seat: s, Name: b.names.Of(s), You: b.own() && s == v.Seat, Acting: v.Phase != "over" && slices.Contains(v.Acting, s)}
		var words []string
		if v.Phase != "choose" && i < len(v.Princess) && v.Princess[i] != "" {
			id := v.Princess[i]
			sp.Piles = append(sp.Piles, render.Pile{Label: l.T("princesses.screen.princess_label", nil), Text: b.princessText(id), Cards: []render.Card{b.princessCard(id)}})
			words = append(words, princessName(l, id))
		}
		// The total is the past rounds' while a round is played: the
		// proposals a seat takes now count when the round ends.
		total := l.N("princesses.proposals", render.At(v.Totals, i), nil)
		if v.Phase != "over" {
			total = l.T("princesses.screen.before_round", map[string]any{"Proposals": total})
		}
		sp.Counts = append(sp.Counts,
			l.N("princesses.tricks", render.At(v.Tricks, i), nil),
			l.N("princesses.screen.in_hand", render.At(v.HandSizes, i), nil),
			total)
		if k := render.At(v.SetAside, i); k > 0 {
			sp.Counts = append(sp.Counts, l.N("princesses.screen.set_aside", k, nil))
			down := make([]render.Card, k)
			for j := range down {
				down[j] = princessFaceDown(l)
			}
			sp.Piles = append(sp.Piles, render.Pile{Label: l.T("princesses.screen.aside_pile", nil), Text: l.N("princesses.screen.set_aside", k, nil), Cards: down})
		}
		if v.Powers && i < len(v.Used) && v.Used[i] && v.Phase != "over" {
			sp.Counts = append(sp.Counts, l.T("princesses.screen.power_used", nil))
		}
		if i < len(v.Revealed) && len(v.Revealed[i]) > 0 {
			sp.Piles = append(sp.Piles, b.pile(l.T("princesses.screen.shown", nil), v.Revealed[i]))
		}
		words = append(words, sp.Counts...)
		sp.Line = b.who(s) + ": " + strings.Join(words, " · ")
		out[i] = sp
	}
	return out
}

func (b princessScreen) Status() []string {
	v, l := b.v, b.l
	var out []string
	if v.Phase == "over" {
		return nil
	}
	if v.Phase == "pass" && !b.mustAct() {
		// (The prompt says it to those who pass.)
		out = append(out, passText(l, v.PassLeft, v.PassRight))
	}
	if v.SnuckIn && v.Phase != "choose" && v.Phase != "pass" {
		out = append(out, l.T("princesses.snuck_in", nil))
	}
	for _, d := range v.Declared {
		out = append(out, l.T("princesses.power.ui.declared", map[string]any{
			"Name": b.names.Of(d.Seat), "Power": declText(l, d.Power, d.Suit, d.Target, b.names),
		}))
	}
	if v.Reversed {
		out = append(out, l.T("princesses.power.ui.reversed", nil))
	}
	for _, p := range v.Trick {
		if p.Card.Rank() <= 7 && slices.Contains(v.ZeroSeats, p.Seat) {
			out = append(out, l.T("princesses.power.ui.zeroed", map[string]any{"Name": b.names.Of(p.Seat), "Card": PrincessCard(l, p.Card)}))
		}
	}
	if v.LeadSuit != "" {
		out = append(out, l.T("princesses.power.ui.lead_suit", map[string]any{"Name": b.names.Of(v.Leader), "Suit": suitName(l, v.LeadSuit)}))
	}
	if v.Pea >= 0 {
		out = append(out, l.T("princesses.power.ui.pea", map[string]any{"Name": b.names.Of(v.Pea)}))
	}
	if v.Thumb >= 0 {
		out = append(out, l.T("princesses.power.ui.thumb", map[string]any{"Name": b.names.Of(v.Thumb)}))
	}
	if v.FrozenSeat >= 0 {
		if b.own() && v.FrozenSeat == v.Seat && v.MyFrozen != 0 {
			out = append(out, l.T("princesses.power.ui.my_frozen", map[string]any{"Card": PrincessCard(l, v.MyFrozen)}))
		} else {
			out = append(out, l.T("princesses.power.ui.frozen", map[string]any{"Name": b.names.Of(v.FrozenSeat)}))
		}
	}
	if b.mustAct() {
		return out
	}
	// What the others are doing, when it is more than playing a card.
	switch v.Phase {
	case "power":
		if v.PowerStep != "" {
			out = append(out, l.T(powerKey("ui.waiting_", v.PowerStep), map[string]any{"Name": b.names.Of(v.PowerSeat), "Target": b.names.Of(v.PowerTarget)}))
		}
	case "offer":
		out = append(out, l.T("princesses.power.more.ui.offer", map[string]any{"Name": b.names.Of(v.PowerSeat)}))
	case "haggle":
		out = append(out, l.T("princesses.roundcard.waiting_haggle", map[string]any{"Name": b.names.Of(v.LastWin)}))
	}
	return out
}

// chart is the total of proposals after every completed round.
func (b princessScreen) Chart() *render.Chart {
	v := b.v
	if len(v.Scores) == 0 {
		return nil
	}
	ch := &render.Chart{Title: b.l.T("princesses.screen.chart", nil), Names: make([]string, v.Seats)}
	for s := range ch.Names {
		ch.Names[s] = b.names.Of(engine.Seat(s))
	}
	total := make([]int, v.Seats)
	for _, rs := range v.Scores {
		for s := range total {
			total[s] += render.At(rs, s)
		}
		ch.Rounds = append(ch.Rounds, slices.Clone(total))
	}
	return ch
}

// Doing: the game has none.
func (b princessScreen) Doing() []string { return nil }

// Recent: the game has none.
func (b princessScreen) Recent() []string { return nil }
