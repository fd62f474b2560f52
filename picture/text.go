package picture

import (
	"embed"
	"fmt"
	"image"
	"image/draw"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

//go:embed fonts/*.ttf
var fontFiles embed.FS

// The font cuts.
type cut int

const (
	regular cut = iota
	bold
	condensed
	condensedBold
	numCuts
)

var cutFiles = [numCuts]string{
	"fonts/DejaVuSans.ttf", "fonts/DejaVuSans-Bold.ttf",
	"fonts/DejaVuSansCondensed.ttf", "fonts/DejaVuSansCondensed-Bold.ttf",
}

var (
	fontsOnce sync.Once
	fonts     [numCuts]*opentype.Font
	fontsErr  error
)

func loadFonts() error {
	fontsOnce.Do(func() {
		for i, name := range cutFiles {
			b, err := fontFiles.ReadFile(name)
			if err == nil {
				fonts[i], err = opentype.Parse(b)
			}
			if err != nil {
				fontsErr = fmt.Errorf("picture: font %s: %w", name, err)
				return
			}
		}
	})
	return fontsErr
}

// A face is one cut at one pixel size. A font.Face is not safe for
// concurrent use, so every use holds mu; mu also guards the face's glyph
// and kerning caches.
type face struct {
	id                     int
	cut                    cut
	px                     int
	mu                     sync.Mutex
	f                      font.Face
	ascent, descent, lineH int
	glyphs                 map[rune]*glyph
	kerns                  map[[2]rune]fixed.Int26_6
}

// A glyph is what the face says of one rune, asked once: its mask as Glyph
// draws it at the dot (0, 0), and its bounds and advances. With
// HintingFull the advances and kerns are whole pixels, so a string's dot
// stays on whole pixels and every glyph of it has this same mask, moved
// (opentype.Face.Glyph rasterizes the outline offset by the dot's fraction
// only); a dot off whole pixels asks the face again (compose).
type glyph struct {
	dr     image.Rectangle // Glyph's rectangle at the dot (0, 0)
	mask   []uint8         // dr.Dx()×dr.Dy() coverage
	adv    fixed.Int26_6   // Glyph's advance
	bounds fixed.Rectangle26_6
	badv   fixed.Int26_6 // GlyphBounds's advance
	aadv   fixed.Int26_6 // GlyphAdvance's advance
	has    bool          // GlyphAdvance's ok: the font has the rune
}

// glyphLocked is r's glyph, asking the face on the first use; f.mu is held.
func (f *face) glyphLocked(r rune) *glyph {
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	g := &glyph{}
	dr, mask, maskp, adv, _ := f.f.Glyph(fixed.Point26_6{}, r)
	g.dr, g.adv = dr, adv
	if !dr.Empty() {
		m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(m, m.Rect, mask, maskp, draw.Src)
		g.mask = m.Pix
	}
	g.bounds, g.badv, _ = f.f.GlyphBounds(r)
	g.aadv, g.has = f.f.GlyphAdvance(r)
	if f.glyphs == nil || len(f.glyphs) >= maxGlyphs {
		f.glyphs = map[rune]*glyph{}
	}
	f.glyphs[r] = g
	return g
}

// kernLocked is the face's kern between r0 and r1, cached; f.mu is held.
func (f *face) kernLocked(r0, r1 rune) fixed.Int26_6 {
	k := [2]rune{r0, r1}
	if v, ok := f.kerns[k]; ok {
		return v
	}
	v := f.f.Kern(r0, r1)
	if f.kerns == nil || len(f.kerns) >= maxKerns {
		f.kerns = map[[2]rune]fixed.Int26_6{}
	}
	f.kerns[k] = v
	return v
}

// A face keeps at most maxGlyphs glyphs and maxKerns kerning pairs (names
// may bring any rune); past that its cache starts again.
const (
	maxGlyphs = 4096
	maxKerns  = 1 << 16
)

type faceKey struct {
	c  cut
	px int
}

var (
	facesMu sync.Mutex
	faces   = map[faceKey]*face{}
)

// faceOf is the face of a cut at px pixels (the em size).
func faceOf(c cut, px int) *face {
	facesMu.Lock()
	defer facesMu.Unlock()
	k := faceKey{c, px}
	if f, ok := faces[k]; ok {
		return f
	}
	if err := loadFonts(); err != nil {
		panic(err) // the fonts are embedded: a parse error is a build error
	}
	ff, err := opentype.NewFace(fonts[c], &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	m := ff.Metrics()
	f := &face{id: len(faces) + 1, cut: c, px: px, f: ff,
		ascent: m.Ascent.Ceil(), descent: m.Descent.Ceil()}
	f.lineH = f.ascent + f.descent
	faces[k] = f
	return f
}

type textKey struct {
	face int
	s    string
}

var widths = newCache[textKey, int](8192, 0, nil)

// width is the advance of s in pixels, rounded up.
func (f *face) width(s string) int {
	k := textKey{f.id, s}
	if w, ok := widths.get(k); ok {
		return w
	}
	w := f.measure(s).Ceil()
	widths.put(k, w)
	return w
}

// measure is font.MeasureString(f.f, s) from the cached glyphs and kerns.
func (f *face) measure(s string) (adv fixed.Int26_6) {
	f.mu.Lock()
	defer f.mu.Unlock()
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			adv += f.kernLocked(prev, c)
		}
		adv += f.glyphLocked(c).aadv
		prev = c
	}
	return adv
}

