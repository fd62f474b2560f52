package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// signed is a request to the endpoint signed with priv at ts.
func signed(t *testing.T, method string, priv ed25519.PrivateKey, ts time.Time, body []byte) *http.Request {
	t.Helper()
	r := httptest.NewRequest(method, "/interactions", bytes.NewReader(body))
	stamp := strconv.FormatInt(ts.Unix(), 10)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Signature-Timestamp", stamp)
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(stamp), body...))))
	return r
}

// TestInteractionsHandler: the endpoint's answers to what Discord (and
// anyone else) may send it.
func TestInteractionsHandler(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	now := time.Unix(1_800_000_000, 0)
	component := []byte(`{"id":"1234","application_id":"99","type":3,"token":"tok","version":1,"data":{"custom_id":"hand/x","component_type":2},"channel_id":"5"}`)
	ping := []byte(`{"id":"1","application_id":"99","type":1,"token":"t","version":1}`)

	type result struct {
		status int
		body   string // a part of the body, "" for none
	}
	cases := []struct {
		name     string
		req      func() *http.Request
		taken    bool // the bot takes interactions
		answers  bool // the bot answers at once
		want     result
		dispatch bool // the interaction reaches the bot
	}{
		{"PING", func() *http.Request { return signed(t, http.MethodPost, priv, now, ping) }, true, true, result{200, `{"type":1}`}, false},
		{"PING while the bot starts", func() *http.Request { return signed(t, http.MethodPost, priv, now, ping) }, false, true, result{200, `{"type":1}`}, false},
		{"component", func() *http.Request { return signed(t, http.MethodPost, priv, now, component) }, true, true, result{202, ""}, true},
		{"component, no answer in time", func() *http.Request { return signed(t, http.MethodPost, priv, now, component) }, true, false, result{202, ""}, true},
		{"component while the bot stops", func() *http.Request { return signed(t, http.MethodPost, priv, now, component) }, false, true, result{503, ""}, true},
		{"bad signature", func() *http.Request { return signed(t, http.MethodPost, other, now, ping) }, true, true, result{401, ""}, false},
		{"signature of another body", func() *http.Request {
			r := signed(t, http.MethodPost, priv, now, ping)
			r.Body = io.NopCloser(bytes.NewReader(component))
			return r
		}, true, true, result{401, ""}, false},
		{"missing headers", func() *http.Request {
			return httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(ping))
		}, true, true, result{401, ""}, false},
		{"missing timestamp", func() *http.Request {
			r := signed(t, http.MethodPost, priv, now, ping)
			r.Header.Del("X-Signature-Timestamp")
			return r
		}, true, true, result{401, ""}, false},
		{"signature not hex", func() *http.Request {
			r := signed(t, http.MethodPost, priv, now, ping)
			r.Header.Set("X-Signature-Ed25519", "zz"+r.Header.Get("X-Signature-Ed25519")[2:])
			return r
		}, true, true, result{401, ""}, false},
		{"old timestamp (a replay)", func() *http.Request { return signed(t, http.MethodPost, priv, now.Add(-time.Hour), ping) }, true, true, result{401, ""}, false},
		{"wrong method", func() *http.Request { return signed(t, http.MethodGet, priv, now, nil) }, true, true, result{405, ""}, false},
		{"oversize", func() *http.Request {
			return signed(t, http.MethodPost, priv, now, bytes.Repeat([]byte(" "), maxInteractionBody+1))
		}, true, true, result{413, ""}, false},
		{"oversize without a length", func() *http.Request {
			r := signed(t, http.MethodPost, priv, now, bytes.Repeat([]byte(" "), maxInteractionBody+1))
			r.ContentLength = -1
			return r
		}, true, true, result{413, ""}, false},
		{"signed, not JSON", func() *http.Request { return signed(t, http.MethodPost, priv, now, []byte("{")) }, true, true, result{400, ""}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *discordgo.InteractionCreate
			h := &interactionsHandler{key: pub, now: func() time.Time { return now }, deadline: 50 * time.Millisecond,
				dispatch: func(ic *discordgo.InteractionCreate) (<-chan struct{}, bool) {
					got = ic
					ch := make(chan struct{})
					if c.answers {
						close(ch)
					}
					return ch, c.taken
				}}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, c.req())
			if rec.Code != c.want.status {
				t.Fatalf("status %d, want %d (%s)", rec.Code, c.want.status, rec.Body)
			}
			if c.want.status == 202 && rec.Body.Len() != 0 {
				t.Errorf("202 with a body: %q", rec.Body)
			}
			if c.want.body != "" && strings.TrimSpace(rec.Body.String()) != c.want.body {
				t.Errorf("body %q, want %q", rec.Body, c.want.body)
			}
			if c.want.status == 405 && rec.Header().Get("Allow") != http.MethodPost {
				t.Errorf("Allow: %q", rec.Header().Get("Allow"))
			}
			if (got != nil) != c.dispatch {
				t.Fatalf("dispatched: %v, want %v", got != nil, c.dispatch)
			}
			if got != nil && (got.ID != "1234" || got.Token != "tok" || got.Type != discordgo.InteractionMessageComponent || got.MessageComponentData().CustomID != "hand/x") {
				t.Errorf("the interaction dispatched: %+v", got.Interaction)
			}
		})
	}
}

