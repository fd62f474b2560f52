package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"slices"
	"sync/atomic"

	"github.com/stolik-bot/stolik/render"
)

// A table picture is made of bands: full-width strips of rows along the
// layout's parts (the header with the top margin, the standings, the
// centre, each row of seats, the status lines, the bottom margin), each
// band with the gap below it. From one picture of a table to the next most
// bands are the same (the title and rule, the status, the seats that did
// not move); only the centre and a seat or two change.
//
// Each band is drawn on a canvas of its own rows and compressed on its own:
// its scanlines (filter byte 0 and the row, as encode writes them) become
// raw deflate blocks from a fresh compressor (no reference to an earlier
// band), none of them final, ending with a sync flush so that the segment
// ends on a byte. A PNG's pixel data is one zlib stream: the zlib header,
// the segments one after another, an empty final block, and the adler32 of
// all the scanlines, which adler32Combine works out from the bands' own.
// A band is cached under a key holding everything its drawing reads, so a
// band met again costs a map lookup and a copy of its segment.
//
// The key of a band is its kind and every field of the screen's parts that
// it draws (all fields of those parts, even the ones only words use, such as
// a seat's Line: a key too precise costs a miss, never a wrong picture).
// Drawing reads nothing else but constant tables (designs, palette, fonts)
// and caches that give the same pixels whether they hit or not. A band is
// drawn at its place in the picture (the canvas holds rows y0 to y1 in the
// picture's coordinates), so a band drawn for the first time is exactly the
// picture's rows. Met again at another y, it is the same: every part
// places fills, cached card faces and cached text masks at whole pixels,
// its icons are rasterized relative to their own whole-pixel box, and the
// chart works out its lines from its own top (TestBandsMove).
//
// A drawing that reaches a row of the picture outside its band (a glyph's
// accent above its line box, say) would be cut off, and the other band's
// rows would miss it: the canvas notes it (canvas.spill), and such a
// picture is drawn whole, as before (tableWhole). None of the games' tables
// does that today (TestBandsNoSpill).

// The bottom margin is what the last part's gap leaves out of pad.
const _ = uint(pad - gap) // pad ≥ gap: the tail band is pad − gap rows

// A band is a strip of a table picture, drawn and compressed.
type band struct {
	h     int    // rows
	seg   []byte // the scanlines as raw deflate blocks, not final, byte-aligned
	adler uint32 // the adler32 of the scanlines
	spill bool   // the drawing reaches rows outside the band: draw whole
	cost  int    // bytes held
}

// bands keep about the last 16,384 bands within 64 MB: a 6-seat table's
// picture is 7 to 9 bands of 20–150 KB together, so the last pictures of
// some 1,000 tables.
var bands = newCache[string](16384, 64<<20, func(b *band) int { return b.cost })

// bandDraws and bandRows count the bands drawn (not found in the cache)
// and their rows, for the tests.
var bandDraws, bandRows atomic.Int64

// The kinds of band, the first byte of a key.
const (
	bandHeader = 'h'
	bandResult = 'r'
	bandCentre = 'c'
	bandSeats  = 's'
	bandStatus = 't'
	bandTail   = 'e'
)

// A bandPart is a part of the layout: its key (without y) and its drawing
// from y, which returns the y below it (c nil: measures only).
type bandPart struct {
	key  keyBuf
	draw func(c *canvas, y int) int
}

// tableParts are the bands of a table, in layoutTable's order; their
// heights add up to layoutTable's.
func tableParts(sc render.Screen) []bandPart {
	ps := make([]bandPart, 0, 8)
	ps = append(ps, bandPart{
		key:  keyBuf{bandHeader}.str(sc.Title).rule(sc.Rule),
		draw: func(c *canvas, y int) int { return drawHeader(c, sc, y+pad) },
	})
	result := bandPart{
		key:  keyBuf{bandResult}.strs(sc.Result).chart(sc.Chart),
		draw: func(c *canvas, y int) int { return drawResult(c, sc, y) },
	}
	if len(sc.Result) > 0 {
		ps = append(ps, result)
	}
	tight := centreTight(sc)
	ps = append(ps, bandPart{
		key:  keyBuf{bandCentre}.str(sc.Game).flag(tight).piles(sc.Center),
		draw: func(c *canvas, y int) int { return drawCentre(c, sc, y, tight) },
	})
	n := len(sc.Seats)
	cols := seatCols(n)
	for r := 0; r*cols < n; r++ {
		row := sc.Seats[r*cols : min(n, (r+1)*cols)]
		k := keyBuf{bandSeats}.str(sc.Game).num(n).num(r).num(len(row))
		for _, s := range row {
			k = k.seat(s)
		}
		ps = append(ps, bandPart{
			key:  k,
			draw: func(c *canvas, y int) int { return drawSeatRow(c, sc.Game, sc.Seats, r, y) },
		})
	}
	status := sc.StatusLines()
	ps = append(ps, bandPart{
		key:  keyBuf{bandStatus}.strs(status),
		draw: func(c *canvas, y int) int { return drawStatus(c, status, y) },
	})
	if len(sc.Result) == 0 {
		ps = append(ps, result)
	}
	return append(ps, bandPart{
		key:  keyBuf{bandTail},
		draw: func(c *canvas, y int) int { return y + pad - gap },
	})
}

