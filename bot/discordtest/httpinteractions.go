package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The Interactions Endpoint URL mode: with SetInteractionsURL, the fake
// delivers interactions as Discord does to an application that has an
// Interactions Endpoint URL set in the Developer Portal: each one POSTed to
// the URL, signed with Ed25519 (X-Signature-Ed25519 over
// X-Signature-Timestamp followed by the body), and no longer as
// INTERACTION_CREATE on the gateway (the two are exclusive on Discord).
// The endpoint may answer 200 with an interaction response as its body
// (taken as the initial response, as the callback route would), or 202 with
// no body after answering through the callback route; anything else is
// recorded as a rejected request of the interaction (Interaction.Rejected).
// Discord does not retry a delivery, and neither does the fake.

// endpointUserAgent is the User-Agent of the fake's requests to an interactions
// endpoint, as Discord's.
const endpointUserAgent = "Discord-Interactions/1.0 (+https://discord.com)"

// endpoint is the interactions endpoint the fake delivers to; guarded by
// its mu.
type endpoint struct {
	mu     sync.Mutex
	url    string
	key    ed25519.PrivateKey
	client *http.Client
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
	// answers: interaction id -> the endpoint's answer to its delivery.
	answers map[string]*delivery
}

// delivery is the endpoint's answer to one interaction.
type delivery struct {
	done   chan struct{}
	status int    // 0 when the request failed
	body   []byte // the answer's body
	err    error
}

