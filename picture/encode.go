package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// A picture is written as a PNG of its palette (colour type 3, 8 bits, no
// filter: a palette index is not a quantity a filter could predict). The
// standard library's encoder does the same but compresses with
// compress/flate; klauspost/compress's zlib at its fastest level writes
// the same stream format in about half the time and no larger, which
// matters at hundreds of pictures a second.

// compressLevel is klauspost/compress's fastest level that still finds
// repeated runs (level 1).
const compressLevel = zlib.BestSpeed

var (
	outPool  = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	zbufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	zPool    sync.Pool // *zlib.Writer
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// errPalette is a picture whose palette cannot be written.
var errPalette = errors.New("picture: a palette of 1 to 256 colours is needed")

// encode writes a paletted picture as a PNG.
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

	zbuf := zbufPool.Get().(*bytes.Buffer)
	zbuf.Reset()
	defer zbufPool.Put(zbuf)
	zw, _ := zPool.Get().(*zlib.Writer)
	if zw == nil {
		var err error
		if zw, err = zlib.NewWriterLevel(zbuf, compressLevel); err != nil {
			return nil, err
		}
	} else {
		zw.Reset(zbuf)
	}
	defer zPool.Put(zw)
	filter := []byte{0}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		if y%64 == 0 {
			runtime.Gosched() // as between two cards (canvas.blit)
		}
		i := img.PixOffset(b.Min.X, y)
		if _, err := zw.Write(filter); err != nil {
			return nil, err
		}
		if _, err := zw.Write(img.Pix[i : i+w]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	chunk(out, "IDAT", zbuf.Bytes())
	chunk(out, "IEND", nil)
	return bytes.Clone(out.Bytes()), nil
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
