package discordtest

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Limits are Discord's rate limits as the fake enforces them when a test
// asks for them (WithRateLimits; the load test always does). Discord
// documents the scheme, not all its numbers
// (https://discord.com/developers/docs/topics/rate-limits): a global limit
// per bot token over every route but the interaction routes, a bucket per
// route and top-level resource (channel, guild, webhook) announced in the
// X-RateLimit-* headers of every answer, 429 answers whose JSON body
// carries retry_after and global, and a temporary ban of a client that
// makes too many invalid requests (401, 403, 429). The numbers below are
// the ones Discord announces to bots in those headers today.
//
// The fake counts time on the wall clock even with WithClock: a client
// waits out a limit in real time.
type Limits struct {
	// Global is how many requests a second one bot token may make on the
	// routes that are not exempt (Discord: 50). 0 sets no global limit.
	Global int
	// Routes are the per-route buckets; a route not listed has none.
	Routes []RouteLimit
	// Invalid is how many invalid requests (answered 401, 403 or 429) in
	// InvalidWindow make the fake refuse every request of the token until
	// the window has passed (Discord: 10,000 in 10 minutes). 0: no ban.
	Invalid       int
	InvalidWindow time.Duration
}

// RouteLimit is one route's bucket: Limit requests per Per for each value
// of the route's top-level resource (its channel, guild or webhook).
type RouteLimit struct {
	Route string // as Call.Route names it, e.g. "POST /channels/{channel.id}/messages"
	Limit int
	Per   time.Duration
}

// DefaultLimits are Discord's limits as its headers announce them to a bot:
// 50 requests a second globally; 5 messages per 5 s in a channel, 5 edits
// per 5 s, 5 deletes a second; 5 thread starts per 5 s; 5 requests per
// 2 s on one interaction's webhook (follow-ups and their edits); and the
// ban after 10,000 invalid requests in 10 minutes.
func DefaultLimits() Limits {
	return Limits{
		Global: 50,
		Routes: []RouteLimit{
			{Route: "POST /channels/{channel.id}/messages", Limit: 5, Per: 5 * time.Second},
			{Route: "PATCH /channels/{channel.id}/messages/{message.id}", Limit: 5, Per: 5 * time.Second},
			{Route: "DELETE /channels/{channel.id}/messages/{message.id}", Limit: 5, Per: time.Second},
			{Route: "POST /channels/{channel.id}/threads", Limit: 5, Per: 5 * time.Second},
			{Route: "POST /channels/{channel.id}/messages/{message.id}/threads", Limit: 5, Per: 5 * time.Second},
			{Route: "PATCH /channels/{channel.id}", Limit: 2, Per: 10 * time.Second},
			{Route: "POST /webhooks/{webhook.id}/{webhook.token}", Limit: 5, Per: 2 * time.Second},
			{Route: "PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", Limit: 5, Per: 2 * time.Second},
			{Route: "DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", Limit: 5, Per: 2 * time.Second},
		},
		Invalid:       10000,
		InvalidWindow: 10 * time.Minute,
	}
}

// WithRateLimits makes the fake enforce l (DefaultLimits for Discord's).
func WithRateLimits(l Limits) Option {
	return func(cfg *config) { cfg.limits = &l }
}

// RateStats are what the fake's limits did.
type RateStats struct {
	// Limited are the requests refused with 429 by the limits (not those
	// a test injected), Global those of them refused by the global limit.
	Limited, Global int
	// Invalid are the requests answered 401, 403 or 429 (Discord's
	// invalid requests), Banned those refused because of them.
	Invalid, Banned int
	// Counted are the requests the global limit counted (the routes not
	// exempt), PeakSecond the most of them in one second.
	Counted, PeakSecond int
}

// RateStats reports what the limits refused and counted so far.
func (s *Server) RateStats() RateStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limiter.stats
}

// limiter is the state of the limits; guarded by Server.mu.
type limiter struct {
	limits  *Limits
	window  time.Time // the global limit's current second
	used    int       // requests counted in it
	buckets map[string]*bucket
	invalid []time.Time // the invalid requests within InvalidWindow, oldest first
	stats   RateStats
}

type bucket struct {
	reset time.Time
	used  int
}

// exemptFromGlobal: Discord's interaction routes (callbacks and the
// interaction webhooks) do not count against the global limit.
func exemptFromGlobal(route string) bool {
	return strings.Contains(route, " /interactions/") || strings.Contains(route, " /webhooks/")
}

