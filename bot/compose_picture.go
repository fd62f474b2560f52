package bot

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/picture"
	"github.com/stolik-bot/stolik/render"
)

// pictureJob is a picture of a message, drawn only when the message is
// sent: a table's when its message is published by the outbox (at most
// once per publish_interval), a hand's when its owner asks for it or
// moves. Composing a message never draws.
type pictureJob struct {
	// files are the pictures drawn from sc, in order: one for a hand, the
	// centre and the seats for a table (picture.TableSplit), one for a
	// table without seats.
	files []pictureFile
	sc    render.Screen
	hand  bool // the viewer's hand (picture.Hand); else the table (picture.TableSplit)
	// asked marks a hand its owner asked for ("My hand", /stolik hand):
	// only then is a hand's picture drawn. Any other answer showing a hand
	// (after a move, a step of a choice, a stale click) has its picture
	// when that hand was drawn before, else it is in words.
	asked bool
	// key is a hash of sc (keyed: worked out), which names the file and
	// keys a hand's cached drawing.
	key   uint64
	keyed bool
}

// askedFor marks m as a hand its owner asked for: its picture is drawn.
func askedFor(m message) message {
	if m.pic != nil {
		pic := *m.pic
		pic.asked = true
		m.pic = &pic
	}
	return m
}

// pictures is the bot's picture drawing, in slots: half as many as there
// are processors (at least one), so that drawing (a few milliseconds a
// picture) always leaves processors to the interactions. Nothing an
// acknowledgement waits for is drawn: a table message's picture is drawn
// when the outbox publishes it, an answer's (a hand its owner asked for, a
// status) after the answer went in words (pictureLater); a picture drawn
// before is taken from the cache.
type pictures struct {
	once   sync.Once
	slot   chan struct{} // a drawing in progress holds one
	failed atomic.Bool
	busy   atomic.Int64 // answers left in words: too many pictures waiting (laterMax)
	later  atomic.Int64 // pictures being drawn to be edited into answers (pictureLater)
	// hold, when set, holds the pictures to be edited into answers until
	// it is closed (tests: a newer answer comes first).
	hold atomic.Pointer[chan struct{}]
	// table and hand draw the pictures; nil: picture.TableSplit and
	// picture.Hand (tests set them).
	table func(render.Screen) ([][]byte, error)
	hand  func(render.Screen) ([]byte, string, error)

	// hands are the hands' pictures drawn last, by the screen they show
	// (a hand asked for again, a step of a choice, a stale click show the
	// same picture): at most handCacheBytes.
	mu    sync.Mutex
	hands map[uint64]*list.Element
	order list.List // of *handPicture, the most recent first
	bytes int
}

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

// newPictureJob is the picture of sc (a hand's when hand), described by
// alt. Its file name is kind ("table", "hand") and a hash of what it shows,
// worked out once here: a new picture has a new name, so that no client
// shows an older file kept under the same name, and the same picture keeps
// its name (and, for a hand, its cached drawing).
// A pictureFile is one picture of a job: the attachment's file name, which
// a media gallery refers to, and its description in words.
type pictureFile struct{ name, alt string }

// newPictureJob is the picture of sc (a hand's when hand), described by
// alts (one per picture; a table's second is its seats'). Its file names
// are kinds ("hand"; "table", then "seats") and a hash of what it shows,
// worked out once here: a new picture has a new name, so that no client
// shows an older file kept under the same name, and the same picture keeps
// its name (and, for a hand, its cached drawing).
func newPictureJob(kind string, sc render.Screen, alts []string, hand bool) *pictureJob {
	job := &pictureJob{sc: sc, hand: hand}
	job.key, job.keyed = screenKey(sc)
	for i, alt := range alts {
		k := kind
		if i > 0 {
			k = "seats"
		}
		name := k + ".png"
		if job.keyed {
			name = fmt.Sprintf("%s-%016x.png", k, job.key)
		}
		job.files = append(job.files, pictureFile{name: name, alt: alt})
	}
	return job
}

