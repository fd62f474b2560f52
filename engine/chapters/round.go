package chapters

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// keepPerDeal is how many cards each seat keeps from one deal before the
// rest is set aside: 7 with 4–6 players (one deal), 4 with 2 or 3 players
// (two deals). With 2 players every pick also feeds a ghost, so a deal of 8
// runs out after 4 picks.
func (st *State) keepPerDeal() int {
	if st.n <= 3 {
		return 4
	}
	return 7
}

func (st *State) deals() int {
	if st.n <= 3 {
		return 2
	}
	return 1
}

// deal deals 8 cards to every seat from the box (scenario: the
// "deal <seat>: cards" stacks; a stacked hand must be complete and come from
// the box). The first deal shuffles all 50 cards into the box.
func (st *State) dealHands(r *engine.Rand) error {
	box := slices.Clone(st.box)
	hands := make([][]Card, st.n)
	stacks := append(st.dealStacks, r.Take("deal")...)
	st.dealStacks = nil
	for _, sk := range stacks {
		st.scripted = true
		if sk.Index < 0 || sk.Index >= st.n {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if hands[sk.Index] != nil {
			// A second hand for the same seat is for the next deal.
			if st.deal+1 >= st.deals() {
				return sk.Err("seat_twice", "seat", sk.Index)
			}
			st.dealStacks = append(st.dealStacks, sk)
			continue
		}
		if len(sk.Values) != HandSize {
			return sk.Err("hand_size", "want", HandSize, "got", len(sk.Values))
		}
		cs, bad := parseCards(sk.Values)
		if bad != "" {
			return sk.Err("unknown_card", "card", bad)
		}
		for _, c := range cs {
			var ok bool
			if box, ok = engine.RemoveOne(box, c); !ok {
				return sk.Err("too_many_copies", "card", c.String())
			}
		}
		hands[sk.Index] = cs
	}
	r.Shuffle(len(box), func(i, j int) { box[i], box[j] = box[j], box[i] })
	for s := range hands {
		if hands[s] == nil {
			hands[s] = slices.Clone(box[:HandSize])
			box = box[HandSize:]
		}
		slices.Sort(hands[s])
	}
	slices.Sort(box)
	st.box = box
	st.hands = hands
	st.taken = 0
	return nil
}

// takeGhostStacks keeps the scenario's ghost deck orders for the end of the
// draft.
func (st *State) takeGhostStacks(r *engine.Rand) error {
	for _, sk := range r.Take("ghost") {
		st.scripted = true
		if !st.ghostGame() {
			return sk.Err("no_ghosts")
		}
		if sk.Index != 0 && sk.Index != 1 {
			return sk.Err("bad_ghost", "ghost", sk.Index)
		}
		if len(sk.Values) == 0 || len(sk.Values) > 2*HandSize {
			return sk.Err("deck_size", "max", 2*HandSize)
		}
		if _, bad := parseCards(sk.Values); bad != "" {
			return sk.Err("unknown_card", "card", bad)
		}
		st.ghostStacks = append(st.ghostStacks, sk)
	}
	return nil
}

// applyPick records a pick; the last pick of a turn resolves every pick,
// passes the hands and, when a deal is used up, deals again or starts
// chapter II.
func (st *State) applyPick(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	st.picks[s] = a
	ev := []engine.Event{engine.Public("card_picked", map[string]any{"seat": s})}
	if len(st.Acting()) > 0 {
		return ev, nil
	}
	for i := 0; i < st.n; i++ {
		p := st.picks[i]
		st.hands[i], _ = engine.RemoveOne(st.hands[i], p.Card)
		st.kept[i] = append(st.kept[i], p.Card)
		slices.Sort(st.kept[i])
		if p.Ghost != 0 {
			st.hands[i], _ = engine.RemoveOne(st.hands[i], p.Ghost)
			st.ghosts[i] = append(st.ghosts[i], p.Ghost)
		}
		args := map[string]any{"card": p.Card.String()}
		if p.Ghost != 0 {
			args["ghost"] = p.Ghost.String()
		}
		ev = append(ev, engine.Private(engine.Seat(i), "kept", args))
		st.picks[i] = Action{}
	}
	st.taken++
	if st.taken < st.keepPerDeal() {
		// Pass the hands to the left (with 2 players: swap them).
		passed := make([][]Card, st.n)
		for i := 0; i < st.n; i++ {
			passed[(i+1)%st.n] = st.hands[i]
		}
		st.hands = passed
		return append(ev, engine.Public("hands_passed", map[string]any{"pick": st.taken})), nil
	}
	for i := 0; i < st.n; i++ {
		st.aside = append(st.aside, st.hands[i]...)
		st.hands[i] = nil
	}
	slices.Sort(st.aside)
	if st.deal+1 < st.deals() {
		st.deal++
		if err := st.takeGhostStacks(r); err != nil {
			return nil, err
		}
		if err := st.dealHands(r); err != nil {
			return nil, err
		}
		return append(ev, engine.Public("redealt", map[string]any{"deal": st.deal + 1})), nil
	}
	return st.startPlay(ev, r)
}

// startPlay ends chapter I: the kept cards become the hands, the ghost decks
// are shuffled, and the first round begins.
func (st *State) startPlay(ev []engine.Event, r *engine.Rand) ([]engine.Event, error) {
	for i := 0; i < st.n; i++ {
		st.hands[i] = st.kept[i]
		st.kept[i] = nil
	}
	if st.ghostGame() {
		if err := st.takeGhostStacks(r); err != nil {
			return nil, err
		}
		for g := 0; g < 2; g++ {
			if err := st.shuffleGhost(g, r); err != nil {
				return nil, err
			}
		}
		st.ghostStacks = nil
	}
	first, _, err := engine.StackedFirst(r, st.n)
	if err != nil {
		return nil, err
	}
	if first >= 0 {
		st.first = first
	}
	st.phase = phasePlay
	st.leader = st.posOf(st.first)
	ev = append(ev, engine.Public("chapter_two", map[string]any{"seat": st.first}))
	return st.startRound(ev), nil
}

// shuffleGhost shuffles a ghost deck; a scenario's "ghost <n>: cards" gives
// its top cards (top first), which must be in that deck.
func (st *State) shuffleGhost(g int, r *engine.Rand) error {
	deck := slices.Clone(st.ghosts[g])
	var top []Card
	for _, sk := range st.ghostStacks {
		if sk.Index != g {
			continue
		}
		if top != nil {
			return sk.Err("ghost_twice", "ghost", g)
		}
		cs, _ := parseCards(sk.Values)
		for _, c := range cs {
			var ok bool
			if deck, ok = engine.RemoveOne(deck, c); !ok {
				return sk.Err("not_in_ghost_deck", "card", c.String(), "ghost", g)
			}
		}
		top = cs
	}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	st.ghosts[g] = append(top, deck...)
	return nil
}

// startRound flips the ghosts' cards that play before the first seat.
func (st *State) startRound(ev []engine.Event) []engine.Event {
	st.table = nil
	return st.flipGhosts(ev)
}

// flipGhosts plays the ghost cards due now (a ghost's turn comes without
// anyone acting).
func (st *State) flipGhosts(ev []engine.Event) []engine.Event {
	for len(st.table) < st.positions() {
		_, g := st.at(st.turnPos())
		if g < 0 {
			break
		}
		c := st.ghosts[g][0]
		st.ghosts[g] = st.ghosts[g][1:]
		st.table = append(st.table, Play{Seat: -1, Ghost: g, Card: c})
		ev = append(ev, engine.Public("card_played", map[string]any{"ghost": g, "card": c.String()}))
	}
	return ev
}

func (st *State) applyPlay(s engine.Seat, c Card) []engine.Event {
	st.hands[s], _ = engine.RemoveOne(st.hands[s], c)
	st.table = append(st.table, Play{Seat: s, Ghost: -1, Card: c})
	ev := []engine.Event{engine.Public("card_played", map[string]any{"seat": s, "card": c.String()})}
	ev = st.flipGhosts(ev)
	if len(st.table) < st.positions() {
		return ev
	}
	return st.endRound(ev)
}

// endRound gives the star to the highest card and resolves the abilities of
// the round's cards.
func (st *State) endRound(ev []engine.Event) []engine.Event {
	plays := st.table
	res := &RoundResult{Round: st.round + 1, Plays: slices.Clone(plays), Gains: make([]Tokens, len(plays))}
	for i, p := range plays {
		if p.Card > plays[res.Winner].Card {
			res.Winner = i
		}
	}
	res.Gains = roundGains(st.cards, plays, res.Winner)
	for _, p := range plays {
		res.Frozen = res.Frozen || st.cards.Card(p.Card).Freezes()
	}
	w := plays[res.Winner]
	if !w.IsGhost() {
		st.wins[w.Seat]++
	}
	for i, p := range plays {
		if p.IsGhost() {
			st.spent = append(st.spent, p.Card)
		} else {
			st.tokens[p.Seat] = st.tokens[p.Seat].Add(res.Gains[i])
			st.played[p.Seat] = append(st.played[p.Seat], p.Card)
		}
	}
	st.last = res
	args := map[string]any{"round": res.Round, "card": w.Card.String(), "frozen": res.Frozen}
	if w.IsGhost() {
		args["ghost"] = w.Ghost
	} else {
		args["seat"] = w.Seat
	}
	ev = append(ev, engine.Public("round_won", args))
	for i, p := range plays {
		if !p.IsGhost() && !res.Gains[i].Zero() {
			g := res.Gains[i]
			ev = append(ev, engine.Public("tokens", map[string]any{
				"seat": p.Seat, "card": p.Card.String(), "stars": g.Stars, "hearts": g.Hearts, "gems": g.Gems,
			}))
		}
	}
	st.round++
	st.leader = (st.leader + res.Winner) % st.positions()
	if len(st.hands[0]) == 0 {
		st.table = nil
		return st.finish(ev)
	}
	return st.startRound(ev)
}

// roundGains resolves a chapter II round: the star for the highest card, the
// abilities of every card (ghosts' included: their would-be tokens count for
// the echoes), then the echoes, and the Snow Queen's freeze over it all.
func roundGains(t *Table, plays []Play, winner int) []Tokens {
	cards := make([]Card, len(plays))
	frozen := false
	for i, p := range plays {
		cards[i] = p.Card
		frozen = frozen || t.Card(p.Card).Freezes()
	}
	freeze := func(g Tokens) Tokens {
		if frozen {
			g.Hearts, g.Gems = 0, 0
		}
		return g
	}
	gains := make([]Tokens, len(plays))
	gains[winner].Stars++
	var received Tokens
	for i, p := range plays {
		x := resolveCtx{chapter: 2, cards: cards, won: i == winner, last: i == len(plays)-1}
		gains[i] = freeze(gains[i].Add(t.resolve(p.Card, 0, &x)))
		received = received.Add(gains[i])
	}
	for i, p := range plays {
		gains[i] = gains[i].Add(freeze(t.resolveEcho(p.Card, 2, received)))
	}
	return gains
}

// finish scores chapter III and ends the game.
func (st *State) finish(ev []engine.Event) []engine.Event {
	st.chapter3 = make([]Tokens, st.n)
	for s := 0; s < st.n; s++ {
		x := resolveCtx{chapter: 3, cards: st.played[s], wonAny: st.wins[s] > 0}
		var got Tokens
		for stage := 0; stage <= 1; stage++ {
			for _, c := range st.played[s] {
				x.tokens = st.tokens[s].Add(got)
				got = got.Add(st.cards.resolve(c, stage, &x))
			}
		}
		st.chapter3[s] = got
		st.tokens[s] = st.tokens[s].Add(got)
	}
	most := 0
	for _, t := range st.tokens {
		most = max(most, t.Gems)
	}
	// The events tell the abilities' gains first and the gem bonus apart,
	// so that what they say adds up to the totals.
	for s := 0; s < st.n; s++ {
		g := st.chapter3[s]
		ev = append(ev, engine.Public("chapter_three", map[string]any{
			"seat": engine.Seat(s), "stars": g.Stars, "hearts": g.Hearts, "gems": g.Gems,
		}))
	}
	st.bonus, st.bonusGot = nil, nil
	if most > 0 {
		for s := 0; s < st.n; s++ {
			if st.tokens[s].Gems != most {
				continue
			}
			x := resolveCtx{chapter: 3, cards: st.played[s], wonAny: st.wins[s] > 0, tokens: st.tokens[s], most: true}
			got := Tokens{Gems: 4}
			for _, c := range st.played[s] {
				got = got.Add(st.cards.resolve(c, 2, &x))
			}
			st.bonus = append(st.bonus, engine.Seat(s))
			st.bonusGot = append(st.bonusGot, got)
			st.chapter3[s] = st.chapter3[s].Add(got)
			st.tokens[s] = st.tokens[s].Add(got)
			ev = append(ev, engine.Public("gem_bonus", map[string]any{
				"seat": engine.Seat(s), "stars": got.Stars, "hearts": got.Hearts, "gems": got.Gems,
			}))
		}
	}
	st.scores = make([]int, st.n)
	for s, t := range st.tokens {
		st.scores[s] = t.Points()
	}
	best := slices.Max(st.scores)
	var tied []engine.Seat
	for s, v := range st.scores {
		if v == best {
			tied = append(tied, engine.Seat(s))
		}
	}
	st.winners = tied
	st.note = ""
	if len(tied) > 1 {
		// Tie: the one who played the highest card wins.
		top := tied[0]
		for _, s := range tied {
			if slices.Max(st.played[s]) > slices.Max(st.played[top]) {
				top = s
			}
		}
		st.winners = []engine.Seat{top}
		st.note = "tiebreak"
	}
	st.phase = phaseOver
	places, top := st.ranking()
	return append(ev, engine.Public("game_over", map[string]any{
		"winners": slices.Clone(st.winners), "scores": slices.Clone(st.scores), "note": st.note,
		"places": places, "tiebreak": top,
	}))
}

// ranking is every seat's place at the end (the most points first, then
// the highest card played, the tie-break; values are unique, so only seats
// that played nothing could share a place) and the highest card each
// played.
func (st *State) ranking() (places, top []int) {
	top = make([]int, st.n)
	for s, cs := range st.played {
		if len(cs) > 0 {
			top[s] = int(slices.Max(cs))
		}
	}
	return engine.Places(st.n, engine.ByScore(st.scores, true, top, true)), top
}
