package courtiers

import (
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Area is where a card is placed: above or below the mat at the Queen's
// table, your own domain, or an opponent's domain.
type Area uint8

// The areas.
const (
	AreaUp Area = iota + 1
	AreaDown
	AreaOwn
	AreaOpp
)

// Side is a side of the mat (for an assassin's target at the Queen's
// table); SideNone for a target in a domain.
type Side uint8

// The sides.
const (
	SideNone Side = iota
	SideUp
	SideDown
)

func (s Side) String() string {
	switch s {
	case SideUp:
		return "up"
	case SideDown:
		return "down"
	}
	return ""
}

// side is the side of the mat an area is on (SideNone for a domain).
func (a Area) side() Side {
	switch a {
	case AreaUp:
		return SideUp
	case AreaDown:
		return SideDown
	}
	return SideNone
}

// slot is the turn's area an area belongs to: the Queen's table (up and
// down alike), your domain, an opponent's domain.
func (a Area) slot() uint8 {
	switch a {
	case AreaUp, AreaDown:
		return slotQueen
	case AreaOwn:
		return slotOwn
	}
	return slotOpp
}

const (
	slotQueen uint8 = 1 << iota
	slotOwn
	slotOpp
	allSlots = slotQueen | slotOwn | slotOpp
)

// Action is "place <card> <area> [kill <target>]": one card of a turn. It
// is a comparable value.
type Action struct {
	Card Card
	Area Area
	Opp  engine.Seat // the opponent, for AreaOpp; 0 otherwise
	Kill bool        // an assassin eliminates Target
	// Target is the eliminated card; NoCard for a face-down spy.
	Target Card
	// Side is the target's side at the Queen's table; SideNone in a domain.
	Side Side
}

// AreaString is the area's notation: up, down, own, opp:<seat>.
func (a Action) AreaString() string {
	switch a.Area {
	case AreaUp:
		return "up"
	case AreaDown:
		return "down"
	case AreaOwn:
		return "own"
	case AreaOpp:
		return "opp:" + strconv.Itoa(int(a.Opp))
	}
	return "?"
}

// TargetString is the kill target's notation: "stag-noble@up", "spy@down",
// "carp", "spy"; "" without a kill.
func (a Action) TargetString() string {
	if !a.Kill {
		return ""
	}
	t := a.Target.String()
	if a.Side != SideNone {
		t += "@" + a.Side.String()
	}
	return t
}

// String gives the canonical notation.
func (a Action) String() string {
	s := "place " + a.Card.String() + " " + a.AreaString()
	if a.Kill {
		s += " kill " + a.TargetString()
	}
	return s
}

// ParseAction reads an action in notation.
func ParseAction(text string) (Action, error) {
	f := strings.Fields(text)
	bad := engine.Errorf(engine.CodeUnknownAction, "text", text)
	if len(f) != 3 && len(f) != 5 || f[0] != "place" {
		return Action{}, bad
	}
	c, ok := ParseCard(f[1])
	if !ok {
		return Action{}, engine.Errorf(CodeUnknownCard, "card", f[1])
	}
	a := Action{Card: c}
	switch {
	case f[2] == "up":
		a.Area = AreaUp
	case f[2] == "down":
		a.Area = AreaDown
	case f[2] == "own":
		a.Area = AreaOwn
	case strings.HasPrefix(f[2], "opp:"):
		n, ok := parseSeat(f[2][4:])
		if !ok {
			return Action{}, engine.Errorf(CodeUnknownArea, "area", f[2])
		}
		a.Area, a.Opp = AreaOpp, n
	default:
		return Action{}, engine.Errorf(CodeUnknownArea, "area", f[2])
	}
	if len(f) == 3 {
		return a, nil
	}
	if f[3] != "kill" {
		return Action{}, bad
	}
	t, side, hasSide := strings.Cut(f[4], "@")
	a.Kill = true
	if hasSide {
		switch side {
		case "up":
			a.Side = SideUp
		case "down":
			a.Side = SideDown
		default:
			return Action{}, engine.Errorf(CodeUnknownTarget, "target", f[4])
		}
	}
	if t != "spy" {
		tc, ok := ParseCard(t)
		// A face-down spy is named "spy": naming its family would
		// claim knowledge nobody has.
		if !ok || tc.Role() == Spy {
			return Action{}, engine.Errorf(CodeUnknownTarget, "target", f[4])
		}
		a.Target = tc
	}
	return a, nil
}

// parseSeat reads a seat number in canonical form (no sign, no leading
// zero, at most two digits).
func parseSeat(t string) (engine.Seat, bool) {
	if t == "" || len(t) > 2 || (len(t) > 1 && t[0] == '0') {
		return 0, false
	}
	n := 0
	for _, ch := range t {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	return engine.Seat(n), true
}
