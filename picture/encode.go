package picture

import (
	"bytes"
	"image"
	"image/png"
	"sync"
)

// bufferPool keeps the PNG encoder's buffers between pictures.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	if v, ok := b.p.Get().(*png.EncoderBuffer); ok {
		return v
	}
	return nil
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

var (
	encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}
	outPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// encode writes a paletted picture as a PNG, at the fastest compression.
func encode(img *image.Paletted) ([]byte, error) {
	buf := outPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer outPool.Put(buf)
	if err := encoder.Encode(buf, img); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}
