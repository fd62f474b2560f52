package lynx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Check answers a scenario's expect keys: hand, top, hand-size, pool,
// score (the rules page), and also display, layers, deck-size, discard,
// virtual, phase, owed, stolen.
func (st *State) Check(key string, args []string) error {
	seatArg := func() (engine.Seat, error) { return engine.CheckSeat(key, args, st.n) }
	intArg := func(i int) (int, error) {
		if len(args) != i+1 {
			return 0, fmt.Errorf("%s needs a number", key)
		}
		return strconv.Atoi(args[i])
	}
	cardsArg := func(i int) ([]Card, error) {
		vals := args[i:]
		if len(vals) == 1 && vals[0] == "-" {
			vals = nil
		}
		cs, err := parseCards(vals)
		if err != nil {
			return nil, fmt.Errorf("unknown card %v", err.Params["card"])
		}
		slices.Sort(cs)
		return cs, nil
	}
	same := func(what string, want, got []Card) error {
		got = slices.Clone(got)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			return fmt.Errorf("expected %s %v, found %v", what, show(want), show(got))
		}
		return nil
	}
	switch key {
	case "hand", "top", "display", "layers", "hand-size":
		s, err := seatArg()
		if err != nil {
			return err
		}
		d := st.displays[s]
		switch key {
		case "hand":
			want, err := cardsArg(1)
			if err != nil {
				return err
			}
			return same(fmt.Sprintf("hand of seat %d", s), want, st.hands[s].Cards())
		case "top":
			want, err := cardsArg(1)
			if err != nil {
				return err
			}
			var got []Card
			if len(d) > 0 {
				got = d[len(d)-1].Cards()
			}
			return same(fmt.Sprintf("top layer of seat %d", s), want, got)
		case "display":
			want, err := cardsArg(1)
			if err != nil {
				return err
			}
			var got []Card
			for _, l := range d {
				got = append(got, l.Cards()...)
			}
			return same(fmt.Sprintf("display of seat %d", s), want, got)
		case "layers", "hand-size":
			n, err := intArg(1)
			if err != nil {
				return err
			}
			got := len(d)
			if key == "hand-size" {
				got = st.hands[s].Size()
			}
			if got != n {
				return fmt.Errorf("expected %s %d for seat %d, found %d", key, n, s, got)
			}
		}
	case "score":
		s, err := seatArg()
		if err != nil {
			return err
		}
		n, err := intArg(1)
		if err != nil {
			return err
		}
		if got := st.score(s); got != n {
			return fmt.Errorf("expected score %d for seat %d, found %d", n, s, got)
		}
	case "pool", "discard", "virtual", "stolen":
		want, err := cardsArg(0)
		if err != nil {
			return err
		}
		var got []Card
		switch key {
		case "pool":
			for _, p := range st.pool {
				got = append(got, p.List()...)
			}
		case "discard":
			got = st.discard
		case "virtual":
			got = st.virtual.Cards()
		case "stolen":
			got = st.stolen.Cards()
		}
		return same(key, want, got)
	case "deck-size", "owed":
		n, err := intArg(0)
		if err != nil {
			return err
		}
		got := len(st.deck)
		if key == "owed" {
			got = st.owed
		}
		if got != n {
			return fmt.Errorf("expected %s %d, found %d", key, n, got)
		}
	case "phase":
		if len(args) != 1 || args[0] != st.phase.String() {
			return fmt.Errorf("expected phase %v, found %s", args, st.phase)
		}
	default:
		return fmt.Errorf("unknown expect key %q", key)
	}
	return nil
}

func show(cs []Card) string {
	if len(cs) == 0 {
		return "-"
	}
	return strings.Join(engine.Strings(cs), " ")
}
