package courtiers

// Mission is one of the 20 secret missions: W1..W10 (white, about your own
// domain) and B1..B10 (blue, about the Queen's table). The zero Mission is
// none.
type Mission uint8

// NoMission marks an unknown or missing mission.
const NoMission Mission = 0

// NumMissions is the number of mission cards (10 white, 10 blue).
const NumMissions = 20

// MissionPoints is what a fulfilled mission is worth.
const MissionPoints = 3

// Status is a family's standing at the Queen's table at the end.
type Status uint8

// The statuses.
const (
	Neutral Status = iota
	Esteemed
	Disgraced
)

var statusWords = [...]string{Neutral: "neutral", Esteemed: "esteemed", Disgraced: "disgraced"}

// String is the status word.
func (s Status) String() string { return statusWords[s] }

// missionKind is how a mission is checked: rule variations are data plus a
// small hook per kind.
type missionKind uint8

const (
	fewerThanLeft    missionKind = iota + 1 // fewer cards of family than the left neighbour's domain
	atLeastRole                             // at least n cards of role in your domain
	familyDisgraced                         // family is disgraced
	everyFamilyBelow                        // every family has at least n cards below the mat
	oneFamilyBelow                          // some family has at least n cards below the mat
	atMostEsteemed                          // at most n families are esteemed
	atLeastDisgraced                        // at least n families are disgraced
)

type missionData struct {
	id     string
	white  bool
	kind   missionKind
	family Family
	role   Role
	n      int
}

// missionTable lists the 20 missions as numbered in the reference
// (rules/courtiers-reference.md, section 10).
var missionTable = [NumMissions + 1]missionData{
	{},
	{id: "W1", white: true, kind: fewerThanLeft, family: Butterfly},
	{id: "W2", white: true, kind: fewerThanLeft, family: Toad},
	{id: "W3", white: true, kind: fewerThanLeft, family: Nightingale},
	{id: "W4", white: true, kind: fewerThanLeft, family: Stag},
	{id: "W5", white: true, kind: fewerThanLeft, family: Hare},
	{id: "W6", white: true, kind: fewerThanLeft, family: Carp},
	{id: "W7", white: true, kind: atLeastRole, role: Noble, n: 3},
	{id: "W8", white: true, kind: atLeastRole, role: Assassin, n: 2},
	{id: "W9", white: true, kind: atLeastRole, role: Guard, n: 4},
	{id: "W10", white: true, kind: atLeastRole, role: Spy, n: 3},
	{id: "B1", kind: familyDisgraced, family: Butterfly},
	{id: "B2", kind: familyDisgraced, family: Toad},
	{id: "B3", kind: familyDisgraced, family: Nightingale},
	{id: "B4", kind: familyDisgraced, family: Stag},
	{id: "B5", kind: familyDisgraced, family: Hare},
	{id: "B6", kind: familyDisgraced, family: Carp},
	{id: "B7", kind: everyFamilyBelow, n: 1},
	{id: "B8", kind: oneFamilyBelow, n: 5},
	{id: "B9", kind: atMostEsteemed, n: 3},
	{id: "B10", kind: atLeastDisgraced, n: 2},
}

// String is the mission's id ("W3", "B10"); "-" for none.
func (m Mission) String() string {
	if m == NoMission || int(m) > NumMissions {
		return "-"
	}
	return missionTable[m].id
}

// White reports whether the mission is a white one.
func (m Mission) White() bool {
	return m != NoMission && int(m) <= NumMissions && missionTable[m].white
}

// ParseMission reads a mission id.
func ParseMission(t string) (Mission, bool) {
	for i := 1; i <= NumMissions; i++ {
		if missionTable[i].id == t {
			return Mission(i), true
		}
	}
	return NoMission, false
}

// Missions lists the missions of one colour in order.
func Missions(white bool) []Mission {
	var out []Mission
	for i := 1; i <= NumMissions; i++ {
		if missionTable[i].white == white {
			out = append(out, Mission(i))
		}
	}
	return out
}

// board is the final picture the missions are checked against: spies
// revealed and moved, eliminations done.
type board struct {
	below   [NumFamilies]int // physical cards below the mat per family
	status  [NumFamilies]Status
	domains [][]Card
}

// missionChecks are the hooks of the mission kinds. seat's left neighbour is
// the next seat clockwise.
var missionChecks = map[missionKind]func(b *board, d missionData, seat int) bool{
	fewerThanLeft: func(b *board, d missionData, seat int) bool {
		left := (seat + 1) % len(b.domains)
		is := func(c Card) bool { return c.Family() == d.family }
		return countIf(b.domains[seat], is) < countIf(b.domains[left], is)
	},
	atLeastRole: func(b *board, d missionData, seat int) bool {
		return countIf(b.domains[seat], func(c Card) bool { return c.Role() == d.role }) >= d.n
	},
	familyDisgraced: func(b *board, d missionData, _ int) bool {
		return b.status[d.family] == Disgraced
	},
	everyFamilyBelow: func(b *board, d missionData, _ int) bool {
		for _, n := range b.below {
			if n < d.n {
				return false
			}
		}
		return true
	},
	oneFamilyBelow: func(b *board, d missionData, _ int) bool {
		for _, n := range b.below {
			if n >= d.n {
				return true
			}
		}
		return false
	},
	atMostEsteemed: func(b *board, d missionData, _ int) bool {
		return b.countStatus(Esteemed) <= d.n
	},
	atLeastDisgraced: func(b *board, d missionData, _ int) bool {
		return b.countStatus(Disgraced) >= d.n
	},
}

func (b *board) countStatus(s Status) int {
	n := 0
	for _, x := range b.status {
		if x == s {
			n++
		}
	}
	return n
}

// fulfilled checks mission m for seat.
func (b *board) fulfilled(m Mission, seat int) bool {
	d := missionTable[m]
	return missionChecks[d.kind](b, d, seat)
}