// TestReplayAfterRestart: a signed request for an interaction created
// before this process began to take interactions (its id carries Discord's
// time of creation) is refused, even within the signature's window and
// although this process never saw the id; one created since is taken.
func TestReplayAfterRestart(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Unix(1_800_000_000, 0)
	snowflake := func(at time.Time) string {
		return strconv.FormatUint(uint64(at.UnixMilli()-1420070400000)<<22, 10)
	}
	for _, c := range []struct {
		name    string
		created time.Time
		want    int
	}{
		{"created a minute before the start (handled by the process before)", started.Add(-time.Minute), http.StatusConflict},
		{"created 10 s before the start", started.Add(-10 * time.Second), http.StatusConflict},
		{"created 2 s before the start (clocks, the way here)", started.Add(-2 * time.Second), http.StatusAccepted},
		{"created after the start", started.Add(time.Minute), http.StatusAccepted},
		{"not a snowflake", time.Time{}, http.StatusConflict},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := "x1"
			if !c.created.IsZero() {
				id = snowflake(c.created)
			}
			body := []byte(`{"id":"` + id + `","application_id":"99","type":3,"token":"tok","version":1,"data":{"custom_id":"hand/x","component_type":2},"channel_id":"5"}`)
			dispatched := false
			h := &interactionsHandler{key: pub, now: func() time.Time { return started.Add(2 * time.Minute) }, deadline: 50 * time.Millisecond, since: started,
				dispatch: func(ic *discordgo.InteractionCreate) (<-chan struct{}, bool) {
					dispatched = true
					ch := make(chan struct{})
					close(ch)
					return ch, true
				}}
			rec := httptest.NewRecorder()
			// Signed now: within the signature's 15 minutes.
			h.ServeHTTP(rec, signed(t, http.MethodPost, priv, started.Add(2*time.Minute), body))
			if rec.Code != c.want || dispatched != (c.want == http.StatusAccepted) {
				t.Errorf("status %d, dispatched %v; want %d", rec.Code, dispatched, c.want)
			}
		})
	}
}

// TestCallbackWatch: the endpoint hears of a successful callback request
// for its interaction, not of other requests nor of a failed callback.
func TestCallbackWatch(t *testing.T) {
	for path, want := range map[string]string{
		"/api/v10/interactions/123/tok/callback":     "123",
		"/api/v9/interactions/5/a.b-c/callback":      "5",
		"/api/v10/webhooks/1/tok/messages/@original": "",
		"/api/v10/interactions/123/tok":              "",
		"/callback":                                  "",
	} {
		if got := callbackID(http.MethodPost, path); got != want {
			t.Errorf("callbackID(%s) = %q, want %q", path, got, want)
		}
	}
	if got := callbackID(http.MethodGet, "/api/v10/interactions/1/t/callback"); got != "" {
		t.Errorf("a GET: %q", got)
	}
	status := http.StatusNoContent
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
	})
	w := &callbackWatch{waiting: map[string][]func(){}}
	tr := watchTransport{next: next, watch: w}
	heard := 0
	w.watch("7", func() { heard++ })
	do := func(path string) {
		r := httptest.NewRequest(http.MethodPost, "https://discord.com"+path, nil)
		if _, err := tr.RoundTrip(r); err != nil {
			t.Fatal(err)
		}
	}
	do("/api/v10/interactions/8/t/callback")
	status = http.StatusInternalServerError
	do("/api/v10/interactions/7/t/callback")
	if heard != 0 {
		t.Fatalf("heard %d before the callback went through", heard)
	}
	status = http.StatusNoContent
	do("/api/v10/interactions/7/t/callback")
	do("/api/v10/interactions/7/t/callback")
	if heard != 1 {
		t.Fatalf("heard %d, want 1", heard)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
