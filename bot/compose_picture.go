package bot

import (
	"container/list"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stolik-bot/stolik/picture"
	"github.com/stolik-bot/stolik/render"
)

// pictureJob is a picture of a message, drawn only when the message is
// sent: a table's when its message is published by the outbox (at most
// once per publish_interval), a hand's when its owner asks for it or
// moves. Composing a message never draws.
type pictureJob struct {
	name string // the attachment's file name, which a media gallery refers to
	alt  string // its description, in words
	sc   render.Screen
	hand bool // the viewer's hand (picture.Hand); else the table (picture.Table)
	// answer marks a picture an interaction's answer waits for (a hand, a
	// status): it waits at most handWait for a slot.
	answer bool
}

// pictures is the bot's picture drawing, in slots: the table messages'
// pictures in half as many as there are processors, the answers' (hands,
// status) in as many, so that drawing (a few milliseconds each) cannot
// keep the acknowledgements waiting for long. A table message's picture
// waits for a slot (the message is published a little later); an
// answer's waits at most handWait — else the answer goes in words (busy
// counts those) and the player sees the picture the next time.
type pictures struct {
	once   sync.Once
	slot   chan struct{} // the table messages'
	hslot  chan struct{} // the answers'
	failed atomic.Bool
	busy   atomic.Int64 // answers sent in words for want of a free slot
	// table and hand draw the pictures; nil: picture.Table and
	// picture.Hand (tests set them).
	table, hand func(render.Screen) ([]byte, string, error)

	// hands are the hands' pictures drawn last, by the screen they show
	// (a hand asked for again, a step of a choice, a stale click show the
	// same picture): at most handCacheBytes.
	mu    sync.Mutex
	hands map[uint64]*list.Element
	order list.List // of *handPicture, the most recent first
	bytes int
}

// handWait is how long a hand's answer waits for a drawing slot before it
// goes in words.
const handWait = 5 * time.Millisecond

// handCacheBytes bounds the hands' pictures kept.
const handCacheBytes = 8 << 20

type handPicture struct {
	key uint64
	png []byte
}

// cachedHand is the picture of a hand drawn before, if kept.
func (p *pictures) cachedHand(key uint64) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.hands[key]
	if !ok {
		return nil, false
	}
	p.order.MoveToFront(e)
	return e.Value.(*handPicture).png, true
}

// keepHand keeps the picture of a hand, dropping the least recent ones
// beyond handCacheBytes.
func (p *pictures) keepHand(key uint64, png []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hands == nil {
		p.hands = map[uint64]*list.Element{}
	}
	if _, ok := p.hands[key]; ok || len(png) > handCacheBytes/4 {
		return
	}
	p.hands[key] = p.order.PushFront(&handPicture{key: key, png: png})
	p.bytes += len(png)
	for p.bytes > handCacheBytes {
		e := p.order.Back()
		hp := e.Value.(*handPicture)
		p.order.Remove(e)
		delete(p.hands, hp.key)
		p.bytes -= len(hp.png)
	}
}

// screenKey is a hash of what a screen shows.
func screenKey(sc render.Screen) (uint64, bool) {
	h := fnv.New64a()
	if err := json.NewEncoder(h).Encode(sc); err != nil {
		return 0, false
	}
	return h.Sum64(), true
}

func (p *pictures) init() {
	p.once.Do(func() {
		n := runtime.GOMAXPROCS(0)
		p.slot, p.hslot = make(chan struct{}, max(1, n/2)), make(chan struct{}, n)
	})
}

// errBusy is a hand's picture not drawn: every slot was taken.
var errBusy = errors.New("picture: every slot is drawing")

// draw draws the picture of m, if it has one, and returns the message to
// send with the pictures to attach: m itself, or the message without a
// picture when drawing fails (the first failure is logged) or, for a
// hand, when no slot is free (pictures).
func (b *Bot) draw(m message) (message, []drawnPicture) {
	job := m.pic
	if job == nil {
		return m, nil
	}
	png, err := b.pics.drawJob(job)
	switch {
	case err == nil:
		return m, []drawnPicture{{name: job.name, alt: job.alt, png: png}}
	case errors.Is(err, errBusy):
		b.pics.busy.Add(1)
	case b.pics.failed.CompareAndSwap(false, true):
		b.log.Error("drawing a picture: messages go without it", "game", job.sc.Game, "hand", job.hand, "err", err)
	default:
		b.log.Debug("drawing a picture", "game", job.sc.Game, "hand", job.hand, "err", err)
	}
	if m.plain != nil {
		return m.plain(), nil
	}
	m.pic = nil
	return m, nil
}

// drawJob draws one picture: the table message's when a slot is free, an
// answer's only when one is free within handWait (else errBusy). A drawing
// that panics is a failure like any other: the message goes without it.
func (p *pictures) drawJob(job *pictureJob) (png []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			png, err = nil, fmt.Errorf("picture: panic: %v", r)
		}
	}()
	draw := p.table
	if draw == nil {
		draw = picture.Table
	}
	if job.hand {
		if draw = p.hand; draw == nil {
			draw = picture.Hand
		}
	}
	key, keyed := uint64(0), false
	if job.hand {
		if key, keyed = screenKey(job.sc); keyed {
			if png, ok := p.cachedHand(key); ok {
				return png, nil
			}
		}
	}
	p.init()
	if job.answer {
		select {
		case p.hslot <- struct{}{}:
		default:
			wait := time.NewTimer(handWait)
			select {
			case p.hslot <- struct{}{}:
				wait.Stop()
			case <-wait.C:
				return nil, errBusy
			}
		}
		defer func() { <-p.hslot }()
	} else {
		p.slot <- struct{}{}
		defer func() { <-p.slot }()
	}
	if png, _, err = draw(job.sc); err == nil && keyed {
		p.keepHand(key, png)
	}
	return png, err
}
