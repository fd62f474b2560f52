package princesses

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// The powers that move hand cards between players: Scheherazade (Barter in
// the Bazaar), Sleeping Beauty (The Spindle of Fate) and the deluxe Ice
// Princess (Freezing). Reference section 3; rulings 15 and 19.

// handLocked reports whether the hands now hold only Late-to-the-Ball
// set-aside cards (the round's last trick), which no power may touch
// (ruling 15: the set-aside card is not "in hand").
func (st *State) handLocked() bool {
	if st.rules().setup != phaseAside {
		return false
	}
	for _, cs := range st.setAside {
		if len(cs) > 0 {
			return false
		}
	}
	return true
}

// randomPool lists the cards of seat t's hand a power may draw at random:
// not the Crystal Clear cards (ruling 7), not a card already frozen, not a
// Late-to-the-Ball card.
func (st *State) randomPool(t engine.Seat) []Card {
	if st.handLocked() {
		return nil
	}
	var out []Card
	for _, c := range st.hands[t] {
		if !slices.Contains(st.revealed[t], c) && !(st.eff.frozenSeat == int8(t)+1 && st.eff.frozen == c) {
			out = append(out, c)
		}
	}
	return out
}

// drawFrom takes k random cards of the pool out of seat t's hand into the
// sub-step's held cards.
func (st *State) drawFrom(t engine.Seat, pool []Card, k int, r *engine.Rand) {
	for i := 0; i < k; i++ {
		j := r.IntN(len(pool))
		st.sub.held[i] = pool[j]
		st.takeCard(t, pool[j])
		pool = slices.Delete(pool, j, j+1)
	}
}

// ---------------------------------------------------------------- Scheherazade

// resolveBazaar (Scheherazade): she takes a random card from the target's
// hand; then she swaps it for one of her hand cards or gives it back.
func resolveBazaar(st *State, d decl, r *engine.Rand) ([]engine.Event, bool) {
	pool := st.randomPool(d.target) // not empty: see usable
	st.sub = subStep{kind: KindTrade, seat: d.seat, target: d.target}
	st.drawFrom(d.target, pool, 1, r)
	st.phase = phasePower
	return []engine.Event{
		engine.Public("card_taken", map[string]any{"seat": d.seat, "target": d.target}),
		engine.Private(d.seat, "card_taken_private", map[string]any{"card": st.sub.held[0].String(), "target": d.target}),
		engine.Private(d.target, "card_taken_yours", map[string]any{"card": st.sub.held[0].String(), "seat": d.seat}),
	}, true
}

func (st *State) tradeLegal() []engine.Action {
	out := []engine.Action{Action{Kind: KindTrade, No: true}}
	for _, c := range st.hands[st.sub.seat] {
		out = append(out, cardAction(KindTrade, c))
	}
	return out
}

// applyTrade: the target gets back the taken card (trade none) or one of
// Scheherazade's cards in exchange. Only the two of them see the cards.
func (st *State) applyTrade(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	t, took := st.sub.target, st.sub.held[0]
	back := took
	if !a.No {
		back = a.Cards[0]
		st.takeCard(s, back)
		st.hands[s] = append(st.hands[s], took)
		slices.Sort(st.hands[s])
	}
	st.hands[t] = append(st.hands[t], back)
	slices.Sort(st.hands[t])
	ev := []engine.Event{
		engine.Public("card_traded", map[string]any{"seat": s, "target": t, "swapped": !a.No}),
		engine.Private(t, "card_back", map[string]any{"card": back.String(), "seat": s, "returned": a.No}),
	}
	if !a.No {
		ev = append(ev, engine.Private(s, "card_traded_private", map[string]any{"card": back.String(), "took": took.String(), "target": t}))
	}
	return st.endCardPower(ev, r), nil
}

// endCardPower closes the sub-step and goes on with the declarations.
func (st *State) endCardPower(ev []engine.Event, r *engine.Rand) []engine.Event {
	st.sub = subStep{}
	st.phase = phasePlay
	return st.resolveDecls(ev, r)
}

// ---------------------------------------------------------------- Ice Princess

// resolveFreeze (deluxe Ice Princess): she draws 2 random cards of the
// target's hand, gives one back and puts the other face down before that
// player, who must play it in this trick whatever the rules; a Prince
// sneaks in. With a single card to draw, that one is frozen.
func resolveFreeze(st *State, d decl, r *engine.Rand) ([]engine.Event, bool) {
	pool := st.randomPool(d.target) // not empty: see usable
	switch len(pool) {
	case 1:
		return st.freeze(d.seat, d.target, pool[0]), false
	}
	st.sub = subStep{kind: KindFreeze, seat: d.seat, target: d.target}
	st.drawFrom(d.target, pool, 2, r)
	st.phase = phasePower
	return []engine.Event{
		engine.Public("cards_drawn", map[string]any{"seat": d.seat, "target": d.target}),
		engine.Private(d.seat, "cards_drawn_private", map[string]any{"cards": engine.Strings(st.sub.held[:]), "target": d.target}),
	}, true
}