// tableBands makes the table's PNG from its bands, drawing only those not
// in the cache.
func tableBands(sc render.Screen) ([]byte, error) {
	got, err := cachedBands(tableParts(sc))
	if errors.Is(err, errSpill) {
		return tableWhole(sc)
	}
	if err != nil {
		return nil, err
	}
	y := 0
	for _, b := range got {
		y += b.h
	}
	return assemble(got, width, y)
}

// splits reports whether TableSplit makes two pictures of sc: seats, and
// a centre, standings or a round's rule above them.
func splits(sc render.Screen) bool {
	return len(sc.Seats) > 0 && (len(sc.Center) > 0 || len(sc.Result) > 0 || sc.Rule != nil)
}

// errSpill is a band whose drawing reached another band's rows.
var errSpill = errors.New("picture: a band's drawing left its rows")

// cachedBands are the bands of parts, from the cache or drawn.
func cachedBands(parts []bandPart) ([]*band, error) {
	got := make([]*band, 0, len(parts))
	y := 0
	for _, p := range parts {
		ks := string(p.key)
		b, ok := bands.get(ks)
		if !ok {
			var err error
			if b, err = drawBand(p, y); err != nil {
				return nil, err
			}
			b.cost += len(ks)
			bands.put(ks, b)
		}
		if b.spill {
			return nil, errSpill
		}
		got = append(got, b)
		y += b.h
	}
	return got, nil
}

// TableSplit draws the table as two pictures, each nearer the shape a chat
// shows whole (Discord shows one picture in at most about 520×350 pixels on
// a desktop): the title, the rule, the standings and the centre; then the
// seats and the status lines, with a margin above them. A table without seats, or
// with nothing above them but its title, is one picture. Both are the rows
// of Table's picture, with the margins.
func TableSplit(sc render.Screen) ([][]byte, error) {
	parts := tableParts(sc)
	cut := slices.IndexFunc(parts, func(p bandPart) bool { return p.key[0] == bandSeats })
	if cut < 0 || !splits(sc) {
		png, err := tableBands(sc)
		return [][]byte{png}, err
	}
	tail := parts[len(parts)-1] // the bottom margin
	head := bandPart{
		key:  keyBuf{bandTail}.num(pad),
		draw: func(c *canvas, y int) int { return y + pad },
	}
	top := append(slices.Clone(parts[:cut]), tail)
	bottom := append([]bandPart{head}, parts[cut:]...)
	out := make([][]byte, 0, 2)
	for _, ps := range [][]bandPart{top, bottom} {
		got, err := cachedBands(ps)
		if err != nil {
			return nil, err
		}
		h := 0
		for _, b := range got {
			h += b.h
		}
		png, err := assemble(got, width, h)
		if err != nil {
			return nil, err
		}
		out = append(out, png)
	}
	return out, nil
}

// drawBand draws a part from y on a canvas of its rows and compresses them.
func drawBand(p bandPart, y int) (*band, error) {
	bandDraws.Add(1)
	h := p.draw(nil, y) - y
	bandRows.Add(int64(h))
	if h <= 0 {
		return &band{adler: 1, cost: 64}, nil
	}
	c := newBandCanvas(width, y, y+h, felt)
	defer c.free()
	p.draw(c, y)
	if c.spill {
		return &band{h: h, spill: true, cost: 64}, nil
	}
	return deflateBand(c.img)
}

// deflateBand compresses a band's scanlines into a segment of raw deflate
// blocks, as the whole picture's encoder does (deflateRows): the same
// level, ending with a sync flush, byte-aligned, no final block.
func deflateBand(img *image.Paletted) (*band, error) {
	buf := zbufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer zbufPool.Put(buf)
	sum, err := deflateRows(buf, img)
	if err != nil {
		return nil, err
	}
	seg := bytes.Clone(buf.Bytes())
	return &band{h: img.Bounds().Dy(), seg: seg, adler: sum, cost: len(seg) + 64}, nil
}