// galleries are the media galleries of job's pictures, one picture each:
// Discord shows a gallery of one picture whole, and two pictures side by
// side, cut to squares.
func (job *pictureJob) galleries() []discordgo.MessageComponent {
	out := make([]discordgo.MessageComponent, len(job.files))
	for i, f := range job.files {
		out[i] = gallery(f.name, f.alt)
	}
	return out
}

// drawn pairs job's pictures with their names and descriptions.
func (job *pictureJob) drawn(pngs [][]byte) ([]drawnPicture, error) {
	if len(pngs) != len(job.files) {
		return nil, fmt.Errorf("bot: %d pictures drawn for %d", len(pngs), len(job.files))
	}
	out := make([]drawnPicture, len(pngs))
	for i, f := range job.files {
		out[i] = drawnPicture{name: f.name, alt: f.alt, png: pngs[i]}
	}
	return out, nil
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
		p.slot = make(chan struct{}, max(1, n/2))
	})
}

// draw draws the picture of m, if it has one, and returns the message to
// send with the pictures to attach: m itself, or the message without a
// picture when drawing fails (the first failure is logged).
func (b *Bot) draw(m message) (message, []drawnPicture) {
	job := m.pic
	if job == nil {
		return m, nil
	}
	pngs, err := b.pics.drawJob(job, nil)
	var pics []drawnPicture
	if err == nil {
		pics, err = job.drawn(pngs)
	}
	switch {
	case err == nil:
		return m, pics
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

// errUnwanted is a picture nobody wanted any more by the time a slot was
// free to draw it.
var errUnwanted = errors.New("bot: the picture is no longer wanted")

// drawJob draws one picture when a slot is free (a hand drawn before comes
// from the cache at once). A drawing that panics is a failure like any
// other: the message goes without it. wanted, when not nil, is asked once
// a slot is free: a picture no longer wanted (its answer was replaced
// while it waited) is not drawn (errUnwanted).
func (p *pictures) drawJob(job *pictureJob, wanted func() bool) (pngs [][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			pngs, err = nil, fmt.Errorf("picture: panic: %v", r)
		}
	}()
	draw := p.table
	if draw == nil {
		draw = picture.TableSplit
	}
	if job.hand {
		hand := p.hand
		if hand == nil {
			hand = picture.Hand
		}
		draw = func(sc render.Screen) ([][]byte, error) {
			png, _, err := hand(sc)
			return [][]byte{png}, err
		}
	}
	keyed := job.hand && job.keyed
	if keyed {
		if png, ok := p.cachedHand(job.key); ok {
			return [][]byte{png}, nil
		}
	}
	p.init()
	p.slot <- struct{}{}
	if wanted != nil && !wanted() {
		<-p.slot
		return nil, errUnwanted
	}
	start := time.Now()
	defer func() {
		// A slot draws at most drawShare of the time: after a picture that
		// took d it rests for d(1-drawShare)/drawShare, so that a burst of
		// pictures never takes whole processors from the interactions.
		// Pictures wait (a table message goes out a little later);
		// acknowledgements do not.
		if rest := time.Duration(float64(time.Since(start)) * (1 - drawShare) / drawShare); rest > 0 {
			time.Sleep(rest)
		}
		<-p.slot
	}()
	if pngs, err = draw(job.sc); err == nil && keyed && len(pngs) == 1 {
		p.keepHand(job.key, pngs[0])
	}
	return pngs, err
}

// drawShare is the share of its time a drawing slot spends drawing. At
// 500 tables on two processors the pictures need about 0.3 of one; with
// 0.4 the acknowledgements' p99 was 15–19 ms against 19–22 ms with 0.7,
// side by side (docs/benchmarks-history.md, "Pictures on the table message"), and
// the pictures still kept up.
const drawShare = 0.4

// ready reports whether the picture of job can go with its answer at once:
// a hand drawn before (the same hand asked for again, a step of a choice).
func (p *pictures) ready(job *pictureJob) bool {
	if !job.hand || !job.keyed {
		return false
	}
	_, ok := p.cachedHand(job.key)
	return ok
}

// laterMax bounds the pictures waiting to be edited into answers sent in
// words; past it an answer stays in words (counted in busy) and the
// player sees the picture the next time.
const laterMax = 64

// laterWait bounds the request that edits a picture into an answer: the
// user's next answer waits for it (answerOrder), so it is tried once and
// briefly; when it fails the answer stays in words.
const laterWait = 2 * time.Second

// answerOrder keeps one user's answers in the order they were sent: a
// picture edited into an answer never lands on a newer answer (which
// would show an older hand, with older controls).
type answerOrder struct {
	mu sync.Mutex // held while a picture is edited in
	n  uint64     // answers sent to the user

	user string // whose
	refs int    // guarded by orders.mu: answers being sent, pictures to edit in
}

// orders are the users' answerOrders. A user's is kept only while an
// answer to them is being sent or a picture is still to be edited into
// one: with nothing in flight there is no older answer to protect, and
// the map holds the users being answered, not every user ever seen.
type orders struct {
	mu sync.Mutex
	m  map[string]*answerOrder
}

// orderOf is the user's answerOrder, held until release.
func (b *Bot) orderOf(userID string) *answerOrder {
	ords := &b.orders
	ords.mu.Lock()
	defer ords.mu.Unlock()
	if ords.m == nil {
		ords.m = map[string]*answerOrder{}
	}
	o := ords.m[userID]
	if o == nil {
		o = &answerOrder{user: userID}
		ords.m[userID] = o
	}
	o.refs++
	return o
}

// hold holds o once more (o is held already).
func (ords *orders) hold(o *answerOrder) {
	ords.mu.Lock()
	o.refs++
	ords.mu.Unlock()
}

// release lets o go: the last release forgets it.
func (ords *orders) release(o *answerOrder) {
	ords.mu.Lock()
	defer ords.mu.Unlock()
	if o.refs--; o.refs == 0 {
		delete(ords.m, o.user)
	}
}

// next counts a new answer to the user and returns its number. It waits
// while a picture is being edited into an older answer, so that the new
// answer comes after it.
func (o *answerOrder) next() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n++
	return o.n
}

