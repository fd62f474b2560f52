package picture

import (
	"slices"
	"testing"
)

// The names at the lines' ends keep their lines' order, stand at least a
// line apart, stay within the plot when they fit, and do not move when
// their lines end far enough apart.
func TestLabelRows(t *testing.T) {
	for _, tc := range []struct {
		name string
		ends []float32
		gap  float32
		h    float32
		want []float32
	}{
		{"apart already", []float32{0, 100, 50}, 30, 200, []float32{0, 100, 50}},
		{"two on one point", []float32{80, 80}, 30, 200, []float32{80, 110}},
		{"a crowd at the bottom moves up", []float32{200, 200, 200}, 30, 200, []float32{140, 170, 200}},
		{"a crowd at the top moves down", []float32{0, 0, 10}, 30, 200, []float32{0, 30, 60}},
		{"one seat", []float32{42}, 30, 200, []float32{42}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := labelRows(tc.ends, tc.gap, tc.h)
			if !slices.Equal(got, tc.want) {
				t.Errorf("labelRows(%v) = %v, want %v", tc.ends, got, tc.want)
			}
		})
	}
}

// Every seat of the largest table has a marker shape of its own.
func TestMarkersDiffer(t *testing.T) {
	c := newCanvas(40*8, 40, chartBg)
	defer c.free()
	var seen []string
	for s := 0; s < 8; s++ {
		c.marker(0, float32(40*s+20), 20, 12, s, white)
		var shape []byte
		for y := 0; y < 40; y++ {
			row := c.row(y)
			for x := 40 * s; x < 40*(s+1); x++ {
				if row[x] == row[0] {
					shape = append(shape, '.')
				} else {
					shape = append(shape, '#')
				}
			}
		}
		if slices.Contains(seen, string(shape)) {
			t.Errorf("seat %d's marker is another seat's", s)
		}
		seen = append(seen, string(shape))
	}
}
