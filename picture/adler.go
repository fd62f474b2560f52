package picture

import (
	"encoding/binary"
)

// adlerUpdate is the adler32 of the bytes summed in adler (1 for none)
// followed by p: hash/adler32's sum, which adds one byte at a time (a
// chain of additions at about a byte a cycle), worked out eight bytes at a
// time in the lanes of 64-bit words.
//
// For a block of n bytes b_0 … b_{n−1}, adler32's s1 and s2 become
//
//	s1' = s1 + Σ b_p
//	s2' = s2 + n·s1 + Σ (n−p)·b_p
//
// With the bytes in m words of 8 (n = 8m), byte j of word k at p = 8k+j,
// Σ (n−p)·b_p = 8·Σ_j B_j − Σ_j j·A_j, where A_j = Σ_k b_{8k+j} and
// B_j = Σ_k (m−k)·b_{8k+j}: lane j of running sums A += word, B += A.
// The lanes are 16 bits (the even and the odd bytes of a word apart),
// which hold the sums of 16 words: A_j ≤ 16·255, B_j ≤ 136·255 < 2¹⁶.
func adlerUpdate(adler uint32, p []byte) uint32 {
	const (
		mod   = 65521
		words = 16 // a block: 128 bytes
		lo    = 0x00ff00ff00ff00ff
		lo16  = 0x0000ffff0000ffff
		sum16 = 0x0001000100010001 // × this: the sum of the 4 lanes in the top one
		idx16 = 0x0000000100020003 // × this: Σ l·lane_l in the top lane
	)
	s1, s2 := adler&0xffff, adler>>16
	for len(p) >= 8*words {
		var ae, ao, be, bo uint64 // even and odd bytes' lanes
		q := (*[8 * words]byte)(p)
		for k := 0; k < 8*words; k += 8 {
			w := binary.LittleEndian.Uint64(q[k : k+8])
			ae += w & lo
			ao += (w >> 8) & lo
			be += ae
			bo += ao
		}
		p = p[8*words:]
		// Lane l of ae is byte j = 2l, of ao j = 2l+1.
		a := ae + ao                                           // lanes ≤ 8,160
		sumA := uint32(a * sum16 >> 48)                        // ≤ 32,640
		lsum := uint32(a * idx16 >> 48)                        // Σ l·(ae_l + ao_l)
		sumJA := 2*lsum + uint32(ao*sum16>>48)                 // Σ j·A_j
		b := be&lo16 + (be>>16)&lo16 + bo&lo16 + (bo>>16)&lo16 // 2 lanes of 32 bits
		sumB := uint32(b) + uint32(b>>32)
		s2 = (s2 + 8*words*s1 + 8*sumB - sumJA) % mod
		s1 = (s1 + sumA) % mod
	}
	for _, x := range p {
		s1 += uint32(x)
		s2 += s1
	}
	return (s2%mod)<<16 | s1%mod
}
