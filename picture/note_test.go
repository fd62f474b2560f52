package picture

import (
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
