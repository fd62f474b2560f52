package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// request is a REST request as a handler sees it.
type request struct {
	arrived time.Time // when the request reached the fake, before its body was read
	params  map[string]string
	query   url.Values
	body    []byte       // JSON payload; payload_json of a multipart request
	files   []Attachment // uploaded files
	in      *interaction // the interaction the request addressed, if any
}

// reply is a handler's answer. body (or else err) is marshaled to JSON; a
// nil body and no error mean 204 No Content.
type reply struct {
	status int
	body   any
	err    *APIError
	header http.Header
}

func ok(body any) reply      { return reply{status: http.StatusOK, body: body} }
func created(body any) reply { return reply{status: http.StatusCreated, body: body} }
func noContent() reply       { return reply{status: http.StatusNoContent} }
func fail(e *APIError) reply { return reply{status: e.Status, err: e} }

type handler func(*Server, *request) reply

type route struct {
	method  string
	pattern string
	// auth: the route needs the bot token. Interaction callbacks and
	// webhooks are authorized by their token in the path.
	auth   bool
	handle handler
}

func (r *route) name() string { return r.method + " " + r.pattern }

// routes lists what the fake serves, under /api/v9 and /api/v10. Literal
// segments come before placeholders where both could match.
var routes = []route{
	{"GET", "/gateway", false, (*Server).getGateway},
	{"GET", "/gateway/bot", true, (*Server).getGatewayBot},
	{"GET", "/users/@me", true, (*Server).getMe},
	{"POST", "/users/@me/channels", true, (*Server).createDM},
	{"GET", "/users/{user.id}", true, (*Server).getUser},
	{"GET", "/applications/@me", true, (*Server).getApplication},
	{"GET", "/applications/{application.id}/commands", true, (*Server).listCommands},
	{"PUT", "/applications/{application.id}/commands", true, (*Server).putCommands},
	{"POST", "/applications/{application.id}/commands", true, (*Server).createCommand},
	{"GET", "/applications/{application.id}/commands/{command.id}", true, (*Server).getCommand},
	{"DELETE", "/applications/{application.id}/commands/{command.id}", true, (*Server).deleteCommand},
	{"GET", "/applications/{application.id}/guilds/{guild.id}/commands", true, (*Server).listCommands},
	{"PUT", "/applications/{application.id}/guilds/{guild.id}/commands", true, (*Server).putCommands},
	{"POST", "/applications/{application.id}/guilds/{guild.id}/commands", true, (*Server).createCommand},
	{"GET", "/applications/{application.id}/guilds/{guild.id}/commands/{command.id}", true, (*Server).getCommand},
	{"DELETE", "/applications/{application.id}/guilds/{guild.id}/commands/{command.id}", true, (*Server).deleteCommand},
	{"POST", "/interactions/{interaction.id}/{interaction.token}/callback", false, (*Server).interactionCallback},
	{"POST", "/webhooks/{webhook.id}/{webhook.token}", false, (*Server).executeWebhook},
	{"GET", "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", false, getFound((*Server).webhookMessage)},
	{"PATCH", "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", false, editFound((*Server).webhookMessage)},
	{"DELETE", "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", false, deleteFound((*Server).webhookMessage)},
	{"GET", "/channels/{channel.id}", true, (*Server).getChannel},
	{"PATCH", "/channels/{channel.id}", true, (*Server).modifyThread},
	{"GET", "/channels/{channel.id}/messages", true, (*Server).listMessages},
	{"POST", "/channels/{channel.id}/messages", true, (*Server).createMessage},
	{"GET", "/channels/{channel.id}/messages/{message.id}", true, getFound((*Server).channelMessage)},
	{"PATCH", "/channels/{channel.id}/messages/{message.id}", true, editFound((*Server).channelMessage)},
	{"DELETE", "/channels/{channel.id}/messages/{message.id}", true, deleteFound((*Server).channelMessage)},
	{"POST", "/channels/{channel.id}/threads", true, (*Server).startThread},
	{"POST", "/channels/{channel.id}/messages/{message.id}/threads", true, (*Server).startThreadFromMessage},
	{"PUT", "/channels/{channel.id}/thread-members/{user.id}", true, (*Server).addThreadMember},
	{"DELETE", "/channels/{channel.id}/thread-members/{user.id}", true, (*Server).removeThreadMember},
	{"GET", "/guilds/{guild.id}", true, (*Server).getGuild},
	{"GET", "/guilds/{guild.id}/channels", true, (*Server).listGuildChannels},
	{"GET", "/guilds/{guild.id}/members/{user.id}", true, (*Server).getMember},
}