// A textImg is a string drawn once as a coverage mask.
type textImg struct {
	s      string
	alpha  []uint8
	w, h   int
	dx, dy int // the mask's top left, from the start of the baseline
}

// texts keep about the last 16,384 strings drawn, within 32 MB.
var texts = newCache[textKey](16384, 32<<20, func(t *textImg) int { return len(t.alpha) + len(t.s) + 64 })

func (f *face) img(s string) *textImg {
	k := textKey{f.id, s}
	if t, ok := texts.get(k); ok {
		return t
	}
	t := f.compose(s)
	texts.put(k, t)
	return t
}

// A glyphAt is a rune of a string with its glyph and the kern before it.
type glyphAt struct {
	c    rune
	g    *glyph
	kern fixed.Int26_6
}

var glyphsPool = sync.Pool{New: func() any { return new([]glyphAt) }}

// compose draws s as a coverage mask from the cached glyphs, exactly as
// font.Drawer{Face: f.f, Src: image.Opaque}.DrawString does on an
// image.Alpha the size of font.BoundString's box, with the dot at its
// baseline start (TestComposeAsDrawString).
func (f *face) compose(s string) *textImg {
	gp := glyphsPool.Get().(*[]glyphAt)
	gs := (*gp)[:0]
	defer func() { *gp = gs[:0]; glyphsPool.Put(gp) }()
	f.mu.Lock()
	prev := rune(-1)
	for _, c := range s {
		e := glyphAt{c: c, g: f.glyphLocked(c)}
		if prev >= 0 {
			e.kern = f.kernLocked(prev, c)
		}
		gs = append(gs, e)
		prev = c
	}
	f.mu.Unlock()

	// font.BoundString.
	var bounds fixed.Rectangle26_6
	var adv fixed.Int26_6
	for i, e := range gs {
		if i > 0 {
			adv += e.kern
		}
		if b := e.g.bounds; !b.Empty() {
			b.Min.X += adv
			b.Max.X += adv
			bounds = bounds.Union(b)
		}
		adv += e.g.badv
	}
	r := image.Rect(bounds.Min.X.Floor(), bounds.Min.Y.Floor(), bounds.Max.X.Ceil(), bounds.Max.Y.Ceil())
	w, h := r.Dx(), r.Dy()
	m := &image.Alpha{Pix: make([]uint8, w*h), Stride: w, Rect: image.Rect(0, 0, w, h)}

	// font.Drawer.DrawString.
	dot := fixed.P(-r.Min.X, -r.Min.Y)
	drawn := 0 // the columns right of this are still all 0
	for i, e := range gs {
		if i > 0 {
			dot.X += e.kern
		}
		if dot.X&63 != 0 || dot.Y&63 != 0 {
			// Off whole pixels (no such kern or advance with
			// HintingFull): the face draws it.
			f.mu.Lock()
			dr, mask, maskp, a, _ := f.f.Glyph(dot, e.c)
			if !dr.Empty() {
				draw.DrawMask(m, dr, image.Opaque, image.Point{}, mask, maskp, draw.Over)
			}
			f.mu.Unlock()
			drawn = max(drawn, dr.Max.X)
			dot.X += a
			continue
		}
		if !e.g.dr.Empty() {
			dr := e.g.dr.Add(image.Pt(int(dot.X>>6), int(dot.Y>>6)))
			over(m, dr, e.g.mask, e.g.dr.Dx(), dr.Min.X >= drawn)
			drawn = max(drawn, dr.Max.X)
		}
		dot.X += e.g.adv
	}
	return &textImg{s: s, alpha: m.Pix, w: w, h: h, dx: r.Min.X, dy: r.Min.Y}
}

// over composes a glyph's mask (stride ms) on m at dr as
// draw.DrawMask(m, dr, image.Opaque, image.Point{}, mask, image.Point{},
// draw.Over) does: clipped to m, a pixel of coverage ma over one of da
// becomes (da·(1−ma) + ma), in image/draw's 16-bit integer arithmetic.
// clear says that m is all 0 under dr: the mask is then copied (over 0, a
// coverage is itself).
func over(m *image.Alpha, dr image.Rectangle, mask []uint8, ms int, clear bool) {
	r := dr.Intersect(m.Rect)
	if r.Empty() {
		return
	}
	const full = 0xffff
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := mask[(y-dr.Min.Y)*ms+r.Min.X-dr.Min.X : (y-dr.Min.Y)*ms+r.Max.X-dr.Min.X]
		dst := m.Pix[y*m.Stride+r.Min.X : y*m.Stride+r.Max.X]
		if clear {
			copy(dst, src)
			continue
		}
		for x, a := range src {
			switch {
			case a == 0:
			case dst[x] == 0:
				dst[x] = a
			default:
				ma := uint32(a) * 0x101
				da := uint32(dst[x]) * 0x101
				out := uint16((da*(full-full*ma/full) + full*ma) / full)
				dst[x] = uint8(out >> 8)
			}
		}
	}
}

