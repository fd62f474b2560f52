package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
)

// A picture is written as a PNG of its palette (colour type 3, 8 bits, no
// filter: a palette index is not a quantity a filter could predict). The
// standard library's encoder does the same but compresses with
// compress/flate; klauspost/compress's flate at its fastest level writes
// the same stream format in about half the time and no larger, which
// matters at hundreds of pictures a second. The zlib framing around it is
// written here (as for a table's bands), with a faster adler32.

// compressLevel is klauspost/compress's fastest level that still finds
// repeated runs (level 1).
const compressLevel = flate.BestSpeed

var (
	outPool  = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	zbufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// errPalette is a picture whose palette cannot be written.
var errPalette = errors.New("picture: a palette of 1 to 256 colours is needed")

// encode writes a paletted picture as a PNG. Its zlib stream is written as
// a table's bands are (bands.go): the zlib header, the scanlines as raw
// deflate blocks ending in a sync flush, an empty final block and the
// adler32, which adlerUpdate works out faster than the zlib writer's
// hash/adler32.
func encode(img *image.Paletted) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if len(img.Palette) == 0 || len(img.Palette) > 256 {
		return nil, errPalette
	}
	out := outPool.Get().(*bytes.Buffer)
	out.Reset()
	defer outPool.Put(out)
	writeHead(out, w, h, img.Palette)

	idat := zbufPool.Get().(*bytes.Buffer)
	idat.Reset()
	defer zbufPool.Put(idat)
	idat.Write(zlibHeader[:])
	sum, err := deflateRows(idat, img)
	if err != nil {
		return nil, err
	}
	return finish(out, idat, sum), nil
}

// finish ends a PNG whose IDAT so far holds the zlib header and the
// deflate blocks of every scanline, their adler32 being sum: the final
// block, the checksum, the IDAT and IEND chunks. It returns a copy of out.
func finish(out, idat *bytes.Buffer, sum uint32) []byte {
	idat.Write(finalBlock)
	var s [4]byte
	binary.BigEndian.PutUint32(s[:], sum)
	idat.Write(s[:])
	chunk(out, "IDAT", idat.Bytes())
	chunk(out, "IEND", nil)
	return bytes.Clone(out.Bytes())
}

var (
	flatePool sync.Pool // *flate.Writer
	rawPool   = sync.Pool{New: func() any { return new([]byte) }}
)

// deflateRows compresses img's scanlines (filter byte 0 and the row) at
// compressLevel into raw deflate blocks written to buf, none of them final,
// ending with a sync flush (byte-aligned), and returns their adler32.
func deflateRows(buf *bytes.Buffer, img *image.Paletted) (uint32, error) {
	b := img.Bounds()
	w := b.Dx()
	fw, _ := flatePool.Get().(*flate.Writer)
	if fw == nil {
		var err error
		if fw, err = flate.NewWriter(buf, compressLevel); err != nil {
			return 0, err
		}
	} else {
		fw.Reset(buf)
	}
	defer flatePool.Put(fw)
	rp := rawPool.Get().(*[]byte)
	defer rawPool.Put(rp)
	const chunkRows = 64 // then yield
	if cap(*rp) < chunkRows*(w+1) {
		*rp = make([]byte, 0, chunkRows*(w+1))
	}
	raw := (*rp)[:0]
	sum := uint32(1)
	yielded := time.Now()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := img.PixOffset(b.Min.X, y)
		raw = append(raw, 0)
		raw = append(raw, img.Pix[i:i+w]...)
		if len(raw) == chunkRows*(w+1) || y == b.Max.Y-1 {
			if _, err := fw.Write(raw); err != nil {
				return 0, err
			}
			sum = adlerUpdate(sum, raw)
			raw = raw[:0]
			yielded = yield(yielded) // as between two cards (canvas.blit)
		}
	}
	if err := fw.Flush(); err != nil {
		return 0, err
	}
	return sum, nil
}

// writeHead writes a PNG's signature and its chunks before the pixels
// (IHDR, PLTE, tRNS) for a picture w×h of a palette of 1 to 256 colours.
func writeHead(out *bytes.Buffer, w, h int, pal color.Palette) {
	out.Write(pngSignature)

	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits, indexed colour; compression, filter, interlace 0
	chunk(out, "IHDR", ihdr[:])

	plte := make([]byte, 0, 3*len(pal))
	trns := make([]byte, 0, len(pal))
	opaque := true
	for _, c := range pal {
		r, g, bl, a := c.RGBA()
		if a != 0xffff {
			opaque = false
		}
		if a != 0 {
			// PNG stores colours not premultiplied.
			r, g, bl = r*0xffff/a, g*0xffff/a, bl*0xffff/a
		}
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
		trns = append(trns, byte(a>>8))
	}
	chunk(out, "PLTE", plte)
	if !opaque {
		for len(trns) > 0 && trns[len(trns)-1] == 0xff {
			trns = trns[:len(trns)-1]
		}
		chunk(out, "tRNS", trns)
	}
}

// chunk writes one PNG chunk: length, type, data, CRC of type and data.
func chunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