// SetInteractionsURL makes the fake deliver interactions to url, signed
// with key, instead of over the gateway; "" goes back to the gateway. Like
// the Developer Portal when the URL is saved, it first checks the endpoint:
// a signed PING must be answered 200 with {"type":1}, and a request with a
// bad signature 401; else it returns an error and keeps the gateway.
func (s *Server) SetInteractionsURL(url string, key ed25519.PrivateKey) error {
	ep := &s.endpoint
	if url == "" {
		ep.mu.Lock()
		ep.url, ep.key = "", nil
		ep.mu.Unlock()
		return nil
	}
	if len(key) != ed25519.PrivateKeySize {
		return errors.New("discordtest: SetInteractionsURL: not an Ed25519 private key")
	}
	ep.mu.Lock()
	if ep.client == nil {
		ep.client = &http.Client{Timeout: 10 * time.Second}
		ep.ctx, ep.cancel = context.WithCancel(context.Background())
		ep.answers = map[string]*delivery{}
	}
	ctx := ep.ctx
	ep.mu.Unlock()
	ping := []byte(`{"id":"` + s.nextID() + `","application_id":"` + s.AppID + `","type":1,"token":"` + randomToken("ping:", 48) + `","version":1}`)
	status, body, err := s.post(ctx, url, key, ping, false)
	if err != nil {
		return fmt.Errorf("discordtest: the interactions endpoint: PING: %w", err)
	}
	var pong struct {
		Type *int `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &pong) != nil || pong.Type == nil || *pong.Type != 1 {
		return fmt.Errorf("discordtest: the interactions endpoint answered a PING with %d %q, want 200 {\"type\":1}", status, body)
	}
	status, _, err = s.post(ctx, url, key, ping, true)
	if err != nil {
		return fmt.Errorf("discordtest: the interactions endpoint: a badly signed PING: %w", err)
	}
	if status != http.StatusUnauthorized {
		return fmt.Errorf("discordtest: the interactions endpoint answered a badly signed PING with %d, want 401", status)
	}
	ep.mu.Lock()
	ep.url, ep.key = url, key
	ep.mu.Unlock()
	return nil
}

// nextID is newID with s.mu taken.
func (s *Server) nextID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newID()
}

// post sends a signed request to the endpoint (with a wrong signature when
// badSig) and returns its answer.
func (s *Server) post(ctx context.Context, url string, key ed25519.PrivateKey, body []byte, badSig bool) (int, []byte, error) {
	ts := strconv.FormatInt(s.clock.Now().Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	if badSig {
		sig[0] ^= 0xff
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("User-Agent", endpointUserAgent)
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	r.Header.Set("X-Signature-Timestamp", ts)
	resp, err := s.endpoint.client.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b, err
}

// deliverHTTP POSTs an interaction to the endpoint in the background and
// reports whether the fake is in the endpoint mode.
func (s *Server) deliverHTTP(in *interaction, payload map[string]any) bool {
	ep := &s.endpoint
	ep.mu.Lock()
	url, key, ctx := ep.url, ep.key, ep.ctx
	if url == "" {
		ep.mu.Unlock()
		return false
	}
	d := &delivery{done: make(chan struct{})}
	if in.id != "" {
		ep.answers[in.id] = d
	}
	ep.wg.Add(1)
	ep.mu.Unlock()
	body, err := json.Marshal(payload)
	if err != nil {
		s.t.Fatalf("discordtest: marshal an interaction: %v", err)
	}
	s.stampSent(in)
	go func() {
		defer ep.wg.Done()
		defer close(d.done)
		d.status, d.body, d.err = s.post(ctx, url, key, body, false)
		s.checkDelivery(in, url, body, d)
	}()
	return true
}

// checkDelivery records an endpoint's answer that Discord would not take
// as a rejected request of the interaction, and takes a 200's body as the
// initial response.
func (s *Server) checkDelivery(in *interaction, url string, body []byte, d *delivery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{Seq: len(s.calls) + 1, Time: s.clock.Now(), Method: http.MethodPost, Path: url, Route: "interactions endpoint", Body: body, Status: d.status}
	var problem string
	switch {
	case d.err != nil:
		problem = "the request failed: " + d.err.Error()
	case d.status == http.StatusAccepted:
		if len(bytes.TrimSpace(d.body)) > 0 {
			problem = "202 with a body (Discord wants none)"
		}
	case d.status == http.StatusOK:
		if s.interactions[in.id] != in {
			problem = "200 for an interaction the fake does not know"
			break
		}
		rq := &request{params: map[string]string{"interaction.id": in.id, "interaction.token": in.token}, body: d.body}
		if rep := s.interactionCallback(rq); rep.err != nil {
			call.Error = rep.err
			problem = "the response in the body was refused: " + rep.err.Error()
		}
	default:
		problem = fmt.Sprintf("status %d (want 200 with a response, or 202 with none)", d.status)
	}
	if problem == "" {
		return
	}
	if call.Error == nil {
		call.Error = &APIError{Status: d.status, Message: "interactions endpoint: " + problem}
	}
	s.calls = append(s.calls, call)
	in.rejected = append(in.rejected, call)
}

// HTTPAnswer waits for the interactions endpoint's answer to the delivery
// of i (SetInteractionsURL) and returns its status and body.
func (i *Interaction) HTTPAnswer(ctx context.Context) (status int, body []byte, err error) {
	ep := &i.s.endpoint
	ep.mu.Lock()
	d := ep.answers[i.ID]
	ep.mu.Unlock()
	if d == nil {
		return 0, nil, errors.New("discordtest: HTTPAnswer: the interaction was not delivered over HTTP")
	}
	select {
	case <-d.done:
		return d.status, d.body, d.err
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

// EndpointAnswers waits for the answers to every interaction delivered to
// the interactions endpoint so far and counts them by HTTP status (0: the
// request failed).
func (s *Server) EndpointAnswers(ctx context.Context) (map[int]int, error) {
	ep := &s.endpoint
	ep.mu.Lock()
	ds := make([]*delivery, 0, len(ep.answers))
	for _, d := range ep.answers {
		ds = append(ds, d)
	}
	ep.mu.Unlock()
	out := map[int]int{}
	for _, d := range ds {
		select {
		case <-d.done:
			out[d.status]++
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
	return out, nil
}

// close stops the deliveries in flight (when the fake stops).
func (ep *endpoint) close() {
	ep.mu.Lock()
	cancel := ep.cancel
	ep.url = ""
	ep.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	ep.wg.Wait()
}