// wrap breaks s into lines no wider than w at spaces; ok is false when a
// word alone is wider than w.
func (f *face) wrap(s string, w int) (lines []string, ok bool) {
	ok = true
	line := ""
	for _, word := range strings.Fields(s) {
		if f.width(word) > w {
			ok = false
		}
		if line == "" {
			line = word
			continue
		}
		if next := line + " " + word; f.width(next) <= w {
			line = next
			continue
		}
		lines = append(lines, line)
		line = word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines, ok
}

const ellipsis = "…"

// fit lays s out in at most maxLines lines no wider than w, in the first
// face of faces where it fits whole; else in the last face, cut at a word
// boundary and ended with an ellipsis. It cuts a word only when the word
// alone, the first of its line, is wider than the line (a long name
// without spaces): then its beginning is shown, ended with the ellipsis.
func fit(s string, faces []*face, w, maxLines int) (*face, []string) {
	for _, f := range faces {
		if lines, ok := f.wrap(s, w); ok && len(lines) <= maxLines {
			return f, lines
		}
	}
	f := faces[len(faces)-1]
	return f, f.ellipsize(s, w, maxLines)
}

// ellipsize fills at most maxLines lines no wider than w with the words of s
// that fit, in order, and ends the last line with an ellipsis.
func (f *face) ellipsize(s string, w, maxLines int) []string {
	var lines []string
	line := ""
	words := strings.Fields(s)
	cut := false
	stuck := "" // the word that did not fit
	for i := 0; i < len(words); i++ {
		word := words[i]
		next := word
		if line != "" {
			next = line + " " + word
		}
		if f.width(next) <= w {
			line = next
			continue
		}
		if line != "" && len(lines)+1 < maxLines {
			lines = append(lines, line)
			if f.width(word) > w {
				// Too wide for a line of its own: its beginning ends the text.
				return append(lines, f.beginning(word, w))
			}
			line = word
			continue
		}
		cut, stuck = true, word
		break
	}
	if !cut {
		return append(lines, line)
	}
	first := stuck // the first word of the last line
	if line != "" {
		first = strings.Fields(line)[0]
	}
	// line is the last line: end it with the ellipsis, dropping words until
	// it fits; when not even its first word does, that word's beginning.
	for {
		if line == "" {
			return append(lines, f.beginning(first, w))
		}
		if cand := strings.TrimRight(line, ",;:·—–-") + ellipsis; f.width(cand) <= w {
			return append(lines, cand)
		}
		if i := strings.LastIndexByte(line, ' '); i >= 0 {
			line = line[:i]
		} else {
			line = ""
		}
	}
}

// beginning is the longest beginning of word that, ended with the
// ellipsis, fits in w; the ellipsis alone when not even a letter does.
func (f *face) beginning(word string, w int) string {
	best := ellipsis
	for i := range word {
		if i == 0 {
			continue
		}
		cand := strings.TrimRight(word[:i], ",;:·—–-") + ellipsis
		if f.width(cand) > w {
			break
		}
		best = cand
	}
	return best
}

// A cache is a bounded map kept in two generations: when the current one
// holds half the entries or half the bytes allowed, it becomes the old one,
// and what is read from the old one moves back. It keeps about the last
// entries used, within max entries and maxBytes (as cost counts them).
type cache[K comparable, V any] struct {
	mu       sync.Mutex
	cur, old map[K]V
	curBytes int
	max      int
	maxBytes int
	cost     func(V) int
}

func newCache[K comparable, V any](max, maxBytes int, cost func(V) int) *cache[K, V] {
	return &cache[K, V]{cur: map[K]V{}, max: max, maxBytes: maxBytes, cost: cost}
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	if v, ok := c.old[k]; ok {
		c.putLocked(k, v)
		return v, true
	}
	var zero V
	return zero, false
}

// reset empties the cache (for the tests and benchmarks).
func (c *cache[K, V]) reset() {
	c.mu.Lock()
	c.cur, c.old, c.curBytes = map[K]V{}, nil, 0
	c.mu.Unlock()
}

func (c *cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	c.putLocked(k, v)
	c.mu.Unlock()
}

func (c *cache[K, V]) putLocked(k K, v V) {
	if _, ok := c.cur[k]; ok {
		return
	}
	n := 0
	if c.cost != nil {
		n = c.cost(v)
	}
	if len(c.cur) >= c.max/2 || (c.maxBytes > 0 && c.curBytes+n > c.maxBytes/2) {
		c.old, c.cur, c.curBytes = c.cur, make(map[K]V, c.max/2), 0
	}
	c.cur[k] = v
	c.curBytes += n
}
