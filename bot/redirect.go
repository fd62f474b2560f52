package bot

import (
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// redirect points a session at a fake Discord (tests only: the
// STOLIK_TEST_DISCORD_URL variable): every REST request goes to base
// through the session's own transport (New's discordTransport),
// keeping its path, and the gateway URL is whatever the fake's GET /gateway
// answers.
func redirect(s *discordgo.Session, base string) error {
	u, err := url.Parse(base)
	if err != nil {
		// url.Parse's error quotes the value: not shown (see ConfigError).
		return &ConfigError{Key: EnvDiscordURL, Msg: discordURLTakes}
	}
	var next http.RoundTripper
	if s.Client != nil && s.Client.Transport != nil {
		next = s.Client.Transport
	} else {
		next = discordTransport()
	}
	s.Client = &http.Client{Transport: rewrite{base: u, next: next}, Timeout: 20 * time.Second}
	s.Dialer = &websocket.Dialer{
		NetDialContext:   (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		HandshakeTimeout: 5 * time.Second,
	}
	return nil
}

type rewrite struct {
	base *url.URL
	next http.RoundTripper
}

func (rt rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.URL.Scheme, r2.URL.Host, r2.Host = rt.base.Scheme, rt.base.Host, rt.base.Host
	return rt.next.RoundTrip(r2)
}

// idleConnsPerHost is how many idle connections to Discord the bot keeps
// open. net/http keeps 2 a host by default: over HTTP/1.1 every request
// beyond two at once opened a connection (a TCP and TLS handshake on the
// acknowledgement's path) that was closed once it was answered — 3,697 new
// connections in a 20-second load test at 500 tables (docs/benchmarks-history.md).
const idleConnsPerHost = 64

// discordTransport is the bot's HTTP transport to Discord:
// http.DefaultTransport's settings (proxy from the environment, HTTP/2 when
// the server offers it, which multiplexes on one connection anyway) keeping
// idleConnsPerHost idle connections a host.
func discordTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	t.MaxIdleConns = max(t.MaxIdleConns, idleConnsPerHost)
	return t
}
