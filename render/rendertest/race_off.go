//go:build !race

package rendertest

const RaceEnabled = false
