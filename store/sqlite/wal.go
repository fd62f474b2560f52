package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The write-ahead log's layout (https://www.sqlite.org/fileformat2.html,
// "The WAL file format"): a 32-byte header, then frames, each a 24-byte
// header and a page.
const (
	walHeader      = 32
	walFrameHeader = 24
	walMagicLE     = 0x377f0682 // checksums over little-endian words
	walMagicBE     = 0x377f0683 // checksums over big-endian words
)

// CheckWAL reads the write-ahead log beside the database at path as
// SQLite's recovery reads it, before SQLite opens the file (opening
// recovers what it can and may then reset the log, and the evidence with
// it), and says what that recovery would drop without a word: committed
// transactions after the one holding a frame that fails its checksum (a
// flipped bit, a torn write), or every frame when the log's header fails
// its own. A log that ends in a transaction cut short is no loss (it was
// never acknowledged) and is not reported, whether cut inside its last
// frame or earlier: SQLite writes a transaction's commit frame before it
// rewrites the checksums of the frames the transaction wrote over again,
// so a process killed in between leaves a commit frame after a frame that
// fails; neither is a log cut exactly between
// frames, which nothing in the file can tell (the table messages witness
// that: RELIABILITY.md, 16). No log, or an empty one: nothing to say.
func CheckWAL(path string) ([]string, error) {
	name := path + "-wal"
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: reading %s: %w", name, err)
	}
	if len(b) < walHeader {
		return nil, nil
	}
	be := binary.BigEndian
	magic := be.Uint32(b[0:])
	var order binary.ByteOrder
	switch magic {
	case walMagicBE:
		order = binary.BigEndian
	case walMagicLE:
		order = binary.LittleEndian
	default:
		if len(b) > walHeader {
			return []string{fmt.Sprintf("write-ahead log %s: its header is damaged (magic %#x), so SQLite ignores all %d bytes of it: every transaction it holds is lost", name, magic, len(b))}, nil
		}
		return nil, nil
	}
	page := int(be.Uint32(b[8:]))
	if page == 1 {
		page = 65536
	}
	if page < 512 || page > 65536 || page&(page-1) != 0 {
		return []string{fmt.Sprintf("write-ahead log %s: its header is damaged (page size %d), so SQLite ignores it: every transaction it holds is lost", name, page)}, nil
	}
	salt1, salt2 := be.Uint32(b[16:]), be.Uint32(b[20:])
	s0, s1 := walSum(order, b[0:24], 0, 0)
	frames := (len(b) - walHeader) / (walFrameHeader + page)
	if s0 != be.Uint32(b[24:]) || s1 != be.Uint32(b[28:]) {
		if frames > 0 {
			return []string{fmt.Sprintf("write-ahead log %s: its header fails its checksum, so SQLite ignores all %d frames: every transaction they hold is lost", name, frames)}, nil
		}
		return nil, nil
	}
	bad := -1     // the first frame that fails
	torn := false // the transaction bad belongs to has not ended yet
	lost := 0     // committed transactions of this log after that one
	for i := range frames {
		off := walHeader + i*(walFrameHeader+page)
		h := b[off : off+walFrameHeader]
		if be.Uint32(h[8:]) != salt1 || be.Uint32(h[12:]) != salt2 {
			if bad < 0 {
				break // a frame of an older log: where this one ends
			}
			continue
		}
		commit := be.Uint32(h[4:]) != 0
		if bad >= 0 {
			switch {
			case commit && torn:
				torn = false // the end of the transaction bad is in
			case commit:
				lost++
			}
			continue
		}
		s0, s1 = walSum(order, h[0:8], s0, s1)
		s0, s1 = walSum(order, b[off+walFrameHeader:off+walFrameHeader+page], s0, s1)
		if s0 != be.Uint32(h[16:]) || s1 != be.Uint32(h[20:]) {
			bad, torn = i, !commit
		}
	}
	if bad >= 0 && lost > 0 {
		what := fmt.Sprintf("%d committed transactions are", lost)
		if lost == 1 {
			what = "1 committed transaction is"
		}
		return []string{fmt.Sprintf("write-ahead log %s: frame %d of %d fails its checksum, so SQLite drops it and every frame after it: %s lost", name, bad+1, frames, what)}, nil
	}
	return nil, nil
}

// walSum continues the log's checksum (s0, s1) over b, read as 32-bit
// words in order.
func walSum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
