package picture

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"hash/adler32"
	"image"
	"image/png"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// playedScreens are the table screens of a real game (realGames[i]) as the
// bot publishes them: the public table (a spectator's view) at the start
// and after every move, to the end.
func playedScreens(t testing.TB, i int, viewer engine.Seat) []render.Screen {
	t.Helper()
	rg := realGames[i]
	g, err := engine.Lookup(rg.game)
	if err != nil {
		t.Fatal(err)
	}
	l := locales.MustLoad().Lang(rg.lang)
	names := rg.names()
	su := engine.Setup{Game: rg.game, Seats: rg.seats, Seed: 11}
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []render.Screen
	for n := 0; ; n++ {
		sc, ok := render.ScreenOf(rg.game, l, st.View(viewer), names, nil)
		if !ok {
			return nil
		}
		out = append(out, sc)
		if done, _ := st.Result(); done {
			return out
		}
		acting := st.Acting()
		if len(acting) == 0 {
			return out
		}
		s := acting[0]
		a := engine.Random{}.Choose(st.View(s), st.Legal(s), engine.NewRand(su.Seed^0x5eed, n))
		if _, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
			t.Fatalf("%s step %d: %v", su.Game, n, err)
		}
	}
}

// decodePaletted decodes a PNG (image/png checks the zlib stream's
// adler32) that must be paletted.
func decodePaletted(t testing.TB, b []byte) *image.Paletted {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("a %T, not paletted", img)
	}
	return p
}

// samePixels fails unless the PNG b has the pixels of the table drawn whole
// (tableWhole, the path before bands).
func samePixels(t testing.TB, what string, b []byte, sc render.Screen) {
	t.Helper()
	want, err := tableWhole(sc)
	if err != nil {
		t.Fatal(err)
	}
	w, g := decodePaletted(t, want), decodePaletted(t, b)
	if g.Rect != w.Rect {
		t.Fatalf("%s: %v, drawn whole %v", what, g.Rect, w.Rect)
	}
	if len(g.Palette) != len(w.Palette) {
		t.Fatalf("%s: %d colours, drawn whole %d", what, len(g.Palette), len(w.Palette))
	}
	for i := range g.Palette {
		if g.Palette[i] != w.Palette[i] {
			t.Fatalf("%s: colour %d is %v, drawn whole %v", what, i, g.Palette[i], w.Palette[i])
		}
	}
	if !bytes.Equal(g.Pix, w.Pix) {
		i := 0
		for g.Pix[i] == w.Pix[i] {
			i++
		}
		t.Fatalf("%s: pixel (%d,%d) is %d, drawn whole %d", what, i%g.Stride, i/g.Stride, g.Pix[i], w.Pix[i])
	}
}

// bandScreens are the hand-built screens, the odd ones and the real games'
// screens at a third, two thirds and the end.
func bandScreens(t *testing.T) map[string]render.Screen {
	out := allScreens(t)
	for i, sc := range []render.Screen{
		{},
		{Game: "chess", Seats: []render.SeatPart{{}}, Center: []render.Pile{{Count: -3}, {}}, Chart: &render.Chart{}},
		{Game: "courtiers", Center: []render.Pile{{Group: "down", Label: "Zające", Cards: []render.Card{{Suit: "hare"}}}}},
		{Game: "lynx", Seats: make([]render.SeatPart, 12), Status: []string{"a", "b"}},
		{Title: "Ż", Chart: &render.Chart{Rounds: [][]int{{-3, 0}, {5}}}},
	} {
		out[fmt.Sprintf("odd-%d", i)] = sc
	}
	return out
}

// A table made of bands has the pixels of the table drawn whole, with the
// band cache empty (every band drawn), then warm (none drawn: a band found
// is not drawn again).
func TestBandsSamePixels(t *testing.T) {
	scs := bandScreens(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		t.Run(name, func(t *testing.T) {
			bands.reset()
			d := bandDraws.Load()
			cold, err := tableBands(sc)
			if err != nil {
				t.Fatal(err)
			}
			if n, parts := bandDraws.Load()-d, len(tableParts(sc)); n != int64(parts) {
				t.Errorf("empty cache: %d bands drawn for %d parts", n, parts)
			}
			samePixels(t, "empty cache", cold, sc)
			d = bandDraws.Load()
			warm, _, err := Table(sc)
			if err != nil {
				t.Fatal(err)
			}
			if n := bandDraws.Load() - d; n != 0 {
				t.Errorf("warm cache: %d bands drawn again", n)
			}
			if !bytes.Equal(warm, cold) {
				t.Errorf("warm cache: not the same PNG")
			}
			samePixels(t, "warm cache", warm, sc)
		})
	}
}

