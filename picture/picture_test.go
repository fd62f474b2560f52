package picture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
)

// allScreens are the hand-built screens and, where the games have screen
// builders, screens of games played by AI players.
func allScreens(t *testing.T) map[string]render.Screen {
	out := samples()
	maps.Copy(out, realScreens(t))
	out["extreme"] = extremeScreen()
	return out
}

// extremeScreen has everything too long: names, card names with long
// words, notes, counts, a rule, piles, status lines.
func extremeScreen() render.Screen {
	long := "Najdłuższa-nazwa-karty-jaką-ktokolwiek-kiedykolwiek-wymyślił"
	cards := []render.Card{
		{Suit: "Q", Value: "12", Name: long, Note: "Ґалаґан-Єрмолаєнко-Підгорецький-Їжаківський"},
		{Suit: "zzz-unknown", Value: "100", Name: "Слово " + long + " і ще одне слово", Note: "note"},
		{Suit: "", Name: "Bardzo długa nazwa księżniczki z mnóstwem słów które nigdy się nie mieszczą na karcie", Note: "Moc o bardzo długiej nazwie"},
		{Down: true, Name: "sekret", Suit: "Q", Value: "3"},
	}
	sc := render.Screen{
		Game:   "princesses",
		Acting: []engine.Seat{1},
		Viewer: 2,
		Prompt: strings.Repeat("Zagraj kartę zgodnie z zasadami rundy i mocą księżniczki. ", 6),
		Hand:   &render.Pile{Label: strings.Repeat("Twoja ręka ", 20), Text: "…", Cards: append(slices.Clone(cards), cards...)},
		Secret: []render.Pile{{Label: "Księżniczka " + long, Text: "x", Cards: cards[2:3]}},
		Title:  strings.Repeat("Runda 2 z 5 · lewa 4 z 10 · ", 6),
		Rule:   &render.Rule{Name: strings.Repeat("Magiczna fasola ", 8), Short: strings.Repeat("Każdy gra tylko najwyższą lub najniższą kartę. ", 8)},
		Center: []render.Pile{
			{Label: strings.Repeat("Lewa ", 30), Text: "lewa", Cards: cards},
			{Label: long, Text: "stos", Count: 1234},
			{Label: "Pusto", Text: "pusto", Group: "second"},
		},
		Result: []string{strings.Repeat("Wygrywa "+plNames[0]+" ", 4), "2. " + plNames[1] + " " + long},
		Chart:  &render.Chart{Title: long, Names: plNames, Rounds: [][]int{{-5, 3, 100, 0, 7, 1}, {-10, 6, 250, 3, 9, 2}}},
		Status: []string{strings.Repeat("Status "+long+" ", 5)},
	}
	for s := 0; s < 6; s++ {
		sc.Seats = append(sc.Seats, render.SeatPart{
			Seat: engine.Seat(s), Name: plNames[s] + " " + long, You: s == 2, Acting: s == 1,
			Counts: []string{"12 oświadczyn", long, "7 kart na ręce", strings.Repeat("bardzo ", 30)},
			Piles:  []render.Pile{{Label: long, Text: "x", Cards: cards}, {Label: "Lewy", Text: "3", Count: 3}},
			Line:   strings.Repeat(plNames[s]+" ", 10),
		})
	}
	return sc
}

