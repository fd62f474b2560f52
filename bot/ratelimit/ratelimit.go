// Package ratelimit keeps a bot within Discord's global rate limit: the
// requests a bot token may make per second on every route but the
// interaction routes (50; https://discord.com/developers/docs/topics/rate-limits).
// discordgo already keeps each route's bucket from the X-RateLimit headers
// and waits out a 429; this adds what it lacks: a budget that is never
// overrun, shared by the bot's requests in order of what matters to
// players (a reply or a turn ping before a table edit, a table edit before
// a clean-up), and a pause of every request after a global 429.
//
// A Limiter is a token bucket; Transport puts it in front of an HTTP
// transport. A caller that wants to choose what to send only once its turn
// has come (the newest state of a table, not the one it had when it began
// to wait) calls Wait itself and marks its context Admitted.
package ratelimit

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Class orders the requests that wait for the budget: a lower class goes
// first.
type Class int

const (
	// Urgent: what a player waits for or must not miss (posts: turn
	// pings, results; answers made through the bot token).
	Urgent Class = iota
	// Edit: table messages brought up to date; waiting merges their
	// edits (only the newest state is sent).
	Edit
	// Cleanup: deletions of superseded messages.
	Cleanup
	classes
)

// Limiter is a token bucket of rate requests a second holding at most
// burst of them, that hands its tokens to the waiting requests by class.
type Limiter struct {
	mu      sync.Mutex
	rate    float64 // tokens a second; 0: no limit
	burst   float64
	tokens  float64
	last    time.Time
	paused  time.Time // no request before this (a global 429)
	waiting [classes]int
	changed chan struct{} // closed and replaced when a token may be had
	now     func() time.Time
	stats   Stats
}

// Stats are what a Limiter did.
type Stats struct {
	Admitted [classes]int // requests let through, by class
	// Waited is the total time requests waited for a token.
	Waited time.Duration
	// Pauses are the global 429s that paused every request.
	Pauses int
}

// New returns a limiter that keeps within limit requests in any one
// second, as Discord counts them: a bucket of a fiftieth of them (at
// least 1) refilled at nine tenths of the limit less the bucket a second,
// so that a full bucket and a second of refills stay a tenth below the
// limit. The tenth left is the margin for requests that, once let
// through, wait for their route's bucket (discordgo's) and then arrive
// together with later ones. limit 0 limits nothing.
func New(limit float64) *Limiter {
	l := &Limiter{changed: make(chan struct{}), now: time.Now}
	l.SetLimit(limit)
	l.tokens = l.burst
	return l
}

// SetLimit changes the limit (the rate and the bucket with it).
func (l *Limiter) SetLimit(limit float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refill(l.now())
	limit = max(limit, 0)
	l.burst = max(limit/50, 1)
	l.rate = limit*0.9 - l.burst
	if limit > 0 && l.rate <= 0 {
		l.rate = limit / 2 // a limit of 1 or 2 a second: half of it, a token held
	}
	l.tokens = min(l.tokens, l.burst)
	l.notify()
}

// Rate is the limiter's refill rate (requests a second).
func (l *Limiter) Rate() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rate
}

// Stats reports what the limiter did so far.
func (l *Limiter) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

func (l *Limiter) refill(now time.Time) {
	if !l.last.IsZero() && now.After(l.last) {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	}
	l.last = now
}

func (l *Limiter) notify() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// Wait blocks until a request of class c may be made, or ctx is done.
// Requests of a lower class that wait go first.
func (l *Limiter) Wait(ctx context.Context, c Class) error {
	c = min(max(c, Urgent), Cleanup)
	start := l.now()
	l.mu.Lock()
	if l.rate == 0 {
		l.stats.Admitted[c]++
		l.mu.Unlock()
		return nil
	}
	l.waiting[c]++
	for {
		now := l.now()
		l.refill(now)
		ahead := false
		for k := Urgent; k < c; k++ {
			ahead = ahead || l.waiting[k] > 0
		}
		var wait time.Duration
		switch {
		case now.Before(l.paused):
			wait = l.paused.Sub(now)
		case ahead:
			wait = -1 // until a request ahead has gone
		case l.tokens >= 1:
			l.tokens--
			l.waiting[c]--
			l.stats.Admitted[c]++
			l.stats.Waited += now.Sub(start)
			l.notify() // the next in line looks again
			l.mu.Unlock()
			return nil
		default:
			wait = time.Duration((1 - l.tokens) / l.rate * float64(time.Second))
		}
		changed := l.changed
		l.mu.Unlock()
		var timer *time.Timer
		var fired <-chan time.Time
		if wait >= 0 {
			timer = time.NewTimer(max(wait, time.Millisecond))
			fired = timer.C
		}
		select {
		case <-ctx.Done():
			l.mu.Lock()
			l.waiting[c]--
			l.notify()
			l.mu.Unlock()
			return ctx.Err()
		case <-changed:
		case <-fired:
		}
		if timer != nil {
			timer.Stop()
		}
		l.mu.Lock()
	}
}

