package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// stolik play --pictures writes the table and the hand of the human seat
// after every redraw: PNG pictures 480 pixels wide with their alt texts.
func TestPlayWritesPictures(t *testing.T) {
	t.Parallel()
	for _, game := range render.Games() {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			if !hasScreen(t, game) {
				t.Skipf("%s has no screen builder yet (render.ScreenOf returns false): no pictures to check", game)
			}
			dir := t.TempDir()
			var out bytes.Buffer
			// Two moves (the first action listed), then quit.
			in := strings.NewReader("1\n1\nquit\n")
			code := run(context.Background(), []string{"play", game, "--seed", "5", "--lang", "pl", "--pictures", dir}, in, &out, &out)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out.String())
			}
			for _, name := range []string{"table-001", "hand-001", "table-002"} {
				b, err := os.ReadFile(filepath.Join(dir, name+".png"))
				if err != nil {
					t.Fatalf("%s.png: %v (files: %v)", name, err, files(dir))
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatalf("%s.png: %v", name, err)
				}
				if img.Bounds().Dx() != 480 || img.Bounds().Dy() < 100 {
					t.Errorf("%s.png is %v", name, img.Bounds())
				}
				alt, err := os.ReadFile(filepath.Join(dir, name+".txt"))
				if err != nil || len(strings.TrimSpace(string(alt))) == 0 {
					t.Errorf("%s.txt: %q, %v", name, alt, err)
				}
			}
		})
	}
}

// hasScreen reports whether a game has a screen builder.
func hasScreen(t *testing.T, game string) bool {
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	lo, _ := g.Seats()
	st, err := engine.Start(g, engine.Setup{Game: game, Seats: lo, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := render.ScreenOf(game, locales.MustLoad().Lang("en"), st.View(0), make(render.Names, lo), nil)
	return ok
}

func files(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// A game without a screen builder writes no pictures and says so once.
func TestPicturesWithoutScreenBuilder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var errOut bytes.Buffer
	w := &pictureWriter{dir: dir, errOut: &errOut}
	for i := 0; i < 3; i++ {
		w.write("chess", render.Screen{}, false)
	}
	if n := strings.Count(errOut.String(), "no screen builder"); n != 1 {
		t.Errorf("said %d times: %q", n, errOut.String())
	}
	if fs := files(dir); len(fs) != 0 {
		t.Errorf("wrote %v", fs)
	}
}
