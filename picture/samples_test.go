package picture

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/draw"
)

// TestWriteSamples writes the sample pictures of every game, with their alt
// texts and a copy scaled to a phone's width (390 px, phone-*.png), to the
// directory in STOLIK_PICTURE_SAMPLES, for people to look at:
//
//	STOLIK_PICTURE_SAMPLES=/tmp/pics go test -run TestWriteSamples ./picture/
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("STOLIK_PICTURE_SAMPLES")
	if dir == "" {
		t.Skip("set STOLIK_PICTURE_SAMPLES=DIR to write sample pictures")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte, alt string) {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(alt+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		const phone = 390
		small := image.NewRGBA(image.Rect(0, 0, phone, img.Bounds().Dy()*phone/img.Bounds().Dx()))
		draw.CatmullRom.Scale(small, small.Bounds(), img, img.Bounds(), draw.Src, nil)
		var out bytes.Buffer
		if err := png.Encode(&out, small); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "phone-"+name+".png"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, sc := range samples() {
		png, alt, err := Table(sc)
		if err != nil {
			t.Fatal(err)
		}
		write(name+"-table", png, alt)
		if sc.Hand != nil || len(sc.Secret) > 0 {
			png, alt, err = Hand(sc)
			if err != nil {
				t.Fatal(err)
			}
			write(name+"-hand", png, alt)
		}
	}
	for name, sc := range realScreens(t) {
		png, alt, err := Table(sc)
		if err != nil {
			t.Fatal(err)
		}
		write(name+"-table", png, alt)
		if png, alt, err = Hand(sc); err == nil {
			write(name+"-hand", png, alt)
		}
	}
	t.Logf("wrote samples to %s", dir)
}
