package courtiers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Check answers a scenario's expect keys (rules/courtiers.md): hand, table,
// domain, status, score; and also deck, removed, points, mission.
//
//	expect hand <seat> <cards>
//	expect table <family>|queen up=<n> down=<n>
//	expect domain <seat> <cards>
//	expect status <family> esteemed|disgraced|neutral   (at the end)
//	expect score <seat> <n>                             (at the end)
//	expect points <seat> <n>         domain points only  (at the end)
//	expect mission <seat> <id> done|failed               (at the end)
//	expect deck <n>                  cards in the draw pile
//	expect removed <n>               cards set aside at setup
func (st *State) Check(key string, args []string) error {
	seatArg := func() (int, error) {
		if len(args) < 1 {
			return 0, fmt.Errorf("%s needs a seat", key)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n >= st.n {
			return 0, fmt.Errorf("bad seat %q", args[0])
		}
		return n, nil
	}
	intArg := func(i int) (int, error) {
		if len(args) != i+1 {
			return 0, fmt.Errorf("%s needs a number", key)
		}
		return strconv.Atoi(args[i])
	}
	over := func() error {
		if st.phase != phaseOver {
			return fmt.Errorf("%s is known only at the end of the game", key)
		}
		return nil
	}
	switch key {
	case "hand", "domain":
		s, err := seatArg()
		if err != nil {
			return err
		}
		want, err := parseCards(args[1:])
		if err != nil {
			return err
		}
		got := sorted(st.hands[s])
		if key == "domain" {
			got = sorted(st.domains[s])
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("expected %s of seat %d %v, found %v", key, s, engine.Strings(want), engine.Strings(got))
		}
	case "table":
		if len(args) != 3 {
			return fmt.Errorf("table takes a family (or queen), up=<n> and down=<n>")
		}
		var up, down int
		if args[0] == "queen" {
			up, down = len(st.queen[0]), len(st.queen[1])
		} else {
			f, ok := ParseFamily(args[0])
			if !ok {
				return fmt.Errorf("unknown family %q", args[0])
			}
			up, down = len(st.table[0][f]), len(st.table[1][f])
		}
		wantUp, err1 := strconv.Atoi(strings.TrimPrefix(args[1], "up="))
		wantDown, err2 := strconv.Atoi(strings.TrimPrefix(args[2], "down="))
		if err1 != nil || err2 != nil || !strings.HasPrefix(args[1], "up=") || !strings.HasPrefix(args[2], "down=") {
			return fmt.Errorf("table takes up=<n> down=<n>, got %v", args[1:])
		}
		if up != wantUp || down != wantDown {
			return fmt.Errorf("expected table %s up=%d down=%d, found up=%d down=%d", args[0], wantUp, wantDown, up, down)
		}
	case "status":
		if err := over(); err != nil {
			return err
		}
		if len(args) != 2 {
			return fmt.Errorf("status takes a family and esteemed, disgraced or neutral")
		}
		f, ok := ParseFamily(args[0])
		if !ok {
			return fmt.Errorf("unknown family %q", args[0])
		}
		if !slices.Contains(statusWords[:], args[1]) {
			return fmt.Errorf("unknown status %q", args[1])
		}
		if got := st.status[f].String(); got != args[1] {
			return fmt.Errorf("expected status %s %s, found %s", args[0], args[1], got)
		}
	case "score", "points":
		if err := over(); err != nil {
			return err
		}
		s, err := seatArg()
		if err != nil {
			return err
		}
		n, err := intArg(1)
		if err != nil {
			return err
		}
		got := st.totals[s]
		if key == "points" {
			got = st.points[s]
		}
		if got != n {
			return fmt.Errorf("expected %s %d for seat %d, found %d", key, n, s, got)
		}
	case "mission":
		if err := over(); err != nil {
			return err
		}
		s, err := seatArg()
		if err != nil {
			return err
		}
		if len(args) != 3 || (args[2] != "done" && args[2] != "failed") {
			return fmt.Errorf("mission takes a seat, a mission id and done or failed")
		}
		m, ok := ParseMission(args[1])
		k := slices.Index(st.missions[s][:], m)
		if !ok || k < 0 {
			return fmt.Errorf("seat %d does not hold mission %q (it holds %s %s)", s, args[1], st.missions[s][0], st.missions[s][1])
		}
		got := "failed"
		if st.done[s][k] {
			got = "done"
		}
		if got != args[2] {
			return fmt.Errorf("expected mission %s of seat %d %s, found %s", args[1], s, args[2], got)
		}
	case "deck", "removed":
		n, err := intArg(0)
		if err != nil {
			return err
		}
		got := len(st.deck)
		if key == "removed" {
			got = len(st.removed)
		}
		if got != n {
			return fmt.Errorf("expected %s %d, found %d", key, n, got)
		}
	default:
		return fmt.Errorf("unknown expect key %q", key)
	}
	return nil
}

func parseCards(ts []string) ([]Card, error) {
	out := make([]Card, 0, len(ts))
	for _, t := range ts {
		c, ok := ParseCard(t)
		if !ok {
			return nil, fmt.Errorf("unknown card %q", t)
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return out, nil
}
