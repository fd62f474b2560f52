package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
)

// drawerImg is a string's mask as face.img drew it before the glyph cache:
// the whole string rasterized by font.Drawer.DrawString.
func drawerImg(f *face, s string) *textImg {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := font.Drawer{Face: f.f, Src: image.Opaque}
	b, _ := d.BoundString(s)
	r := image.Rect(b.Min.X.Floor(), b.Min.Y.Floor(), b.Max.X.Ceil(), b.Max.Y.Ceil())
	m := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	d.Dst = m
	d.Dot = fixed.P(-r.Min.X, -r.Min.Y)
	d.DrawString(s)
	return &textImg{s: s, alpha: m.Pix, w: r.Dx(), h: r.Dy(), dx: r.Min.X, dy: r.Min.Y}
}

// allFaces are every cut at every size the package uses (14 to 30 px).
func allFaces() []*face {
	var fs []*face
	for c := range numCuts {
		for px := 14; px <= 30; px++ {
			fs = append(fs, faceOf(c, px))
		}
	}
	return fs
}

// localeStrings are every message of the three locale files, as written
// and with their template fields filled with numbers and names.
func localeStrings(t testing.TB) []string {
	files, err := filepath.Glob("../locales/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("locale files: %v %v", files, err)
	}
	field := regexp.MustCompile(`\{\{[^}]*\}\}`)
	fills := []string{"7", "12", "Zażółć Gęśląjaźń", "Ґанна-Їжак ʼЄвген", "1 000"}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
			n := 0
			out = append(out, field.ReplaceAllStringFunc(v, func(string) string { n++; return fills[n%len(fills)] }))
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case []map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		walk(m)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// oddStrings are names and texts with what the locales lack: digits,
// punctuation, letters of other scripts, emoji, invalid UTF-8, overlapping
// glyphs.
var oddStrings = []string{
	"", " ", "a", "0123456789", "−12 / +7 · 3×", "(Ąę) [Łł] {Óó} «Śś» „Żż” ‚Źź’",
	"Гордій Ґалаґан-Їжаківський ʼЄ", "Zbigniew Szczęsny-Żółtkiewicz", "Олександр Ярошенко 2",
	"Игорь Ёлкин ыъэ", "Ǆemal Ǉubović ǈ ǋ", "ﬁﬂ ffi", "AVAWAY Ta To LT Yo P. F, r.",
	"😀 🂡 🃏 ♠♥♦♣ ★ ✓", "日本語 中文 한국어", "עברית العربية", "a\u0301e\u0300o\u0308 i\u0307",
	"\xff\xfe bad", "____————…………", "ŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁŁ", "jjjjj fff ffj yjg",
	"Wojciech „Wojtek” Brzęczyszczykiewicz-Grzegorzewski", "🏳️‍🌈 ZWJ\u200d\u200b\u00ad tab\t nl\n",
}

// TestComposeAsDrawString checks that a string composed from the glyph
// cache is byte for byte the mask font.Drawer.DrawString draws: every
// locale message (and each filled in) on three faces in turn, every
// distinct rune and the odd strings on every face the package uses, and
// every string the pictures of the played games draw, on its face.
func TestComposeAsDrawString(t *testing.T) {
	fs := allFaces()
	strs := localeStrings(t)
	if len(strs) < 1000 {
		t.Fatalf("only %d locale strings", len(strs))
	}
	type job struct {
		f *face
		s string
	}
	var jobs []job
	runes := map[rune]bool{}
	for i, s := range strs {
		for k := range 3 {
			if raceEnabled && k > 0 {
				break // slower ×10: one face a message
			}
			jobs = append(jobs, job{fs[(3*i+k*23)%len(fs)], s})
		}
		for _, r := range s {
			runes[r] = true
		}
	}
	var all strings.Builder
	for _, r := range slices.Sorted(func(yield func(rune) bool) {
		for r := range runes {
			if !yield(r) {
				return
			}
		}
	}) {
		all.WriteRune(r)
	}
	for _, f := range fs {
		jobs = append(jobs, job{f, all.String()})
		for r := range runes {
			jobs = append(jobs, job{f, string(r)})
		}
		for _, s := range oddStrings {
			jobs = append(jobs, job{f, s})
		}
	}
	// The strings the pictures draw.
	for i := range realGames {
		for _, sc := range playedScreens(t, i, engine.Seat(0)) {
			c := drawTable(sc, true)
			for _, p := range c.rec.texts {
				jobs = append(jobs, job{p.f, p.s})
			}
			c.free()
			if sc.Hand != nil || len(sc.Secret) > 0 {
				c := drawHand(sc, true)
				for _, p := range c.rec.texts {
					jobs = append(jobs, job{p.f, p.s})
				}
				c.free()
			}
		}
	}
	seen := map[job]bool{}
	n := 0
	for _, j := range jobs {
		if seen[j] {
			continue
		}
		seen[j] = true
		n++
		want, got := drawerImg(j.f, j.s), j.f.compose(j.s)
		if got.w != want.w || got.h != want.h || got.dx != want.dx || got.dy != want.dy || !bytes.Equal(got.alpha, want.alpha) {
			t.Errorf("face %v/%d %q: composed %dx%d at (%d,%d), DrawString %dx%d at (%d,%d)%s",
				j.f.cut, j.f.px, j.s, got.w, got.h, got.dx, got.dy, want.w, want.h, want.dx, want.dy, diffAt(got, want))
			if t.Failed() && n > 20 {
				t.FailNow()
			}
		}
		if w := j.f.measure(j.s); w != font.MeasureString(j.f.f, j.s) {
			t.Errorf("face %v/%d %q: measured %v, MeasureString %v", j.f.cut, j.f.px, j.s, w, font.MeasureString(j.f.f, j.s))
		}
	}
	t.Logf("%d strings compared (%d locale messages, %d runes, %d faces)", n, len(strs), len(runes), len(fs))
}

func diffAt(a, b *textImg) string {
	for i := range min(len(a.alpha), len(b.alpha)) {
		if a.alpha[i] != b.alpha[i] {
			return fmt.Sprintf("; first difference at byte %d: %d, want %d", i, a.alpha[i], b.alpha[i])
		}
	}
	return ""
}

// TestGlyphOverlap checks the compositing of overlapping glyphs against
// DrawString on strings that overlap much (combining marks stacked on one
// letter, letters kerned into each other).
func TestGlyphOverlap(t *testing.T) {
	overlapped := 0
	for _, f := range allFaces() {
		for _, s := range []string{"a\u0301\u0301\u0301\u0308", "Ю\u0306\u0308\u0301", "AVAVAVA TTT", "f\u0327j\u0328y"} {
			want, got := drawerImg(f, s), f.compose(s)
			if !bytes.Equal(got.alpha, want.alpha) || got.w != want.w || got.h != want.h || got.dx != want.dx {
				t.Errorf("face %v/%d %q differs%s", f.cut, f.px, s, diffAt(got, want))
			}
			// Count the pixels two glyphs both cover.
			if f.px == 30 && f.cut == regular {
				overlapped += overlapCount(f, s)
			}
		}
	}
	if overlapped == 0 {
		t.Error("no glyphs overlapped: the test does not test compositing")
	}
}

// overlapCount is the pixels that more than one glyph of s covers.
func overlapCount(f *face, s string) int {
	t := f.compose(s)
	cover := make([]int, len(t.alpha))
	f.mu.Lock()
	defer f.mu.Unlock()
	dot := fixed.P(-t.dx, -t.dy)
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			dot.X += f.kernLocked(prev, c)
		}
		g := f.glyphLocked(c)
		dr := g.dr.Add(image.Pt(int(dot.X>>6), int(dot.Y>>6)))
		for y := dr.Min.Y; y < dr.Max.Y; y++ {
			for x := dr.Min.X; x < dr.Max.X; x++ {
				if x >= 0 && y >= 0 && x < t.w && y < t.h && g.mask[(y-dr.Min.Y)*dr.Dx()+x-dr.Min.X] != 0 {
					cover[y*t.w+x]++
				}
			}
		}
		dot.X += g.adv
		prev = c
	}
	n := 0
	for _, k := range cover {
		if k > 1 {
			n++
		}
	}
	return n
}