// Every picture decodes as a PNG 960 pixels wide, as high as its layout,
// paletted, within the size budget.
func TestPicturesDecode(t *testing.T) {
	for name, sc := range allScreens(t) {
		for _, kind := range []string{"table", "hand"} {
			draw, layout := Table, layoutTable
			if kind == "hand" {
				draw, layout = Hand, layoutHand
			}
			t.Run(name+"/"+kind, func(t *testing.T) {
				b, alt, err := draw(sc)
				if kind == "hand" && sc.Hand == nil && len(sc.Secret) == 0 {
					if !errors.Is(err, ErrNoHand) {
						t.Fatalf("a screen without a hand: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("not a PNG: %v", err)
				}
				want := image.Rect(0, 0, width, layout(nil, sc))
				if img.Bounds() != want {
					t.Errorf("size %v, want %v", img.Bounds(), want)
				}
				if _, ok := img.(*image.Paletted); !ok {
					t.Errorf("a %T, want a paletted image", img)
				}
				if len(b) > 150_000 && name != "extreme" {
					t.Errorf("%d bytes, over the 150 KB budget", len(b))
				}
				if alt == "" || utf8.RuneCountInString(alt) > MaxAlt {
					t.Errorf("alt text of %d characters", utf8.RuneCountInString(alt))
				}
			})
		}
	}
}

// The seats that act are ringed in gold; the others have no gold on their
// edge.
func TestActingSeatRinged(t *testing.T) {
	for name, sc := range allScreens(t) {
		if len(sc.Seats) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			c := drawTable(sc, true)
			defer c.free()
			if len(c.rec.seats) != len(sc.Seats) {
				t.Fatalf("%d seat boxes for %d seats", len(c.rec.seats), len(sc.Seats))
			}
			g := c.p.idx(gold)
			for i, s := range sc.Seats {
				r := c.rec.seats[i]
				edge, golden := 0, 0
				// The edge: 3 pixels in from each side, away from the
				// rounded corners.
				for x := r.Min.X + 14; x < r.Max.X-14; x++ {
					for _, y := range []int{r.Min.Y + 2, r.Max.Y - 3} {
						edge++
						if c.img.Pix[y*c.img.Stride+x] == g {
							golden++
						}
					}
				}
				for y := r.Min.Y + 14; y < r.Max.Y-14; y++ {
					for _, x := range []int{r.Min.X + 2, r.Max.X - 3} {
						edge++
						if c.img.Pix[y*c.img.Stride+x] == g {
							golden++
						}
					}
				}
				if s.Acting && golden != edge {
					t.Errorf("seat %d acts: %d of %d edge pixels gold", i, golden, edge)
				}
				if !s.Acting && golden != 0 {
					t.Errorf("seat %d does not act: %d edge pixels gold", i, golden)
				}
			}
		})
	}
}

// A card face down shows nothing of its face: the picture is the same as
// with every face field empty, and differs once the card is face up.
func TestFaceDownHidesFace(t *testing.T) {
	secret := render.Card{Suit: "Q", Value: "12", Name: "Królowa 12", Note: "tajna", Code: "Q12", Down: true}
	blank := render.Card{Down: true}
	up := secret
	up.Down = false
	with := func(c render.Card) render.Screen {
		sc := princessesScreen()
		sc.Center[0].Cards = append(slices.Clone(sc.Center[0].Cards), c)
		sc.Seats[1].Piles = []render.Pile{{Label: "Zakryta", Cards: []render.Card{c}}}
		sc.Hand.Cards = append(slices.Clone(sc.Hand.Cards), c)
		sc.Secret = append(slices.Clone(sc.Secret), render.Pile{Label: "Zakryta", Cards: []render.Card{c}})
		return sc
	}
	for _, kind := range []string{"table", "hand"} {
		draw := drawTable
		if kind == "hand" {
			draw = drawHand
		}
		pix := func(c render.Card) []uint8 {
			cv := draw(with(c), false)
			defer cv.free()
			return slices.Clone(cv.img.Pix)
		}
		a, b, u := pix(secret), pix(blank), pix(up)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: a face-down card with a name draws differently from a blank one", kind)
		}
		if bytes.Equal(a, u) {
			t.Errorf("%s: the card face up draws as face down", kind)
		}
	}
}

