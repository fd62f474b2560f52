package engine

// Player chooses actions for a seat: an AI, or a stand-in. It sees only the
// seat's view and its legal actions, and draws from its own randomness.
type Player interface {
	Choose(v View, legal []Action, r *Rand) Action
}

// Bots is implemented by games that ship AI players. Kinds are "random" and
// "heuristic" at least.
type Bots interface {
	Bot(kind string) (Player, error)
}

// BotOf is a game's Bot when its kinds are the usual two: "random", and
// "heuristic" (also "") for the game's own heuristic player.
func BotOf(kind string, heuristic Player) (Player, error) {
	switch kind {
	case "random":
		return Random{}, nil
	case "heuristic", "":
		return heuristic, nil
	}
	return nil, Errorf(CodeBadOption, "key", "bot", "value", kind)
}

// Random is a player that picks uniformly among the legal actions.
type Random struct{}

// Choose picks a legal action at random.
func (Random) Choose(_ View, legal []Action, r *Rand) Action {
	return legal[r.IntN(len(legal))]
}

// HiddenShuffler is implemented by states for the conformance suite: it
// returns a copy in which everything seat s may not know (other hands, the
// deck, undisclosed choices) is re-dealt at random, keeping all that s may
// know. s's view of the copy must equal s's view of the original, and the
// copy must depend only on that view and r, never on how the hidden cards
// lay: a search player samples the states it plans on with it (two states
// that s cannot tell apart give the same copies for the same r).
type HiddenShuffler interface {
	ShuffleHidden(s Seat, r *Rand) State
}

// Believer is implemented by states in which a seat can read part of what
// it cannot see from what it has seen (how the others played): a search
// player samples from Beliefs rather than ShuffleHidden when it can. What
// Beliefs returns must depend only on what s may know — its view and what
// every seat saw happen (a game's public record) — and its samples must
// have the same view for s as the real state, as ShuffleHidden's do.
type Believer interface {
	Beliefs(s Seat) Sampler
}

// Sampler draws states a seat cannot tell from the real one.
type Sampler interface {
	Sample(r *Rand) State
}

// Simulator is implemented by states that can apply a legal action as
// Apply does without making its events: a search player's playouts read
// none. The state it leaves must be the one Apply leaves (the conformance
// suite checks it).
type Simulator interface {
	Simulate(s Seat, a Action, r *Rand) error
}

// Forecaster is implemented by states that can tell, before the end,
// each seat's chances from here: a search player's evaluation of a playout
// it cuts short, in games whose playouts to the end are too long for its
// budget.
type Forecaster interface {
	Forecast() Forecast
}

// Forecast is each seat's chance to win (Win) and to end ahead of each
// other seat (Ahead[s][o]), in the direction the game is won.
type Forecast struct {
	Win   []float64
	Ahead [][]float64
}

// Inventory is implemented by states whose components are conserved: the
// multiset of every card in every zone.
type Inventory interface {
	Inventory() map[string]int
}

// Checker is implemented by states that answer a scenario's game-specific
// expect keys (hand, score and the keys of the game's rules page).
type Checker interface {
	Check(key string, args []string) error
}

// Stacker is implemented by games that accept scenario stacking lines; it
// lists the directive names (e.g. "deal", "deck").
type Stacker interface {
	StackKinds() []string
}

// Optional is implemented by states in which a seat that need not act may
// still take some actions (Rebel Princess: announcing a power in advance
// while others play). Acting still lists only who must act, and Legal(s) is
// empty for a seat that is not acting; OptionalLegal(s) lists what such a
// seat may do, and Apply accepts it.
type Optional interface {
	OptionalLegal(s Seat) []Action
}

// Canonicalizer is implemented by states that accept more than one
// spelling of an action whose meaning depends on the state (Rebel Princess:
// a two-card pass to one side in either order). Canonical returns the
// spelling that Legal lists, or a unchanged; Apply accepts both, and the
// table stores the canonical one.
type Canonicalizer interface {
	Canonical(s Seat, a Action) Action
}

// Canonical is a in the spelling st's Legal lists (a itself for most games).
func Canonical(st State, s Seat, a Action) Action {
	if c, ok := st.(Canonicalizer); ok {
		return c.Canonical(s, a)
	}
	return a
}

// AnyLegal lists everything seat s may do now: Legal(s), or for a seat that
// is not acting, its optional actions.
func AnyLegal(st State, s Seat) []Action {
	if l := st.Legal(s); len(l) > 0 {
		return l
	}
	if o, ok := st.(Optional); ok {
		return o.OptionalLegal(s)
	}
	return nil
}

// Searcher is a player that plans on the state itself (a search player):
// it must decide only from what seat s may know, sampling the rest anew
// (HiddenShuffler), so that two states with the same view for s give the
// same action for the same r.
type Searcher interface {
	Player
	ChooseIn(st State, s Seat, r *Rand) Action
}

// Decide asks p for seat s's action in st: a Searcher is given the state,
// any other player s's view and legal actions.
func Decide(p Player, st State, s Seat, r *Rand) Action {
	if sp, ok := p.(Searcher); ok {
		return sp.ChooseIn(st, s, r)
	}
	return p.Choose(st.View(s), AnyLegal(st, s), r)
}