// zlibHeader is the zlib stream's header as the zlib writer writes it at
// compressLevel: deflate with a 32 KB window (0x78), the level's flag, and
// the check bits.
var zlibHeader = func() [2]byte {
	h := [2]byte{0x78, 0}
	switch compressLevel {
	case -2, 0, 1: // HuffmanOnly, NoCompression, BestSpeed
		h[1] = 0 << 6
	case 2, 3, 4, 5:
		h[1] = 1 << 6
	case 6, -1:
		h[1] = 2 << 6
	default:
		h[1] = 3 << 6
	}
	h[1] += uint8(31 - (uint16(h[0])<<8+uint16(h[1]))%31)
	return h
}()

// finalBlock is an empty final deflate block: BFINAL 1, fixed Huffman
// codes (BTYPE 01), the end-of-block code (seven 0 bits).
var finalBlock = []byte{0x03, 0x00}

// assemble writes the PNG of a picture w wide made of bands, from the top.
func assemble(bs []*band, w, h int) ([]byte, error) {
	pal := thePalette().colours
	if len(pal) == 0 || len(pal) > 256 {
		return nil, errPalette
	}
	out := outPool.Get().(*bytes.Buffer)
	out.Reset()
	defer outPool.Put(out)
	writeHead(out, w, h, pal)

	idat := zbufPool.Get().(*bytes.Buffer)
	idat.Reset()
	defer zbufPool.Put(idat)
	n := len(zlibHeader) + len(finalBlock) + 4
	for _, b := range bs {
		n += len(b.seg)
	}
	idat.Grow(n)
	idat.Write(zlibHeader[:])
	sum := uint32(1) // the adler32 of nothing
	for _, b := range bs {
		idat.Write(b.seg)
		sum = adler32Combine(sum, b.adler, int64(b.h)*int64(w+1))
	}
	return finish(out, idat, sum), nil
}

// adler32Combine is the adler32 of A followed by B from the adler32 of A,
// that of B and the length of B (zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int64) uint32 {
	const base = 65521
	rem := uint32(lenB % base)
	sum1 := a & 0xffff
	sum2 := uint32((uint64(rem) * uint64(sum1)) % base)
	sum1 += (b & 0xffff) + base - 1
	sum2 += (a >> 16) + (b >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}

// A keyBuf is a band's key being written: every string with its length,
// every list with its count, so that two different inputs never write the
// same bytes.
type keyBuf []byte

func (k keyBuf) num(n int) keyBuf { return binary.AppendVarint(k, int64(n)) }

func (k keyBuf) str(s string) keyBuf {
	k = binary.AppendUvarint(k, uint64(len(s)))
	return append(k, s...)
}

func (k keyBuf) flag(b bool) keyBuf {
	if b {
		return append(k, 1)
	}
	return append(k, 0)
}

func (k keyBuf) strs(ss []string) keyBuf {
	k = k.num(len(ss))
	for _, s := range ss {
		k = k.str(s)
	}
	return k
}

func (k keyBuf) rule(r *render.Rule) keyBuf {
	if r == nil {
		return k.flag(false)
	}
	return k.flag(true).str(r.Name).str(r.Short).str(r.Full)
}

func (k keyBuf) chart(ch *render.Chart) keyBuf {
	if ch == nil {
		return k.flag(false)
	}
	k = k.flag(true).str(ch.Title).strs(ch.Names).num(len(ch.Rounds))
	for _, r := range ch.Rounds {
		k = k.num(len(r))
		for _, v := range r {
			k = k.num(v)
		}
	}
	return k
}

func (k keyBuf) card(c render.Card) keyBuf {
	return k.str(c.Suit).str(c.Value).str(c.Name).str(c.Note).str(c.Code).flag(c.Down).flag(c.Mark)
}

func (k keyBuf) piles(ps []render.Pile) keyBuf {
	k = k.num(len(ps))
	for _, p := range ps {
		k = k.str(p.Label).str(p.Text).num(len(p.Cards))
		for _, c := range p.Cards {
			k = k.card(c)
		}
		k = k.num(p.Count).str(p.Group)
	}
	return k
}

func (k keyBuf) seat(s render.SeatPart) keyBuf {
	return k.num(int(s.Seat)).str(s.Name).flag(s.You).flag(s.Acting).strs(s.Counts).piles(s.Piles).str(s.Line)
}
