package picture

import (
	"bytes"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdlerUpdate compares adlerUpdate with hash/adler32 on random bytes,
// all 0xff (the largest lane sums), runs, every length up to 600 and long
// inputs, whole and in pieces.
func TestAdlerUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{nil, bytes.Repeat([]byte{0xff}, 100_000), bytes.Repeat([]byte{0}, 5000), bytes.Repeat([]byte{1, 255, 7}, 30_000)}
	for n := range 600 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		inputs = append(inputs, b)
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(r.Uint32() | 0xf0)
	}
	inputs = append(inputs, big)
	for _, b := range inputs {
		want := adler32.Checksum(b)
		if got := adlerUpdate(1, b); got != want {
			t.Fatalf("%d bytes: %08x, want %08x", len(b), got, want)
		}
		// In pieces, continuing.
		s := uint32(1)
		rest := b
		for len(rest) > 0 {
			k := min(len(rest), 1+int(r.Uint32()%9000))
			s = adlerUpdate(s, rest[:k])
			rest = rest[k:]
		}
		if s != want {
			t.Fatalf("%d bytes in pieces: %08x, want %08x", len(b), s, want)
		}
	}
}

func BenchmarkAdler(b *testing.B) {
	p := make([]byte, 961*64)
	for i := range p {
		p[i] = byte(i * 7 / 13)
	}
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adler32.Checksum(p)
		}
	})
	b.Run("lanes", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adlerUpdate(1, p)
		}
	})
}
