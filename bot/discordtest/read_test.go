package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// parseFormRequest is how readRequest used to read a body: through
// ParseMultipartForm and io.ReadAll. The streaming reader must give the
// same request and the same error.
func parseFormRequest(r *http.Request) (*request, *APIError) {
	rq := &request{query: r.URL.Query()}
	invalidJSON := apiErr(http.StatusBadRequest, codeInvalidJSON, "The request body contains invalid JSON.")
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return rq, apiErr(http.StatusBadRequest, codeGeneral, "400: Bad Request")
		}
		if v := r.MultipartForm.Value["payload_json"]; len(v) > 0 {
			rq.body = []byte(v[0])
		}
		for _, k := range slices.Sorted(maps.Keys(r.MultipartForm.File)) {
			for _, fh := range r.MultipartForm.File[k] {
				a := Attachment{
					Filename:    fh.Filename,
					Size:        int(fh.Size),
					ContentType: fh.Header.Get("Content-Type"),
				}
				if f, err := fh.Open(); err == nil {
					a.Data, _ = io.ReadAll(f)
					_ = f.Close()
				}
				rq.files = append(rq.files, a)
			}
		}
	} else {
		b, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
		if err != nil {
			return rq, apiErr(http.StatusBadRequest, codeGeneral, "400: Bad Request")
		}
		if len(b) > 0 {
			rq.body = b
		}
	}
	if rq.body != nil && !json.Valid(rq.body) {
		return rq, invalidJSON
	}
	return rq, nil
}

type formPart struct {
	name, filename, contentType, body string
	header                            textproto.MIMEHeader // instead of the fields above
}

func multipartBody(t *testing.T, parts []formPart) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		h := p.header
		if h == nil {
			h = textproto.MIMEHeader{}
			cd := fmt.Sprintf(`form-data; name=%q`, p.name)
			if p.filename != "" {
				cd += fmt.Sprintf(`; filename=%q`, p.filename)
			}
			h.Set("Content-Disposition", cd)
			if p.contentType != "" {
				h.Set("Content-Type", p.contentType)
			}
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = pw.Write([]byte(p.body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), b.Bytes()
}

// TestReadRequestMatchesParseForm: bodies as discordgo sends them and
// broken ones read the same through the streaming reader as through
// ParseMultipartForm and io.ReadAll.
func TestReadRequestMatchesParseForm(t *testing.T) {
	png := strings.Repeat("\x89PNG\r\n\x1a\n", 5000)
	type tc struct {
		contentType string
		body        []byte
		query       string
		noLength    bool // chunked: no Content-Length
		oneByte     bool // the body arrives a byte at a time
	}
	mp := func(parts ...formPart) tc {
		ct, b := multipartBody(t, parts)
		return tc{contentType: ct, body: b}
	}
	cases := map[string]tc{
		"json":         {contentType: "application/json", body: []byte(`{"content":"hi","flags":64}`)},
		"json chunked": {contentType: "application/json", body: []byte(`{"content":"hi"}`), noLength: true},
		"json slow":    {contentType: "application/json", body: []byte(`{"content":"hi"}`), oneByte: true},
		"json bad":     {contentType: "application/json", body: []byte(`{"content":`)},
		"json long": {contentType: "application/json",
			body: []byte(`{"content":"` + strings.Repeat("x", 100000) + `"}`)},
		"no body": {},
		"no type": {body: []byte(`{"a":1}`)},
		"files sorted": mp(
			formPart{name: "payload_json", contentType: "application/json", body: `{"content":"pics","attachments":[{"id":0}]}`},
			formPart{name: "files[10]", filename: "ten.png", contentType: "image/png", body: png},
			formPart{name: "files[2]", filename: "dir/two.png", contentType: "image/png", body: "2"},
			formPart{name: "files[0]", filename: "zero.txt", body: ""},
			formPart{name: "files[2]", filename: "two-again.png", contentType: "image/png", body: "22"},
		),
		"two payloads": mp(
			formPart{name: "payload_json", body: `{"content":"first"}`},
			formPart{name: "payload_json", body: `{"content":"second"}`},
		),
		"empty payload": mp(formPart{name: "payload_json", body: ""}),
		"bad payload":   mp(formPart{name: "payload_json", body: "{"}),
		"only a file":   mp(formPart{name: "files[0]", filename: "a.png", contentType: "image/png", body: png}),
		"other values": mp(
			formPart{name: "content", body: "x"},
			formPart{name: "payload_json", body: `{"content":"y"}`},
		),
		"part without a name": mp(
			formPart{header: textproto.MIMEHeader{"Content-Disposition": {"form-data"}}, body: "z"},
			formPart{header: textproto.MIMEHeader{"Content-Disposition": {"attachment; name=\"x\""}}, body: "z"},
			formPart{name: "payload_json", body: `{}`},
		),
		"bad query": func() tc {
			c := mp(formPart{name: "payload_json", body: `{}`})
			c.query = "a=%zz"
			return c
		}(),
		"no boundary": {contentType: "multipart/form-data", body: []byte("--x\r\n\r\n--x--")},
		"truncated":   {contentType: "multipart/form-data; boundary=b", body: []byte("--b\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{}")},
		"not a form":  {contentType: "multipart/form-data; boundary=b", body: []byte("junk")},
		"empty form":  {contentType: "multipart/form-data; boundary=b", body: []byte("--b--\r\n")},
		"many parts": func() tc {
			var parts []formPart
			for i := range 1001 {
				parts = append(parts, formPart{name: fmt.Sprintf("v%d", i), body: "x"})
			}
			return mp(parts...)
		}(),
		"1000 parts": func() tc {
			var parts []formPart
			for i := range 999 {
				parts = append(parts, formPart{name: fmt.Sprintf("v%d", i), body: "x"})
			}
			return mp(append(parts, formPart{name: "payload_json", body: `{"ok":true}`})...)
		}(),
	}
	newRequest := func(c tc) *http.Request {
		var body io.Reader = bytes.NewReader(c.body)
		if c.oneByte {
			body = iotest.OneByteReader(body)
		}
		r := httptest.NewRequest(http.MethodPost, "/api/v10/channels/1/messages?"+c.query, body)
		if c.noLength || c.oneByte {
			r.ContentLength = -1
		}
		if c.contentType != "" {
			r.Header.Set("Content-Type", c.contentType)
		}
		return r
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			want, wantErr := parseFormRequest(newRequest(c))
			got, gotErr := readRequest(newRequest(c))
			if !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("error %v, want %v", gotErr, wantErr)
			}
			if wantErr == nil || wantErr.Code == codeInvalidJSON {
				if !bytes.Equal(got.body, want.body) || (got.body == nil) != (want.body == nil) {
					t.Errorf("body %q, want %q", got.body, want.body)
				}
				if !reflect.DeepEqual(got.files, want.files) {
					t.Errorf("files %+v\nwant %+v", got.files, want.files)
				}
			}
		})
	}
}

