package picture

import (
	"errors"
	"image"
	"slices"

	"github.com/stolik-bot/stolik/render"
)

// ErrNoHand is returned for a screen without a hand or secret cards (a
// spectator's).
var ErrNoHand = errors.New("picture: the screen has no hand")

// Hand draws the viewer's hand, the cards that may be played now ringed in
// gold and the others dimmed (none dimmed when none may be played), with
// what the viewer must do above it and the secret piles (a princess,
// missions) below it. alt describes the same in words.
func Hand(sc render.Screen) (png []byte, alt string, err error) {
	if sc.Hand == nil && len(sc.Secret) == 0 {
		return nil, "", ErrNoHand
	}
	c := drawHand(sc, false)
	defer c.free()
	png, err = encode(c.img)
	return png, HandAlt(sc), err
}

func drawHand(sc render.Screen, rec bool) *canvas {
	h := layoutHand(nil, sc)
	c := newCanvas(width, h, felt)
	if rec {
		c.rec = &record{}
	}
	layoutHand(c, sc)
	return c
}

// layoutHand draws the hand on c (nothing when c is nil) and returns its
// height: the cards side by side on rows, or, when that would make the
// picture taller than maxH, in overlapping fans; when even that is too
// tall, the secret piles in medium cards, and then the hand too.
func layoutHand(c *canvas, sc render.Screen) int {
	type try struct {
		tight              bool
		handSize, secretSz size
	}
	tries := []try{{false, large, large}, {true, large, large}, {true, large, medium}, {true, medium, medium}}
	t := tries[len(tries)-1]
	for _, tr := range tries[:len(tries)-1] {
		if layoutHandAs(nil, sc, tr.tight, tr.handSize, tr.secretSz) <= maxH {
			t = tr
			break
		}
	}
	return layoutHandAs(c, sc, t.tight, t.handSize, t.secretSz)
}

func layoutHandAs(c *canvas, sc render.Screen, tight bool, handSize, secretSize size) int {
	y := pad
	if sc.Prompt != "" {
		f, ls := fit(sc.Prompt, []*face{faceOf(bold, 20), faceOf(condensedBold, 20), faceOf(condensedBold, 18)}, inner, 3)
		y = c.lines(f, ls, image.Rect(pad, y, width-pad, y+len(ls)*(f.lineH+2)), f.lineH+2, gold, false) + gap
	}
	// The hand, and the secret piles beside it when there is room, else
	// below it.
	var hand pileBox
	dimOthers := false
	if sc.Hand != nil {
		hand = measurePile(sc.Game, *sc.Hand, handSize, inner, tight)
		dimOthers = slices.ContainsFunc(sc.Hand.Cards, func(c render.Card) bool { return c.Mark })
		if dimOthers {
			hand.h += 8 // the rings
		}
	}
	secretW := -20
	for _, p := range sc.Secret {
		secretW += measurePile(sc.Game, p, secretSize, inner-2*gap, tight).w + 20
	}
	side := sc.Hand != nil && len(sc.Secret) > 0 && hand.w+gap+secretW+2*gap <= inner
	secrets := func(c *canvas, x, y, w, minH int) int {
		body := func(c *canvas, y int) int {
			return flowPiles(c, sc.Game, sc.Secret, secretSize, x+gap, y, w-2*gap, feltDeep, tight)
		}
		h := max(body(nil, y+gap)-y+gap, minH)
		c.roundRect(image.Rect(x, y, x+w, y+h), 12, feltDeep)
		body(c, y+gap)
		return h
	}
	hx, hw := pad, inner
	if side {
		hw = hand.w
	}
	if sc.Hand != nil {
		off := 0
		if dimOthers {
			off = 4
		}
		drawPile(c, sc.Game, *sc.Hand, hand, handSize, hx, y+off, hw, felt, dimOthers)
	}
	switch {
	case side:
		sx := pad + hand.w + gap
		h := secrets(c, sx, y, width-pad-sx, hand.h)
		y += max(h, hand.h) + gap
	default:
		if sc.Hand != nil {
			y += hand.h + gap
		}
		if len(sc.Secret) > 0 {
			y += secrets(c, pad, y, inner, 0) + gap
		}
	}
	return y - gap + pad
}