// The alt text holds every seat's name and every result line, at most
// MaxAlt characters, and never a cut word.
func TestAltText(t *testing.T) {
	for name, sc := range allScreens(t) {
		t.Run(name, func(t *testing.T) {
			alt := TableAlt(sc)
			checkAlt(t, alt, sc)
			for _, s := range sc.Seats {
				if !strings.Contains(alt, s.Name) {
					t.Errorf("no seat name %q in %q", s.Name, alt)
				}
			}
			for _, r := range sc.Result {
				if r = strings.TrimSpace(r); utf8.RuneCountInString(r) < MaxAlt/4 && !strings.Contains(alt, r) {
					t.Errorf("no result line %q in %q", r, alt)
				}
			}
			if sc.Title != "" && len(sc.Seats) < 7 && name != "extreme" && !strings.Contains(alt, sc.Title) {
				t.Errorf("no title in %q", alt)
			}
			if sc.Hand != nil || len(sc.Secret) > 0 {
				h := HandAlt(sc)
				checkAlt(t, h, sc)
				if p := strings.TrimSpace(sc.Prompt); p != "" && utf8.RuneCountInString(p) < MaxAlt && !strings.Contains(h, p) {
					t.Errorf("no prompt in hand alt %q", h)
				}
			}
		})
	}
	// Short screens keep every part whole.
	sc := princessesScreen()
	alt := TableAlt(sc)
	for _, want := range []string{sc.Title, sc.Rule.Short, sc.Center[0].Text, sc.Seats[3].Line, sc.Status[0]} {
		if !strings.Contains(alt, want) {
			t.Errorf("alt lacks %q:\n%s", want, alt)
		}
	}
	if !strings.Contains(alt, "▶ ● "+sc.Seats[0].Name) {
		t.Errorf("the acting viewer is not marked:\n%s", alt)
	}
}

func checkAlt(t *testing.T, alt string, sc render.Screen) {
	t.Helper()
	if n := utf8.RuneCountInString(alt); n > MaxAlt {
		t.Errorf("alt text of %d characters", n)
	}
	words := map[string]bool{}
	add := func(ss ...string) {
		for _, s := range ss {
			for _, w := range strings.Fields(s) {
				words[w] = true
			}
		}
	}
	add(sc.Result...)
	add(sc.Prompt, sc.Title)
	if sc.Rule != nil {
		add(sc.Rule.Name+":", sc.Rule.Short)
	}
	for _, ps := range [][]render.Pile{sc.Center, sc.Secret} {
		for _, p := range ps {
			add(p.Label+":", p.Text, p.Label)
		}
	}
	if sc.Hand != nil {
		add(sc.Hand.Label+":", sc.Hand.Text, sc.Hand.Label)
	}
	for _, s := range sc.Seats {
		add(s.Name+":", s.Line, s.Name, "▶", "●")
		for _, c := range s.Counts {
			add(c + ",")
			add(c)
		}
	}
	add(sc.StatusLines()...)
	// A pile is named once ("Pool: 4 · 6", never "Pool: Pool: 4 · 6").
	for _, ps := range [][]render.Pile{sc.Center, sc.Secret} {
		for _, p := range ps {
			if p.Label != "" && strings.Contains(alt, p.Label+": "+p.Label) {
				t.Errorf("alt names the pile %q twice: %q", p.Label, alt)
			}
		}
	}
	if h := sc.Hand; h != nil && h.Label != "" && strings.Contains(alt, h.Label+": "+h.Label) {
		t.Errorf("alt names the hand %q twice: %q", h.Label, alt)
	}
	for _, w := range strings.Fields(alt) {
		w = strings.TrimSuffix(w, ellipsis)
		if w == "" || words[w] || words[w+":"] || words[strings.TrimSuffix(w, ":")] || words[strings.TrimSuffix(w, ",")] {
			continue
		}
		t.Errorf("alt word %q is not a word of the screen (cut?)", w)
	}
}

// No text leaves its box: every line placed on a picture or a card is no
// wider than the box it had to fit, measured with its font; lines are made
// of whole words.
func TestTextFitsBoxes(t *testing.T) {
	for name, sc := range allScreens(t) {
		t.Run(name, func(t *testing.T) {
			for _, kind := range []string{"table", "hand"} {
				if kind == "hand" && sc.Hand == nil && len(sc.Secret) == 0 {
					continue
				}
				draw := drawTable
				if kind == "hand" {
					draw = drawHand
				}
				c := draw(sc, true)
				for _, p := range c.rec.texts {
					w := p.f.width(p.s)
					if p.x < p.box.Min.X || p.x+w > p.box.Max.X {
						t.Errorf("%s: %q (%d px at x %d) leaves its box %v", kind, p.s, w, p.x, p.box)
					}
					if p.box.Max.X > width || p.box.Min.X < 0 {
						t.Errorf("%s: box %v leaves the picture", kind, p.box)
					}
				}
				c.free()
			}
			// The cards' own text.
			var cs []render.Card
			if sc.Hand != nil {
				cs = append(cs, sc.Hand.Cards...)
			}
			for _, ps := range [][]render.Pile{sc.Center, sc.Secret} {
				for _, p := range ps {
					cs = append(cs, p.Cards...)
				}
			}
			for _, s := range sc.Seats {
				for _, p := range s.Piles {
					cs = append(cs, p.Cards...)
				}
			}
			for _, cd := range cs {
				if cd.Down {
					continue
				}
				for _, sz := range []size{small, medium, large} {
					g := geomOf(sc.Game, sz)
					k := cardKey{game: sc.Game, suit: cd.Suit, value: cd.Value, name: cd.Name, note: cd.Note, sz: sz, gw: g.w, gh: g.h}
					checkCardText(t, k, cd)
				}
			}
		})
	}
}

