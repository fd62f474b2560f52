package princesses

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

func init() { render.Register(Presenter{}) }

// Presenter is the game's presentation (render.Game); the embedded types
// say what the game has nothing for.
type Presenter struct {
	render.NoAppendix
	render.NoSecrets
}

// PrincessCard names a card of Rebel Princess ("Queen 7", "Frog").
func PrincessCard(l *locales.Localizer, c princesses.Card) string {
	if c.IsFrog() {
		return l.T("princesses.card.frog", nil)
	}
	return l.T("princesses.card."+c.Suit().Letter(), map[string]any{"Rank": c.Rank()})
}

func cardToken(l *locales.Localizer, t string) string {
	c, ok := princesses.ParseCard(t)
	if !ok {
		return t
	}
	return PrincessCard(l, c)
}

func princessCards(l *locales.Localizer, cs []princesses.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = PrincessCard(l, c)
	}
	return strings.Join(parts, ", ")
}

func tokens(l *locales.Localizer, ts []string) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = cardToken(l, t)
	}
	return strings.Join(parts, ", ")
}

func princessName(l *locales.Localizer, id string) string {
	return l.T("princesses.princess."+id+".name", nil)
}

func roundName(l *locales.Localizer, id string) string {
	return l.T("princesses.round."+id+".name", nil)
}

func passText(l *locales.Localizer, left, right int) string {
	switch {
	case left > 0 && right > 0:
		return l.T("princesses.pass.both", nil)
	case left > 0:
		return l.N("princesses.pass.left", left, nil)
	case right > 0:
		return l.N("princesses.pass.right", right, nil)
	}
	return l.T("princesses.pass.none", nil)
}

// declText is a declared power with its choice: "Little Mermaid (Queens)".
func declText(l *locales.Localizer, power, suit string, target engine.Seat, names render.Names) string {
	t := l.T("princesses.princess."+power+".power", nil)
	switch {
	case suit != "":
		t += " (" + suitName(l, suit) + ")"
	case target >= 0:
		t = l.T("princesses.power.aimed", map[string]any{"Power": t, "Target": names.Of(target)})
	}
	return t
}

// ParamName names a rule error's card, suit or power in the reader's
// language.
func (Presenter) ParamName(l *locales.Localizer, key string, v any) (string, bool) {
	if cs, ok := v.([]string); ok && key == "cards" {
		return tokens(l, cs), true
	}
	text, ok := v.(string)
	if !ok {
		return "", false
	}
	switch key {
	case "card":
		return cardToken(l, text), true
	case "suit":
		return suitName(l, text), true

	case "form":
		// The notation stays; its placeholders are named in the reader's
		// language (<card> → <karta>).
		return formWords.ReplaceAllStringFunc(text, func(w string) string {
			if key := "princesses.form." + w[1:len(w)-1]; l.Has(key) {
				return "<" + l.T(key, nil) + ">"
			}
			return w
		}), true
	case "power", "princess":
		if key := "princesses.princess." + text + ".name"; l.Has(key) {
			return l.T(key, nil), true
		}
	}
	return "", false
}

var formWords = regexp.MustCompile(`<[a-z-]+>`)

func suitName(l *locales.Localizer, word string) string {
	su, ok := princesses.ParseSuit(word)
	if !ok {
		return word
	}
	return l.T("princesses.suit."+su.Letter(), nil)
}

func (Presenter) Action(l *locales.Localizer, ea engine.Action) string {
	return princessAction(l, ea.(princesses.Action), seatLabels(l))
}

