package engine

import "slices"

// Places ranks n seats for Result.Places: cmp orders two seats (negative
// when a finishes before b, zero when the rules do not separate them).
// Seats that compare equal share a place and the next place skips as many:
// 1, 1, 3.
func Places(n int, cmp func(a, b Seat) int) []int {
	order := make([]Seat, n)
	for s := range order {
		order[s] = Seat(s)
	}
	slices.SortStableFunc(order, cmp)
	places := make([]int, n)
	for i, s := range order {
		if i > 0 && cmp(order[i-1], s) == 0 {
			places[s] = places[order[i-1]]
		} else {
			places[s] = i + 1
		}
	}
	return places
}

// Ranked is the seats in the order of their places (seat order within a
// shared place).
func Ranked(places []int) []Seat {
	order := make([]Seat, len(places))
	for s := range order {
		order[s] = Seat(s)
	}
	slices.SortStableFunc(order, func(a, b Seat) int { return places[a] - places[b] })
	return order
}

// ByScore orders seats by their scores, the higher first when high wins,
// the lower first when not; then by tie, likewise (tie nil: no tie-break).
// It is the cmp of Places for the games here, which all rank so.
func ByScore(scores []int, high bool, tie []int, tieHigh bool) func(a, b Seat) int {
	by := func(vals []int, high bool, a, b Seat) int {
		if high {
			return vals[b] - vals[a]
		}
		return vals[a] - vals[b]
	}
	return func(a, b Seat) int {
		if c := by(scores, high, a, b); c != 0 || tie == nil {
			return c
		}
		return by(tie, tieHigh, a, b)
	}
}