// Pause stops every request until d has passed (a global 429's
// retry_after), and empties the bucket.
func (l *Limiter) Pause(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	until := l.now().Add(d)
	if until.After(l.paused) {
		l.paused = until
	}
	l.tokens = 0
	l.last = until
	l.stats.Pauses++
	l.notify()
}

type ctxKey int

const (
	classKey ctxKey = iota
	admittedKey
)

// WithClass marks the requests made with ctx as of class c (Urgent when
// unmarked).
func WithClass(ctx context.Context, c Class) context.Context {
	return context.WithValue(ctx, classKey, c)
}

// Admitted marks the requests made with ctx as already admitted by a
// Wait of the caller's: Transport does not wait for them again.
func Admitted(ctx context.Context) context.Context {
	return context.WithValue(ctx, admittedKey, true)
}

// Exempt reports whether a request path (with or without its /api/vN
// prefix) is one of Discord's interaction routes, which do not count
// against the global limit: an interaction's callback and its webhook
// (follow-ups, the original response).
func Exempt(path string) bool {
	if i := strings.Index(path, "/api/v"); i >= 0 {
		path = path[i+len("/api/v"):]
		if j := strings.IndexByte(path, '/'); j >= 0 {
			path = path[j:]
		}
	}
	return strings.HasPrefix(path, "/interactions/") || strings.HasPrefix(path, "/webhooks/")
}

// Transport makes every request that counts against the global limit wait
// for L (unless its context is Admitted), and pauses L after a 429 that
// says it is global.
type Transport struct {
	Next http.RoundTripper
	L    *Limiter
}

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if Exempt(r.URL.Path) {
		return t.Next.RoundTrip(r)
	}
	ctx := r.Context()
	if ctx.Value(admittedKey) == nil {
		c, _ := ctx.Value(classKey).(Class)
		if err := t.L.Wait(ctx, c); err != nil {
			if r.Body != nil {
				_ = r.Body.Close()
			}
			return nil, err
		}
	}
	resp, err := t.Next.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("X-RateLimit-Global") == "true" {
		secs, perr := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64)
		if perr != nil {
			secs, perr = strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
		}
		if perr == nil && secs > 0 {
			t.L.Pause(time.Duration(secs * float64(time.Second)))
		}
	}
	return resp, err
}

// ResetMargin is how much later than Discord announces it a route's
// bucket is taken to refill (PadResets).
const ResetMargin = 20 * time.Millisecond

// PadResets adds ResetMargin to the X-RateLimit-Reset-After of every
// answer before discordgo reads it. Discord counts a bucket's window from
// when a request arrived and announces what is left of it in whole
// milliseconds; discordgo drops the fraction of a millisecond again and
// counts from when it read the answer. When a bucket is spent, the request
// that waited for it then goes out up to a millisecond and a half early,
// and, on a fast link, arrives before the window has passed and gets a 429
// (an invalid request, of which Discord bans a bot that makes too many).
// It covers every route, the interaction webhooks too, whose buckets no
// global budget spaces out.
type PadResets struct {
	Next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t PadResets) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.Next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if v := resp.Header.Get("X-RateLimit-Reset-After"); v != "" {
		if secs, perr := strconv.ParseFloat(v, 64); perr == nil && secs >= 0 {
			resp.Header.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs+ResetMargin.Seconds(), 'f', 3, 64))
		}
	}
	return resp, nil
}
