//go:build race

package enginetest

// raceDetector is true when the tests run under -race, which slows the
// engine about tenfold: the default number of playouts is cut to keep the
// suite under CI's budget.
const raceDetector = true
