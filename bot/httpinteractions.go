package bot

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The HTTP interactions endpoint (config http_listen, public_key): Discord
// POSTs each interaction to the application's Interactions Endpoint URL
// instead of sending INTERACTION_CREATE over the gateway (the two are
// exclusive: once the URL is set, the gateway carries no interactions), so
// that any HTTP load balancer can spread them over several processes on one
// database. The gateway still runs: READY (the bot user, the application
// id) and the guilds come from it.
//
// The answer to Discord's request. Discord accepts either the interaction
// response as the HTTP body (200), or a POST to the callback endpoint
// (/interactions/{id}/{token}/callback) and then "a 202 and no body" for the
// HTTP request: "If you send this request for an interaction received over
// HTTP, respond to the original HTTP request with a 202 and no body"
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-callback,
// discord/discord-api-docs, docs/interactions/receiving-and-responding.mdx).
// The bot answers every interaction through the callback endpoint already
// (some answers are multipart uploads with a picture, some are deferred at
// AckAfter and then edited), so the endpoint answers 202 with no body, and
// only once the bot's initial callback went through, the handling ended
// without one, or Discord's 3-second deadline passed: never a 202 before the
// answer it stands for. Returning the first answer as the HTTP body instead
// would need a second path for every kind of answer (files, deferrals,
// retries of a failed callback) for no gain Discord documents.

// maxInteractionBody bounds the body of an interaction request. Discord's
// payloads are a few kilobytes (the clicked message included); 1 MiB
// leaves room for any and refuses a flood.
const maxInteractionBody = 1 << 20

// signatureMaxAge is how old (or how far ahead) a request's signed
// timestamp may be: an interaction's token lives 15 minutes, so a replay
// of an older request could only act without being able to answer. Within
// the window, the interactions already handled are ignored (delivered).
const signatureMaxAge = 15 * time.Minute

// answerDeadline is Discord's deadline for the initial response: the
// endpoint answers 202 by then whatever the bot is still doing.
const answerDeadline = 3 * time.Second

// parsePublicKey reads the application's public key: 64 hex digits. Its
// errors quote nothing (see ConfigError).
func parsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("not 64 hexadecimal digits")
	}
	return ed25519.PublicKey(b), nil
}

// verifyRequest checks Discord's signature of an interaction request:
// X-Signature-Ed25519 (hex) over X-Signature-Timestamp followed by the body,
// with the application's public key, and that the timestamp (Unix seconds)
// is within signatureMaxAge of now.
func verifyRequest(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) bool {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	ts := h.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" {
		return false
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig) {
		return false
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	age := now.Sub(time.Unix(sec, 0))
	return age < signatureMaxAge && age > -signatureMaxAge
}

// interactionsHandler is the endpoint. dispatch handles an interaction and
// returns a channel closed when its initial response was sent (or will not
// be), and whether it was taken at all (false while the bot starts or
// stops).
type interactionsHandler struct {
	key      ed25519.PublicKey
	now      func() time.Time
	dispatch func(ic *discordgo.InteractionCreate) (answered <-chan struct{}, taken bool)
	deadline time.Duration
	// since is when this process began to take interactions (zero: no
	// such check). An interaction is created the moment a user acts and
	// sent at once, never again: one created more than replaySkew before
	// since was handled (or lost) by a process before this one, and a
	// signed request for it now is a replay — refused although the ids
	// the previous process handled were kept only in its memory.
	since time.Time
}

// replaySkew is how much earlier than the process's start an interaction
// may have been created (by Discord's clock, in its id) and still be
// taken: the clocks' difference and the request's way here.
const replaySkew = 5 * time.Second