// TestPicturesAsBefore draws every table and hand of the played games (seat
// 0's view) and the hand-built screens twice: with every text mask made by
// font.Drawer.DrawString as before the glyph cache (put in the text cache
// first), and as Table and Hand draw them now; the pixels must be the
// same. A hand's PNG must decode to the pixels drawn.
func TestPicturesAsBefore(t *testing.T) {
	scs := bandScreens(t)
	for i := range realGames {
		for k, sc := range playedScreens(t, i, engine.Seat(0)) {
			if !raceEnabled || k%10 == 0 {
				scs[fmt.Sprintf("%s/%d", realGames[i].game, k)] = sc
			}
		}
	}
	type drawing struct {
		name string
		draw func(render.Screen, bool) *canvas
	}
	n := 0
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		ds := []drawing{{"table", drawTable}}
		if sc.Hand != nil || len(sc.Secret) > 0 {
			ds = append(ds, drawing{"hand", drawHand})
		}
		for _, d := range ds {
			// Before: the texts as DrawString drew them.
			texts.reset()
			c := d.draw(sc, true)
			for _, p := range c.rec.texts {
				texts.put(textKey{p.f.id, p.s}, drawerImg(p.f, p.s))
			}
			c.free()
			c = d.draw(sc, false)
			want := slices.Clone(c.img.Pix)
			c.free()
			// Now.
			texts.reset()
			c = d.draw(sc, false)
			if !bytes.Equal(c.img.Pix, want) {
				t.Errorf("%s %s: the pixels differ from DrawString's texts", name, d.name)
			}
			c.free()
			n++
		}
		if sc.Hand != nil || len(sc.Secret) > 0 {
			png, _, err := Hand(sc)
			if err != nil {
				t.Fatal(err)
			}
			c := drawHand(sc, false)
			if g := decodePaletted(t, png); !bytes.Equal(g.Pix, c.img.Pix) || g.Rect != c.img.Rect {
				t.Errorf("%s: the hand's PNG is not the hand drawn", name)
			}
			c.free()
		}
	}
	t.Logf("%d pictures", n)
}