func checkCardText(t *testing.T, k cardKey, cd render.Card) {
	t.Helper()
	L := layoutCard(k)
	words := map[string]bool{}
	for _, w := range strings.Fields(cd.Name + " " + cd.Note) {
		words[w] = true
	}
	bottom := 0
	for _, b := range L.texts {
		for i, s := range b.lines {
			w := b.f.width(s)
			x := (L.w - w) / 2
			if x < 2 || x+w > L.w-2 {
				t.Errorf("card %q size %d: line %q (%d px) leaves the card (%d px)", cd.Name, k.sz, s, w, L.w)
			}
			for _, word := range strings.Fields(s) {
				if word == ellipsis {
					continue
				}
				cutWord, isCut := strings.CutSuffix(word, ellipsis)
				word = cutWord
				if isCut && i == len(b.lines)-1 && len(strings.Fields(s)) == 1 && beginsWord(words, word) {
					continue // a word too wide for the card, its beginning shown
				}
				if !words[word] && !words[word+","] && !words[word+":"] {
					t.Errorf("card %q: %q is not a whole word of it", cd.Name, word)
				}
			}
			bottom = max(bottom, b.top+(i+1)*b.f.lineH)
		}
		if b.f.px < 14 {
			t.Errorf("card %q: text at %d px", cd.Name, b.f.px)
		}
	}
	if bottom > L.h-2 {
		t.Errorf("card %q size %d: text down to %d on a card %d high", cd.Name, k.sz, bottom, L.h)
	}
}

// The embedded fonts have every letter of Polish and Ukrainian, and the
// signs the pictures use.
func TestFontsCoverPolishAndUkrainian(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	const runes = "ąęłóśżźćńĄĘŁÓŚŻŹĆŃіїєґІЇЄҐʼ’абвгдежзийклмнопрстуфхцчшщьюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЬЮЯ…·—–„”«»−×"
	var buf sfnt.Buffer
	for c, f := range fonts {
		for _, r := range runes {
			if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
				t.Errorf("%s has no glyph for %q", cutFiles[c], r)
			}
		}
	}
	// Checked both ways: a glyph the font lacks is found missing.
	if i, _ := fonts[regular].GlyphIndex(&buf, '中'); i != 0 {
		t.Errorf("the check cannot fail: 中 found")
	}
}

// The palette has at most 256 colours, and the table's colours are exact.
func TestPalette(t *testing.T) {
	p := thePalette()
	if len(p.colours) > 256 || len(p.colours) != len(p.rgba) {
		t.Fatalf("%d colours", len(p.colours))
	}
	for _, c := range append([]color.RGBA{felt, panel, gold, cream, ink, white}, seatColours...) {
		if p.rgba[p.idx(c)] != c {
			t.Errorf("colour %v drawn as %v", c, p.rgba[p.idx(c)])
		}
	}
	for _, g := range render.Games() {
		for _, c := range designOf(g).colours() {
			if p.rgba[p.idx(c)] != c || p.rgba[p.idx(dimmed(c))] != dimmed(c) {
				t.Errorf("%s: colour %v not exact", g, c)
			}
		}
	}
}

