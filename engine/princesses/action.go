package princesses

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
)

// Kind is what an action does.
type Kind uint8

// The action kinds.
const (
	KindChoose   Kind = iota + 1 // choose <princess>
	KindPass                     // pass <card> [<card> ...]
	KindPlay                     // play <card>
	KindAside                    // aside <card>: Late to the Ball
	KindReveal                   // reveal <suit>: Crystal Clear
	KindSplit                    // split <card> ...: the half put under the princess (After Party, Blind Man's Bluff)
	KindGift                     // gift <card>: Wedding Gift, before every trick
	KindGive                     // give <card>: Musical Chairs, after every trick
	KindSwap                     // swap <hand-card> <trick-card>: Haggle with the Hag
	KindKeep                     // keep: Haggle with the Hag, no swap
	KindDeclare                  // declare <power> [<suit>|<seat>]: a before-trick power, in advance
	KindWithdraw                 // withdraw: take back one's declaration before it resolves
	KindSing                     // sing <suit>: the Little Mermaid (deluxe) names another suit
	KindMulan                    // mulan <played> <new> | mulan none
	KindAlice                    // alice | alice none
	KindGuide                    // pocahontas <seat> | pocahontas none: classic Pocahontas after winning
	KindTrade                    // trade <her-card> | trade none: Scheherazade swaps the card she took, or gives it back
	KindOffer                    // offer <card>: every seat gives Sleeping Beauty a card
	KindRetain                   // retain <card>: Sleeping Beauty keeps one of the offered cards
	KindAssign                   // assign <card> <seat>: deluxe Sleeping Beauty hands an offered card on
	KindFreeze                   // freeze <card>: deluxe Ice Princess picks the card to freeze
)

// maxCards is the most cards an action names: half of a 3-seat hand.
const maxCards = 6

var kindWords = [...]string{
	KindChoose: "choose", KindPass: "pass", KindPlay: "play", KindAside: "aside", KindReveal: "reveal",
	KindSplit: "split", KindGift: "gift", KindGive: "give", KindSwap: "swap", KindKeep: "keep",
	KindDeclare: "declare", KindWithdraw: "withdraw", KindSing: "sing", KindMulan: "mulan", KindAlice: "alice",
	KindGuide: "pocahontas", KindTrade: "trade", KindOffer: "offer", KindRetain: "retain", KindAssign: "assign",
	KindFreeze: "freeze",
}

// kindForms is how each action is written, for a refusal of a misspelt one
// (princesses.bad_form).
var kindForms = [...]string{
	KindChoose: "choose <princess>", KindPass: "pass <card> [<card> ...]", KindPlay: "play <card> [<power>]",
	KindAside: "aside <card>", KindReveal: "reveal queens|fairies|pets|princes", KindSplit: "split <card> ...",
	KindGift: "gift <card>", KindGive: "give <card>", KindSwap: "swap <hand-card> <trick-card>", KindKeep: "keep",
	KindDeclare: "declare <power> [<suit>|<seat>]", KindWithdraw: "withdraw", KindSing: "sing queens|fairies|pets|princes",
	KindMulan: "mulan <played> <new> | mulan none", KindAlice: "alice | alice none",
	KindGuide: "pocahontas <seat> | pocahontas none", KindTrade: "trade <card> | trade none", KindOffer: "offer <card>",
	KindRetain: "retain <card>", KindAssign: "assign <card> <seat>", KindFreeze: "freeze <card>",
}

// Action is one move in notation: "choose mulan", "pass Q3 F5 A1", "play Q7",
// "aside F2", "reveal pets", "split Q1 Q2 F3 A4 A5", "gift P9", "give A8",
// "swap Q2 P7", "keep". It is a comparable value.
type Action struct {
	Kind     Kind
	Princess PrincessID
	Suit     Suit
	N        uint8
	Cards    [maxCards]Card
	Pow      int8 // a power used: its PrincessID + 1 (declare, play with a power); 0 none
	Target   int8 // a seat named (declare, pocahontas): seat + 1; 0 none
	HasSuit  bool // declare mermaid: Suit is set
	No       bool // mulan none, alice none, pocahontas none
}

// Power is the power the action uses, NoPrincess if none.
func (a Action) Power() PrincessID { return PrincessID(a.Pow - 1) }

// TargetSeat is the seat the action names, -1 if none.
func (a Action) TargetSeat() engine.Seat { return engine.Seat(a.Target - 1) }

// CardList is the action's cards.
func (a Action) CardList() []Card { return a.Cards[:a.N] }

// String gives the canonical notation.
func (a Action) String() string {
	if int(a.Kind) >= len(kindWords) || a.Kind == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(kindWords[a.Kind])
	switch a.Kind {
	case KindChoose:
		b.WriteByte(' ')
		b.WriteString(a.Princess.String())
	case KindReveal, KindSing:
		b.WriteByte(' ')
		b.WriteString(a.Suit.Word())
	case KindDeclare:
		b.WriteByte(' ')
		b.WriteString(a.Power().String())
		if a.HasSuit {
			b.WriteByte(' ')
			b.WriteString(a.Suit.Word())
		}
		if a.Target > 0 {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(int(a.Target - 1)))
		}
	case KindAssign:
		b.WriteString(" " + a.Cards[0].String() + " " + strconv.Itoa(int(a.Target-1)))
	case KindMulan, KindAlice, KindGuide, KindTrade:
		if a.No {
			b.WriteString(" none")
		} else if a.Target > 0 {
			b.WriteString(" " + strconv.Itoa(int(a.Target-1)))
		}
		for _, c := range a.CardList() {
			b.WriteByte(' ')
			b.WriteString(c.String())
		}
	default:
		for _, c := range a.CardList() {
			b.WriteByte(' ')
			b.WriteString(c.String())
		}
		if a.Kind == KindPlay && a.Pow > 0 {
			b.WriteByte(' ')
			b.WriteString(a.Power().String())
		}
	}
	return b.String()
}