// TestTextBlends draws strings on a canvas of random colours (every pixel
// another colour under the text) and on one colour, and compares each
// pixel with the blend canvas.text made before it remembered its blends.
func TestTextBlends(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := thePalette()
	for _, noisy := range []bool{true, false} {
		c := newCanvas(400, 60, felt)
		if noisy {
			for i := range c.img.Pix {
				c.img.Pix[i] = uint8(r.IntN(len(p.colours)))
			}
		}
		for _, s := range []string{"Zażółć gęślą jaźń", "Ґанна ʼЄвген Їжак", "AVAVA 0123 ✓", "W"} {
			for _, f := range []*face{faceOf(regular, 16), faceOf(bold, 30), faceOf(condensed, 14)} {
				col := p.rgba[r.IntN(len(p.rgba))]
				x, y := r.IntN(300)-20, 10+r.IntN(50)
				want := slices.Clone(c.img.Pix)
				textRef(c, want, f, s, x, y, col)
				c.text(f, s, x, y, col)
				if !bytes.Equal(c.img.Pix, want) {
					t.Fatalf("%q on %v at (%d,%d): the blends differ", s, f.px, x, y)
				}
			}
		}
		c.free()
	}
}

// textRef is canvas.text before it remembered blends, drawing into pix (a
// copy of c's pixels).
func textRef(c *canvas, pix []uint8, f *face, s string, x, y int, col color.RGBA) {
	t := f.img(s)
	i := c.p.idx(col)
	x0, y0 := x+t.dx, y+t.dy
	b := c.img.Rect
	for ty := 0; ty < t.h; ty++ {
		py := y0 + ty
		if py < b.Min.Y || py >= b.Max.Y {
			continue
		}
		for tx, a := range t.alpha[ty*t.w : (ty+1)*t.w] {
			px := x0 + tx
			if a == 0 || px < b.Min.X || px >= b.Max.X {
				continue
			}
			o := (py-b.Min.Y)*c.img.Stride + px
			if a == 255 {
				pix[o] = i
			} else {
				pix[o] = c.p.blend(pix[o], col, a)
			}
		}
	}
}