// TestDispatchFrame: the frame written out by hand is what json.Marshal
// made of a gwFrame.
func TestDispatchFrame(t *testing.T) {
	payloads := []any{
		nil,
		map[string]any{"content": "<b>&amp; \u2028 ✋ \"q\"", "n": 1.5, "list": []any{1, "x", nil}},
		json.RawMessage(" { \"a\" : [ 1 , 2 ] , \"h\" : \"<&>\" } "),
		map[string]any{"raw": json.RawMessage(`{ "x" : "</script>" }`)},
		Message{Content: "x", Components: []Component{{Type: 1}}},
	}
	for i, d := range payloads {
		for _, event := range []string{"INTERACTION_CREATE", "GUILD_CREATE", `ODD "<&>" ✋`} {
			seq := int64(i*1000 + 7)
			want, err := json.Marshal(gwFrame{Op: opDispatch, D: marshalDispatch(event, d), S: &seq, T: &event})
			if err != nil {
				t.Fatal(err)
			}
			if got := dispatchFrame(marshalDispatch(event, d), seq, event); !bytes.Equal(got, want) {
				t.Errorf("payload %d, %s:\n got %s\nwant %s", i, event, got, want)
			}
		}
	}
}

// withoutEphemeralFlag is how an update callback (type 7) used to drop bit
// 64 from its payload: by rewriting the payload before parsing it.
func withoutEphemeralFlag(body json.RawMessage) json.RawMessage {
	var raw map[string]json.RawMessage
	if json.Unmarshal(body, &raw) != nil || raw["flags"] == nil {
		return body
	}
	var flags int
	if json.Unmarshal(raw["flags"], &flags) != nil {
		return body
	}
	raw["flags"], _ = json.Marshal(flags &^ FlagEphemeral)
	out, _ := json.Marshal(raw)
	return out
}

