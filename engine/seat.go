package engine

import (
	"fmt"
	"strconv"
)

// ParseSeat reads a seat number of a table with n seats.
func ParseSeat(t string, n int) (Seat, bool) {
	v, err := strconv.Atoi(t)
	if err != nil || v < 0 || v >= n {
		return 0, false
	}
	return Seat(v), true
}

// StackedFirst reads a scenario's "first <seat>" line from r: the seat and
// true when there is one, (-1, false) when there is none.
func StackedFirst(r *Rand, seats int) (Seat, bool, error) {
	for _, s := range r.Take("first") {
		if len(s.Values) != 1 {
			return 0, true, s.Err("one_seat")
		}
		n, ok := ParseSeat(s.Values[0], seats)
		if !ok {
			return 0, true, s.Err("bad_seat", "seat", s.Values[0])
		}
		return n, true, nil
	}
	return -1, false, nil
}

// FirstSeat picks who starts: the scenario's "first <seat>" line, or a
// random seat (every game here leaves the first player to chance).
func FirstSeat(r *Rand, seats int) (Seat, error) {
	s, stacked, err := StackedFirst(r, seats)
	if err != nil || stacked {
		return s, err
	}
	return Seat(r.IntN(seats)), nil
}

// CheckSeat reads the seat that a scenario's expect line names first (for
// the games' Check methods), with a message naming what is wrong.
func CheckSeat(key string, args []string, n int) (Seat, error) {
	if len(args) < 1 {
		return 0, fmt.Errorf("%s needs a seat", key)
	}
	s, ok := ParseSeat(args[0], n)
	if !ok {
		return 0, fmt.Errorf("bad seat %q", args[0])
	}
	return s, nil
}
