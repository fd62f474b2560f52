package princesses

import (
	"slices"
	"strconv"

	"github.com/stolik-bot/stolik/engine"
)

// The princess powers, as data plus small hooks (issue [3]). Each power says
// when it is used (timing), what its declaration names, which powers already
// used in the same trick cancel it, and how it resolves; the trick loop in
// state.go calls the hooks and names no princess.
//
// Timing (rules/princesses.md, "Powers in asynchronous play"):
//   - before: declared in advance during the play phase ("declare ..."),
//     resolved before the next lead in declaration order; a declaration made
//     while the trick is still empty resolves at once;
//   - play: part of the play action ("play <card> <power>");
//   - preRes: offered when every card is down (Mulan);
//   - win: offered to the trick's winner (Alice, classic Pocahontas).

type timing uint8

const (
	atBefore timing = iota + 1
	atPlay
	atPreRes
	atWin
)

// argKind is what a declaration names.
type argKind uint8

const (
	argNone  argKind = iota
	argSuit          // a suit (Little Mermaid)
	argSeat          // any seat (deluxe Pocahontas)
	argOther         // another seat (Scheherazade, deluxe Ice Princess)
)

type power struct {
	when timing
	arg  argKind
	// onLeader: the power acts on the leader (lead suit, who leads), for the
	// cancellation table.
	onLeader bool
	// targetLeader: the power acts on the leader only when its target is
	// the leader (Scheherazade, deluxe Ice Princess); blockedBy then applies
	// only to such a declaration.
	targetLeader bool
	// anyTarget: blockedBy counts those powers used on anyone in the trick,
	// not only on the leader (Scheherazade).
	anyTarget bool
	// blockedBy lists the powers that, used on the leader earlier in the
	// same trick, cancel this one (reference 4.5; ruling 9).
	blockedBy []string
	// excludes lists the powers that, used at all earlier in the same trick,
	// cancel this one (classic Ice Princess and Little Mermaid, ruling 19;
	// Sleeping Beauty after the Mermaid, the Ice Princess or Rapunzel).
	excludes []string
	// finds reports whether the power finds the cards it takes (nil: it
	// takes none). One that does not cannot be used: it lapses unspent, and
	// may be announced again before a later trick (PL
	// Crystal Clear: revealed cards "uniemożliwia Księżniczce Lodu i
	// Szeherezadzie używanie swoich mocy wobec tych odkrytych kart"; ruling
	// 15: a Late-to-the-Ball card "cannot be affected").
	finds func(st *State, d decl) bool
	// resolve applies a before-trick declaration; it may open a sub-step
	// (and then returns true).
	resolve func(st *State, d decl, r *engine.Rand) ([]engine.Event, bool)
}

// powerTable holds each edition's powers; a princess without an entry has
// no power in that edition (none is left unimplemented silently:
// TestEveryPrincessHasAPower; docs/games/princesses.md).
var powerTable [2]map[PrincessID]*power

func pid(id string) PrincessID {
	p, ok := parsePrincess(id)
	if !ok {
		panic("princesses: no princess " + id)
	}
	return p
}

