package ratelimit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestExempt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/api/v10/interactions/1/tok/callback", true},
		{"/api/v9/webhooks/1/tok/messages/@original", true},
		{"/webhooks/1/tok", true},
		{"/api/v10/channels/2/messages", false},
		{"/api/v10/channels/2/messages/3", false},
		{"/api/v10/users/@me/channels", false},
	} {
		if got := Exempt(tc.path); got != tc.want {
			t.Errorf("Exempt(%q) = %v", tc.path, got)
		}
	}
}

// TestNeverOverrun: however many ask at once, no more than the burst and
// the rate allow are let through (a lower bound on the time taken, which
// a slow machine only lengthens).
func TestNeverOverrun(t *testing.T) {
	t.Parallel()
	limit, n := 200.0, 300
	l := New(limit)
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if err := l.Wait(context.Background(), Edit); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// A fiftieth of the limit goes at once, the rest at nine tenths of
	// the limit less that.
	if min := time.Duration((float64(n) - limit/50) / (limit*9/10 - limit/50) * float64(time.Second)); time.Since(start) < min*95/100 {
		t.Errorf("%d requests within %v/s took %v, less than %v", n, limit, time.Since(start), min)
	}
	if st := l.Stats(); st.Admitted[Edit] != n {
		t.Errorf("admitted %v", st.Admitted)
	}
}

// TestClassesInOrder: while a clean-up and an edit wait for a token, an
// urgent request that comes after them is let through first.
func TestClassesInOrder(t *testing.T) {
	t.Parallel()
	l := New(0.001) // one token, then one every 1,000 s
	_ = l.Wait(context.Background(), Urgent)
	var order []Class
	var mu sync.Mutex
	var wg sync.WaitGroup
	got := func(c Class) {
		mu.Lock()
		order = append(order, c)
		mu.Unlock()
	}
	waiting := func(n int) {
		for {
			l.mu.Lock()
			w := l.waiting[Urgent] + l.waiting[Edit] + l.waiting[Cleanup]
			l.mu.Unlock()
			if w == n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	wg.Go(func() { _ = l.Wait(context.Background(), Cleanup); got(Cleanup) })
	waiting(1)
	wg.Go(func() { _ = l.Wait(context.Background(), Edit); got(Edit) })
	waiting(2)
	wg.Go(func() { _ = l.Wait(context.Background(), Urgent); got(Urgent) })
	waiting(3)
	l.SetLimit(1000)
	wg.Wait()
	if len(order) != 3 || order[0] != Urgent || order[1] != Edit || order[2] != Cleanup {
		t.Errorf("order = %v, want urgent, edit, clean-up", order)
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	l := New(1)
	_ = l.Wait(context.Background(), Urgent)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(ctx, Urgent); err != context.Canceled {
		t.Errorf("Wait = %v", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting[Urgent] != 0 {
		t.Errorf("a cancelled wait is still counted")
	}
}

// TestTransport: exempt routes pass without a token, admitted requests
// without waiting again, and a global 429 pauses every request.
func TestTransport(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path == "/api/v10/global" {
			w.Header().Set("X-RateLimit-Global", "true")
			w.Header().Set("X-RateLimit-Reset-After", "0.200")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	l := New(1)
	c := &http.Client{Transport: Transport{Next: http.DefaultTransport, L: l}}
	get := func(ctx context.Context, path string) {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get(context.Background(), "/api/v10/channels/1/messages") // the one token
	for range 5 {
		get(context.Background(), "/api/v10/interactions/1/t/callback")
	}
	get(Admitted(context.Background()), "/api/v10/channels/1/messages")
	if st := l.Stats(); st.Admitted[Urgent] != 1 {
		t.Errorf("admitted %v, want only the first request counted", st.Admitted)
	}
	l.SetLimit(1000)
	get(context.Background(), "/api/v10/global")
	start := time.Now()
	get(context.Background(), "/api/v10/channels/1/messages")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("after a global 429 the next request went after %v", d)
	}
	if st := l.Stats(); st.Pauses != 1 {
		t.Errorf("pauses %d", st.Pauses)
	}
}

// TestPadResets: the reset Discord announces reaches discordgo later by
// ResetMargin; an answer without one, or with one that is not a number,
// passes unchanged.
func TestPadResets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, header, want string
	}{
		{"a bucket's reset", "0.829", "0.849"},
		{"a spent bucket at its end", "0.000", "0.020"},
		{"none", "", ""},
		{"not a number", "soon", "soon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.header != "" {
					w.Header().Set("X-RateLimit-Reset-After", tc.header)
				}
				w.Header().Set("X-RateLimit-Remaining", "0")
			}))
			defer srv.Close()
			c := &http.Client{Transport: PadResets{Next: http.DefaultTransport}}
			resp, err := c.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if got := resp.Header.Get("X-RateLimit-Reset-After"); got != tc.want {
				t.Errorf("Reset-After %q, want %q", got, tc.want)
			}
			if got := resp.Header.Get("X-RateLimit-Remaining"); got != "0" {
				t.Errorf("Remaining %q: another header changed", got)
			}
		})
	}
}