// The tables of whole games, every state after every move as the bot
// publishes them (bands found and drawn mixed, bands met again at another
// y), have the pixels of the tables drawn whole; and at least a quarter of
// the rows are found, not drawn (46–71 % of them are drawn in these games).
func TestBandsSequence(t *testing.T) {
	step, viewers := 1, []engine.Seat{engine.Spectator, 0}
	if testing.Short() || raceEnabled {
		// Every state is drawn, every tenth compared.
		step, viewers = 10, viewers[:1]
	}
	for i, rg := range realGames {
		for _, viewer := range viewers {
			t.Run(fmt.Sprintf("%s/%d", rg.game, viewer), func(t *testing.T) {
				scs := playedScreens(t, i, viewer)
				if len(scs) == 0 {
					t.Skip("no screen builder")
				}
				bands.reset()
				d, r, parts, rows := bandDraws.Load(), bandRows.Load(), 0, 0
				for k, sc := range scs {
					b, err := tableBands(sc)
					if err != nil {
						t.Fatal(err)
					}
					parts += len(tableParts(sc))
					rows += layoutTable(nil, sc)
					if k%step == 0 || k == len(scs)-1 {
						samePixels(t, fmt.Sprintf("state %d", k), b, sc)
					}
				}
				drawn, drawnRows := bandDraws.Load()-d, bandRows.Load()-r
				t.Logf("%d states: %d of %d bands drawn, %d of %d rows", len(scs), drawn, parts, drawnRows, rows)
				if drawnRows*4 > int64(rows)*3 {
					t.Errorf("%d of %d rows drawn: the cache hardly helps", drawnRows, rows)
				}
			})
		}
	}
}

// Several goroutines drawing the states of several games at once, sharing
// the band cache, make the same pictures as drawn whole.
func TestBandsConcurrent(t *testing.T) {
	bands.reset()
	var wg sync.WaitGroup
	for i := range realGames {
		scs := playedScreens(t, i, engine.Spectator)
		if len(scs) > 40 {
			scs = scs[:40]
		}
		for range 2 {
			wg.Go(func() {
				for _, sc := range scs {
					b, err := tableBands(sc)
					if err != nil {
						t.Error(err)
						return
					}
					samePixels(t, realGames[i].game, b, sc)
				}
			})
		}
	}
	wg.Wait()
}

// Every band is the same drawn at another y (the standings' chart too,
// TestChartSameAtAnyHeight): what lets a band found in the cache be used
// where the picture has it now.
func TestBandsMove(t *testing.T) {
	scs := bandScreens(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		y := 0
		for j, p := range tableParts(sc) {
			h := p.draw(nil, y) - y
			if h > 0 {
				at := func(y int) []uint8 {
					c := newBandCanvas(width, y, y+h, felt)
					defer c.free()
					p.draw(c, y)
					return slices.Clone(c.img.Pix)
				}
				want := at(y)
				for _, d := range []int{1, 3, 117, 1000} {
					if !bytes.Equal(at(y+d), want) {
						t.Errorf("%s: part %d (%c) differs %d rows lower", name, j, p.key[0], d)
					}
				}
			}
			y += h
		}
	}
}

// No band of the games' tables reaches another's rows (which would make
// the picture drawn whole), and the bands' heights add up to the layout's.
func TestBandsNoSpill(t *testing.T) {
	scs := bandScreens(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		y := 0
		for j, p := range tableParts(sc) {
			b, err := drawBand(p, y)
			if err != nil {
				t.Fatal(err)
			}
			if b.spill {
				t.Errorf("%s: part %d (%c) spills", name, j, p.key[0])
			}
			y += b.h
		}
		if h := layoutTable(nil, sc); y != h {
			t.Errorf("%s: bands %d rows high, the layout %d", name, y, h)
		}
	}
}

// A band that spills makes the picture drawn whole; the canvas notes
// every drawing that a band cuts off.
func TestBandsSpill(t *testing.T) {
	sc := princessesScreen()
	bands.reset()
	k := string(tableParts(sc)[0].key)
	bands.put(k, &band{h: 3, spill: true})
	got, err := tableBands(sc)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tableWhole(sc)
	if !bytes.Equal(got, want) {
		t.Errorf("a spilling band: not the picture drawn whole")
	}
	bands.reset()

	f := countFaces()[0]
	ci := cardOf("princesses", render.Card{Suit: "Q", Value: "3"}, small, false)
	for _, tc := range []struct {
		name  string
		draw  func(c *canvas)
		spill bool
	}{
		{"fill inside", func(c *canvas) { c.fill(image.Rect(0, 100, width, 200), gold) }, false},
		{"fill above", func(c *canvas) { c.fill(image.Rect(10, 99, 20, 101), gold) }, true},
		{"fill below", func(c *canvas) { c.fill(image.Rect(10, 199, 20, 201), gold) }, true},
		{"fill empty", func(c *canvas) { c.fill(image.Rect(10, 50, 10, 300), gold) }, false},
		{"round rect below", func(c *canvas) { c.roundRect(image.Rect(10, 150, 100, 230), 12, gold) }, true},
		{"text inside", func(c *canvas) { c.text(f, "Żółw", 10, 150, white) }, false},
		{"text above", func(c *canvas) { c.text(f, "Żółw", 10, 105, white) }, true},
		{"text below", func(c *canvas) { c.text(f, "gąpy", 10, 198, white) }, true},
		{"card below", func(c *canvas) { c.blit(ci, 10, 199-ci.h/2) }, true},
		{"card inside", func(c *canvas) { c.blit(ci, 10, 101) }, ci.h > 99},
		{"icon above", func(c *canvas) { c.icon(symPlay, 50, 102, 18, gold) }, true},
		{"above the picture", func(c *canvas) { c.fill(image.Rect(0, -20, width, 0), gold) }, false},
	} {
		c := newBandCanvas(width, 100, 200, felt)
		tc.draw(c)
		if c.spill != tc.spill {
			t.Errorf("%s: spill %v, want %v", tc.name, c.spill, tc.spill)
		}
		c.free()
	}
}

