package princesses

// Edition is the rulebook edition a table plays.
type Edition uint8

// The editions: deluxe is the Polish rulebook (seed 000), classic the
// Ukrainian one (seed 001).
const (
	Deluxe Edition = iota
	Classic
)

func (e Edition) String() string {
	if e == Classic {
		return "classic"
	}
	return "deluxe"
}

// PrincessID indexes the princess table.
type PrincessID int8

// NoPrincess marks a seat without a princess.
const NoPrincess PrincessID = -1

type princessData struct {
	id      string
	deluxe  bool
	classic bool
	promo   bool // classic only with promo=on
}

// princessTable lists every princess of both editions. Powers are hooks
// keyed by id and edition (powers.go, powerTable); a princess without an
// entry for the edition has no power there (implementedPower); every
// princess now has one in each of her editions.
var princessTable = []princessData{
	{id: "cinderella", deluxe: true, classic: true},
	{id: "snow-white", deluxe: true, classic: true},
	{id: "mermaid", deluxe: true, classic: true},
	{id: "pocahontas", deluxe: true, classic: true},
	{id: "sleeping-beauty", deluxe: true, classic: true},
	{id: "alice", deluxe: true, classic: true},
	{id: "mulan", deluxe: true, classic: true},
	{id: "scheherazade", deluxe: true, classic: true},
	{id: "ice-princess", deluxe: true, classic: true},
	{id: "pea-princess", deluxe: true, classic: true},
	{id: "rapunzel", deluxe: true},
	{id: "thumbelina", deluxe: true},
	{id: "karmezina", classic: true, promo: true},
}

// String is the princess's notation id.
func (p PrincessID) String() string {
	if p < 0 || int(p) >= len(princessTable) {
		return "-"
	}
	return princessTable[p].id
}

func parsePrincess(t string) (PrincessID, bool) {
	for i, p := range princessTable {
		if p.id == t {
			return PrincessID(i), true
		}
	}
	return NoPrincess, false
}

func princessPool(ed Edition, promo bool) []PrincessID {
	var out []PrincessID
	for i, p := range princessTable {
		if (ed == Deluxe && p.deluxe) || (ed == Classic && p.classic && (!p.promo || promo)) {
			out = append(out, PrincessID(i))
		}
	}
	return out
}

// RoundID indexes the round-card table.
type RoundID uint8

// passSpec is a round card's pass: cards to the left neighbour (seat+1) and
// to the right neighbour (seat-1).
type passSpec struct{ left, right int }

func (p passSpec) total() int { return p.left + p.right }

// roundRules are the small hooks through which a round card changes the
// base game (rules.go holds the functions). A zero field means the base rule;
// the trick loop calls the hooks and knows no card by name.
type roundRules struct {
	// required is the suit the next card must follow, given the trick so far
	// (Pass the Bouquet: the suit of the last card); nil: the lead card's suit.
	required func(trick []Play) Suit
	// follow lists the cards a seat holding hand may play to a trick already
	// led (Midnight Makeover); nil: follow the required suit
	// if able, else any card.
	follow func(trick []Play, req Suit, hand []Card) []Card
	// playable narrows the cards a seat may play now, after the lead and
	// follow rules (Magic Beans).
	playable func(hand, base []Card) []Card
	// prefer narrows the cards a follower may play, after following suit
	// and after the Princess and the Pea's "above 5" (power > round card):
	// Odds and Evens' parity (ruling 17).
	prefer func(trick []Play, pool []Card) []Card
	// winner picks the index into the trick of the winning play. It sees
	// the trick as the powers value it (Snow White's 0, Cinderella's
	// reversal as 13-n).
	winner func(trick []Play, ed Edition) int
	// flip replaces winner for a card that handles Cinderella's reversal
	// itself (Upside Down, Rings Twice: rulings 10 and the reference's
	// Cinderella row): valued has Snow White's 0 but no reversal, printed
	// is the trick as played.
	flip func(valued, printed []Play, ed Edition, reversed bool) int
	// score adjusts a seat's base round score (proposals from Princes and
	// the Frog).
	score func(st *State, s int, captured []Card, base int) int
	// noRebel: Rebel of the Ball is impossible in this round.
	noRebel bool

	// setup is the simultaneous step after the pass, before trick 1:
	// phaseAside, phaseReveal or phaseSplit.
	setup phase
	// before is the simultaneous step before every trick: phaseGift.
	before phase
	// after is the step after every trick while cards remain: phaseGive
	// (everyone) or phaseHaggle (the winner).
	after phase
	// perTurn is how many cards each seat plays to a trick, in turn order
	// (Rings Twice: 2); 0 means 1.
	perTurn int
	// stopAt ends the round when every hand holds this many cards, which
	// then count as captured (Late for a Date: 3).
	stopAt int
	// masked: every play after the lead is face down until all are in
	// (Masquerade).
	masked bool
	// halfRight: the set-aside half goes to the right neighbour, who
	// finishes the round with it (Blind Man's Bluff); otherwise each seat
	// takes back its own set-aside cards when the hand runs out.
	halfRight bool
}

func (r *roundRules) cardsPerTurn() int {
	if r.perTurn == 0 {
		return 1
	}
	return r.perTurn
}

type roundData struct {
	id          string
	letter      byte // deluxe letter a..z; 0 for classic-only cards
	deluxe      bool
	classic     bool
	pass        passSpec
	hourglass   bool
	implemented bool
	rules       roundRules
}

