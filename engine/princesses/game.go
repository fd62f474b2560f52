// Package princesses is Rebel Princess (Polish deluxe edition, seed 000, and
// Ukrainian classic edition, seed 001): a trick-taking game in which you try
// not to take Princes and the Frog, with a round card changing the rules of
// each round and a princess power per player.
package princesses

import (
	"slices"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Codes of this game's rule errors.
const (
	CodeUnknownCard     = "princesses.unknown_card"
	CodeUnknownPrincess = "princesses.unknown_princess"
	CodeNotInHand       = "princesses.not_in_hand"
	CodeMustFollow      = "princesses.must_follow"
	CodePrincesLocked   = "princesses.princes_locked"
	CodeNotOffered      = "princesses.not_offered"
	CodePassCount       = "princesses.pass_count"
	CodeWrongPhase      = "princesses.wrong_phase"
	CodeDuplicateCard   = "princesses.duplicate_card"
	CodeBadForm         = "princesses.bad_form"
	CodeUnknownSuit     = "princesses.round.unknown_suit"
	CodeSplitCount      = "princesses.round.split_count"
	CodeSuitNotHeld     = "princesses.round.suit_not_held"
	CodeNotInTrick      = "princesses.round.not_in_trick"
	CodeOwnTrickCard    = "princesses.round.own_trick_card"
	CodeAlreadySwapped  = "princesses.round.already_swapped"
	CodeMustMatchParity = "princesses.round.must_match_parity"
	CodeHighOrLow       = "princesses.round.high_or_low"
	CodeNoPower         = "princesses.power.none"
	CodePowerUsed       = "princesses.power.used"
	CodePowerNotNow     = "princesses.power.not_now"
	CodePowerCancelled  = "princesses.power.cancelled"
	CodePowerArg        = "princesses.power.bad_choice"
	CodeNothingDeclared = "princesses.power.nothing_declared"
	CodePrincesUnplayed = "princesses.power.princes_unplayed"
	CodeNothingToTake   = "princesses.power.nothing_to_take"
	CodeMustLead        = "princesses.power.must_lead"
	CodeMustPlayFrozen  = "princesses.power.must_play_frozen"
	CodeAboveFive       = "princesses.power.above_five"
	CodeNotSelf         = "princesses.power.not_self"
	CodeNotAChoice      = "princesses.power.not_a_choice"
	CodeWithPlay        = "princesses.power.with_play"
)

// Game is Rebel Princess.
type Game struct{}

func init() { engine.Register(Game{}) }

// ID is "princesses".
func (Game) ID() string { return "princesses" }

// Seats: 3 to 6.
func (Game) Seats() (int, int) { return 3, 6 }

// Options lists the table options.
func (Game) Options() []engine.OptionSpec {
	return []engine.OptionSpec{
		{Key: "edition", Default: "deluxe", Values: []string{"deluxe", "classic"}},
		{Key: "rounds", Default: "5"},
		{Key: "powers", Default: "on", Values: []string{"on", "off"}},
		{Key: "promo", Default: "off", Values: []string{"on", "off"}},
	}
}

// ParseAction reads an action in notation.
func (Game) ParseAction(text string) (engine.Action, error) {
	return engine.Parsed(ParseAction(text))
}

// config is a table's validated options.
type config struct {
	edition Edition
	powers  bool
	promo   bool
	rounds  []RoundID // fixed order, or nil with random > 0
	random  int       // number of rounds to draw at random
}

func parseOptions(opts engine.Options) (config, error) {
	c := config{powers: true}
	for k, v := range opts {
		bad := engine.Errorf(engine.CodeBadOption, "key", k, "value", v)
		switch k {
		case "edition":
			switch v {
			case "deluxe":
				c.edition = Deluxe
			case "classic":
				c.edition = Classic
			default:
				return c, bad
			}
		case "powers", "promo":
			if v != "on" && v != "off" {
				return c, bad
			}
			if k == "powers" {
				c.powers = v == "on"
			} else {
				c.promo = v == "on"
			}
		case "rounds":
		default:
			return c, engine.Errorf(engine.CodeBadOption, "key", k, "value", v, "why", "unknown_key")
		}
	}
	if c.promo && c.edition != Classic {
		return c, engine.Errorf(engine.CodeBadOption, "key", "promo", "value", "on", "why", "classic_only")
	}
	return c, c.parseRounds(opts["rounds"])
}

func (c *config) parseRounds(v string) error {
	bad := func(why string, kv ...any) error {
		return engine.Errorf(engine.CodeBadOption, append([]any{"key", "rounds", "value", v, "why", why}, kv...)...)
	}
	switch v {
	case "", "5":
		c.rounds = defaultRounds(c.edition, 5)
		return nil
	case "3":
		c.rounds = defaultRounds(c.edition, 3)
		return nil
	case "random":
		c.random = 5
		return nil
	case "random3":
		c.random = 3
		return nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > 5 {
		return bad("too_many")
	}
	for _, p := range parts {
		id, ok := parseRound(strings.TrimSpace(p))
		if !ok {
			return bad("unknown_round", "round", p)
		}
		if !id.data().inEdition(c.edition) {
			return bad("other_edition", "round", p, "edition", c.edition.String())
		}
		if !id.data().implemented {
			return bad("not_implemented", "round", p)
		}
		c.rounds = append(c.rounds, id)
	}
	return nil
}

// firstGame is each edition's first-game suggestion (seed 000: a, b, c, d,
// e; seed 001: Once Upon a Time, Masquerade, Invitation, Royal Decree,
// Wedding Gift). The 3-round game keeps its first two cards and its last.
var firstGame = [...][]string{
	Deluxe:  {"once-upon-a-time", "late-to-the-ball", "magic-beans", "three-times-a-lady", "arranged-marriage"},
	Classic: {"once-upon-a-time", "masquerade", "invitation", "royal-decree", "wedding-gift"},
}

// defaultRounds is the edition's first-game suggestion (5 rounds) or its
// first two and last cards (3 rounds). A card not implemented yet is
// replaced by the next implemented introductory one.
func defaultRounds(ed Edition, n int) []RoundID {
	ids := firstGame[ed]
	if n == 3 {
		ids = []string{ids[0], ids[1], ids[4]}
	}
	intro := playableRounds(ed, false)
	out := make([]RoundID, len(ids))
	for i, id := range ids {
		rid, _ := parseRound(id)
		if !rid.data().implemented {
			rid = intro[i%len(intro)]
		}
		out[i] = rid
	}
	return out
}

// drawRounds draws n round cards at random, an hourglass card last when the
// edition has one implemented. While fewer cards than rounds are implemented,
// cards repeat.
func drawRounds(ed Edition, n int, r *engine.Rand) []RoundID {
	hour := playableRounds(ed, true)
	pool := slices.DeleteFunc(playableRounds(ed, false), func(x RoundID) bool { return roundTable[x].hourglass })
	if len(pool) == 0 {
		pool = playableRounds(ed, false)
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	out := make([]RoundID, n)
	for i := range out {
		out[i] = pool[i%len(pool)]
	}
	if len(hour) > 0 {
		out[n-1] = hour[r.IntN(len(hour))]
	}
	return out
}

// New creates a table's game: princesses dealt (when powers are on), the
// first round card revealed and the first hands dealt.
func (Game) New(opts engine.Options, seats int, r *engine.Rand) (engine.State, error) {
	c, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if seats < 3 || seats > 6 {
		return nil, engine.Errorf(engine.CodeBadSeats, "seats", seats, "min", 3, "max", 6)
	}
	if c.random > 0 {
		c.rounds = drawRounds(c.edition, c.random, r)
	}
	st := newState(c, seats)
	first, err := engine.FirstSeat(r, seats)
	if err != nil {
		return nil, err
	}
	st.first = first
	if c.powers {
		if err := st.dealPrincesses(r); err != nil {
			return nil, err
		}
	}
	st.starter = first
	if _, err := st.startRound(r); err != nil {
		return nil, err
	}
	if c.powers {
		st.phase = phaseChoose
	}
	return st, nil
}

// StackKinds lists the scenario stacking directives: "deal <seat>: cards",
// "princesses <seat>: id id", "first <seat>" and "tiebreak: <round id>"
// (the hourglass card of the deluxe tie-break round).
func (Game) StackKinds() []string { return []string{"deal", "princesses", "first", "tiebreak"} }

// Bot returns an AI player: "random" or "heuristic".
func (Game) Bot(kind string) (engine.Player, error) { return engine.BotOf(kind, Heuristic{}) }

// SearchBudget is the search player's default budget in simulated actions
// per decision (engine/ai): a playout of Rebel Princess is cheap (a few
// microseconds an action), and the search needs many to beat the heuristic
// (at 1,500: 37.0 % of 1,000 four-seat games; at 5,000: 46.1 % of 1,000,
// BENCHMARKS.md), well within 50 ms a decision.
func (Game) SearchBudget(int) int { return 5000 }
