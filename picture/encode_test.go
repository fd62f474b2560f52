package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// The PNG writer's pictures decode with the standard library's decoder to
// the same pixels, whatever the palette (opaque, translucent, one colour)
// and size.
func TestEncodeRoundTrip(t *testing.T) {
	t.Parallel()
	palettes := map[string]color.Palette{
		"opaque":      {color.NRGBA{0x1e, 0x4d, 0x3a, 0xff}, color.NRGBA{0xff, 0xfb, 0xf0, 0xff}, color.NRGBA{0xc0, 0x30, 0x30, 0xff}},
		"translucent": {color.NRGBA{0, 0, 0, 0}, color.NRGBA{0x80, 0x40, 0x20, 0x80}, color.NRGBA{0xff, 0xff, 0xff, 0xff}},
		"one colour":  {color.NRGBA{0x12, 0x34, 0x56, 0xff}},
	}
	for name, pal := range palettes {
		for _, size := range []image.Point{{1, 1}, {7, 3}, {960, 40}} {
			img := image.NewPaletted(image.Rect(0, 0, size.X, size.Y), pal)
			for i := range img.Pix {
				img.Pix[i] = uint8((i*7 + i/size.X) % len(pal))
			}
			data, err := encode(img)
			if err != nil {
				t.Fatalf("%s %v: %v", name, size, err)
			}
			got, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s %v: decoding: %v", name, size, err)
			}
			if got.Bounds() != img.Bounds() {
				t.Fatalf("%s %v: bounds %v", name, size, got.Bounds())
			}
			for y := 0; y < size.Y; y++ {
				for x := 0; x < size.X; x++ {
					want := color.NRGBAModel.Convert(img.At(x, y))
					if c := color.NRGBAModel.Convert(got.At(x, y)); c != want {
						t.Fatalf("%s %v: pixel (%d,%d) = %v, want %v", name, size, x, y, c, want)
					}
				}
			}
		}
	}
	if _, err := encode(image.NewPaletted(image.Rect(0, 0, 2, 2), nil)); err == nil {
		t.Error("a picture without a palette was written")
	}
}