func init() {
	for ed := range powerTable {
		powerTable[ed] = map[PrincessID]*power{}
	}
	both := func(id string, p *power) {
		powerTable[Deluxe][pid(id)] = p
		powerTable[Classic][pid(id)] = p
	}
	set := func(ed Edition, id string, p *power) { powerTable[ed][pid(id)] = p }

	// A second Cinderella or Pea in one trick (Karmezina copying her) would
	// undo or repeat the first: cancelled ("якщо властивість вашої принцеси
	// скасує вже застосовану властивість іншої принцеси").
	both("cinderella", &power{when: atBefore, excludes: []string{"cinderella"}, resolve: resolveReverse})
	both("snow-white", &power{when: atPlay})
	// Deluxe: the Ice Princess and the Mermaid cancel each other only on the
	// leader ("użyły już w tej lewie swojej mocy wobec rozpoczynającego
	// gracza"); the deluxe Ice Princess may freeze another seat's card in the
	// same trick. Classic: never both in one trick (ruling 19, UA FAQ).
	set(Deluxe, "mermaid", &power{when: atBefore, arg: argSuit, onLeader: true,
		blockedBy: []string{"ice-princess", "rapunzel", "mermaid"}, resolve: resolveSong})
	set(Classic, "mermaid", &power{when: atBefore, arg: argSuit, onLeader: true,
		blockedBy: []string{"ice-princess", "rapunzel", "mermaid"}, excludes: []string{"ice-princess"}, resolve: resolveSong})
	// Scheherazade against the leader: cancelled once the Ice Princess, the
	// Mermaid or Rapunzel has acted in this trick at all ("jeśli Księżniczka
	// Lodu, Mała Syrenka lub Roszpunka użyły już swojej mocy w tej lewie"),
	// even a deluxe Ice Princess that froze another seat's card.
	both("scheherazade", &power{when: atBefore, arg: argOther, targetLeader: true, anyTarget: true, finds: findsIn(named),
		blockedBy: []string{"ice-princess", "mermaid", "rapunzel"}, resolve: resolveBazaar})
	both("sleeping-beauty", &power{when: atBefore, finds: everyHand,
		excludes: []string{"mermaid", "ice-princess", "rapunzel"}, resolve: resolveSpindle})
	set(Deluxe, "ice-princess", &power{when: atBefore, arg: argOther, targetLeader: true, finds: findsIn(named),
		blockedBy: []string{"mermaid", "rapunzel", "ice-princess"}, excludes: []string{"ice-princess"}, resolve: resolveFreeze})
	// Deluxe Pocahontas: "nie może używać swojej mocy, jeśli Mała Syrenka lub
	// Roszpunka użyły już swojej mocy w tej lewie" (a frozen card is still
	// played by its owner when another seat leads).
	set(Deluxe, "pocahontas", &power{when: atBefore, arg: argSeat, onLeader: true,
		blockedBy: []string{"mermaid", "rapunzel", "pocahontas"}, resolve: resolveGuide})
	set(Classic, "pocahontas", &power{when: atWin})
	both("alice", &power{when: atWin})
	both("mulan", &power{when: atPreRes})
	set(Classic, "ice-princess", &power{when: atBefore, onLeader: true, finds: findsIn(leading),
		blockedBy: []string{"mermaid", "rapunzel", "ice-princess"}, resolve: resolveFreezeLeader})
	set(Deluxe, "pea-princess", &power{when: atBefore, excludes: []string{"pea-princess"}, resolve: resolvePea})
	set(Classic, "pea-princess", &power{when: atPlay})
	set(Deluxe, "rapunzel", &power{when: atBefore, onLeader: true,
		blockedBy: []string{"ice-princess", "mermaid", "rapunzel"}, resolve: resolveHairClimb})
	set(Deluxe, "thumbelina", &power{when: atPlay})
}

func named(_ *State, d decl) engine.Seat    { return d.target }
func leading(st *State, _ decl) engine.Seat { return st.leader }

// findsIn: the power draws a random card from the hand of the seat that
// target gives.
func findsIn(target func(*State, decl) engine.Seat) func(*State, decl) bool {
	return func(st *State, d decl) bool {
		t := target(st, d)
		return t < 0 || int(t) >= st.n || len(st.randomPool(t)) > 0
	}
}

// everyHand (Sleeping Beauty): every seat gives her a hand card.
func everyHand(st *State, _ decl) bool {
	return !st.handLocked() && !slices.ContainsFunc(st.hands, func(h []Card) bool { return len(h) == 0 })
}

// idleBit marks seat s's declaration naming target (-1: none) as having
// found no card to take before this trick.
func idleBit(s, target engine.Seat) uint64 { return 1 << (uint(s)*8 + uint(target+1)&7) }

func (st *State) idle(s, target engine.Seat) bool {
	return s >= 0 && s < 8 && st.eff.idle&idleBit(s, target) != 0
}

// usable reports whether declaration d finds the cards it takes.
func (st *State) usable(d decl) bool {
	pw := powerFor(st.cfg.edition, d.pow)
	return pw.finds == nil || pw.finds(st, d)
}

// powerFor is princess p's power in edition ed, nil if it has none there.
func powerFor(ed Edition, p PrincessID) *power {
	if p < 0 {
		return nil
	}
	return powerTable[ed][p]
}

// decl is a declared before-trick power waiting to resolve.
type decl struct {
	seat    engine.Seat
	pow     PrincessID
	suit    Suit
	hasSuit bool
	target  engine.Seat // -1 none
}

