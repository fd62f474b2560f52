package discordtest

// Request capture. When STOLIK_CAPTURE names a file (an absolute path: go
// test runs each package in its own directory), every REST request the fake
// receives is appended to it as one JSON line, whatever the fake answered,
// and so are the users, guilds and channels a test adds. Files uploaded in a
// multipart request are saved in the directory <capture>.files next to it.
// Each line is a JSON object: the test's name, the request's method, path,
// API version and body (a multipart request's payload_json, with its files
// listed by name, size, content type and saved path), and the fake's answer
// status; name lines map user, guild and channel ids to names. This is the
// format the team's message viewer (discord-look) reads; the fields are
// defined by the types below.
//
// The variable is read when a Server is created, so a test may set it with
// t.Setenv. Each process opens a capture file once, with O_APPEND, and
// writes each line with a single write under a mutex, so that parallel
// tests and several test binaries (go test ./bot/ ./cmd/stolik/) can share
// one file.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// CaptureEnv is the environment variable naming the capture file.
const CaptureEnv = "STOLIK_CAPTURE"

// captureSink is one open capture file, shared by every Server of the
// process that writes to it.
type captureSink struct {
	mu    sync.Mutex
	f     *os.File
	path  string
	saved int // files saved so far, to name the next one
}

var captureSinks struct {
	mu sync.Mutex
	m  map[string]*captureSink
}

// openCapture returns the sink for the file named by STOLIK_CAPTURE, opening
// it on first use; nil when the variable is unset or the file cannot be
// opened (err says why).
func openCapture() (*captureSink, error) {
	name := os.Getenv(CaptureEnv)
	if name == "" {
		return nil, nil
	}
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	captureSinks.mu.Lock()
	defer captureSinks.mu.Unlock()
	if c := captureSinks.m[name]; c != nil {
		return c, nil
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	if captureSinks.m == nil {
		captureSinks.m = map[string]*captureSink{}
	}
	c := &captureSink{f: f, path: name}
	captureSinks.m[name] = c
	return c, nil
}

// write appends v as one line, with a single write.
func (c *captureSink) write(v any) {
	if c == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, _ = c.f.Write(append(b, '\n'))
}

// captureRequest is a request line of the capture.
type captureRequest struct {
	Test        string          `json:"test"`
	Time        string          `json:"time,omitempty"`
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	Version     string          `json:"version,omitempty"`
	Query       string          `json:"query,omitempty"`
	ContentType string          `json:"content_type,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
	Files       []capturedFile  `json:"files,omitempty"`
	Status      int             `json:"status"`
	Error       *APIError       `json:"error,omitempty"`
	Injected    bool            `json:"injected,omitempty"`
	MessageID   string          `json:"message_id,omitempty"`
	ChannelID   string          `json:"channel_id,omitempty"`
	IType       int             `json:"itype,omitempty"`
	IName       string          `json:"iname,omitempty"`
	IAgeMS      *float64        `json:"iage_ms,omitempty"`
	IUser       string          `json:"iuser,omitempty"`
	IChannel    string          `json:"ichannel,omitempty"`
	IMessage    string          `json:"imessage,omitempty"`
}

// capturedFile is one uploaded file of a multipart request. Its description
// (alt text) is in the payload's attachments, which the line's body keeps.
type capturedFile struct {
	Name        string `json:"name"`
	Size        int    `json:"size"`
	ContentType string `json:"content_type,omitempty"`
	Path        string `json:"path,omitempty"` // relative to the capture file's directory
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// save writes an uploaded file into <capture>.files and returns its path
// relative to the capture file's directory ("" if it could not). The name
// holds the process id and a counter, so that processes sharing the capture
// cannot collide.
func (c *captureSink) save(a Attachment) string {
	c.mu.Lock()
	c.saved++
	n := c.saved
	c.mu.Unlock()
	dir := c.path + ".files"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	name := fmt.Sprintf("%d-%05d-%s", os.Getpid(), n, unsafeName.ReplaceAllString(a.Filename, "_"))
	if err := os.WriteFile(filepath.Join(dir, name), a.Data, 0o644); err != nil {
		return ""
	}
	return filepath.Base(dir) + "/" + name
}

func testName(t TB) string {
	if n, ok := t.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

// captureMeta records a user, guild or channel the test added (a name line).
func (s *Server) captureMeta(kind string, fields map[string]any) {
	if s.capture == nil {
		return
	}
	fields["kind"] = kind
	fields["test"] = testName(s.t)
	s.capture.write(fields)
}

// affected returns the message a request created, changed or deleted and
// its channel, as the fake knows them; for the DM and thread routes, the
// channel created. msgsBefore is len(s.msgOrder) before the handler ran;
// s.mu is held.
func (s *Server) affected(call *Call, rq *request, rep reply, msgsBefore int) (msgID, chID string) {
	if rep.err != nil {
		return "", ""
	}
	switch b := rep.body.(type) {
	case wireMessage:
		msgID, chID = b.ID, b.ChannelID
	case map[string]any:
		if id, ok := b["id"].(string); ok && strings.Contains(call.Route, "channels") {
			chID = id
		}
	}
	if msgID == "" {
		switch {
		case len(s.msgOrder) > msgsBefore:
			msgID = s.msgOrder[len(s.msgOrder)-1]
		case rq.params["message.id"] == "@original" && rq.in != nil:
			msgID = rq.in.original
		case rq.params["message.id"] != "":
			msgID = rq.params["message.id"]
		case rq.in != nil:
			msgID = rq.in.original
		}
	}
	if m := s.messages[msgID]; m != nil && chID == "" {
		chID = m.ChannelID
	}
	return msgID, chID
}

// captureCall records a request line; s.mu is held.
func (s *Server) captureCall(r *http.Request, call *Call, rq *request, rep reply, msgID, chID string) {
	if s.capture == nil {
		return
	}
	c := captureRequest{
		Test: testName(s.t), Time: call.Time.UTC().Format(time.RFC3339Nano),
		Method: call.Method, Path: call.Path, Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Status: rep.status, Error: rep.err, Injected: call.Injected,
		MessageID: msgID, ChannelID: chID,
	}
	for _, v := range []string{"v10", "v9"} {
		if strings.HasPrefix(r.URL.Path, "/api/"+v+"/") {
			c.Version = v
		}
	}
	if rq.body != nil && json.Valid(rq.body) {
		c.Body = json.RawMessage(rq.body)
	}
	for _, f := range rq.files {
		c.Files = append(c.Files, capturedFile{Name: f.Filename, Size: f.Size, ContentType: f.ContentType, Path: s.capture.save(f)})
	}
	if in := rq.in; in != nil {
		age := float64(call.Time.Sub(in.created)) / float64(time.Millisecond)
		c.IType, c.IName, c.IAgeMS = in.kind, in.name, &age
		c.IUser, c.IChannel, c.IMessage = in.userID, in.channelID, in.sourceMsg
	}
	s.capture.write(c)
}
