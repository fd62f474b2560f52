//go:build race

package bot_test

const raceEnabled = true