// trickEffects are the powers in force for the current trick.
type trickEffects struct {
	acted        uint32 // powers resolved for this trick (bit per PrincessID)
	onLeader     uint32 // powers that acted on the leader
	reversed     bool   // Cinderella
	zeros        uint8  // seats whose Snow White power is on: their cards of 7 or less count 0 (Karmezina may copy her)
	lead         int8   // suit + 1 the leader must lead (Mermaid, Rapunzel)
	forced       bool   // the lead suit was imposed (Thumbelina cannot ignore it)
	pea          int8   // seat + 1 of the Princess and the Pea whose power is on
	thumb        int8   // seat + 1 of Thumbelina playing freely this trick
	free         uint8  // Masquerade: seats whose face-down card is off suit though they held it (Play.Free)
	idle         uint64 // declarations that found no card to take before this trick (idleBit)
	frozen       Card   // Ice Princess: the card its holder must play
	frozenPlayed bool   // it has been played (public: it lay face down before its holder)
	frozenSeat   int8   // seat + 1
	frozenKnown  int8   // seat + 1 of the Ice Princess who knows it (deluxe); 0: only the holder
	asked        uint8
	// mulanIn is, per seat, the card Mulan put into this trick with her
	// power (0 none): in Haggle with the Hag she may take it back if she
	// wins the trick (ruling 26).
	mulanIn [6]Card
	// haggled records the winner's Haggle exchanges after this trick:
	// haggleOther (a card someone else played), haggleMulan (her Mulan card).
	haggled uint8
}

// The two Haggle exchanges of a trick (ruling 26).
const (
	haggleOther uint8 = 1 << iota
	haggleMulan
)

// subStep is a power's short step that asks one seat (phasePower).
type subStep struct {
	kind  Kind // KindSing, KindMulan, KindAlice, KindGuide, KindTrade, KindOffer, KindRetain, KindAssign, KindFreeze
	seat  engine.Seat
	named uint8 // KindSing: suits already named (bit per suit); KindAssign: seats already served (bit per seat)
	// target is the seat whose cards the power took (Scheherazade, Ice
	// Princess); held are those cards, out of that hand while she decides.
	target engine.Seat
	held   [2]Card
}

func bit(p PrincessID) uint32 { return 1 << uint(p) }

