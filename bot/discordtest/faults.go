package discordtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// fault is an injected answer for the next requests on a route.
type fault struct {
	route      string // a route name or "*"
	remaining  int
	status     int
	retryAfter time.Duration
}

// RateLimitNext answers the next n requests on route with 429 Too Many
// Requests, a JSON body {"message", "retry_after", "global": false} and the
// Retry-After and X-RateLimit-* headers, as Discord does. route is "*" or a
// route of the fake as Call.Route names it, e.g.
// "POST /channels/{channel.id}/messages" or
// "POST /interactions/{interaction.id}/{interaction.token}/callback".
func (s *Server) RateLimitNext(route string, n int, retryAfter time.Duration) {
	s.t.Helper()
	s.addFault(&fault{route: route, remaining: n, status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// FailNext answers the next n requests on route (as for RateLimitNext) with
// the given 5xx status. discordgo v0.29 retries only 502.
func (s *Server) FailNext(route string, n int, status int) {
	s.t.Helper()
	if status < 500 || status > 599 {
		s.t.Fatalf("discordtest: FailNext: status %d is not a 5xx", status)
	}
	s.addFault(&fault{route: route, remaining: n, status: status})
}

func (s *Server) addFault(f *fault) {
	s.t.Helper()
	if f.route != "*" && !slices.ContainsFunc(routes, func(r route) bool { return r.name() == f.route }) {
		names := make([]string, len(routes))
		for i := range routes {
			names[i] = routes[i].name()
		}
		s.t.Fatalf("discordtest: unknown route %q; routes are:\n%v", f.route, names)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

// ClearFaults drops the injected answers not yet given (RateLimitNext,
// FailNext) and reports how many were left.
func (s *Server) ClearFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.faults {
		n += f.remaining
	}
	s.faults = nil
	return n
}

// takeFault consumes one injected answer for route; s.mu is held.
func (s *Server) takeFault(route string) *fault {
	for _, f := range s.faults {
		if f.remaining > 0 && (f.route == "*" || f.route == route) {
			f.remaining--
			return f
		}
	}
	return nil
}

func (f *fault) reply() reply {
	if f.status != http.StatusTooManyRequests {
		e := apiErr(f.status, codeGeneral, fmt.Sprintf("%d: %s", f.status, http.StatusText(f.status)))
		return fail(e)
	}
	secs := f.retryAfter.Seconds()
	sum := sha256.Sum256([]byte(f.route))
	h := http.Header{}
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(f.retryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", hex.EncodeToString(sum[:8]))
	h.Set("X-RateLimit-Scope", "user")
	e := apiErr(http.StatusTooManyRequests, codeGeneral, "You are being rate limited.")
	// The 429 body carries retry_after and global besides message and code.
	return reply{
		status: http.StatusTooManyRequests,
		err:    e,
		header: h,
		body:   map[string]any{"message": e.Message, "retry_after": secs, "global": false, "code": 0},
	}
}
