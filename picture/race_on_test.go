//go:build race

package picture

const raceEnabled = true
