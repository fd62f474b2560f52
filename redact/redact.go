// Package redact takes secrets out of text before it is printed or
// logged: the password of a database URL, the token of an interaction
// webhook in a Discord URL, anything shaped like a Discord bot token, and
// any secret the caller names (the configured token). It is the last line
// of defence: code that knows a value is secret does not print it (store/
// open.Describe, postgres.Redact); what reaches an output anyway — an
// error from a driver or a library that quotes a URL, an argument given in
// the wrong place — is redacted here.
package redact

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// Mark replaces a secret.
const Mark = "…"

var patterns = []struct {
	re   *regexp.Regexp
	with string
}{
	// scheme://user:password@host
	{regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^:/@\s"'?#]*):[^@\s"']+@`), "${1}:" + Mark + "@"},
	// password=… in a key/value connection string or a query
	{regexp.MustCompile(`(?i)(password|passwd|pwd|sslpassword)=[^&\s"']+`), "${1}=" + Mark},
	// an interaction token in a webhook or callback URL
	{regexp.MustCompile(`(/(?:webhooks|interactions)/[0-9]+/)[A-Za-z0-9_\-.:]{8,}`), "${1}" + Mark},
	// a Discord bot token: base64 id, timestamp, HMAC
	{regexp.MustCompile(`[A-Za-z0-9_\-]{23,28}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}`), Mark},
}

// String is s with every secret it holds replaced by Mark: the patterns
// above and each of secrets (an empty one is ignored).
func String(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, Mark)
		}
	}
	for _, p := range patterns {
		s = p.re.ReplaceAllString(s, p.with)
	}
	return s
}

// Writer redacts what is written through it (String, with its secrets)
// before passing it on. Each Write is redacted on its own: a log handler
// or fmt.Fprintln writes a whole line at once.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []string
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer, secrets ...string) *Writer {
	return &Writer{w: w, secrets: secrets}
}

// Write writes p redacted. It reports len(p) when the redacted text was
// written whole, so that callers see the write they asked for.
func (r *Writer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := io.WriteString(r.w, String(string(p), r.secrets...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
