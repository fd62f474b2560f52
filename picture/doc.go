// Package picture draws PNG pictures of a table and of a hand from a
// render.Screen, and nothing else: it never sees engine state, so a picture
// can show no more than the screen already holds. The cards are Stolik's own
// designs (a colour and a vector symbol per suit or family, the value in the
// corners, the name at the bottom); no publisher artwork is used.
//
//	png, alt, err := picture.Table(sc) // the table as the players around it see it
//	png, alt, err := picture.Hand(sc)  // the viewer's hand and secret cards
//
// alt is a plain-text description holding the same facts as the picture,
// at most 1024 characters (Discord's media description limit).
//
// # Why golang.org/x/image
//
// golang.org/x/image is the Go project's own extension of the standard
// image packages: pure Go (no cgo, so the binary still builds with the same
// toolchain and cross-compiles), with a TrueType/OpenType rasterizer
// (font/opentype) and a 2-D vector rasterizer (vector) for the card symbols.
// Everything else is the standard library: image.Paletted for the canvas and
// image/png to encode it.
//
// # Why DejaVu Sans
//
// Stolik speaks English, Polish and Ukrainian, so the text needs Latin-2
// (ą ę ł ó ś ż ź ć ń) and Cyrillic with the Ukrainian letters (і ї є ґ and the
// apostrophe ʼ). DejaVu Sans covers all of them in a regular, a bold and a
// condensed cut, is packaged by Debian (fonts-dejavu-core), and its licence
// (the Bitstream Vera licence, fonts/LICENSE) allows embedding and
// redistribution. The four TTF files are embedded with go:embed.
//
// # Speed
//
// A picture is composed on an image.Paletted with one fixed palette of at
// most 256 colours built from the game palettes (palette.go): each distinct
// card face and each text string is drawn once and cached, and a picture is
// made by copying cached cards and texts onto the canvas; a string is
// composed from its glyphs' masks, each rasterized once per face (text.go:
// the same bytes as font.Drawer.DrawString); the PNG encoder writes the
// palette indices at its fastest compression level with pooled buffers.
// See docs/benchmarks-history.md, section "Pictures".
//
// # Bands
//
// From one picture of a table to the next, most of it is the same: the
// title and the round's rule, the status lines, the seats that did not
// move. Table makes a picture of full-width bands along the layout (the
// header, the standings, the centre, each row of seats, the status lines,
// the bottom margin), each drawn on a canvas of its own rows and compressed
// on its own into raw deflate blocks that end on a byte (a sync flush); the
// PNG's zlib stream is the segments one after another, an empty final
// block and the adler32 of all the rows, combined from the bands' own. A
// band is cached (bounded, like the card and text caches) under a key that
// holds every field of the screen it draws, so a band met again is neither
// drawn nor compressed: a picture of a game in play draws about half of
// its rows, at the cost of about 1 % more bytes. The pixels are exactly those
// of the picture drawn whole (bands.go says why; the tests compare them on
// every state of played games), and a picture whose drawing would cross
// from one band into another is drawn whole.
package picture