// TestEditIgnoreEphemeral: edit's ignoreEphemeral does what rewriting the
// payload with withoutEphemeralFlag did, for any flags an update sends.
func TestEditIgnoreEphemeral(t *testing.T) {
	s := New(t, WithClock(NewFakeClock(time.Unix(1700000000, 0))), WithLenientText())
	bodies := []string{
		`{"content":"x"}`,
		`{"content":"x","flags":64}`,
		`{"content":"x","flags":68}`,
		`{"content":"x","flags":4}`,
		`{"content":"x","flags":0}`,
		`{"content":"x","flags":null}`,
		`{"content":"x","flags":"64"}`,
		`{"content":"x","flags":64.5}`,
		`{"content":"x","flags":-1}`,
		`{"content":"x","flags":32768,"components":[{"type":10,"content":"v2"}]}`,
		`{"components":[{"type":10,"content":"v2"}],"flags":32832}`,
		`{"content":"x","flags":64,"flags":4}`,
		`{"content":5,"flags":64}`,
		`{"flags":64}`,
		`{"content":"","flags":64}`,
		`null`,
		`[]`,
		``,
	}
	sources := []*Message{
		{ChannelID: "1", Content: "public", Components: []Component{{Type: ComponentActionRow,
			Components: []Component{{Type: ComponentButton, Style: ButtonPrimary, CustomID: "b", Label: "B"}}}}},
		{ChannelID: "1", Content: "ephemeral", Flags: FlagEphemeral, EphemeralTo: "2"},
		{ChannelID: "1", Flags: FlagComponentsV2, Components: []Component{{Type: ComponentTextDisplay, Content: "v2"}}},
		{ChannelID: "1", Content: "loading", Flags: FlagLoading | FlagEphemeral, EphemeralTo: "2"},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, src := range sources {
		for _, body := range bodies {
			stored := s.store(src.clone())
			want, wantErr := s.edit(&request{}, []string{"data"}, stored, withoutEphemeralFlag(json.RawMessage(body)), false)
			s.messages[stored.ID] = stored
			got, gotErr := s.edit(&request{}, []string{"data"}, stored, json.RawMessage(body), true)
			if !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("source %d, %s: error %v, want %v", i, body, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("source %d, %s: message %+v, want %+v", i, body, got, want)
			}
		}
	}
}

// oldCheckText is checkText as it was, reading a callback's body twice
// (the callback, then its data). The one-pass version must find the same.
func (s *Server) oldCheckText(call *Call, rq *request, rep reply, msgID string) []string {
	if rep.err != nil || rep.status < 200 || rep.status > 299 || rq.body == nil {
		return nil
	}
	body := rq.body
	where := call.Method + " " + call.Path
	switch call.Route {
	case "POST /channels/{channel.id}/messages", "PATCH /channels/{channel.id}/messages/{message.id}":
	case "POST /interactions/{interaction.id}/{interaction.token}/callback":
		var cb struct {
			Type int             `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(body, &cb) != nil || (cb.Type != CallbackChannelMessage && cb.Type != CallbackUpdateMessage) {
			return nil
		}
		body = cb.Data
		where = fmt.Sprintf("callback type %d", cb.Type)
	case "POST /webhooks/{webhook.id}/{webhook.token}":
		where = "follow-up"
	case "PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}":
		where = "edit of " + rq.params["message.id"]
	default:
		return nil
	}
	if in := rq.in; in != nil {
		kind := map[int]string{2: "/", 3: "component ", 5: "modal "}[in.kind]
		where += fmt.Sprintf(" to %s%q", kind, in.name)
	}
	if msgID != "" {
		where += " (message " + msgID + ")"
	}
	var p textPayload
	if len(body) == 0 || json.Unmarshal(body, &p) != nil {
		return nil
	}
	ephemeral := p.Flags != nil && *p.Flags&FlagEphemeral != 0
	if m := s.messages[msgID]; m != nil {
		ephemeral = m.Ephemeral()
	}
	vs := textViolations(where, &p, ephemeral)
	if room := maxTextViolations - len(s.textViolations); room > 0 {
		s.textViolations = append(s.textViolations, vs[:min(len(vs), room)]...)
	}
	return vs
}

// TestCheckTextCallbackOnePass: checkText reads a callback's data in the
// same pass as the callback and finds what it found reading it apart.
func TestCheckTextCallbackOnePass(t *testing.T) {
	s := New(t, WithLenientText())
	long := strings.Repeat("x", maxContent-1) + "…"
	bodies := []string{
		`{"type":4,"data":{"content":"hi <@301>"}}`,
		`{"type":4,"data":{"content":"hi <@301>","allowed_mentions":{"parse":[]}}}`,
		`{"type":4,"data":{"content":"hi <@301>","flags":64}}`,
		`{"type":7,"data":{"content":"@everyone ` + long + `"}}`,
		`{"type":7,"data":{"components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"a","label":"Go"},{"type":2,"style":1,"custom_id":"b","label":"Go"}]}]}}`,
		`{"type":7,"data":{"flags":32768,"components":[{"type":10,"content":"<@30…"},{"type":12,"items":[{"description":"d"}]}]}}`,
		`{"type":5,"data":{"content":"@here"}}`,
		`{"type":9,"data":{"custom_id":"m","title":"@everyone","components":[]}}`,
		`{"type":4,"data":null}`,
		`{"type":4}`,
		`{"type":4,"data":"@everyone"}`,
		`{"type":4,"data":{"content":5}}`,
		`{"type":"4","data":{"content":"@everyone"}}`,
		`{"type":4,"data":{"content":"@everyone","embeds":"x"}}`,
		`null`,
		`[]`,
	}
	call := &Call{Method: "POST", Path: "/interactions/1/t/callback",
		Route: "POST /interactions/{interaction.id}/{interaction.token}/callback"}
	rep := reply{status: http.StatusNoContent}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range bodies {
		rq := &request{body: []byte(b), in: &interaction{kind: interactionMessageComponent, name: "go"}}
		want := s.oldCheckText(call, rq, rep, "")
		got := s.checkText(call, rq, rep, "")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", b, got, want)
		}
	}
	if len(s.textViolations) == 0 {
		t.Errorf("no violations at all: the cases test nothing")
	}
}
