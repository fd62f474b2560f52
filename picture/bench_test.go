package picture

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
)

// BenchmarkTable6Seats draws and encodes the table of a 6-seat Rebel
// Princess game (32-character names, Polish text): the budget is 10 ms and
// 150 KB a picture. The table benchmarks of one screen empty the band cache
// before each picture (coldTable): every band is drawn, as for a table's
// first picture.
func BenchmarkTable6Seats(b *testing.B) {
	sc := princessesScreen()
	benchPicture(b, func() ([]byte, string, error) { return coldTable(sc) })
}

// coldTable is Table with the band cache emptied first.
func coldTable(sc render.Screen) ([]byte, string, error) {
	bands.reset()
	return Table(sc)
}

// BenchmarkTable6SeatsUncached is BenchmarkTable6Seats with nothing cached
// but the faces' glyphs: every card face, string and band drawn anew, as
// for a table of cards and names not seen before.
func BenchmarkTable6SeatsUncached(b *testing.B) {
	sc := princessesScreen()
	benchPicture(b, func() ([]byte, string, error) {
		cards.reset()
		texts.reset()
		widths.reset()
		return coldTable(sc)
	})
}

// BenchmarkTable6SeatsEnd is the same game over: standings and the chart.
func BenchmarkTable6SeatsEnd(b *testing.B) {
	sc := princessesEnd()
	benchPicture(b, func() ([]byte, string, error) { return coldTable(sc) })
}

// BenchmarkTableCourtiers is the busiest table: the queen's table and five
// domains.
func BenchmarkTableCourtiers(b *testing.B) {
	sc := courtiersScreen()
	benchPicture(b, func() ([]byte, string, error) { return coldTable(sc) })
}

// BenchmarkHand draws and encodes the viewer's hand and princess.
func BenchmarkHand(b *testing.B) {
	sc := princessesScreen()
	benchPicture(b, func() ([]byte, string, error) { return Hand(sc) })
}

// BenchmarkHandSequence draws seat 0's hand in the real games after every
// move, one picture an op; "newtext" empties the text caches before each
// picture (see BenchmarkTableSequence).
func BenchmarkHandSequence(b *testing.B) {
	var scs []render.Screen
	for i := range realGames {
		for _, sc := range playedScreens(b, i, 0) {
			if sc.Hand != nil || len(sc.Secret) > 0 {
				scs = append(scs, sc)
			}
		}
	}
	if len(scs) == 0 {
		b.Skip("no screen builders")
	}
	for _, newText := range []bool{false, true} {
		name := "cached"
		if newText {
			name = "newtext"
		}
		b.Run(name, func(b *testing.B) {
			k := 0
			benchPicture(b, func() ([]byte, string, error) {
				if newText {
					texts.reset()
					widths.reset()
				}
				sc := scs[k]
				k = (k + 1) % len(scs)
				return Hand(sc)
			})
			if b.N%len(scs) != 0 {
				b.Logf("%d pictures, not a multiple of the %d hands", b.N, len(scs))
			}
		})
	}
}

// pass is the pass over the games of BenchmarkTableSequence.
var pass int

// renamed is sc with its players' names (of the seats, and in the cards'
// notes) ending in the number n: the same game at another table.
func renamed(sc render.Screen, n int) render.Screen {
	suffix := " " + strconv.Itoa(n)
	seats := slices.Clone(sc.Seats)
	rename := func(ps []render.Pile) []render.Pile {
		ps = slices.Clone(ps)
		for i := range ps {
			cs := slices.Clone(ps[i].Cards)
			for j := range cs {
				for _, s := range sc.Seats {
					if s.Name != "" && strings.HasPrefix(cs[j].Note, s.Name) {
						cs[j].Note = s.Name + suffix + cs[j].Note[len(s.Name):]
						break
					}
				}
			}
			ps[i].Cards = cs
		}
		return ps
	}
	for i := range seats {
		seats[i].Name += suffix
		seats[i].Piles = rename(seats[i].Piles)
	}
	sc.Center = rename(sc.Center)
	sc.Seats = seats
	return sc
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
			benchPicture(b, func() ([]byte, string, error) { return coldTable(sc) })
		})
	}
}

// BenchmarkTableSequence draws the public table of the real games after
// every move, one picture an op, as the bot publishes them: "bands" with
// the band cache (emptied at the start of each game, so that a band is
// found only when an earlier state of the same game drew it), "whole" as
// before bands (tableWhole). bands-drawn/op and rows-drawn/op say how much
// was drawn, mean-bytes/picture the pictures' mean size. The games' states
// cost unlike amounts: compare runs of the same pictures, a -benchtime of
// Nx with N a multiple of the states (logged). "bands-newtext" is "bands"
// with the text caches (masks and widths) emptied before each picture, as
// when most strings are new (status lines, counts, names: a bot with
// hundreds of tables), the faces' own caches kept. "bands-newnames" gives
// the players new names at each pass over the games, as other tables'
// players: the cards of a trick carry who played them.
func BenchmarkTableSequence(b *testing.B) {
	var games [][]render.Screen
	total := 0
	for i := range realGames {
		if scs := playedScreens(b, i, engine.Spectator); len(scs) > 0 {
			games = append(games, scs)
			total += len(scs)
		}
	}
	if len(games) == 0 {
		b.Skip("no screen builders")
	}
	for _, v := range []struct {
		name string
		draw func(render.Screen) ([]byte, error)
	}{{"whole", tableWhole}, {"bands", tableBands}, {"bands-newtext", func(sc render.Screen) ([]byte, error) {
		texts.reset()
		widths.reset()
		return tableBands(sc)
	}}, {"bands-newnames", func(sc render.Screen) ([]byte, error) {
		return tableBands(renamed(sc, pass))
	}}} {
		b.Run(v.name, func(b *testing.B) {
			g, k, size := 0, 0, 0
			pass = 0
			d, r := bandDraws.Load(), bandRows.Load()
			benchPicture(b, func() ([]byte, string, error) {
				if k == 0 {
					bands.reset()
				}
				png, err := v.draw(games[g][k])
				size += len(png)
				if k++; k == len(games[g]) {
					g, k = (g+1)%len(games), 0
					if g == 0 {
						pass++
					}
				}
				return png, "", err
			})
			if b.N%total != 0 {
				b.Logf("%d pictures, not a multiple of the %d states", b.N, total)
			}
			b.ReportMetric(float64(bandDraws.Load()-d)/float64(b.N), "bands-drawn/op")
			b.ReportMetric(float64(bandRows.Load()-r)/float64(b.N), "rows-drawn/op")
			b.ReportMetric(float64(size)/float64(b.N), "mean-bytes/picture")
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
