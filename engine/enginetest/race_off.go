//go:build !race

package enginetest

const raceDetector = false
