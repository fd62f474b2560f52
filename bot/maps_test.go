package bot

import (
	"fmt"
	"testing"
)

// TestDamagedSeenBounded: a damaged table is reported once, and the set of
// those reported never holds more than damagedKept.
func TestDamagedSeenBounded(t *testing.T) {
	t.Parallel()
	var d damagedSeen
	if !d.first("a") || d.first("a") {
		t.Fatal("a damaged table is not reported exactly once")
	}
	for k := range 3 * damagedKept {
		if !d.first(fmt.Sprint(k)) {
			t.Fatalf("table %d reported before", k)
		}
		if len(d.m) > damagedKept {
			t.Fatalf("%d damaged tables kept, above %d", len(d.m), damagedKept)
		}
	}
}
