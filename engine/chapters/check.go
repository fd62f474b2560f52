package chapters

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
)

// Check answers a scenario's expect keys: hand, kept, played, tokens, score,
// round-winner, phase, round, ghost-deck.
func (st *State) Check(key string, args []string) error {
	seatArg := func() (engine.Seat, error) { return engine.CheckSeat(key, args, st.n) }
	cardsArg := func(from int) ([]Card, error) {
		cs, bad := parseCards(args[from:])
		if bad != "" {
			return nil, fmt.Errorf("unknown card %q", bad)
		}
		return cs, nil
	}
	sameCards := func(what string, want, got []Card) error {
		w, g := slices.Clone(want), slices.Clone(got)
		slices.Sort(w)
		slices.Sort(g)
		if !slices.Equal(w, g) {
			return fmt.Errorf("expected %s [%s], found [%s]", what, joinCards(w), joinCards(g))
		}
		return nil
	}
	switch key {
	case "hand", "kept", "played":
		s, err := seatArg()
		if err != nil {
			return err
		}
		want, err := cardsArg(1)
		if err != nil {
			return err
		}
		got := st.hands[s]
		switch key {
		case "kept":
			got = st.kept[s]
		case "played":
			got = st.played[s]
		}
		return sameCards(fmt.Sprintf("%s of seat %d", key, s), want, got)
	case "tokens":
		s, err := seatArg()
		if err != nil {
			return err
		}
		want := st.tokens[s]
		seen := map[string]bool{}
		for _, kv := range args[1:] {
			k, v, ok := strings.Cut(kv, "=")
			n, err := strconv.Atoi(v)
			if !ok || err != nil || seen[k] {
				return fmt.Errorf("tokens takes stars=<n> hearts=<n> gems=<n>, got %q", kv)
			}
			seen[k] = true
			switch k {
			case "stars":
				want.Stars = n
			case "hearts":
				want.Hearts = n
			case "gems":
				want.Gems = n
			default:
				return fmt.Errorf("unknown token kind %q", k)
			}
		}
		if len(seen) == 0 {
			return fmt.Errorf("tokens takes stars=<n> hearts=<n> gems=<n>")
		}
		if got := st.tokens[s]; got != want {
			return fmt.Errorf("expected tokens of seat %d %s, found %s", s, want, got)
		}
	case "score":
		s, err := seatArg()
		if err != nil {
			return err
		}
		if len(args) != 2 {
			return fmt.Errorf("score takes a seat and a number")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return fmt.Errorf("bad number %q", args[1])
		}
		_, res := st.Result()
		if got := res.Scores[s]; got != n {
			return fmt.Errorf("expected score %d for seat %d, found %d (%s)", n, s, got, st.tokens[s])
		}
	case "round-winner":
		if len(args) < 1 || len(args) > 2 {
			return fmt.Errorf("round-winner takes a seat or ghost [<n>]")
		}
		if st.last == nil {
			return fmt.Errorf("no round has been played yet")
		}
		w := st.last.Plays[st.last.Winner]
		found := "seat " + w.Seat.String()
		if w.IsGhost() {
			found = "ghost " + strconv.Itoa(w.Ghost)
		}
		if args[0] == "ghost" {
			if !w.IsGhost() || (len(args) == 2 && args[1] != strconv.Itoa(w.Ghost)) {
				return fmt.Errorf("expected round-winner %s, found %s", strings.Join(args, " "), found)
			}
			return nil
		}
		s, err := seatArg()
		if err != nil {
			return err
		}
		if w.IsGhost() || w.Seat != s {
			return fmt.Errorf("expected round-winner seat %d, found %s", s, found)
		}
	case "ghost-deck":
		if len(args) < 1 || (args[0] != "0" && args[0] != "1") || !st.ghostGame() {
			return fmt.Errorf("ghost-deck takes 0 or 1 (2 players only)")
		}
		want, err := cardsArg(1)
		if err != nil {
			return err
		}
		g, _ := strconv.Atoi(args[0])
		return sameCards("ghost deck "+args[0], want, st.ghosts[g])
	case "phase":
		if len(args) != 1 || args[0] != st.phase.String() {
			return fmt.Errorf("expected phase %v, found %s", args, st.phase)
		}
	case "round":
		if len(args) != 1 {
			return fmt.Errorf("round takes a number")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return fmt.Errorf("bad number %q", args[0])
		}
		if st.phase != phasePlay || st.round+1 != n {
			return fmt.Errorf("expected round %d, found round %d (%s)", n, st.round+1, st.phase)
		}
	default:
		return fmt.Errorf("unknown expect key %q", key)
	}
	return nil
}