// TestGlyphSameAtWholeDots checks what the glyph cache rests on: at any
// whole-pixel dot, opentype's Glyph draws a rune's mask as at the dot
// (0, 0), its rectangle moved by the dot.
func TestGlyphSameAtWholeDots(t *testing.T) {
	for _, f := range allFaces() {
		for _, r := range "AgŁЇjʼ…😀" {
			f.mu.Lock()
			g := f.glyphLocked(r)
			for x := -7; x <= 7; x += 2 {
				for y := -5; y <= 5; y += 5 {
					dr, mask, mp, adv, _ := f.f.Glyph(fixed.P(x, y), r)
					a := mask.(*image.Alpha)
					if dr != g.dr.Add(image.Pt(x, y)) || adv != g.adv || mp != (image.Point{}) ||
						(!dr.Empty() && !bytes.Equal(a.Pix[:dr.Dx()*dr.Dy()], g.mask)) {
						t.Errorf("face %v/%d %q at (%d,%d): not the glyph at (0,0) moved", f.cut, f.px, r, x, y)
					}
				}
			}
			f.mu.Unlock()
		}
	}
}

// TestComposeOffWholePixels composes strings on faces without hinting,
// whose advances and kerns are fractions of a pixel (the path compose takes
// when the dot leaves whole pixels), and compares them with DrawString.
func TestComposeOffWholePixels(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	for c := range numCuts {
		for _, px := range []int{14, 17, 30} {
			ff, err := opentype.NewFace(fonts[c], &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				t.Fatal(err)
			}
			f := &face{id: -1, cut: c, px: px, f: ff}
			offs := 0
			for _, s := range append([]string{"AVAWAY Ta To", "Zażółć gęślą jaźń", "Ґанна ʼЄвген Їжак 1234"}, oddStrings...) {
				want, got := drawerImg(f, s), f.compose(s)
				if got.w != want.w || got.h != want.h || got.dx != want.dx || got.dy != want.dy || !bytes.Equal(got.alpha, want.alpha) {
					t.Errorf("unhinted face %v/%d %q: composed %dx%d at (%d,%d), DrawString %dx%d at (%d,%d)%s",
						c, px, s, got.w, got.h, got.dx, got.dy, want.w, want.h, want.dx, want.dy, diffAt(got, want))
				}
				if f.measure(s)&63 != 0 {
					offs++
				}
			}
			if offs == 0 {
				t.Errorf("unhinted face %v/%d: no string off whole pixels", c, px)
			}
		}
	}
}

// TestDrawStringAsDrawer checks that drawString (the cards' text, from the
// glyph cache) draws on an RGBA picture what font.Drawer.DrawString drew:
// every locale message on a face in turn and the odd strings on every
// face, in colours opaque and not, over transparent, opaque and
// half-transparent pixels, clipped at the edges.
func TestDrawStringAsDrawer(t *testing.T) {
	fs := allFaces()
	strs := localeStrings(t)
	if raceEnabled {
		strs = strs[:len(strs)/10]
	}
	cols := []color.RGBA{{0x1e, 0x4d, 0x3a, 0xff}, {0xc0, 0x30, 0x30, 0xff}, {0x40, 0x20, 0x10, 0x80}}
	bg := image.NewRGBA(image.Rect(0, 0, 300, 60))
	for i := range bg.Pix {
		bg.Pix[i] = uint8(i * 37 % 251)
	}
	for y := 20; y < 40; y++ {
		for x := 0; x < 300; x++ {
			bg.SetRGBA(x, y, color.RGBA{0xff, 0xfb, 0xf0, 0xff})
		}
	}
	check := func(f *face, s string, k int) {
		col := cols[k%len(cols)]
		x, y := k%40-10, 20+k%25
		want := image.NewRGBA(bg.Rect)
		copy(want.Pix, bg.Pix)
		f.mu.Lock()
		d := font.Drawer{Dst: want, Src: image.NewUniform(col), Face: f.f, Dot: fixed.P(x, y)}
		d.DrawString(s)
		f.mu.Unlock()
		got := image.NewRGBA(bg.Rect)
		copy(got.Pix, bg.Pix)
		drawString(got, f, s, x, y, col)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("face %v/%d %q at (%d,%d) in %v: not DrawString's pixels", f.cut, f.px, s, x, y, col)
		}
	}
	for i, s := range strs {
		check(fs[i%len(fs)], s, i)
	}
	for i, f := range fs {
		for j, s := range oddStrings {
			check(f, s, i+j)
		}
	}
}