func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.ContentLength > maxInteractionBody {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the request failed", http.StatusBadRequest)
		return
	}
	// Discord sends requests with bad signatures on purpose, and refuses
	// an endpoint that does not answer them with 401.
	if !verifyRequest(h.key, r.Header, body, h.now()) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var head struct {
		Type discordgo.InteractionType `json:"type"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		http.Error(w, "invalid JSON", http.StatusBadRequest)
		return
	}
	if head.Type == discordgo.InteractionPing {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":1}`))
		return
	}
	ic := &discordgo.InteractionCreate{}
	if err := json.Unmarshal(body, ic); err != nil || ic.Interaction == nil {
		http.Error(w, "invalid interaction", http.StatusBadRequest)
		return
	}
	if !h.since.IsZero() {
		created, err := discordgo.SnowflakeTimestamp(ic.ID)
		if err != nil || created.Before(h.since.Add(-replaySkew)) {
			http.Error(w, "interaction created before this process started: already handled", http.StatusConflict)
			return
		}
	}
	answered, taken := h.dispatch(ic)
	if !taken {
		http.Error(w, "not taking interactions now", http.StatusServiceUnavailable)
		return
	}
	t := time.NewTimer(h.deadline)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
	case <-r.Context().Done():
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// InteractionsHandler is the HTTP interactions endpoint (see the comment
// at the top of httpinteractions.go): POST only, Discord's Ed25519
// signature checked with Config.PublicKey (401 when it fails), bodies up to
// 1 MiB (413), PING answered with PONG, and every other interaction handled
// as one from the gateway, answered through the callback endpoint, the
// HTTP request then answered 202 with no body. Until Run is ready and once
// it stops, interactions are answered 503. `stolik serve` serves it on
// Config.HTTPListen.
func (b *Bot) InteractionsHandler() (http.Handler, error) {
	key, err := parsePublicKey(b.cfg.PublicKey)
	if err != nil {
		return nil, badKey("public_key")
	}
	if b.callbacks == nil {
		// New watches the callbacks when the key is configured.
		return nil, errors.New("bot: InteractionsHandler needs public_key set before New")
	}
	return &interactionsHandler{key: key, now: b.clock.Now, dispatch: b.dispatchHTTP, deadline: answerDeadline, since: b.clock.Now()}, nil
}

// dispatchHTTP hands an interaction from the endpoint to onInteraction, as
// the gateway does, in a goroutine of its own, and returns a channel closed
// once the initial response went through the callback endpoint or the
// handling ended.
func (b *Bot) dispatchHTTP(ic *discordgo.InteractionCreate) (<-chan struct{}, bool) {
	select {
	case <-b.ready:
	default:
		return nil, false
	}
	b.runMu.Lock()
	closing := b.closing
	b.runMu.Unlock()
	if closing {
		return nil, false
	}
	answered := make(chan struct{})
	var once sync.Once
	done := func() { once.Do(func() { close(answered) }) }
	id := ""
	if ic.Interaction != nil {
		id = ic.ID
	}
	if id != "" {
		b.callbacks.watch(id, done)
	}
	go func() {
		defer done()
		if id != "" {
			defer b.callbacks.forget(id)
		}
		b.onInteraction(b.s, ic)
	}()
	return answered, true
}

// callbackWatch tells the endpoint when the initial response to an
// interaction has gone through: it sits in the session's HTTP client and
// watches the POSTs to /interactions/{id}/{token}/callback, whichever code
// sends them (a reply, a deferral, an autocomplete answer).
type callbackWatch struct {
	mu      sync.Mutex
	waiting map[string][]func()
}

func (c *callbackWatch) watch(id string, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting[id] = append(c.waiting[id], f)
}

func (c *callbackWatch) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.waiting, id)
}

func (c *callbackWatch) answered(id string) {
	c.mu.Lock()
	fs := c.waiting[id]
	delete(c.waiting, id)
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// callbackID is the interaction id of a callback request's path, or "".
func callbackID(method, path string) string {
	if method != http.MethodPost || !strings.HasSuffix(path, "/callback") {
		return ""
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	n := len(segs)
	if n < 4 || segs[n-4] != "interactions" {
		return ""
	}
	return segs[n-3]
}

// watchTransport is the session's transport with callbackWatch.
type watchTransport struct {
	next  http.RoundTripper
	watch *callbackWatch
}

func (t watchTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if id := callbackID(r.Method, r.URL.Path); id != "" && err == nil && resp.StatusCode/100 == 2 {
		t.watch.answered(id)
	}
	return resp, err
}

// watchCallbacks puts callbackWatch in the session's HTTP client (a copy of
// it: the client may be shared). New calls it when public_key is set,
// before any request.
func (b *Bot) watchCallbacks() {
	b.callbacks = &callbackWatch{waiting: map[string][]func(){}}
	b.wrapTransport(func(next http.RoundTripper) http.RoundTripper { return watchTransport{next: next, watch: b.callbacks} })
}