// nearVerb is the action whose word is one typing slip (a letter added,
// left out, changed or two swapped) from w, 0 if none or several.
func nearVerb(w string) Kind {
	found := Kind(0)
	for k, v := range kindWords {
		if v != "" && len(w) >= 3 && oneSlip(w, v) {
			if found != 0 {
				return 0
			}
			found = Kind(k)
		}
	}
	return found
}

// oneSlip reports whether a and b differ by one edit or one transposition.
func oneSlip(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) == len(b) {
		var diff []int
		for i := range a {
			if a[i] != b[i] {
				diff = append(diff, i)
			}
		}
		return len(diff) == 1 || (len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]])
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a) != len(b)+1 {
		return false
	}
	for i := range b {
		if a[i] != b[i] {
			return a[i+1:] == b[i:]
		}
	}
	return true
}

// cardLike reports whether t is written like a card: a letter, then digits.
func cardLike(t string) bool {
	if len(t) < 2 || !unicode.IsLetter(rune(t[0])) {
		return false
	}
	for _, r := range t[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func cardAction(k Kind, cs ...Card) Action {
	a := Action{Kind: k, N: uint8(len(cs))}
	copy(a.Cards[:], cs)
	return a
}

func play(c Card) Action { return cardAction(KindPlay, c) }

func choose(p PrincessID) Action { return Action{Kind: KindChoose, Princess: p} }

func pass(cs ...Card) Action { return cardAction(KindPass, cs...) }

// ParseAction reads an action in notation.
func ParseAction(text string) (Action, error) {
	f := strings.Fields(text)
	// Any case is read: words in lower case, cards as Q7.
	for i, t := range f {
		if i > 0 && cardLike(t) {
			f[i] = strings.ToUpper(t)
		} else {
			f[i] = strings.ToLower(t)
		}
	}
	bad := engine.Errorf(engine.CodeUnknownAction, "text", text)
	if len(f) == 0 {
		return Action{}, bad
	}
	kind := Kind(0)
	for k, w := range kindWords {
		if w != "" && w == f[0] {
			kind = Kind(k)
		}
	}
	if kind != 0 {
		// A known action written wrongly: say how it is written.
		bad = engine.Errorf(CodeBadForm, "text", text, "form", kindForms[kind])
	} else if k := nearVerb(f[0]); k != 0 {
		// A misspelt verb ("plya"): the form of the nearest one.
		return Action{}, engine.Errorf(CodeBadForm, "text", text, "form", kindForms[k])
	}
	// How many card arguments each kind takes.
	lo, hi := 0, 0
	switch kind {
	case KindChoose:
		if len(f) != 2 {
			return Action{}, bad
		}
		p, ok := parsePrincess(f[1])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownPrincess, "princess", f[1])
		}
		return choose(p), nil
	case KindDeclare, KindWithdraw, KindSing, KindMulan, KindAlice, KindGuide, KindTrade, KindAssign:
		return parsePowerAction(kind, f, bad)
	case KindReveal:
		if len(f) != 2 {
			return Action{}, bad
		}
		s, ok := ParseSuit(f[1])
		if !ok || len(f[1]) == 1 {
			return Action{}, engine.Errorf(CodeUnknownSuit, "suit", f[1])
		}
		return Action{Kind: KindReveal, Suit: s}, nil
	case KindKeep:
		if len(f) != 1 {
			return Action{}, bad
		}
		return Action{Kind: KindKeep}, nil
	case KindPlay:
		if len(f) == 3 {
			// play <card> <power>: Snow White, Thumbelina, classic Pea.
			p, ok := parsePrincess(f[2])
			if !ok {
				return Action{}, engine.Errorf(CodeUnknownPrincess, "princess", f[2])
			}
			a, err := ParseAction("play " + f[1])
			if err != nil {
				return Action{}, err
			}
			a.Pow = int8(p) + 1
			return a, nil
		}
		lo, hi = 1, 1
	case KindAside, KindGift, KindGive, KindOffer, KindRetain, KindFreeze:
		lo, hi = 1, 1
	case KindSwap:
		lo, hi = 2, 2
	case KindPass:
		lo, hi = 1, 4
	case KindSplit:
		lo, hi = 1, maxCards
	default:
		return Action{}, bad
	}
	if len(f)-1 < lo || len(f)-1 > hi {
		return Action{}, bad
	}
	cs := make([]Card, 0, len(f)-1)
	for _, t := range f[1:] {
		c, ok := ParseCard(t)
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownCard, "card", t)
		}
		cs = append(cs, c)
	}
	// Canonical order: a split, and a pass of 1, 3 or 4 cards (always to one
	// side), list their cards in card order. A two-card pass keeps its order:
	// for a one-card-each-way pass the first card goes left.
	if kind == KindSplit || (kind == KindPass && len(cs) != 2) {
		slices.Sort(cs)
	}
	return cardAction(kind, cs...), nil
}
