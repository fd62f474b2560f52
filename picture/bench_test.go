package picture

import (
	"maps"
	"slices"
	"testing"
)

// BenchmarkTable6Seats draws and encodes the table of a 6-seat Rebel
// Princess game (32-character names, Polish text): the budget is 10 ms and
// 150 KB a picture.
func BenchmarkTable6Seats(b *testing.B) {
	sc := princessesScreen()
	benchPicture(b, func() ([]byte, string, error) { return Table(sc) })
}

// BenchmarkTable6SeatsEnd is the same game over: standings and the chart.
func BenchmarkTable6SeatsEnd(b *testing.B) {
	sc := princessesEnd()
	benchPicture(b, func() ([]byte, string, error) { return Table(sc) })
}

// BenchmarkTableCourtiers is the busiest table: the queen's table and five
// domains.
func BenchmarkTableCourtiers(b *testing.B) {
	sc := courtiersScreen()
	benchPicture(b, func() ([]byte, string, error) { return Table(sc) })
}

// BenchmarkHand draws and encodes the viewer's hand and princess.
func BenchmarkHand(b *testing.B) {
	sc := princessesScreen()
	benchPicture(b, func() ([]byte, string, error) { return Hand(sc) })
}

// benchPicture reports, besides the time, the bytes of a picture and the
// CPU time a picture takes (the process's, GC included), which other work
// on the machine does not inflate as it does the wall-clock ns/op.
// BenchmarkTableReal draws the tables of games played by AI players, from
// the games' own screen builders.
func BenchmarkTableReal(b *testing.B) {
	scs := realScreens(b)
	if len(scs) == 0 {
		b.Skip("no screen builders")
	}
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		b.Run(name, func(b *testing.B) {
			benchPicture(b, func() ([]byte, string, error) { return Table(sc) })
		})
	}
}

func benchPicture(b *testing.B, draw func() ([]byte, string, error)) {
	b.ReportAllocs()
	var n int
	cpu := cpuTime()
	for b.Loop() {
		png, _, err := draw()
		if err != nil {
			b.Fatal(err)
		}
		n = len(png)
	}
	b.ReportMetric(float64(n), "bytes/picture")
	if d := cpuTime() - cpu; d > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