// adler32Combine gives the adler32 of the whole from its parts, for any
// split (parts empty, longer than 65,521 bytes, of bytes 0 or 255).
func TestAdler32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		data := make([]byte, r.IntN(300_000))
		for i := range data {
			switch round % 3 {
			case 0:
				data[i] = byte(r.Uint32())
			case 1:
				data[i] = 0xff
			}
		}
		sum := adler32.Checksum(nil)
		for rest := data; ; {
			n := 0
			if len(rest) > 0 {
				n = r.IntN(len(rest) + 1)
			}
			sum = adler32Combine(sum, adler32.Checksum(rest[:n]), int64(n))
			rest = rest[n:]
			if len(rest) == 0 {
				break
			}
		}
		if want := adler32.Checksum(data); sum != want {
			t.Fatalf("round %d, %d bytes: %08x, want %08x", round, len(data), sum, want)
		}
	}
	if adler32Combine(1, 1, 0) != 1 {
		t.Errorf("nothing and nothing is not nothing")
	}
}

// The stream's header is the zlib writer's at the same level.
func TestZlibHeader(t *testing.T) {
	var b bytes.Buffer
	zw, err := zlib.NewWriterLevel(&b, compressLevel)
	if err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if !bytes.Equal(b.Bytes()[:2], zlibHeader[:]) {
		t.Errorf("header % x, the zlib writer's % x", zlibHeader, b.Bytes()[:2])
	}
}

// A band's key holds every field of the parts it draws: when a field is
// added to the screen's parts, this fails until the keys (bands.go) are
// looked at again.
func TestBandKeysCoverScreen(t *testing.T) {
	fields := func(v any) []string {
		var out []string
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			out = append(out, ty.Field(i).Name)
		}
		return out
	}
	for _, tc := range []struct {
		v    any
		want []string
	}{
		// The screen: what the table draws is in the keys (Acting, Viewer,
		// Prompt, Hand and Secret are the hand's; the table draws the
		// seats' own You and Acting).
		{render.Screen{}, []string{"Game", "Acting", "Viewer", "Result", "Prompt", "Hand", "Secret", "Title", "Rule", "Center", "Seats", "Doing", "Status", "Recent", "Chart"}},
		// A pile's Short is the terminal's narrow form; the pictures do
		// not draw it.
		{render.Pile{}, []string{"Label", "Text", "Cards", "Count", "Short", "Group"}},
		{render.Card{}, []string{"Suit", "Value", "Name", "Note", "Code", "Down", "Mark"}},
		// A seat's Score is not drawn (its Counts say it in words).
		{render.SeatPart{}, []string{"Seat", "Name", "You", "Acting", "Counts", "Piles", "Line", "Score"}},
		{render.Rule{}, []string{"Name", "Short", "Full"}},
		{render.Chart{}, []string{"Title", "Names", "Rounds"}},
	} {
		if got := fields(tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("%T has the fields %v; the band keys know %v", tc.v, got, tc.want)
		}
	}
	// Two screens that differ in one drawn field have different keys.
	base := princessesScreen()
	keys := func(sc render.Screen) []string {
		var out []string
		for _, p := range tableParts(sc) {
			out = append(out, string(p.key))
		}
		return out
	}
	was := keys(base)
	for name, change := range map[string]func(sc *render.Screen){
		"title":      func(sc *render.Screen) { sc.Title += "!" },
		"rule":       func(sc *render.Screen) { sc.Rule = &render.Rule{Name: sc.Rule.Name, Short: sc.Rule.Short + "!"} },
		"game":       func(sc *render.Screen) { sc.Game = "lynx" },
		"centre":     func(sc *render.Screen) { sc.Center = slices.Clone(sc.Center); sc.Center[0].Count++ },
		"seat mark":  func(sc *render.Screen) { sc.Seats = slices.Clone(sc.Seats); sc.Seats[4].Acting = !sc.Seats[4].Acting },
		"seat count": func(sc *render.Screen) { sc.Seats = slices.Clone(sc.Seats); sc.Seats[5].Counts = []string{"x"} },
		"doing":      func(sc *render.Screen) { sc.Doing = []string{"x"} },
		"status":     func(sc *render.Screen) { sc.Status = append(slices.Clone(sc.Status), "x") },
		"recent":     func(sc *render.Screen) { sc.Recent = []string{"x"} },
		"chart":      func(sc *render.Screen) { sc.Chart = &render.Chart{Title: "x"} },
	} {
		sc := base
		change(&sc)
		if slices.Equal(keys(sc), was) {
			t.Errorf("%s changed, the keys did not", name)
		}
	}
}