// roundTable lists every round card of both editions, with its pass (see
// the reference, section 2; unknown directions decided in rules/princesses.md
// and docs/games/princesses.md) and whether it is an hourglass (final-round) card.
var roundTable = []roundData{
	{id: "once-upon-a-time", letter: 'a', deluxe: true, classic: true, pass: passSpec{right: 3}, implemented: true},
	{id: "late-to-the-ball", letter: 'b', deluxe: true, classic: true, pass: passSpec{right: 1}, implemented: true},
	{id: "magic-beans", letter: 'c', deluxe: true, pass: passSpec{left: 3}, implemented: true},
	{id: "three-times-a-lady", letter: 'd', deluxe: true, pass: passSpec{right: 3}, implemented: true},
	{id: "arranged-marriage", letter: 'e', deluxe: true, pass: passSpec{left: 1, right: 1}, implemented: true},
	{id: "royal-decree", letter: 'f', deluxe: true, classic: true, pass: passSpec{right: 3}, implemented: true},
	{id: "always-the-bridesmaid", letter: 'g', deluxe: true, pass: passSpec{right: 1}, implemented: true},
	{id: "crystal-clear", letter: 'h', deluxe: true, classic: true, pass: passSpec{right: 2}, implemented: true},
	{id: "masquerade", letter: 'i', deluxe: true, classic: true, pass: passSpec{left: 1}, implemented: true},
	{id: "pets-revenge", letter: 'j', deluxe: true, classic: true, pass: passSpec{left: 1, right: 1}, hourglass: true, implemented: true},
	{id: "musical-chairs", letter: 'k', deluxe: true, classic: true, pass: passSpec{right: 1}, implemented: true},
	{id: "sisterhood", letter: 'l', deluxe: true, pass: passSpec{right: 2}, implemented: true},
	{id: "after-party", letter: 'm', deluxe: true, classic: true, pass: passSpec{left: 1}, implemented: true},
	{id: "late-for-a-date", letter: 'n', deluxe: true, pass: passSpec{right: 2}, implemented: true},
	{id: "wedding-gift", letter: 'o', deluxe: true, classic: true, pass: passSpec{left: 1, right: 1}, hourglass: true, implemented: true},
	{id: "haggle", letter: 'p', deluxe: true, classic: true, pass: passSpec{left: 1}, implemented: true},
	{id: "blind-mans-bluff", letter: 'q', deluxe: true, classic: true, pass: passSpec{right: 1}, implemented: true},
	{id: "poisoned-apple", letter: 'r', deluxe: true, classic: true, pass: passSpec{left: 2}, implemented: true},
	{id: "odds-and-evens", letter: 's', deluxe: true, classic: true, pass: passSpec{right: 2}, implemented: true},
	{id: "single-fairy", letter: 't', deluxe: true, classic: true, pass: passSpec{left: 1}, hourglass: true, implemented: true},
	{id: "rings-twice", letter: 'u', deluxe: true, classic: true, pass: passSpec{left: 1, right: 1}, implemented: true},
	{id: "midnight-makeover", letter: 'v', deluxe: true, classic: true, pass: passSpec{left: 3}, implemented: true},
	{id: "pass-the-bouquet", letter: 'w', deluxe: true, classic: true, pass: passSpec{left: 3}, implemented: true},
	{id: "upside-down", letter: 'x', deluxe: true, classic: true, pass: passSpec{left: 2}, implemented: true},
	{id: "bathroom-break", letter: 'y', deluxe: true, classic: true, pass: passSpec{right: 2}, hourglass: true, implemented: true},
	{id: "dancing-queens", letter: 'z', deluxe: true, classic: true, pass: passSpec{right: 2}, hourglass: true, implemented: true},
	{id: "invitation", classic: true, pass: passSpec{left: 3}, implemented: true},
}

// String is the round card's notation id.
func (r RoundID) String() string { return roundTable[r].id }

func (r RoundID) data() *roundData { return &roundTable[r] }

func parseRound(t string) (RoundID, bool) {
	for i, rc := range roundTable {
		if rc.id == t || (len(t) == 1 && rc.letter == t[0]) {
			return RoundID(i), true
		}
	}
	return 0, false
}

func (rc *roundData) inEdition(ed Edition) bool {
	if ed == Classic {
		return rc.classic
	}
	return rc.deluxe
}

// playableRounds lists the implemented round cards of an edition.
func playableRounds(ed Edition, hourglass bool) []RoundID {
	var out []RoundID
	for i := range roundTable {
		rc := &roundTable[i]
		if rc.implemented && rc.inEdition(ed) && (!hourglass || rc.hourglass) {
			out = append(out, RoundID(i))
		}
	}
	return out
}

// RoundCardIDs lists the round-card ids of an edition in letter order.
func RoundCardIDs(ed Edition) []string {
	var out []string
	for _, rc := range roundTable {
		if rc.inEdition(ed) {
			out = append(out, rc.id)
		}
	}
	return out
}

// RoundCardPass tells how many cards a round card passes to the left and to
// the right, and whether it is an hourglass (final-round) card; ok is false
// for an unknown id.
func RoundCardPass(id string) (left, right int, hourglass, ok bool) {
	r, found := parseRound(id)
	if !found {
		return 0, 0, false, false
	}
	d := r.data()
	return d.pass.left, d.pass.right, d.hourglass, true
}

// PrincessIDs lists the princess ids of an edition.
func PrincessIDs(ed Edition, promo bool) []string {
	var out []string
	for _, p := range princessPool(ed, promo) {
		out = append(out, p.String())
	}
	return out
}