// A suit no design knows gets the same colour every time, and composite
// suits take the first known part.
func TestStyles(t *testing.T) {
	a, b := styleOf("lynx", "mystery"), styleOf("lynx", "mystery")
	if a.colour != b.colour {
		t.Errorf("unknown suit: %v then %v", a.colour, b.colour)
	}
	if styleOf("chapters", "animal+royal").colour != designOf("chapters").suits["animal"].colour {
		t.Errorf("a composite suit does not take its first part")
	}
	seen := map[color.RGBA]string{}
	for _, s := range []string{"Q", "F", "A", "P"} {
		c := styleOf("princesses", s).colour
		if seen[c] != "" {
			t.Errorf("suits %s and %s share a colour", s, seen[c])
		}
		seen[c] = s
	}
}

// Pictures drawn at the same time by many goroutines are the same as drawn
// alone (the caches and faces are shared).
func TestConcurrentPictures(t *testing.T) {
	scs := samples()
	want := map[string][]byte{}
	for name, sc := range scs {
		b, _, err := Table(sc)
		if err != nil {
			t.Fatal(err)
		}
		want[name] = b
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		for name, sc := range scs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, _, err := Table(sc)
				if err != nil || !bytes.Equal(b, want[name]) {
					t.Errorf("%s: drawn differently at the same time (%v)", name, err)
				}
			}()
		}
	}
	wg.Wait()
}

// A spectator has no hand picture.
func TestSpectatorHasNoHand(t *testing.T) {
	sc := princessesScreen()
	sc.Hand, sc.Secret, sc.Viewer = nil, nil, engine.Spectator
	if _, _, err := Hand(sc); !errors.Is(err, ErrNoHand) {
		t.Errorf("Hand of a spectator: %v", err)
	}
}

// The caches stay within their bounds, in entries and in bytes, and keep
// what was used last.
func TestCacheBounded(t *testing.T) {
	c := newCache[int](100, 1000, func(v []byte) int { return len(v) })
	for i := 0; i < 10_000; i++ {
		c.put(i, make([]byte, 30))
		if _, ok := c.get(0); !ok {
			t.Fatalf("entry 0, read every time, dropped at %d", i)
		}
	}
	total := len(c.cur) + len(c.old)
	if total > 100 {
		t.Errorf("%d entries, bound 100", total)
	}
	bytes := 0
	for _, v := range c.cur {
		bytes += len(v)
	}
	for _, v := range c.old {
		bytes += len(v)
	}
	if bytes > 1000+30 {
		t.Errorf("%d bytes, bound 1000", bytes)
	}
	if _, ok := c.get(9999); !ok {
		t.Errorf("the last entry is gone")
	}
}

// Odd screens draw without failing: empty, nameless, negative counts, a
// chart without rounds, only the lower half of a queen's table, a game no
// design knows.
func TestOddScreens(t *testing.T) {
	odd := []render.Screen{
		{},
		{Game: "chess", Seats: []render.SeatPart{{}}, Center: []render.Pile{{Count: -3}, {}}, Chart: &render.Chart{}},
		{Game: "courtiers", Center: []render.Pile{{Group: "down", Label: "Zające", Cards: []render.Card{{Suit: "hare"}}}}},
		{Game: "courtiers", Center: []render.Pile{{Group: "up"}, {Group: "down"}, {Group: "up", Cards: make([]render.Card, 40)}}},
		{Game: "lynx", Hand: &render.Pile{}, Secret: []render.Pile{{Count: 2}}, Chart: &render.Chart{Rounds: [][]int{{-3, 0}, {5}}}},
		{Game: "lynx", Hand: &render.Pile{Cards: make([]render.Card, 60)}, Seats: make([]render.SeatPart, 12)},
	}
	for i, sc := range odd {
		b, alt, err := Table(sc)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if utf8.RuneCountInString(alt) > MaxAlt {
			t.Errorf("%d: alt of %d characters", i, utf8.RuneCountInString(alt))
		}
		if _, _, err := Hand(sc); err != nil && !errors.Is(err, ErrNoHand) {
			t.Fatalf("%d: hand: %v", i, err)
		}
	}
}

// beginsWord reports whether s begins one of words.
func beginsWord(words map[string]bool, s string) bool {
	for w := range words {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}
