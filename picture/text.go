package picture

import (
	"embed"
	"fmt"
	"image"
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
// concurrent use, so every use holds mu.
type face struct {
	id                     int
	cut                    cut
	px                     int
	mu                     sync.Mutex
	f                      font.Face
	ascent, descent, lineH int
}

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

// has reports whether the face has a glyph for r.
func (f *face) has(r rune) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.f.GlyphAdvance(r)
	return ok
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
	f.mu.Lock()
	w := font.MeasureString(f.f, s).Ceil()
	f.mu.Unlock()
	widths.put(k, w)
	return w
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
	f.mu.Lock()
	d := font.Drawer{Face: f.f, Src: image.Opaque}
	b, _ := d.BoundString(s)
	r := image.Rect(b.Min.X.Floor(), b.Min.Y.Floor(), b.Max.X.Ceil(), b.Max.Y.Ceil())
	m := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	d.Dst = m
	d.Dot = fixed.P(-r.Min.X, -r.Min.Y)
	d.DrawString(s)
	f.mu.Unlock()
	t := &textImg{s: s, alpha: m.Pix, w: r.Dx(), h: r.Dy(), dx: r.Min.X, dy: r.Min.Y}
	texts.put(k, t)
	return t
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
// boundary and ended with an ellipsis. Never cuts a word.
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
		if line != "" && len(lines)+1 < maxLines && f.width(word) <= w {
			lines = append(lines, line)
			line = word
			continue
		}
		cut = true
		break
	}
	if !cut {
		return append(lines, line)
	}
	// line is the last line: end it with the ellipsis, dropping words until
	// it fits.
	for {
		cand := strings.TrimRight(line, ",;:·—–-") + ellipsis
		if line == "" {
			cand = ellipsis
		}
		if f.width(cand) <= w || line == "" {
			lines = append(lines, cand)
			return lines
		}
		if i := strings.LastIndexByte(line, ' '); i >= 0 {
			line = line[:i]
		} else {
			line = ""
		}
	}
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
