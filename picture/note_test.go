package picture

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/render"
)

// TestNotesOverFaces: a card's note (who played it) is drawn over a face
// cached without it, so that one face serves every player's card of the
// same shape of note; and the card looks as when its note was drawn into
// the face (the note's edges may blend a little differently: at most one
// pixel in a hundred of the note's lines differs).
func TestNotesOverFaces(t *testing.T) {
	for _, tt := range []struct {
		name       string
		game       string
		card       render.Card
		sz         size
		other      string // another note of the same shape
		otherShape string // a note of another shape
	}{
		{"a trick card", "princesses", render.Card{Suit: "Q", Value: "7", Name: "Królowa 7", Note: "Ala"}, medium, "Ola", "Agnieszka Brzęczyszczykiewicz-Wiśniewska"},
		{"a large trick card", "chapters", render.Card{Suit: "monster", Value: "50", Name: "Smok", Note: "Bob"}, large, "Rob", "Ołeksandra-Marija Szewczenko-Petruk"},
		{"a princess with her power", "princesses", render.Card{Suit: "princess", Name: "Roszpunka", Note: "Ala"}, medium, "Ola", "Wspinaczka po włosach i jeszcze dłuższy opis mocy"},
		{"a small card with a note on top", "courtiers", render.Card{Suit: "toad", Name: "Ropucha", Note: "szpieg"}, small, "straż", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := artOf(tt.game, tt.card, tt.sz, false)
			other := tt.card
			other.Note = tt.other
			if b := artOf(tt.game, other, tt.sz, false); b.face != a.face {
				t.Errorf("notes %q and %q: two faces", tt.card.Note, tt.other)
			}
			if tt.otherShape != "" {
				long := tt.card
				long.Note = tt.otherShape
				if b := artOf(tt.game, long, tt.sz, false); b.face == a.face && len(b.note.lines) != len(a.note.lines) {
					t.Errorf("notes %q and %q of %d and %d lines: one face", tt.card.Note, tt.otherShape, len(a.note.lines), len(b.note.lines))
				}
			}
			if a.note.f == nil {
				t.Fatalf("the note %q is not drawn over the face", tt.card.Note)
			}

			g := geomOf(tt.game, tt.sz)
			k := cardKey{game: tt.game, suit: tt.card.Suit, value: tt.card.Value, name: tt.card.Name, note: tt.card.Note, sz: tt.sz, gw: g.w, gh: g.h}
			whole := drawCard(k) // the note drawn into the face
			w, h := a.face.w+8, a.face.h+8
			over, into, bare := newCanvas(w, h, felt), newCanvas(w, h, felt), newCanvas(w, h, felt)
			defer over.free()
			defer into.free()
			defer bare.free()
			over.card(a, 4, 4)
			into.blit(whole, 4, 4)
			bare.blit(a.face, 4, 4)
			differ, noted := 0, 0
			for i := range over.img.Pix {
				if over.img.Pix[i] != into.img.Pix[i] {
					differ++
				}
				if over.img.Pix[i] != bare.img.Pix[i] {
					noted++
				}
			}
			area := len(a.note.lines) * a.note.f.lineH * a.face.w
			if noted < area/20 {
				t.Errorf("the note changed %d pixels of the face (its lines: %d pixels)", noted, area)
			}
			if differ > area/100 {
				t.Errorf("%d pixels differ from the note drawn into the face (its lines: %d pixels)", differ, area)
			}
		})
	}
}

// TestFitCutsOnlyAWordTooWide: text that does not fit is cut between
// words and ended with the ellipsis; a word wider than the line by itself
// (a long name without spaces, the first of its line) shows its
// beginning, not the ellipsis alone.
func TestFitCutsOnlyAWordTooWide(t *testing.T) {
	faces := []*face{faceOf(regular, 14), faceOf(condensed, 14)}
	for _, tt := range []struct {
		s     string
		w, n  int
		want  string // the last line
		begin string // or: the last line begins with this, and is cut
	}{
		{s: "Ala ma kota", w: 200, n: 1, want: "Ala ma kota"},
		{s: "Agnieszka Brzęczyszczykiewicz-Wiśniewska", w: 86, n: 1, want: "Agnieszka…"},
		{s: "Олександра-Марія Шевченко-Петрук", w: 86, n: 1, begin: "Олекс"},
		{s: "Olena Олександра-Марія-Шевченко-Петрук", w: 86, n: 2, begin: "Олекс"},
		{s: "xXxDarkLordOfTheTablesxXx", w: 86, n: 2, begin: "xXxDark"},
		{s: "Ж", w: 4, n: 1, want: ellipsis},
	} {
		f, ls := fit(tt.s, faces, tt.w, tt.n)
		if len(ls) == 0 || len(ls) > tt.n {
			t.Errorf("%q in %d px, %d lines: %q", tt.s, tt.w, tt.n, ls)
			continue
		}
		for _, l := range ls {
			if f.width(l) > tt.w && l != ellipsis {
				t.Errorf("%q: line %q is %d px, wider than %d", tt.s, l, f.width(l), tt.w)
			}
		}
		last := ls[len(ls)-1]
		if tt.want != "" && last != tt.want {
			t.Errorf("%q in %d px, %d lines: %q, want the last line %q", tt.s, tt.w, tt.n, ls, tt.want)
		}
		if tt.begin != "" && (!strings.HasPrefix(last, tt.begin) || !strings.HasSuffix(last, ellipsis)) {
			t.Errorf("%q in %d px, %d lines: %q, want the last line to begin %q and end %q", tt.s, tt.w, tt.n, ls, tt.begin, ellipsis)
		}
	}
}