// powersOf lists the powers seat s has in this game: its princess's, or for
// Karmezina those of every other princess at the table.
func (st *State) powersOf(s engine.Seat) []PrincessID {
	if !st.cfg.powers || s < 0 || int(s) >= st.n {
		return nil
	}
	p := st.chosen[s]
	if p == NoPrincess {
		return nil
	}
	if p == pid("karmezina") {
		var out []PrincessID
		for i, q := range st.chosen {
			if engine.Seat(i) != s && q != NoPrincess && q != p && powerFor(st.cfg.edition, q) != nil && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
		slices.Sort(out)
		return out
	}
	if powerFor(st.cfg.edition, p) == nil {
		return nil
	}
	return []PrincessID{p}
}

// canUse reports whether seat s may still use power p this round.
func (st *State) canUse(s engine.Seat, p PrincessID) bool {
	return st.phase != phaseChoose && s >= 0 && int(s) < st.n && !st.used[s] && slices.Contains(st.powersOf(s), p)
}

func (st *State) pendingDecl(s engine.Seat) int {
	return slices.IndexFunc(st.decls, func(d decl) bool { return d.seat == s })
}

// blocked reports whether power p, used now by a declaration d, would
// cancel a power already used on the leader this trick.
func (st *State) blocked(p PrincessID, target engine.Seat) bool {
	pw := powerFor(st.cfg.edition, p)
	for _, b := range pw.excludes {
		if st.eff.acted&bit(pid(b)) != 0 {
			return true
		}
	}
	if pw.targetLeader && target != st.leader {
		return false
	}
	used := st.eff.onLeader
	if pw.anyTarget {
		used = st.eff.acted
	}
	for _, b := range pw.blockedBy {
		if used&bit(pid(b)) != 0 {
			return true
		}
	}
	return false
}

// declaring reports whether before-trick powers may be announced now: while
// the tricks are played, and also during Musical Chairs' pass after a trick
// (they act once it is done: "Wszystkie moce Księżniczek obowiązujące przed
// lewą działają dopiero po przekazaniu kart") and Wedding Gift's gifts
// (Sleeping Beauty acts before the gifts are placed).
func (st *State) declaring() bool {
	return st.phase == phasePlay || st.phase == phaseGift || st.phase == phaseGive
}

// declareOptions lists the declarations seat s may make now.
func (st *State) declareOptions(s engine.Seat) []engine.Action {
	if !st.declaring() || s < 0 || int(s) >= st.n || st.used[s] {
		return nil
	}
	if st.pendingDecl(s) >= 0 {
		return []engine.Action{Action{Kind: KindWithdraw}}
	}
	now := st.resolvesNow()
	var out []engine.Action
	for _, p := range st.powersOf(s) {
		pw := powerFor(st.cfg.edition, p)
		if pw.when != atBefore || (now && st.blocked(p, -1) && !pw.targetLeader) {
			continue
		}
		a := Action{Kind: KindDeclare, Pow: int8(p) + 1}
		switch pw.arg {
		case argNone:
			if st.idle(s, -1) {
				continue
			}
			out = append(out, a)
		case argSuit:
			for su := Suit(0); su < numSuits; su++ {
				if su == Princes && !st.mayNamePrinces() {
					continue
				}
				b := a
				b.Suit, b.HasSuit = su, true
				out = append(out, b)
			}
		case argSeat, argOther:
			for t := 0; t < st.n; t++ {
				if (pw.arg == argOther && engine.Seat(t) == s) || (now && st.blocked(p, engine.Seat(t))) || st.idle(s, engine.Seat(t)) {
					continue
				}
				b := a
				b.Target = int8(t) + 1
				out = append(out, b)
			}
		}
	}
	return out
}

// OptionalLegal lists the actions seat s may take although it need not act
// (engine.Optional): announcing or withdrawing a before-trick power while
// the round's tricks are being played.
func (st *State) OptionalLegal(s engine.Seat) []engine.Action {
	if st.acting(s) {
		return nil
	}
	return st.declareOptions(s)
}

// applyDeclare queues a declaration (or withdraws one); a declaration made
// before the lead resolves at once.
func (st *State) applyDeclare(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	if a.Kind == KindWithdraw {
		i := st.pendingDecl(s)
		d := st.decls[i]
		st.decls = slices.Delete(slices.Clone(st.decls), i, i+1)
		return []engine.Event{engine.Public("power_withdrawn", map[string]any{"seat": s, "power": d.pow.String()})}, nil
	}
	d := decl{seat: s, pow: a.Power(), suit: a.Suit, hasSuit: a.HasSuit, target: a.TargetSeat()}
	st.decls = append(slices.Clone(st.decls), d)
	ev := []engine.Event{engine.Public("power_declared", declArgs(d))}
	if !st.resolvesNow() {
		return ev, nil
	}
	if st.phase == phaseGift {
		// The power acts before the gifts: those chosen so far go back to
		// their owners' hands, and the gift step opens again after it.
		back := false
		for i, cs := range st.pending {
			if cs != nil {
				st.hands[i] = append(st.hands[i], cs...)
				slices.Sort(st.hands[i])
				st.pending[i], back = nil, true
			}
		}
		if back {
			ev = append(ev, engine.Public("gifts_returned", map[string]any{"seat": s}))
		}
		st.phase = phasePlay
	}
	return st.resolveDecls(ev, r), nil
}

// resolvesNow reports whether a declaration made now resolves at once:
// before the lead (and before Wedding Gift's gifts), but not during Musical
// Chairs' pass, after which the declarations resolve.
func (st *State) resolvesNow() bool {
	return st.phase != phaseGive && len(st.trick) == 0 && !st.maskedTurn()
}

func declArgs(d decl) map[string]any {
	m := map[string]any{"seat": d.seat, "power": d.pow.String()}
	if d.hasSuit {
		m["suit"] = d.suit.Word()
	}
	if d.target >= 0 {
		m["target"] = d.target
	}
	return m
}

// resolveDecls resolves the queued declarations in order, then opens the
// lead (or the round card's step before it). A sub-step stops it; its answer
// resumes it.
func (st *State) resolveDecls(ev []engine.Event, r *engine.Rand) []engine.Event {
	for len(st.decls) > 0 {
		d := st.decls[0]
		st.decls = slices.Clone(st.decls[1:])
		if !st.canUse(d.seat, d.pow) {
			continue
		}
		if st.blocked(d.pow, d.target) {
			ev = append(ev, engine.Public("power_cancelled", declArgs(d)))
			continue
		}
		if !st.usable(d) {
			// Not spent: the power may be announced again, on another seat
			// or before a later trick.
			st.eff.idle |= idleBit(d.seat, d.target)
			ev = append(ev, engine.Public("power_unusable", declArgs(d)))
			continue
		}
		pw := powerFor(st.cfg.edition, d.pow)
		st.used[d.seat] = true
		st.eff.acted |= bit(d.pow)
		if pw.onLeader || (pw.targetLeader && d.target == st.leader) {
			st.eff.onLeader |= bit(d.pow)
		}
		ev = append(ev, engine.Public("power_used", declArgs(d)))
		more, opened := pw.resolve(st, d, r)
		ev = append(ev, more...)
		if opened {
			return ev
		}
	}
	return st.openLead(ev)
}

// openLead opens the round card's step before the trick (unless its gift
// pile is already there, after Alice) or the lead.
func (st *State) openLead(ev []engine.Event) []engine.Event {
	if p := st.rules().before; p != 0 && !st.giftsPlaced() {
		st.openStep(p)
		return ev
	}
	st.phase = phasePlay
	return ev
}

func (st *State) giftsPlaced() bool {
	return slices.ContainsFunc(st.gifts, func(c Card) bool { return c != 0 })
}

// ---------------------------------------------------------------- hooks

// resolveReverse (Cinderella): the ranking is reversed for this trick.
func resolveReverse(st *State, _ decl, _ *engine.Rand) ([]engine.Event, bool) {
	st.eff.reversed = true
	return nil, false
}

// resolvePea (deluxe Princess and the Pea): the others must play above 5.
func resolvePea(st *State, d decl, _ *engine.Rand) ([]engine.Event, bool) {
	st.eff.pea = int8(d.seat) + 1
	return nil, false
}

// resolveGuide (deluxe Pocahontas): she chooses who leads.
func resolveGuide(st *State, d decl, _ *engine.Rand) ([]engine.Event, bool) {
	st.leader = d.target
	if st.last == nil && len(st.trick) == 0 && !slices.ContainsFunc(st.tricks, func(n int) bool { return n > 0 }) {
		// She chooses who starts the round: the next round's tie counts
		// from that seat ("kto siedzi jako pierwszy na lewo od osoby, która
		// rozpoczęła ostatnią rundę").
		st.starter = d.target
	}
	return []engine.Event{engine.Public("leader_changed", map[string]any{"seat": d.target})}, false
}

// resolveHairClimb (Rapunzel): the leader must lead a Prince, even while
// the Princes are locked (this does not let them sneak in); a leader
// without a Prince leads freely and the power is spent.
func resolveHairClimb(st *State, _ decl, _ *engine.Rand) ([]engine.Event, bool) {
	if holdsSuit(st.hands[st.leader], Princes) {
		st.eff.lead, st.eff.forced = int8(Princes)+1, true
		return []engine.Event{engine.Public("lead_suit_forced", map[string]any{"seat": st.leader, "suit": Princes.Word()})}, false
	}
	return []engine.Event{engine.Public("lead_suit_missing", map[string]any{"seat": st.leader, "suit": Princes.Word()})}, false
}

// resolveSong (Little Mermaid): the leader must lead the named suit. If the
// leader has none: deluxe, she names another suit (a sub-step); classic,
// the leader leads as usual.
func resolveSong(st *State, d decl, _ *engine.Rand) ([]engine.Event, bool) {
	if holdsSuit(st.hands[st.leader], d.suit) {
		st.eff.lead, st.eff.forced = int8(d.suit)+1, true
		return []engine.Event{engine.Public("lead_suit_forced", map[string]any{"seat": st.leader, "suit": d.suit.Word()})}, false
	}
	ev := []engine.Event{engine.Public("lead_suit_missing", map[string]any{"seat": st.leader, "suit": d.suit.Word()})}
	if st.cfg.edition == Classic {
		return ev, false
	}
	st.sub = subStep{kind: KindSing, seat: d.seat, named: 1 << d.suit}
	st.phase = phasePower
	return ev, true
}

// mayNamePrinces reports whether the Little Mermaid may name Princes: only
// once a Prince has been played this round (both rulebooks: "jeśli Książę
// nie został jeszcze zagrany w tej rundzie", "якщо в цьому раунді ще ніхто не
// грав принців"). That is wider than "snuck in": a leader holding only
// Princes plays one without letting them sneak in.
func (st *State) mayNamePrinces() bool { return st.snuckIn || st.princed }

// singable lists the suits the Mermaid may still name: not yet named, and
// Princes only once one has been played this round or if the leader holds
// only Princes.
func (st *State) singable() []Suit {
	var out []Suit
	only := onlyPrinces(st.hands[st.leader])
	for su := Suit(0); su < numSuits; su++ {
		if st.sub.named&(1<<su) == 0 && (su != Princes || st.mayNamePrinces() || only) {
			out = append(out, su)
		}
	}
	return out
}

// resolveFreezeLeader (classic Ice Princess): the leader must lead a random
// card of their hand (not a Crystal Clear card); a Prince sneaks in.
func resolveFreezeLeader(st *State, _ decl, r *engine.Rand) ([]engine.Event, bool) {
	pool := st.randomPool(st.leader) // not empty: see usable
	c := pool[r.IntN(len(pool))]
	st.eff.frozen, st.eff.frozenSeat = c, int8(st.leader)+1
	ev := []engine.Event{engine.Public("card_frozen", map[string]any{"seat": st.leader})}
	if c.Suit() == Princes && !st.snuckIn {
		st.snuckIn = true
		ev = append(ev, engine.Public("princes_snuck_in", map[string]any{"seat": st.leader}))
	}
	return ev, false
}

// ---------------------------------------------------------------- plays

// frozenFor is the card seat s must play now (Ice Princess), 0 if none.
func (st *State) frozenFor(s engine.Seat) Card {
	if st.eff.frozenSeat == int8(s)+1 && slices.Contains(st.hands[s], st.eff.frozen) {
		return st.eff.frozen
	}
	return 0
}

// powerPlays lists the plays seat s may make with a power (Snow White's
// zero, Thumbelina's free card, classic Pea's "above 5").
func (st *State) powerPlays(s engine.Seat, base []Card) []engine.Action {
	if st.frozenFor(s) != 0 || st.pendingDecl(s) >= 0 {
		// A seat with an announcement waiting (Karmezina) has chosen its
		// power for the round: it may withdraw it first.
		return nil
	}
	var out []engine.Action
	with := func(c Card, p PrincessID) {
		a := play(c)
		a.Pow = int8(p) + 1
		out = append(out, a)
	}
	for _, p := range st.powersOf(s) {
		if st.used[s] || powerFor(st.cfg.edition, p).when != atPlay {
			continue
		}
		switch p.String() {
		case "snow-white":
			for _, c := range base {
				if c.Rank() <= 7 {
					with(c, p)
				}
			}
		case "pea-princess":
			if !st.maskedTurn() && len(st.trick)+1 < st.trickSize() {
				for _, c := range base {
					with(c, p)
				}
			}
		case "thumbelina":
			if len(st.trick) == 0 || st.eff.forced {
				continue
			}
			for _, c := range st.hands[s] {
				if c.Suit() != Princes && !c.IsFrog() && !slices.Contains(base, c) {
					with(c, p)
				}
			}
		}
	}
	return out
}

// applyPlayPower records the effect of a play made with a power.
func (st *State) applyPlayPower(s engine.Seat, c Card, p PrincessID) {
	st.used[s] = true
	st.eff.acted |= bit(p)
	switch p.String() {
	case "snow-white":
		st.eff.zeros |= 1 << s
	case "pea-princess":
		st.eff.pea = int8(s) + 1
	case "thumbelina":
		st.eff.thumb = int8(s) + 1
	}
}

// ---------------------------------------------------------------- winning

// valued is the trick as the powers rank it: Snow White's card counts 0
// (in Rings Twice both her cards of 7 or less: the powers act on both cards
// of the double trick), and under Cinderella (unless the round card handles
// the reversal itself) every number n counts 13-n.
func (st *State) valued(trick []Play, flipSelf bool) []Play {
	if st.eff.zeros == 0 && !st.eff.reversed {
		return trick
	}
	t := slices.Clone(trick)
	for i := range t {
		c := t[i].Card
		r := c.Rank()
		if st.eff.zeros&(1<<t[i].Seat) != 0 && r <= 7 {
			r = 0
		}
		if st.eff.reversed && !flipSelf {
			r = 13 - r
		}
		t[i].Card = NewCard(c.Suit(), r)
	}
	return t
}

// ---------------------------------------------------------------- sub-steps

// mulanSwaps lists Mulan's possible swaps for seat s: one of her cards in
// the trick for a hand card of the same suit; the Frog is never put in or
// taken out (both rulebooks; ruling 29).
func (st *State) mulanSwaps(s engine.Seat) []engine.Action {
	var out []engine.Action
	for _, p := range st.trick {
		if p.Seat != s || p.Card.IsFrog() {
			continue
		}
		for _, h := range st.hands[s] {
			if h.Suit() == p.Card.Suit() && !h.IsFrog() {
				out = append(out, cardAction(KindMulan, p.Card, h))
			}
		}
	}
	return out
}

// nextMulan is the first seat that may still use Mulan's power on the
// complete trick, -1 if none. Mulan and a Karmezina copying her want to act
// at the same moment, so they are asked clockwise from the leader's left,
// the leader last (ruling 9; seed 000 "UŻYWANIE MOCY KSIĘŻNICZKI", seed 001
// FAQ).
func (st *State) nextMulan() engine.Seat {
	m := pid("mulan")
	for k := 1; k <= st.n; k++ {
		s := st.next(st.leader, k)
		if st.eff.asked&(1<<uint(s)) == 0 && st.canUse(s, m) && len(st.mulanSwaps(s)) > 0 {
			return s
		}
	}
	return -1
}

// subLegal lists the answers to the open sub-step.
func (st *State) subLegal() []engine.Action {
	switch st.sub.kind {
	case KindSing:
		var out []engine.Action
		for _, su := range st.singable() {
			out = append(out, Action{Kind: KindSing, Suit: su})
		}
		return out
	case KindMulan:
		return append([]engine.Action{Action{Kind: KindMulan, No: true}}, st.mulanSwaps(st.sub.seat)...)
	case KindAlice:
		return []engine.Action{Action{Kind: KindAlice}, Action{Kind: KindAlice, No: true}}
	case KindTrade:
		return st.tradeLegal()
	case KindFreeze:
		return st.freezeLegal()
	case KindRetain, KindAssign:
		return st.spindleLegal()
	case KindGuide:
		out := []engine.Action{Action{Kind: KindGuide, No: true}}
		for t := 0; t < st.n; t++ {
			if engine.Seat(t) != st.sub.seat {
				out = append(out, Action{Kind: KindGuide, Target: int8(t) + 1})
			}
		}
		return out
	}
	return nil
}

// applySub answers the open sub-step.
func (st *State) applySub(s engine.Seat, a Action, r *engine.Rand) ([]engine.Event, error) {
	switch a.Kind {
	case KindSing:
		if holdsSuit(st.hands[st.leader], a.Suit) {
			st.eff.lead, st.eff.forced = int8(a.Suit)+1, true
			ev := []engine.Event{engine.Public("lead_suit_forced", map[string]any{"seat": st.leader, "suit": a.Suit.Word()})}
			st.phase = phasePlay
			return st.resolveDecls(ev, r), nil
		}
		st.sub.named |= 1 << a.Suit
		return []engine.Event{engine.Public("lead_suit_missing", map[string]any{"seat": st.leader, "suit": a.Suit.Word()})}, nil
	case KindMulan:
		st.eff.asked |= 1 << uint(s)
		var ev []engine.Event
		if !a.No {
			st.used[s] = true
			out, in := a.Cards[0], a.Cards[1]
			st.takeCard(s, in)
			st.hands[s] = append(st.hands[s], out)
			slices.Sort(st.hands[s])
			trick := slices.Clone(st.trick)
			for i := range trick {
				if trick[i].Seat == s && trick[i].Card == out {
					trick[i].Card = in
				}
			}
			st.trick = trick
			st.eff.mulanIn[s] = in
			ev = append(ev, engine.Public("mulan_swapped", map[string]any{"seat": s, "out": out.String(), "in": in.String()}))
		}
		st.phase = phasePlay
		return st.resolveTrick(ev, r)
	case KindAlice:
		st.phase = phasePlay
		if a.No {
			return st.takeTrick(nil, r)
		}
		return st.aliceRedeal(s, r)
	case KindTrade:
		return st.applyTrade(s, a, r)
	case KindFreeze:
		return st.applyFreeze(s, a, r)
	case KindRetain, KindAssign:
		return st.applySpindle(s, a, r)
	case KindGuide:
		st.phase = phasePlay
		var ev []engine.Event
		if !a.No {
			st.used[s] = true
			st.leader = a.TargetSeat()
			ev = append(ev, engine.Public("leader_changed", map[string]any{"seat": st.leader, "by": s}))
		}
		return st.afterTrick(ev, r)
	}
	return nil, engine.Errorf(engine.CodeIllegal, "action", a.String())
}

// aliceRedeal (Alice): the trick's cards are shuffled and dealt back, one
// to each seat (Rings Twice: two), starting with her; she leads next. The
// round card's step after the trick does not apply (ruling 22), and a gift
// pile stays for the replayed trick (ruling 21). A void Prince in that trick
// has already let the Princes sneak in.
func (st *State) aliceRedeal(s engine.Seat, r *engine.Rand) ([]engine.Event, error) {
	st.used[s] = true
	cards := make([]Card, len(st.trick))
	for i, p := range st.trick {
		cards[i] = p.Card
	}
	st.last = st.trick
	st.lastWin = s
	st.trick = nil
	st.leader = s
	public := slices.Clone(cards)
	slices.Sort(public)
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	ev := []engine.Event{engine.Public("alice_redealt", map[string]any{"seat": s, "cards": engine.Strings(public)})}
	got := make([][]Card, st.n)
	for i, c := range cards {
		to := st.next(s, i)
		got[to] = append(got[to], c)
	}
	for i := range got {
		st.hands[i] = append(st.hands[i], got[i]...)
		slices.Sort(st.hands[i])
		ev = append(ev, engine.Private(engine.Seat(i), "alice_dealt", map[string]any{"cards": engine.Strings(got[i])}))
	}
	if st.rules().after == phaseGive {
		// Musical Chairs' pass still follows the trick ("po każdej
		// rozstrzygniętej lewie"); only Haggle's swap, which takes the
		// trick's cards, does not apply to it (ruling 22).
		st.openStep(phaseGive)
		return ev, nil
	}
	return append(ev, st.nextTrick(r)...), nil
}

// moreTricks reports whether the round goes on after the trick just won.
func (st *State) moreTricks() bool {
	left := len(st.hands[st.lastWin])
	if stop := st.rules().stopAt; stop > 0 && left <= stop {
		return false
	}
	return left > 0 || len(st.setAside[st.lastWin]) > 0
}

func (st *State) openSub(k Kind, s engine.Seat) {
	st.sub = subStep{kind: k, seat: s}
	st.phase = phasePower
}

// whyNoDeclare explains a refused declaration or withdrawal.
func (st *State) whyNoDeclare(s engine.Seat, a Action) error {
	if a.Kind == KindWithdraw {
		return engine.Errorf(CodeNothingDeclared)
	}
	p := a.Power()
	switch {
	case !slices.Contains(st.powersOf(s), p):
		return engine.Errorf(CodeNoPower, "power", p.String())
	case st.used[s] || st.pendingDecl(s) >= 0:
		return engine.Errorf(CodePowerUsed, "power", p.String())
	case powerFor(st.cfg.edition, p) != nil && powerFor(st.cfg.edition, p).when == atPlay:
		return engine.Errorf(CodeWithPlay, "power", p.String(), "form", "play <card> "+p.String())
	case !st.declaring() || powerFor(st.cfg.edition, p).when != atBefore:
		return engine.Errorf(CodePowerNotNow, "power", p.String(), "action", a.String())
	case st.resolvesNow() && st.blocked(p, a.TargetSeat()):
		return engine.Errorf(CodePowerCancelled, "power", p.String())
	case st.idle(s, a.TargetSeat()):
		return engine.Errorf(CodeNothingToTake, "power", p.String())
	case a.TargetSeat() == s && powerFor(st.cfg.edition, p).arg == argOther:
		return engine.Errorf(CodeNotSelf, "power", p.String())
	case a.HasSuit && a.Suit == Princes && !st.mayNamePrinces():
		return engine.Errorf(CodePrincesUnplayed, "power", p.String())
	}
	return engine.Errorf(CodePowerArg, "power", p.String(), "action", a.String())
}

// parsePowerAction reads declare, withdraw, sing, mulan, alice and
// pocahontas.
func parsePowerAction(kind Kind, f []string, bad error) (Action, error) {
	a := Action{Kind: kind}
	args := f[1:]
	seat := func(t string) (int8, bool) {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 5 || t != strconv.Itoa(n) {
			return 0, false
		}
		return int8(n) + 1, true
	}
	switch kind {
	case KindWithdraw:
		if len(args) != 0 {
			return Action{}, bad
		}
	case KindDeclare:
		if len(args) < 1 || len(args) > 2 {
			return Action{}, bad
		}
		p, ok := parsePrincess(args[0])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownPrincess, "princess", args[0])
		}
		a.Pow = int8(p) + 1
		if len(args) == 2 {
			if su, ok := ParseSuit(args[1]); ok && len(args[1]) > 1 {
				a.Suit, a.HasSuit = su, true
			} else if t, ok := seat(args[1]); ok {
				a.Target = t
			} else {
				return Action{}, bad
			}
		}
	case KindSing:
		if len(args) != 1 {
			return Action{}, bad
		}
		su, ok := ParseSuit(args[0])
		if !ok || len(args[0]) == 1 {
			return Action{}, engine.Errorf(CodeUnknownSuit, "suit", args[0])
		}
		a.Suit = su
	case KindAlice:
		if len(args) > 1 || (len(args) == 1 && args[0] != "none") {
			return Action{}, bad
		}
		a.No = len(args) == 1
	case KindGuide:
		if len(args) != 1 {
			return Action{}, bad
		}
		if args[0] == "none" {
			a.No = true
		} else if t, ok := seat(args[0]); ok {
			a.Target = t
		} else {
			return Action{}, bad
		}
	case KindTrade:
		if len(args) != 1 {
			return Action{}, bad
		}
		if args[0] == "none" {
			a.No = true
			break
		}
		c, ok := ParseCard(args[0])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownCard, "card", args[0])
		}
		a.Cards[0], a.N = c, 1
	case KindAssign:
		if len(args) != 2 {
			return Action{}, bad
		}
		c, ok := ParseCard(args[0])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownCard, "card", args[0])
		}
		t, ok := seat(args[1])
		if !ok {
			return Action{}, bad
		}
		a.Cards[0], a.N, a.Target = c, 1, t
	case KindMulan:
		if len(args) == 1 && args[0] == "none" {
			a.No = true
			break
		}
		if len(args) != 2 {
			return Action{}, bad
		}
		for i, t := range args {
			c, ok := ParseCard(t)
			if !ok {
				return Action{}, engine.Errorf(CodeUnknownCard, "card", t)
			}
			a.Cards[i] = c
		}
		a.N = 2
	}
	return a, nil
}
