package engine

import (
	"fmt"
	"slices"
)

// Strings is the notation of each of xs (cards, mostly), in order.
func Strings[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

// RemoveOne removes the first x from xs; false when xs holds none.
func RemoveOne[T comparable](xs []T, x T) ([]T, bool) {
	i := slices.Index(xs, x)
	if i < 0 {
		return xs, false
	}
	return slices.Delete(xs, i, i+1), true
}
