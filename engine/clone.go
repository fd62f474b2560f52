package engine

import "slices"

// CloneNested copies a slice of slices (per-seat hands, piles, score rows),
// keeping nil rows nil, so that a state's Clone shares nothing.
func CloneNested[T any](in [][]T) [][]T {
	if in == nil {
		return nil
	}
	out := make([][]T, len(in))
	for i, x := range in {
		if x != nil {
			out[i] = slices.Clone(x)
		}
	}
	return out
}
