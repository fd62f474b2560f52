package bot

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDiscordTransportKeepsConnections: requests made 16 at a time, three
// times over, reuse the 16 connections of the first round with the bot's
// transport; net/http's default transport keeps 2 and opens the others
// again every round (a TCP and TLS handshake each, against Discord).
func TestDiscordTransportKeepsConnections(t *testing.T) {
	t.Parallel()
	const at, rounds = 16, 3
	for _, tc := range []struct {
		name      string
		transport *http.Transport
		most      int64 // connections opened at most
		least     int64 // and at least
	}{
		// (a connection may come back to the pool a moment after its
		// round: a few more than 16 is not a failure, 44 is)
		{"bot", discordTransport(), at + at/2, at},
		{"net/http default", http.DefaultTransport.(*http.Transport).Clone(), at * rounds, at + (rounds-1)*(at-2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opened atomic.Int64
			var mu sync.Mutex
			waiting, release := 0, make(chan struct{})
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// Every request of a round is answered once all of them
				// are in: they are at once.
				mu.Lock()
				waiting++
				ch := release
				if waiting == at {
					close(release)
					waiting, release = 0, make(chan struct{})
				}
				mu.Unlock()
				select {
				case <-ch:
				case <-time.After(10 * time.Second):
				}
				_, _ = io.WriteString(w, "ok")
			}))
			srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
				if st == http.StateNew {
					opened.Add(1)
				}
			}
			srv.Start()
			defer srv.Close()
			c := &http.Client{Transport: tc.transport}
			defer tc.transport.CloseIdleConnections()
			for range rounds {
				var wg sync.WaitGroup
				for range at {
					wg.Add(1)
					go func() {
						defer wg.Done()
						resp, err := c.Get(srv.URL)
						if err != nil {
							t.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, resp.Body)
						_ = resp.Body.Close()
					}()
				}
				wg.Wait()
			}
			if n := opened.Load(); n > tc.most || n < tc.least {
				t.Errorf("%d connections opened for %d rounds of %d requests at once, want %d to %d", n, rounds, at, tc.least, tc.most)
			}
		})
	}
}