// routeSegs holds the segments of each route's pattern, split once.
var routeSegs = func() [][]string {
	out := make([][]string, len(routes))
	for i := range routes {
		out[i] = strings.Split(strings.Trim(routes[i].pattern, "/"), "/")
	}
	return out
}()

// matchRoute finds the route for a path. pathKnown reports whether some
// route has that path with another method.
func matchRoute(method, path string) (rt *route, params map[string]string, pathKnown bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := range routes {
		r := &routes[i]
		if !matchSegs(routeSegs[i], segs) {
			continue
		}
		if r.method == method {
			return r, patternParams(routeSegs[i], segs), true
		}
		pathKnown = true
	}
	return nil, nil, pathKnown
}

// matchSegs reports whether a path's segments fit a pattern's: the same
// literals, and a non-empty segment for each placeholder.
func matchSegs(ps, segs []string) bool {
	if len(ps) != len(segs) {
		return false
	}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return false
			}
		} else if p != segs[i] {
			return false
		}
	}
	return true
}

// patternParams maps the placeholders of a pattern that matched to the
// path's segments.
func patternParams(ps, segs []string) map[string]string {
	params := map[string]string{}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") {
			params[strings.Trim(p, "{}")] = segs[i]
		}
	}
	return params
}

// apiPath strips /api/v9 or /api/v10 from a request path.
func apiPath(p string) (string, bool) {
	for _, prefix := range []string{"/api/v10/", "/api/v9/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			return "/" + rest, true
		}
	}
	return p, false
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == gatewayPath || r.URL.Path == strings.TrimSuffix(gatewayPath, "/") {
		s.serveGateway(w, r)
		return
	}
	path, versioned := apiPath(r.URL.Path)
	arrived := time.Now()
	call := Call{Method: r.Method, Path: path, Query: r.URL.Query(), Host: r.Header.Get(hostHeader)}
	rq, readErr := readRequest(r)
	rq.arrived = arrived
	call.Body = rq.body
	for _, f := range rq.files {
		call.Files = append(call.Files, f.Filename)
	}

	s.mu.Lock()
	latency := s.latency
	s.mu.Unlock()
	if latency > 0 {
		time.Sleep(latency)
	}

	rt, params, pathKnown := matchRoute(r.Method, path)
	var limitHeader http.Header
	s.mu.Lock()
	call.Seq = len(s.calls) + 1
	call.Time = s.clock.Now()
	msgsBefore := len(s.msgOrder)
	var rep reply
	switch {
	case !versioned || (call.Host != "" && call.Host != "discord.com" && call.Host != "discordapp.com"):
		call.Unexpected = true
		rep = fail(errNotFound())
	case rt == nil && pathKnown:
		call.Unexpected = true
		rep = fail(apiErr(http.StatusMethodNotAllowed, codeGeneral, "405: Method Not Allowed"))
	case rt == nil:
		call.Unexpected = true
		rep = fail(errNotFound())
	default:
		call.Route = rt.name()
		rq.params = params
		var refused *reply
		if f := s.takeFault(call.Route); f != nil {
			rep = f.reply()
			call.Injected = true
		} else if refused, limitHeader = s.limiter.admit(call.Route, params, arrived); refused != nil {
			rep = *refused
			call.Limited = true
		} else if readErr != nil {
			rep = fail(readErr)
		} else if rt.auth && !s.checkAuth(r.Header.Get("Authorization")) {
			rep = fail(apiErr(http.StatusUnauthorized, codeGeneral, "401: Unauthorized"))
		} else {
			rep = rt.handle(s, rq)
		}
	}
	var body []byte
	switch {
	case rep.body != nil:
		var err error
		if body, err = json.Marshal(rep.body); err != nil {
			panic(fmt.Sprintf("discordtest: marshal reply to %s: %v", call.Route, err))
		}
	case rep.err != nil:
		body, _ = json.Marshal(rep.err)
	}
	call.Status = rep.status
	call.Error = rep.err
	if !call.Injected {
		s.limiter.answered(rep.status, arrived)
	}
	if s.cfg.noBodies {
		call.Body = nil
	}
	s.calls = append(s.calls, call)
	if rep.err != nil && rq.in != nil && !call.Injected {
		rq.in.rejected = append(rq.in.rejected, call)
	}
	msgID, chID := s.affected(&call, rq, rep, msgsBefore)
	s.calls[len(s.calls)-1].MessageID = msgID
	s.captureCall(r, &call, rq, rep, msgID, chID)
	textViolations := s.checkText(&call, rq, rep, msgID)
	s.mu.Unlock()
	s.logf("%s", call)
	s.reportText(textViolations)

	for k, v := range limitHeader {
		w.Header()[k] = v
	}
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	if body == nil {
		w.WriteHeader(rep.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	_, _ = w.Write(body)
}

// readRequest reads a JSON body, or the payload_json and files of a
// multipart body. The request it returns is never nil.
func readRequest(r *http.Request) (*request, *APIError) {
	rq := &request{query: r.URL.Query()}
	invalidJSON := apiErr(http.StatusBadRequest, codeInvalidJSON, "The request body contains invalid JSON.")
	badRequest := apiErr(http.StatusBadRequest, codeGeneral, "400: Bad Request")
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		if !readMultipart(r, rq) {
			return rq, badRequest
		}
	} else {
		b, err := readBody(r, maxJSONBody)
		if err != nil {
			return rq, badRequest
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

// maxJSONBody is how much of a JSON body the fake reads; the rest is
// ignored (and the JSON so cut is invalid).
const maxJSONBody = 32 << 20

// readBody reads up to limit bytes of r's body, as io.ReadAll would, into a
// slice of its own (the request keeps it) sized by Content-Length when the
// client sent one, instead of growing it from 512 bytes.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	size := int64(512)
	if n := r.ContentLength; n >= 0 && n < limit {
		size = n + 1 // room to read the EOF without growing
	}
	body := io.LimitReader(r.Body, limit)
	b := make([]byte, 0, size)
	for {
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Limits of a multipart body: those net/http's ParseMultipartForm(32 MiB),
// which the fake used to call, applies through multipart.Reader.ReadForm.
const (
	maxMultipartMemory = 32 << 20
	maxMultipartParts  = 1000
)

// partBuffers holds the buffers multipart parts are read into before their
// bytes are copied out at their size.
var partBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readMultipart reads payload_json and the files of a multipart body into
// rq, part by part, and reports whether the body was well formed. It keeps
// what ParseMultipartForm(32 MiB) gave: the first payload_json value, the
// files ordered by form field name (then as sent), each with its file name
// (base name), size, Content-Type and bytes; and it fails where that
// failed: a bad boundary or part, a malformed query string, more than 1000
// parts, or more than 42 MiB of values and in-memory files by its
// accounting. A file that ParseMultipartForm would have spilled to a
// temporary file is read into memory, where it ended anyway.
func readMultipart(r *http.Request, rq *request) bool {
	if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
		return false // ParseMultipartForm's ParseForm fails on it
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return false
	}
	buf := partBuffers.Get().(*bytes.Buffer)
	defer partBuffers.Put(buf)
	type namedFile struct {
		field string
		file  Attachment
	}
	var files []namedFile
	maxFileMemory := int64(maxMultipartMemory)
	maxMemory := int64(maxMultipartMemory + 10<<20)
	for parts := 0; ; parts++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil || parts >= maxMultipartParts {
			return false
		}
		name := p.FormName()
		if name == "" {
			continue
		}
		const mapEntryOverhead = 200
		maxMemory -= int64(len(name)) + mapEntryOverhead
		if maxMemory < 0 {
			return false
		}
		buf.Reset()
		filename := p.FileName()
		if filename == "" {
			n, err := io.CopyN(buf, p, maxMemory+1)
			if err != nil && err != io.EOF {
				return false
			}
			if maxMemory -= n; maxMemory < 0 {
				return false
			}
			if name == "payload_json" && rq.body == nil {
				rq.body = bytes.Clone(buf.Bytes())
				if rq.body == nil {
					rq.body = []byte{}
				}
			}
			continue
		}
		const fileHeaderSize = 100
		maxMemory -= partHeaderSize(p.Header) + mapEntryOverhead + fileHeaderSize
		if maxMemory < 0 {
			return false
		}
		n, err := buf.ReadFrom(p)
		if err != nil {
			return false
		}
		if n <= maxFileMemory {
			maxFileMemory -= n
			maxMemory -= n
		}
		data := bytes.Clone(buf.Bytes())
		if data == nil {
			data = []byte{} // as io.ReadAll gave for an empty file
		}
		files = append(files, namedFile{name, Attachment{
			Filename:    filename,
			Size:        int(n),
			ContentType: p.Header.Get("Content-Type"),
			Data:        data,
		}})
	}
	slices.SortStableFunc(files, func(a, b namedFile) int { return strings.Compare(a.field, b.field) })
	for _, f := range files {
		rq.files = append(rq.files, f.file)
	}
	return true
}

// partHeaderSize is what multipart.Reader.ReadForm counts for a part's
// header (its mimeHeaderSize).
func partHeaderSize(h textproto.MIMEHeader) int64 {
	size := int64(400)
	for k, vs := range h {
		size += int64(len(k)) + 200
		for _, v := range vs {
			size += int64(len(v))
		}
	}
	return size
}

func (s *Server) checkAuth(header string) bool {
	tok, ok := strings.CutPrefix(header, "Bot ")
	return ok && s.checkToken(tok)
}

// decodeBody decodes the request body into v, reporting a type mismatch as
// a 50035 error.
func decodeBody(rq *request, v any) *APIError {
	if rq.body == nil {
		return nil
	}
	if err := json.Unmarshal(rq.body, v); err != nil {
		var f formErrors
		f.add(nil, "MODEL_TYPE_CONVERT", "Invalid form body: "+err.Error())
		return f.apiError()
	}
	return nil
}

func (s *Server) getGateway(*request) reply {
	return ok(map[string]any{"url": s.wsURL})
}

func (s *Server) getGatewayBot(*request) reply {
	return ok(map[string]any{
		"url":    s.wsURL,
		"shards": 1,
		"session_start_limit": map[string]any{
			"total": 1000, "remaining": 1000, "reset_after": 86400000, "max_concurrency": 1,
		},
	})
}

func (s *Server) getMe(*request) reply {
	u := userJSON(&s.BotUser)
	u["verified"] = true
	u["mfa_enabled"] = false
	u["flags"] = 0
	return ok(u)
}

func (s *Server) getUser(rq *request) reply {
	u := s.user(rq.params["user.id"])
	if u == nil {
		return fail(apiErr(http.StatusNotFound, codeUnknownUser, "Unknown User"))
	}
	return ok(userJSON(u))
}

func (s *Server) getApplication(*request) reply {
	return ok(map[string]any{
		"id":          s.AppID,
		"name":        s.BotUser.Username,
		"icon":        nil,
		"description": "",
		"bot_public":  false,
		"flags":       0,
		"bot":         userJSON(&s.BotUser),
	})
}

func (s *Server) createDM(rq *request) reply {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if e := decodeBody(rq, &body); e != nil {
		return fail(e)
	}
	if s.users[body.RecipientID] == nil {
		return fail(apiErr(http.StatusBadRequest, codeInvalidRecipients, "Invalid Recipient(s)"))
	}
	id := s.dmChannel(body.RecipientID)
	if id == "" {
		id = s.newID()
		s.channels[id] = &Channel{ID: id, Type: ChannelDM, Recipient: body.RecipientID}
	}
	return ok(s.channelJSON(s.channels[id]))
}

func (s *Server) guild(rq *request) (*Guild, *APIError) {
	g := s.guilds[rq.params["guild.id"]]
	if g == nil {
		return nil, apiErr(http.StatusNotFound, codeUnknownGuild, "Unknown Guild")
	}
	return g, nil
}

func (s *Server) getGuild(rq *request) reply {
	g, e := s.guild(rq)
	if e != nil {
		return fail(e)
	}
	return ok(s.guildJSON(g))
}

func (s *Server) listGuildChannels(rq *request) reply {
	g, e := s.guild(rq)
	if e != nil {
		return fail(e)
	}
	var ids []string
	for id, ch := range s.channels {
		if ch.GuildID == g.ID && !ch.IsThread() {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareIDs)
	out := []any{}
	for _, id := range ids {
		out = append(out, s.channelJSON(s.channels[id]))
	}
	return ok(out)
}

func (s *Server) getMember(rq *request) reply {
	if _, e := s.guild(rq); e != nil {
		return fail(e)
	}
	u := s.user(rq.params["user.id"])
	if u == nil {
		return fail(apiErr(http.StatusNotFound, codeUnknownMember, "Unknown Member"))
	}
	return ok(s.memberJSON(u))
}