// Prefix names the controls Action cannot name well:
//   - an action that names a seat (announcing Scheherazade or the deluxe
//     Ice Princess on a player, deluxe Pocahontas, Sleeping Beauty handing
//     a card on, classic Pocahontas after a trick): by the player's name as
//     the table shows it, where Action can only number the seat;
//   - a play face down (Masquerade, after the lead);
//   - the beginning of several actions (when they do not all fit in one
//     menu): its words, cards, powers, suits and players named, not its
//     notation.
func (Presenter) Prefix(l *locales.Localizer, ev engine.View, names render.Names, s render.Step) string {
	if !s.Whole {
		return princessStep(l, names, s)
	}
	a, err := princesses.ParseAction(strings.Join(s.Tokens, " "))
	if err != nil {
		return ""
	}
	if v, ok := ev.(*princesses.View); ok && a.Kind == princesses.KindPlay && a.Pow == 0 && len(v.Masked) > 0 && v.Seat != v.Leader {
		return l.T("princesses.roundcard.action.play_masked", map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	}
	if t := a.TargetSeat(); t < 0 || int(t) >= len(names) {
		return ""
	}
	return princessAction(l, a, names)
}

// princessStep names the beginning of several actions: the tokens chosen
// with it (all of them when it sums up the choice so far), the action's
// word as a phrase ("Play a card") when it is among them, then "…".
func princessStep(l *locales.Localizer, names render.Names, s render.Step) string {
	if len(s.Tokens) == 0 || s.Chosen >= len(s.Tokens) {
		return ""
	}
	verb := s.Tokens[0]
	var head string
	var parts []string
	for i, t := range s.Tokens[s.Chosen:] {
		if s.Chosen+i == 0 {
			if !l.Has("princesses.step." + t) {
				return ""
			}
			head = l.T("princesses.step."+t, nil)
			continue
		}
		if c, ok := princesses.ParseCard(t); ok {
			parts = append(parts, PrincessCard(l, c))
			continue
		}
		if l.Has("princesses.princess." + t + ".power") {
			parts = append(parts, l.T("princesses.princess."+t+".power", nil))
			continue
		}
		if su, ok := princesses.ParseSuit(t); ok && len(t) > 1 {
			parts = append(parts, l.T("princesses.suit."+su.Letter(), nil))
			continue
		}
		if n, err := strconv.Atoi(t); err == nil && (verb == "declare" || verb == "assign" || verb == "pocahontas") {
			parts = append(parts, names.Of(engine.Seat(n)))
			continue
		}
		parts = append(parts, t)
	}
	text := strings.Join(parts, ", ")
	switch {
	case head != "" && text != "":
		text = head + ": " + text
	case head != "":
		text = head
	}
	return text + "…"
}

// princessAction is an action in words, with seats named by names.
func princessAction(l *locales.Localizer, a princesses.Action, names render.Names) string {
	switch a.Kind {
	case princesses.KindChoose:
		return l.T("princesses.action.choose", map[string]any{"Princess": princessName(l, a.Princess.String())})
	case princesses.KindPass:
		return l.T("princesses.action.pass", map[string]any{"Cards": princessCards(l, a.CardList())})
	case princesses.KindPlay:
		if a.Pow > 0 {
			return l.T("princesses.power.action.play", map[string]any{"Card": PrincessCard(l, a.Cards[0]), "Power": l.T("princesses.princess."+a.Power().String()+".power", nil)})
		}
		return l.T("princesses.action.play", map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	case princesses.KindDeclare:
		t := a.TargetSeat()
		suit := ""
		if a.HasSuit {
			suit = a.Suit.Word()
		}
		return l.T("princesses.power.action.declare", map[string]any{"Power": declText(l, a.Power().String(), suit, t, names)})
	case princesses.KindWithdraw:
		return l.T("princesses.power.action.withdraw", nil)
	case princesses.KindSing:
		return l.T("princesses.power.action.sing", map[string]any{"Suit": suitName(l, a.Suit.Word())})
	case princesses.KindMulan:
		if a.No {
			return l.T("princesses.power.action.mulan_none", nil)
		}
		return l.T("princesses.power.action.mulan", map[string]any{"Card": PrincessCard(l, a.Cards[0]), "Take": PrincessCard(l, a.Cards[1])})
	case princesses.KindAlice:
		if a.No {
			return l.T("princesses.power.action.alice_none", nil)
		}
		return l.T("princesses.power.action.alice", nil)
	case princesses.KindGuide:
		if a.No {
			return l.T("princesses.power.action.pocahontas_none", nil)
		}
		return l.T("princesses.power.action.pocahontas", map[string]any{"Target": names.Of(a.TargetSeat())})
	case princesses.KindTrade:
		if a.No {
			return l.T("princesses.power.more.action.trade_none", nil)
		}
		return l.T("princesses.power.more.action.trade", map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	case princesses.KindOffer, princesses.KindRetain, princesses.KindFreeze:
		return l.T("princesses.power.more.action."+strings.Fields(a.String())[0], map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	case princesses.KindAssign:
		return l.T("princesses.power.more.action.assign", map[string]any{"Card": PrincessCard(l, a.Cards[0]), "Target": names.Of(a.TargetSeat())})
	case princesses.KindAside, princesses.KindGift, princesses.KindGive:
		key := "princesses.roundcard.action." + strings.Fields(a.String())[0]
		if a.Kind == princesses.KindPlay {
			key = "princesses.action.play"
		}
		return l.T(key, map[string]any{"Card": PrincessCard(l, a.Cards[0])})
	case princesses.KindReveal:
		return l.T("princesses.roundcard.action.reveal", map[string]any{"Suit": suitName(l, a.Suit.Word())})
	case princesses.KindSplit:
		return l.T("princesses.roundcard.action.split", map[string]any{"Cards": princessCards(l, a.CardList())})
	case princesses.KindSwap:
		return l.T("princesses.roundcard.action.swap", map[string]any{"Card": PrincessCard(l, a.Cards[0]), "Take": PrincessCard(l, a.Cards[1])})
	case princesses.KindKeep:
		return l.T("princesses.roundcard.action.keep", nil)
	}
	return a.String()
}

func (Presenter) Hint(l *locales.Localizer, ev engine.View) string {
	v := ev.(*princesses.View)
	if v.Seat < 0 || len(v.Hand) == 0 {
		return ""
	}
	switch v.Phase {
	case "split":
		n := len(v.Hand) / 2
		return l.N("princesses.roundcard.split_hint", n, map[string]any{"Example": "split " + strings.Join(cardList(v.Hand[len(v.Hand)-n:]), " ")})
	case "power":
		return l.T(powerKey("hint.", v.PowerStep), nil)
	case "offer":
		return l.T("princesses.power.more.hint.offer", nil)
	case "play":
		if len(v.MyPowers) > 0 && !v.Used[v.Seat] {
			return l.T("princesses.power.hint.play", nil)
		}
		return ""
	case "haggle":
		ex := "keep"
		if len(v.Swappable) > 0 {
			ex = "swap " + v.Hand[0].String() + " " + v.Swappable[0].String()
		}
		return l.T("princesses.roundcard.haggle_hint", map[string]any{"Example": ex})
	case "pass":
	default:
		return ""
	}
	n := v.PassLeft + v.PassRight
	example := "pass"
	// The last cards of the (sorted) hand, in card order: the canonical form.
	for _, c := range v.Hand[max(0, len(v.Hand)-n):] {
		example += " " + c.String()
	}
	key := "princesses.ui.pass_hint"
	if v.PassLeft > 0 && v.PassRight > 0 {
		key = "princesses.ui.pass_hint_both"
	}
	return l.N(key, n, map[string]any{"Example": example, "Direction": passText(l, v.PassLeft, v.PassRight)})
}

func cardList(cs []princesses.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func (r Presenter) Event(l *locales.Localizer, e engine.Event, names render.Names) string {
	return unstutter(r.event(l, e, names))
}

// unstutter drops a full stop after a name that ends a sentence itself
// ("Five More Minutes!.").
func unstutter(text string) string {
	return strings.NewReplacer("!.", "!", "?.", "?", "!”.", "!”", "!».", "!»").Replace(text)
}

func (Presenter) event(l *locales.Localizer, e engine.Event, names render.Names) string {
	a := e.Args
	seat := func(k string) string {
		s, _ := a[k].(engine.Seat)
		return names.Of(s)
	}
	// you is key, or its second-person variant when the seat under k is
	// the reader's (the terminal's own seat).
	you := func(key, k string) string {
		s, ok := a[k].(engine.Seat)
		if !ok {
			return key
		}
		return render.YouKey(l, names, key, "_you", s)
	}
	// yours is key's variant for the reader acting (seat) or acted on
	// (target).
	yours := func(key string) string {
		s, ok := a["seat"].(engine.Seat)
		if !ok {
			s = -1
		}
		t, ok := a["target"].(engine.Seat)
		if !ok {
			t = -1
		}
		return render.YouKeys(l, names, key, s, t)
	}
	switch e.Type {
	case "princess_chosen":
		return l.T(you("princesses.event.princess_chosen", "seat"), map[string]any{"Name": seat("seat")})
	case "princesses_revealed":
		ids, _ := a["princesses"].([]string)
		parts := make([]string, len(ids))
		for s, id := range ids {
			parts[s] = names.Of(engine.Seat(s)) + ": " + princessName(l, id)
		}
		return l.T("princesses.event.princesses_revealed", map[string]any{"List": strings.Join(parts, "; ")})
	case "cards_passed":
		return l.T(you("princesses.event.cards_passed", "seat"), map[string]any{"Name": seat("seat")})
	case "cards_received":
		cs, _ := a["cards"].([]string)
		gave, _ := a["gave"].([]string)
		return l.T("princesses.event.cards_received", map[string]any{"Cards": tokens(l, cs), "Gave": tokens(l, gave)})
	case "passing_done":
		return l.T("princesses.event.passing_done", nil)
	case "card_played":
		c, _ := a["card"].(string)
		text := l.T(you("princesses.event.card_played", "seat"), map[string]any{"Name": seat("seat"), "Card": cardToken(l, c)})
		if p, ok := a["power"].(string); ok {
			text += " " + l.T("princesses.power.event.with_power", map[string]any{"Power": l.T("princesses.princess."+p+".power", nil)})
		}
		return text
	case "princes_snuck_in":
		return l.T("princesses.snuck_in", nil)
	case "trick_won":
		cs, _ := a["cards"].([]string)
		pts, _ := a["points"].(int)
		text := l.T(you("princesses.event.trick_won", "seat"), map[string]any{
			"Name": seat("seat"), "Cards": tokens(l, cs), "Proposals": l.N("princesses.proposals", pts, nil),
		})
		if g, _ := a["gifts"].(int); g > 0 {
			text += " " + l.N("princesses.roundcard.event.gift_pile", g, nil)
		}
		return text
	case "round_started":
		round, _ := a["round"].(int)
		card, _ := a["card"].(string)
		return l.T(you("princesses.event.round_started", "leader"), map[string]any{"Round": round, "Card": roundName(l, card), "Name": seat("leader")})
	case "round_scored":
		scores, _ := a["scores"].([]int)
		totals, _ := a["totals"].([]int)
		round, _ := a["round"].(int)
		parts := make([]string, len(scores))
		for s := range scores {
			parts[s] = l.T("princesses.event.score_part", map[string]any{
				"Name": names.Of(engine.Seat(s)), "Proposals": l.N("princesses.proposals", scores[s], nil), "Total": totals[s],
			})
		}
		text := l.T("princesses.event.round_scored", map[string]any{"Round": round, "List": strings.Join(parts, "; ")})
		if rebel, _ := a["rebel"].(engine.Seat); rebel >= 0 {
			text += " " + l.T(render.YouKey(l, names, "princesses.event.rebel", "_you", rebel), map[string]any{"Name": names.Of(rebel)})
		}
		return text
	case "tiebreak_round":
		return l.T("princesses.event.tiebreak_round", nil) + " " + tieText(l, a, names)
	case "step_done":
		step, _ := a["step"].(string)
		if step == "offer" {
			return l.T(you("princesses.power.more.event.offered", "seat"), map[string]any{"Name": seat("seat")})
		}
		return l.T(you("princesses.roundcard.event.step_done."+step, "seat"), map[string]any{"Name": seat("seat")})
	case "gifts_counted":
		piles, _ := a["piles"].([][]string)
		var parts []string
		for s, cs := range piles {
			if len(cs) > 0 {
				parts = append(parts, names.Of(engine.Seat(s))+": "+tokens(l, cs))
			}
		}
		return l.T("princesses.roundcard.event.gifts_counted", map[string]any{"List": strings.Join(parts, "; ")})
	case "gifts_returned":
		return l.T("princesses.roundcard.event.gifts_returned", map[string]any{"Name": seat("seat")})
	case "aside_done", "split_done", "gifts_placed", "give_done":
		return l.T("princesses.roundcard.event."+e.Type, nil)
	case "suit_revealed":
		cs, _ := a["cards"].([]string)
		su, _ := a["suit"].(string)
		return l.T(you("princesses.roundcard.event.suit_revealed", "seat"), map[string]any{"Name": seat("seat"), "Suit": suitName(l, su), "Cards": tokens(l, cs)})
	case "card_given":
		c, _ := a["card"].(string)
		got, _ := a["got"].(string)
		return l.T("princesses.roundcard.event.card_given", map[string]any{"Card": cardToken(l, c), "To": seat("to"), "Got": cardToken(l, got), "From": seat("from")})
	case "card_masked":
		text := l.T(you("princesses.roundcard.event.card_masked", "seat"), map[string]any{"Name": seat("seat")})
		if p, ok := a["power"].(string); ok {
			text += " " + l.T("princesses.power.event.with_power", map[string]any{"Power": l.T("princesses.princess."+p+".power", nil)})
		}
		return text
	case "cards_unmasked":
		cs, _ := a["cards"].([]string)
		ss, _ := a["seats"].([]engine.Seat)
		parts := make([]string, len(cs))
		for i := range cs {
			parts[i] = names.Of(ss[i]) + ": " + cardToken(l, cs[i])
		}
		return l.T("princesses.roundcard.event.cards_unmasked", map[string]any{"Plays": strings.Join(parts, " · ")})
	case "cards_kept":
		cs, _ := a["cards"].([]string)
		ss, _ := a["seats"].([]engine.Seat)
		each, _ := a["each"].(int)
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = names.Of(s) + ": " + tokens(l, cs[i*each:(i+1)*each])
		}
		return l.T("princesses.roundcard.event.cards_kept", map[string]any{"List": strings.Join(parts, "; ")})
	case "set_aside_taken":
		cs, _ := a["cards"].([]string)
		key := "princesses.roundcard.event.set_aside_taken"
		if a["from"] != a["to"] {
			key = "princesses.roundcard.event.half_received"
		}
		return l.T(key, map[string]any{"Cards": tokens(l, cs), "Name": seat("from")})
	case "set_aside_given":
		cs, _ := a["cards"].([]string)
		return l.T("princesses.roundcard.event.half_given", map[string]any{"Cards": tokens(l, cs), "Name": seat("to")})
	case "set_aside_picked_up":
		key := "princesses.roundcard.event.set_aside_picked_up"
		if right, _ := a["right"].(bool); right {
			key = "princesses.roundcard.event.halves_passed"
		}
		return l.T(key, nil)
	case "haggled":
		gave, _ := a["gave"].(string)
		took, _ := a["took"].(string)
		return l.T(you("princesses.roundcard.event.haggled", "seat"), map[string]any{"Name": seat("seat"), "Card": cardToken(l, gave), "Take": cardToken(l, took)})
	case "haggle_kept":
		return l.T(you("princesses.roundcard.event.haggle_kept", "seat"), map[string]any{"Name": seat("seat")})
	case "power_declared", "power_used", "power_cancelled", "power_unusable", "power_withdrawn":
		suit, _ := a["suit"].(string)
		t, ok := a["target"].(engine.Seat)
		if !ok {
			t = -1
		}
		pw, _ := a["power"].(string)
		return l.T(you("princesses.power.event."+e.Type, "seat"), map[string]any{"Name": seat("seat"), "Power": declText(l, pw, suit, t, names)})
	case "leader_changed", "card_frozen", "trick_decided":
		return l.T(you("princesses.power.event."+e.Type, "seat"), map[string]any{"Name": seat("seat")})
	case "lead_suit_forced", "lead_suit_missing":
		su, _ := a["suit"].(string)
		return l.T(you("princesses.power.event."+e.Type, "seat"), map[string]any{"Name": seat("seat"), "Suit": suitName(l, su)})
	case "mulan_swapped":
		out, _ := a["out"].(string)
		in, _ := a["in"].(string)
		return l.T(you("princesses.power.event.mulan_swapped", "seat"), map[string]any{"Name": seat("seat"), "Card": cardToken(l, out), "Take": cardToken(l, in)})
	case "alice_redealt":
		cs, _ := a["cards"].([]string)
		return l.T(you("princesses.power.event.alice_redealt", "seat"), map[string]any{"Name": seat("seat"), "Cards": tokens(l, cs)})
	case "alice_dealt":
		cs, _ := a["cards"].([]string)
		return l.T("princesses.power.event.alice_dealt", map[string]any{"Cards": tokens(l, cs)})
	case "offers_done", "beauty_kept":
		return l.T(you("princesses.power.more.event."+e.Type, "seat"), map[string]any{"Name": seat("seat")})
	case "card_taken", "cards_drawn", "beauty_assigned":
		return l.T(yours("princesses.power.more.event."+e.Type), map[string]any{"Name": seat("seat"), "Target": seat("target")})
	case "card_traded":
		key := "princesses.power.more.event.trade_none"
		if sw, _ := a["swapped"].(bool); sw {
			key = "princesses.power.more.event.traded"
		}
		return l.T(yours(key), map[string]any{"Name": seat("seat"), "Target": seat("target")})
	case "card_taken_private", "cards_drawn_private":
		cs, _ := a["cards"].([]string)
		if c, ok := a["card"].(string); ok {
			cs = []string{c}
		}
		return l.T("princesses.power.more.event."+e.Type, map[string]any{"Cards": tokens(l, cs), "Target": seat("target")})
	case "card_back", "beauty_card", "card_taken_yours":
		c, _ := a["card"].(string)
		key := e.Type
		if back, _ := a["returned"].(bool); back {
			key = "card_returned"
		}
		return l.T("princesses.power.more.event."+key, map[string]any{"Card": cardToken(l, c), "Name": seat("seat")})
	case "card_traded_private", "beauty_gave":
		c, _ := a["card"].(string)
		took, _ := a["took"].(string)
		return l.T("princesses.power.more.event."+e.Type, map[string]any{"Card": cardToken(l, c), "Took": cardToken(l, took), "Target": seat("target")})
	case "game_over":
		totals, _ := a["totals"].([]int)
		places, _ := a["places"].([]int)
		good, _ := a["tiebreak"].([]int)
		ed, _ := a["edition"].(string)
		edition := princesses.Deluxe
		if ed == princesses.Classic.String() {
			edition = princesses.Classic
		}
		return princessEnding(l, edition, names, totals, places, good).Post(l)
	}
	return ""
}

// count in the tie-break.
func tieText(l *locales.Localizer, a map[string]any, names render.Names) string {
	tied, _ := a["tied"].([]engine.Seat)
	good, _ := a["good"].([]int)
	parts := make([]string, 0, len(tied))
	for _, s := range tied {
		n := 0
		if int(s) < len(good) {
			n = good[s]
		}
		parts = append(parts, names.Of(s)+": "+l.N("common.rounds", n, nil))
	}
	return l.T("princesses.event.tie", map[string]any{"List": strings.Join(parts, "; ")})
}

// seatLabels names seats by number, for an action rendered without the
// table's names ("seat 2").
func seatLabels(l *locales.Localizer) render.Names {
	out := make(render.Names, 6)
	for i := range out {
		out[i] = l.T("princesses.power.seat", map[string]any{"N": i})
	}
	return out
}

// powerKey is a power sub-step's message: the card-moving powers' steps
// (Scheherazade, Sleeping Beauty, deluxe Ice Princess) have their own
// section.
func powerKey(group, step string) string {
	switch step {
	case "trade", "retain", "assign", "freeze":
		return "princesses.power.more." + group + step
	}
	return "princesses.power." + group + step
}

// Pick offers the pass (one way, or both ways in two parts) and the split
// of After Party and Blind Man's Bluff as multi-selects of the hand.
func (Presenter) Pick(l *locales.Localizer, ev engine.View, legal []engine.Action) (render.Pick, bool) {
	v, ok := ev.(*princesses.View)
	if !ok || len(legal) == 0 {
		return render.Pick{}, false
	}
	verb, _, _ := strings.Cut(legal[0].String(), " ")
	if verb != "pass" && verb != "split" {
		return render.Pick{}, false
	}
	// The options are the cards the legal actions name, in the hand's order.
	named := map[string]bool{}
	for _, a := range legal {
		toks := strings.Fields(a.String())
		if len(toks) == 0 || toks[0] != verb {
			return render.Pick{}, false
		}
		for _, t := range toks[1:] {
			named[t] = true
		}
		if len(named) == len(v.Hand) {
			break // the combinations of a pass or a split cover the hand early
		}
	}
	opts := make([]render.PickOption, 0, len(v.Hand))
	for _, c := range v.Hand {
		if named[c.String()] {
			opts = append(opts, render.PickOption{Value: c.String(), Label: PrincessCard(l, c)})
		}
	}
	switch {
	case verb == "pass" && v.PassLeft > 0 && v.PassRight > 0:
		return render.Pick{Prefix: "pass", Options: opts,
			Parts: []render.PickPart{{N: v.PassLeft, Placeholder: l.T("bot.pass_left", nil)}, {N: v.PassRight, Placeholder: l.T("bot.pass_right", nil)}},
			Taken: func(labels []string) string {
				return l.T("bot.pass_left_chosen", map[string]any{"Card": strings.Join(labels, ", ")})
			},
		}, true
	case verb == "pass" && v.PassLeft+v.PassRight > 0:
		n := v.PassLeft + v.PassRight
		return render.Pick{Prefix: "pass", Options: opts, Parts: []render.PickPart{{N: n, Placeholder: l.N("bot.pass_pick", n, nil)}}}, true
	case verb == "split" && len(opts) >= 2:
		n := len(v.Hand) / 2
		return render.Pick{Prefix: "split", Options: opts, Parts: []render.PickPart{{N: n, Placeholder: l.N("princesses.ui.split_pick", n, nil)}}}, true
	}
	return render.Pick{}, false
}

// Secret: the cards of a pass, a gift, a give, Sleeping Beauty's offer and
// assignment, a trade, the Ice Princess's freeze and a haggle swap go
// where others may not see them.
func (Presenter) Secret(a engine.Action) bool {
	pa, ok := a.(princesses.Action)
	if !ok {
		return false
	}
	switch pa.Kind {
	case princesses.KindPass, princesses.KindGive, princesses.KindGift, princesses.KindOffer,
		princesses.KindAssign, princesses.KindTrade, princesses.KindFreeze, princesses.KindSwap:
		return true
	}
	return false
}

// Where: a card played, a princess chosen and cards passed are on the table
// message already; every other public event is posted.
func (Presenter) Where(e engine.Event) render.Where {
	switch e.Type {
	case "card_played", "princess_chosen", "cards_passed":
		return render.Unshown
	}
	return render.Posted
}