func (o *answerOrder) current(n uint64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n == n
}

// pictureLater draws the picture of m, an answer already sent in words
// (m.plain()), and edits it into the answer: the acknowledgement never
// waits for a drawing. Nothing is drawn or sent once the user has had a
// newer answer (n is no longer the last of order). order is held (see
// orderOf) by the caller; the drawing holds it too until it is done.
func (b *Bot) pictureLater(i *discordgo.Interaction, target string, order *answerOrder, n uint64, m message) {
	if b.pics.later.Add(1) > laterMax {
		b.pics.later.Add(-1)
		b.pics.busy.Add(1)
		return
	}
	b.inflight.Add(1)
	b.busy.Add(1)
	b.orders.hold(order)
	go func() {
		defer b.inflight.Done()
		defer b.busy.Add(-1)
		defer b.pics.later.Add(-1)
		defer b.orders.release(order)
		if hold := b.pics.hold.Load(); hold != nil {
			<-*hold
		}
		if !order.current(n) {
			return
		}
		pngs, err := b.pics.drawJob(m.pic, func() bool { return order.current(n) })
		if errors.Is(err, errUnwanted) {
			return // the player has a newer answer: nobody will see this one
		}
		var pics []drawnPicture
		if err == nil {
			pics, err = m.pic.drawn(pngs)
		}
		if err != nil {
			if b.pics.failed.CompareAndSwap(false, true) {
				b.log.Error("drawing a picture: messages go without it", "game", m.pic.sc.Game, "hand", m.pic.hand, "err", err)
			}
			return
		}
		order.mu.Lock()
		defer order.mu.Unlock()
		if order.n != n {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), laterWait)
		defer cancel()
		// Its own rate-limit bucket: discordgo sends one request at a time
		// per bucket, and Discord limits an interaction's webhook by its
		// token.
		endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, target)
		_, err = b.v2Request(ctx, http.MethodPatch, endpoint, endpoint, m.v2Payload(true, 0), m.uploads(pics))
		if err != nil {
			b.log.Warn("editing a picture into an answer", "interaction", i.ID, "err", err)
		}
	}()
}
