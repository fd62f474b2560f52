// Package lynx is the Kramer & Kiesling stealing game of the Abluxxen family
// (AMIGO 2022 edition, Polish rulebook, seed 002): play sets of equal cards
// in front of you and steal the top set of any player whose set has as many
// cards and a lower value. Modes basic, advanced and expert; two players
// play the duel against a virtual player.
package lynx

import (
	"slices"

	"github.com/stolik-bot/stolik/engine"
)

// Codes of this game's rule errors.
const (
	CodeUnknownCard   = "lynx.unknown_card"   // not a card of the game
	CodeMixedValues   = "lynx.mixed_values"   // a set must be of one value
	CodeTooManyCards  = "lynx.too_many_cards" // more cards than any set can hold
	CodeNotInHand     = "lynx.not_in_hand"    // the play names cards the player lacks
	CodeWrongPhase    = "lynx.wrong_phase"    // not what the game is waiting for
	CodeDeckEmpty     = "lynx.deck_empty"     // draw deck with no deck left
	CodeNotInPool     = "lynx.not_in_pool"    // no pool place shows that card
	CodeAmbiguousPool = "lynx.ambiguous_pool" // several pool places show that top card
	CodeNotStealable  = "lynx.not_stealable"  // that virtual group cannot be stolen with this set
	CodeMustDraw      = "lynx.must_draw"      // a robbed player still owes draws
)

// Game is the lynx stealing game.
type Game struct{}

func init() { engine.Register(Game{}) }

// ID is "lynx".
func (Game) ID() string { return "lynx" }

// Seats: 2 (the duel with a virtual player) to 5.
func (Game) Seats() (int, int) { return 2, 5 }

// Options lists the table options.
func (Game) Options() []engine.OptionSpec {
	return []engine.OptionSpec{{Key: "mode", Default: "basic", Values: []string{"basic", "advanced", "expert"}}}
}

// ParseAction reads an action in notation.
func (Game) ParseAction(text string) (engine.Action, error) {
	return engine.Parsed(ParseAction(text))
}

// config is a table's validated options.
type config struct {
	mode Mode
	duel bool
}

func parseOptions(opts engine.Options) (config, error) {
	var c config
	for k, v := range opts {
		switch k {
		case "mode":
			m, ok := parseMode(v)
			if !ok {
				return c, engine.Errorf(engine.CodeBadOption, "key", k, "value", v)
			}
			c.mode = m
		default:
			return c, engine.Errorf(engine.CodeBadOption, "key", k, "value", v, "why", "unknown_key")
		}
	}
	return c, nil
}

// New creates a table's game: hands dealt, the pool laid out, in a duel the
// virtual player's row, and the first player holding the paw.
func (Game) New(opts engine.Options, seats int, r *engine.Rand) (engine.State, error) {
	c, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if seats < 2 || seats > 5 {
		return nil, engine.Errorf(engine.CodeBadSeats, "seats", seats, "min", 2, "max", 5)
	}
	c.duel = seats == 2
	st := newState(c, seats)
	first, err := engine.FirstSeat(r, seats)
	if err != nil {
		return nil, err
	}
	if err := st.setup(r); err != nil {
		return nil, err
	}
	st.active = first
	st.phase = phasePlay
	return st, nil
}

// setup deals the hands, lays out the pool and, in a duel, the virtual
// row; what is left is the deck. Scenario stacks: "deal <seat>: 13 cards"
// (a duel hand holds the seat's two jokers), "pool: up to 6 cards" (left
// to right), "virtual: cards" (the cards revealed for the virtual row, in
// order; 13s and jokers among them go to the pool) and "deck: cards" (the
// top of the deck once the table is laid out, top first).
func (st *State) setup(r *engine.Rand) error {
	rest := FullDeck()
	remove := func(sk engine.Stack, cs []Card) error {
		for _, c := range cs {
			var ok bool
			if rest, ok = engine.RemoveOne(rest, c); !ok {
				return sk.Err("too_many_copies", "card", c.String())
			}
		}
		return nil
	}
	if st.cfg.duel {
		for i := 0; i < 2*duelJokers; i++ {
			rest, _ = engine.RemoveOne(rest, Joker)
		}
	}
	hands := make([][]Card, st.n)
	for _, sk := range r.Take("deal") {
		if sk.Index < 0 || sk.Index >= st.n || hands[sk.Index] != nil {
			return sk.Err("bad_seat", "seat", sk.Index)
		}
		if len(sk.Values) != handSize {
			return sk.Err("hand_size", "want", handSize, "got", len(sk.Values))
		}
		cs, err := parseCards(sk.Values)
		if err != nil {
			return sk.Err("unknown_card", "card", err.Params["card"])
		}
		dealt := slices.Clone(cs)
		if st.cfg.duel {
			for i := 0; i < duelJokers; i++ {
				var ok bool
				if dealt, ok = engine.RemoveOne(dealt, Joker); !ok {
					return sk.Err("duel_jokers", "want", duelJokers)
				}
			}
		}
		if err := remove(sk, dealt); err != nil {
			return err
		}
		hands[sk.Index] = cs
	}
	one := func(kind string) ([]Card, *engine.Stack, error) {
		sks := r.Take(kind)
		if len(sks) == 0 {
			return nil, nil, nil
		}
		sk := sks[0]
		if len(sks) > 1 {
			return nil, nil, sks[1].Err("twice")
		}
		if sk.Index != -1 {
			return nil, nil, sk.Err("no_index")
		}
		cs, err := parseCards(sk.Values)
		if err != nil {
			return nil, nil, sk.Err("unknown_card", "card", err.Params["card"])
		}
		return cs, &sk, remove(sk, cs)
	}
	pool, poolStack, err := one("pool")
	if err != nil {
		return err
	}
	if len(pool) > poolSize {
		return poolStack.Err("pool_size", "max", poolSize)
	}
	reveal, virtualStack, err := one("virtual")
	if err != nil {
		return err
	}
	if virtualStack != nil && !st.cfg.duel {
		return virtualStack.Err("no_virtual_player")
	}
	deck, _, err := one("deck")
	if err != nil {
		return err
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for s := range hands {
		if hands[s] != nil {
			continue
		}
		k := handSize
		if st.cfg.duel {
			k -= duelJokers
			hands[s] = []Card{Joker, Joker}
		}
		hands[s], rest = append(hands[s], rest[:k]...), rest[k:]
	}
	for s, cs := range hands {
		st.hands[s].Add(cs...)
	}
	for len(pool) < poolSize {
		pool, rest = append(pool, rest[0]), rest[1:]
	}
	for _, c := range pool {
		st.pool = append(st.pool, single(c))
	}
	if st.cfg.duel {
		for st.virtual.Size() < virtualSize {
			var c Card
			if len(reveal) > 0 {
				c, reveal = reveal[0], reveal[1:]
			} else {
				c, rest = rest[0], rest[1:]
			}
			st.revealVirtual(c)
		}
		if len(reveal) > 0 {
			return virtualStack.Err("virtual_too_long", "left", len(reveal))
		}
	}
	st.deck = append(deck, rest...)
	return nil
}

// StackKinds lists the scenario stacking directives.
func (Game) StackKinds() []string { return []string{"deal", "pool", "virtual", "deck", "first"} }

// Bot returns an AI player: "random" or "heuristic".
func (Game) Bot(kind string) (engine.Player, error) { return engine.BotOf(kind, Heuristic{}) }