func (st *State) freeze(s, t engine.Seat, c Card) []engine.Event {
	st.eff.frozen, st.eff.frozenSeat, st.eff.frozenKnown = c, int8(t)+1, int8(s)+1
	ev := []engine.Event{engine.Public("card_frozen", map[string]any{"seat": t})}
	if c.Suit() == Princes && !st.snuckIn {
		st.snuckIn = true
		ev = append(ev, engine.Public("princes_snuck_in", map[string]any{"seat": t}))
	}
	return ev
}

func (st *State) freezeLegal() []engine.Action {
	var out []engine.Action
	for _, c := range st.sub.held {
		out = append(out, cardAction(KindFreeze, c))
	}
	return out
}

func (st *State) applyFreeze(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	t := st.sub.target
	st.hands[t] = append(st.hands[t], st.sub.held[:]...)
	slices.Sort(st.hands[t])
	return st.endCardPower(st.freeze(s, t, a.Cards[0]), r), nil
}

// ---------------------------------------------------------------- Sleeping Beauty

// resolveSpindle (Sleeping Beauty): every player, she included, gives her
// one hand card (a simultaneous step); she keeps one, and the others go one
// to each other player: deluxe as she assigns them, classic at random.
func resolveSpindle(st *State, d decl, _ *engine.Rand) ([]engine.Event, bool) {
	st.openStep(phaseOffer)
	st.sub = subStep{kind: KindOffer, seat: d.seat}
	return nil, true
}

// offersDone opens her choice once every card is offered.
func (st *State) offersDone(ev []engine.Event) []engine.Event {
	st.phase = phasePower
	st.sub.kind = KindRetain
	return append(ev, engine.Public("offers_done", map[string]any{"seat": st.sub.seat}))
}

// spindleCards lists the cards still offered, in seat order.
func (st *State) spindleCards() []Card {
	var out []Card
	for _, p := range st.pending {
		if len(p) > 0 {
			out = append(out, p[0])
		}
	}
	return out
}

func (st *State) takeOffered(c Card) {
	for i, p := range st.pending {
		if len(p) > 0 && p[0] == c {
			st.pending[i] = nil
		}
	}
}

func (st *State) spindleLegal() []engine.Action {
	var out []engine.Action
	for _, c := range st.spindleCards() {
		if st.sub.kind == KindRetain {
			out = append(out, cardAction(KindRetain, c))
			continue
		}
		for t := 0; t < st.n; t++ {
			if engine.Seat(t) != st.sub.seat && st.sub.named&(1<<t) == 0 {
				a := cardAction(KindAssign, c)
				a.Target = int8(t) + 1
				out = append(out, a)
			}
		}
	}
	return out
}

func (st *State) applySpindle(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	c := a.Cards[0]
	var ev []engine.Event
	if a.Kind == KindRetain {
		st.takeOffered(c)
		st.hands[s] = append(st.hands[s], c)
		slices.Sort(st.hands[s])
		ev = append(ev, engine.Public("beauty_kept", map[string]any{"seat": s}))
		if st.cfg.edition == Classic {
			// The rest go back at random, one to each other player.
			rest := st.spindleCards()
			r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
			for k := 1; k < st.n; k++ {
				ev = st.giveOffered(ev, s, st.next(s, k), rest[k-1], false)
			}
			return st.endCardPower(ev, r), nil
		}
		st.sub.kind = KindAssign
	} else {
		ev = st.giveOffered(ev, s, a.TargetSeat(), c, true)
	}
	if rest := st.spindleCards(); len(rest) == 1 {
		for t := 0; t < st.n; t++ {
			if engine.Seat(t) != s && st.sub.named&(1<<t) == 0 {
				ev = st.giveOffered(ev, s, engine.Seat(t), rest[0], true)
			}
		}
	}
	if len(st.spindleCards()) == 0 {
		return st.endCardPower(ev, r), nil
	}
	return ev, nil
}

// giveOffered hands offered card c to seat t; assigned: she chose it
// (public who, private what).
func (st *State) giveOffered(ev []engine.Event, s, t engine.Seat, c Card, assigned bool) []engine.Event {
	st.takeOffered(c)
	st.sub.named |= 1 << t
	st.hands[t] = append(st.hands[t], c)
	slices.Sort(st.hands[t])
	if assigned {
		ev = append(ev, engine.Public("beauty_assigned", map[string]any{"seat": s, "target": t}),
			engine.Private(s, "beauty_gave", map[string]any{"card": c.String(), "target": t}))
	}
	return append(ev, engine.Private(t, "beauty_card", map[string]any{"card": c.String(), "seat": s}))
}
