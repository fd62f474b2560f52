package princesses

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/stolik-bot/stolik/engine"
)

// Check answers a scenario's expect keys: hand, score, round-score,
// trick-winner, leader, snuck-in, princess, round-card, phase, and for the
// round cards' zones: revealed, aside, captured, gift, trick, last-trick.
func (st *State) Check(key string, args []string) error {
	seatArg := func() (engine.Seat, error) { return engine.CheckSeat(key, args, st.n) }
	intArg := func(i int) (int, error) {
		if len(args) <= i {
			return 0, fmt.Errorf("%s needs a number", key)
		}
		return strconv.Atoi(args[i])
	}
	switch key {
	case "hand", "revealed", "aside", "captured", "gift":
		// A seat's cards in a zone, in any order ("-" or nothing: none).
		s, err := seatArg()
		if err != nil {
			return err
		}
		vals := args[1:]
		if len(vals) == 1 && vals[0] == "-" {
			vals = nil
		}
		want, rerr := parseCards(vals, st.n)
		if rerr != nil {
			return fmt.Errorf("unknown card %v", rerr.Params["card"])
		}
		slices.Sort(want)
		var zone []Card
		switch key {
		case "hand":
			zone = st.hands[s]
		case "revealed":
			zone = st.revealed[s]
		case "aside":
			zone = st.setAside[s]
		case "captured":
			zone = st.captured[s]
		case "gift":
			if st.gifts[s] != 0 {
				zone = []Card{st.gifts[s]}
			}
		}
		got := slices.Clone(zone)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fmt.Errorf("expected %s %v for seat %d, found %v", key, engine.Strings(want), s, engine.Strings(got))
		}
	case "trick", "last-trick":
		// The cards of the current (or last) trick as a seat's view shows
		// them, in play order; "?" for a face-down card, "-" for none. The
		// first argument is the viewing seat, or "spectator".
		if len(args) < 1 {
			return fmt.Errorf("%s needs a viewing seat", key)
		}
		viewer := engine.Spectator
		if args[0] != "spectator" {
			s, err := seatArg()
			if err != nil {
				return err
			}
			viewer = s
		}
		v := st.View(viewer).(*View)
		plays := v.Trick
		if key == "last-trick" {
			plays = v.LastTrick
		}
		var got []string
		for _, p := range plays {
			got = append(got, p.Card.String())
		}
		for k := 1; k < len(v.Masked); k++ {
			i := (int(v.Leader) + k) % len(v.Masked)
			if !v.Masked[i] {
				continue
			}
			if engine.Seat(i) == viewer {
				got = append(got, v.MyMasked.String())
			} else {
				got = append(got, "?")
			}
		}
		want := args[1:]
		if len(want) == 1 && want[0] == "-" {
			want = nil
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("expected %s %v as seat %s sees it, found %v", key, want, args[0], got)
		}
	case "score", "round-score":
		s, err := seatArg()
		if err != nil {
			return err
		}
		n, err := intArg(1)
		if err != nil {
			return err
		}
		got := st.totals[s]
		if key == "round-score" {
			if len(st.roundScores) == 0 {
				return fmt.Errorf("no round has been scored yet")
			}
			got = st.roundScores[len(st.roundScores)-1][s]
		}
		if got != n {
			return fmt.Errorf("expected %s %d for seat %d, found %d", key, n, s, got)
		}
	case "trick-winner", "leader":
		s, err := seatArg()
		if err != nil {
			return err
		}
		got := st.lastWin
		if key == "leader" {
			got = st.leader
		}
		if got != s {
			return fmt.Errorf("expected %s %d, found %d", key, s, got)
		}
	case "snuck-in":
		if len(args) != 1 || (args[0] != "yes" && args[0] != "no") {
			return fmt.Errorf("snuck-in takes yes or no")
		}
		if got := st.snuckIn; got != (args[0] == "yes") {
			return fmt.Errorf("expected snuck-in %s, found %s", args[0], yesNo(got))
		}
	case "princess", "frozen":
		// expect princess <seat> <id>; expect frozen <seat> <card|->: the
		// card that seat must play in this trick (Ice Princess), - for none.
		s, err := seatArg()
		if err != nil {
			return err
		}
		if len(args) != 2 {
			return fmt.Errorf("%s takes a seat and a value", key)
		}
		got := st.chosen[s].String()
		if key == "frozen" {
			got = "-"
			if c := st.frozenFor(s); c != 0 {
				got = c.String()
			}
		}
		if got != args[1] {
			return fmt.Errorf("expected %s %s for seat %d, found %s", key, args[1], s, got)
		}
	case "round-card":
		if len(args) != 1 {
			return fmt.Errorf("round-card takes an id")
		}
		want, ok := parseRound(args[0])
		if !ok {
			return fmt.Errorf("unknown round card %q", args[0])
		}
		if got := st.rounds[st.round]; got != want {
			return fmt.Errorf("expected round card %s, found %s", want, got)
		}
	case "round":
		n, err := intArg(0)
		if err != nil {
			return err
		}
		if st.round+1 != n {
			return fmt.Errorf("expected round %d, found %d", n, st.round+1)
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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