// majorKey is the value of a route's top-level resource in params.
func majorKey(params map[string]string) string {
	switch {
	case params["channel.id"] != "":
		return "c" + params["channel.id"]
	case params["guild.id"] != "":
		return "g" + params["guild.id"]
	case params["webhook.id"] != "":
		return "w" + params["webhook.id"] + "/" + params["webhook.token"]
	}
	return ""
}

// admit applies the limits to a request on route; s.mu is held. It
// returns a 429 reply when the request is refused, and the headers to add
// to any other answer.
func (l *limiter) admit(route string, params map[string]string, now time.Time) (refused *reply, header http.Header) {
	if l.limits == nil {
		return nil, nil
	}
	lim := l.limits
	if lim.Invalid > 0 {
		cut := 0
		for cut < len(l.invalid) && now.Sub(l.invalid[cut]) >= lim.InvalidWindow {
			cut++
		}
		l.invalid = l.invalid[cut:]
		if len(l.invalid) >= lim.Invalid {
			l.stats.Banned++
			r := limited(now, lim.InvalidWindow-now.Sub(l.invalid[0]), true, "", 0, 0,
				"You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently.")
			return &r, nil
		}
	}
	var rl *RouteLimit
	for i := range lim.Routes {
		if lim.Routes[i].Route == route {
			rl = &lim.Routes[i]
			break
		}
	}
	var b *bucket
	if rl != nil {
		key := route + "|" + majorKey(params)
		if l.buckets == nil {
			l.buckets = map[string]*bucket{}
		}
		b = l.buckets[key]
		if b == nil || !now.Before(b.reset) {
			b = &bucket{reset: now.Add(rl.Per)}
			l.buckets[key] = b
		}
		if b.used >= rl.Limit {
			l.stats.Limited++
			r := limited(now, b.reset.Sub(now), false, route, rl.Limit, 0, "You are being rate limited.")
			return &r, nil
		}
	}
	if lim.Global > 0 && !exemptFromGlobal(route) {
		if now.Sub(l.window) >= time.Second {
			l.window, l.used = now.Truncate(time.Millisecond), 0
		}
		if l.used >= lim.Global {
			l.stats.Limited++
			l.stats.Global++
			r := limited(now, l.window.Add(time.Second).Sub(now), true, "", 0, 0, "You are being rate limited.")
			return &r, nil
		}
		l.used++
		l.stats.Counted++
		l.stats.PeakSecond = max(l.stats.PeakSecond, l.used)
	}
	if b == nil {
		return nil, nil
	}
	b.used++
	return nil, bucketHeader(route, rl.Limit, rl.Limit-b.used, b.reset.Sub(now), now)
}

// answered counts an answer's status towards the invalid requests; s.mu
// is held.
func (l *limiter) answered(status int, now time.Time) {
	if l.limits == nil {
		return
	}
	if status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusTooManyRequests {
		l.stats.Invalid++
		if l.limits.Invalid > 0 {
			l.invalid = append(l.invalid, now)
		}
	}
}

// bucketHeader is the X-RateLimit-* headers of an answer on a bucketed
// route.
func bucketHeader(route string, limit, remaining int, after time.Duration, now time.Time) http.Header {
	sum := sha256.Sum256([]byte(route))
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(remaining, 0)))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(now.Add(after).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after.Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", hex.EncodeToString(sum[:8]))
	return h
}

// limited is a 429 answer as Discord gives it: Retry-After in whole
// seconds, the body's retry_after in seconds with a fraction, global in the
// body and the X-RateLimit-Global and -Scope headers; a route's bucket
// headers when a route's bucket refused it.
func limited(now time.Time, after time.Duration, global bool, route string, limit, remaining int, msg string) reply {
	after = max(after, time.Millisecond)
	secs := after.Seconds()
	h := http.Header{}
	if route != "" {
		h = bucketHeader(route, limit, remaining, after, now)
		h.Set("X-RateLimit-Scope", "user")
	} else {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	}
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	e := apiErr(http.StatusTooManyRequests, codeGeneral, msg)
	return reply{
		status: http.StatusTooManyRequests,
		err:    e,
		header: h,
		body:   map[string]any{"message": msg, "retry_after": math.Round(secs*1000) / 1000, "global": global, "code": 0},
	}
}
