package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// gatewayPath is where the fake serves the websocket. discordgo appends a
// slash to the URL GET /gateway gives, then ?v=9&encoding=json.
const gatewayPath = "/gateway/"

// Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// Gateway intents the fake looks at.
const (
	intentGuilds     = 1 << 0
	intentPrivileged = 1<<1 | 1<<8 | 1<<15 // GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT
)

const writeTimeout = 5 * time.Second

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gateway holds the websocket side of the fake. Lock order: gateway.mu may
// be held while taking Server.mu, never the other way round.
type gateway struct {
	mu       sync.Mutex
	sessions map[string]*gwSession
	conns    map[*gwConn]bool
	stats    GatewayStats
	changed  chan struct{}
	closed   bool
	// redeliver is how many already received interactions the next
	// successful resume sends again.
	redeliver int
	wg        sync.WaitGroup
}

// gwSession is a gateway session: it outlives connections until the client
// closes it normally or a resume fails.
type gwSession struct {
	id      string
	token   string
	intents int
	// shard is the [shard, shards] the session identified with; nil for a
	// session that gave none, which gets every guild's events.
	shard   *[2]int
	seq     int64
	backlog []gwEvent
	conn    *gwConn // nil while disconnected
	dead    bool
}

type gwEvent struct {
	seq         int64
	frame       []byte
	interaction bool // an INTERACTION_CREATE
}

type gwConn struct {
	ws      *websocket.Conn
	wmu     sync.Mutex
	session *gwSession // guarded by gateway.mu
}

// gwFrame is a gateway payload.
type gwFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (c *gwConn) write(frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.ws.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
		return err
	}
	return c.ws.WriteMessage(websocket.TextMessage, frame)
}

func (c *gwConn) send(op int, d any) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	frame, err := json.Marshal(gwFrame{Op: op, D: raw})
	if err != nil {
		return err
	}
	return c.write(frame)
}

// closeWith sends a close frame with a Discord close code and hangs up.
func (c *gwConn) closeWith(code int, text string) {
	c.wmu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(writeTimeout))
	c.wmu.Unlock()
	_ = c.ws.Close()
}

func (g *gateway) init() {
	g.sessions = map[string]*gwSession{}
	g.conns = map[*gwConn]bool{}
	g.changed = make(chan struct{})
}

// notify wakes WaitGateway callers; g.mu is held.
func (g *gateway) notify() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *gateway) snapshot() (GatewayStats, <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.stats
	for _, sess := range g.sessions {
		if sess.conn != nil {
			st.Live++
		}
	}
	return st, g.changed
}

func (g *gateway) closeAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for c := range g.conns {
		_ = c.ws.Close()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.log {
		s.t.Helper()
		s.t.Logf("discordtest: "+format, args...)
	}
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if enc := q.Get("encoding"); enc != "" && enc != "json" {
		http.Error(w, "discordtest: only encoding=json is supported", http.StatusBadRequest)
		return
	}
	if q.Get("compress") != "" {
		http.Error(w, "discordtest: transport compression is not supported", http.StatusBadRequest)
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade already answered
	}
	c := &gwConn{ws: ws}
	g := &s.gw
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		_ = ws.Close()
		return
	}
	g.conns[c] = true
	g.stats.Connections++
	g.wg.Add(1)
	g.notify()
	g.mu.Unlock()
	defer g.wg.Done()
	s.runConn(c)
}

func (s *Server) runConn(c *gwConn) {
	var err error
	defer func() { s.connLost(c, err) }()
	if err = c.send(opHello, map[string]any{"heartbeat_interval": s.cfg.heartbeat.Milliseconds()}); err != nil {
		return
	}
	for {
		var data []byte
		if _, data, err = c.ws.ReadMessage(); err != nil {
			return
		}
		var f gwFrame
		if json.Unmarshal(data, &f) != nil {
			c.closeWith(4002, "Error while decoding payload.")
			return
		}
		if f.Op != opHeartbeat || s.cfg.log {
			s.logf("gateway <- op %d %s", f.Op, truncate(string(f.D), 200))
		}
		identified := s.gw.identified(c)
		switch {
		case f.Op == opHeartbeat:
			s.gw.mu.Lock()
			s.gw.stats.Heartbeats++
			s.gw.notify()
			s.gw.mu.Unlock()
			if err = c.send(opHeartbeatAck, nil); err != nil {
				return
			}
		case f.Op == opIdentify:
			if identified {
				c.closeWith(4005, "Already authenticated.")
				return
			}
			s.identify(c, f.D)
		case f.Op == opResume:
			if identified {
				c.closeWith(4005, "Already authenticated.")
				return
			}
			s.resume(c, f.D)
		case !identified:
			c.closeWith(4003, "Not authenticated.")
			return
		case f.Op == opPresenceUpdate, f.Op == opVoiceState, f.Op == opRequestMembers:
			// Accepted and ignored.
		default:
			c.closeWith(4001, "Unknown opcode.")
			return
		}
	}
}

func (g *gateway) identified(c *gwConn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return c.session != nil
}

// connLost forgets a connection. A client close with 1000 or 1001 ends the
// session (Discord invalidates it); any other loss leaves it resumable.
func (s *Server) connLost(c *gwConn, err error) {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.conns, c)
	if sess := c.session; sess != nil && sess.conn == c {
		sess.conn = nil
		var ce *websocket.CloseError
		if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
			sess.dead = true
			g.stats.Invalidated++
		}
	}
	_ = c.ws.Close()
	g.notify()
}

func (s *Server) checkToken(token string) bool {
	tok := strings.TrimPrefix(token, "Bot ")
	return tok != "" && (s.cfg.token == "" || tok == s.cfg.token)
}

func (s *Server) identify(c *gwConn, d json.RawMessage) {
	var id struct {
		Token   string  `json:"token"`
		Intents int     `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	if json.Unmarshal(d, &id) != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	if !s.checkToken(id.Token) {
		c.closeWith(4004, "Authentication failed.")
		return
	}
	if id.Intents&intentPrivileged != 0 && !s.cfg.privileged {
		c.closeWith(4014, "Disallowed intent(s).")
		return
	}
	if id.Shard != nil && (id.Shard[1] < 1 || id.Shard[0] < 0 || id.Shard[0] >= id.Shard[1]) {
		c.closeWith(4010, "Invalid shard.")
		return
	}
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	if id.Shard != nil && id.Shard[1] == 1 {
		id.Shard = nil // shard 0 of 1 is every guild, as no shard is
	}
	sess := &gwSession{id: randomHex(16), token: id.Token, intents: id.Intents, shard: id.Shard, conn: c}
	g.sessions[sess.id] = sess
	c.session = sess
	g.stats.Identifies++
	s.dispatchLocked(sess, "READY", s.readyJSON(sess.id, id.Shard))
	if sess.intents&intentGuilds != 0 {
		for _, gc := range s.guildCreates(sess) {
			s.dispatchLocked(sess, "GUILD_CREATE", gc)
		}
	}
	g.notify()
}

func (s *Server) resume(c *gwConn, d json.RawMessage) {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(d, &r) != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return
	}
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	sess := g.sessions[r.SessionID]
	if sess == nil || sess.dead || sess.token != r.Token || r.Seq > sess.seq {
		if sess != nil {
			sess.dead = true
		}
		g.stats.Invalidated++
		g.notify()
		s.logf("gateway: resume of session %q refused", r.SessionID)
		_ = c.send(opInvalidSession, false)
		return
	}
	if old := sess.conn; old != nil && old != c {
		old.session = nil
		_ = old.ws.Close()
	}
	sess.conn = c
	c.session = sess
	n := 0
	// Dispatches the client had received, sent again (RedeliverOnResume).
	var again []gwEvent
	for k := len(sess.backlog) - 1; k >= 0 && len(again) < g.redeliver; k-- {
		if ev := sess.backlog[k]; ev.seq <= r.Seq && ev.interaction {
			again = append([]gwEvent{ev}, again...)
		}
	}
	g.redeliver = 0
	for _, ev := range again {
		if c.write(ev.frame) != nil {
			break
		}
		g.stats.Redelivered++
	}
	for _, ev := range sess.backlog {
		if ev.seq > r.Seq {
			if c.write(ev.frame) != nil {
				break
			}
			n++
		}
	}
	g.stats.Resumes++
	g.stats.Replayed += n
	s.dispatchLocked(sess, "RESUMED", map[string]any{"_trace": []string{"discordtest"}})
	g.notify()
}

// dispatchLocked sends a dispatch to one session, or queues it for a resume
// when the session is disconnected; s.gw.mu is held.
func (s *Server) dispatchLocked(sess *gwSession, event string, d any) {
	s.dispatchRawLocked(sess, event, marshalDispatch(event, d))
}

// marshalDispatch is the JSON of a dispatch's payload.
func marshalDispatch(event string, d any) []byte {
	raw, err := json.Marshal(d)
	if err != nil {
		panic(fmt.Sprintf("discordtest: marshal %s: %v", event, err))
	}
	return raw
}

// dispatchRawLocked is dispatchLocked with the payload marshaled (by
// marshalDispatch); s.gw.mu is held.
func (s *Server) dispatchRawLocked(sess *gwSession, event string, raw []byte) {
	sess.seq++
	seq := sess.seq
	frame := dispatchFrame(raw, seq, event)
	sess.backlog = append(sess.backlog, gwEvent{seq: seq, frame: frame, interaction: event == "INTERACTION_CREATE"})
	s.gw.stats.Dispatches++
	if s.cfg.log {
		s.logf("gateway -> %s s=%d %s", event, seq, truncate(string(raw), 200))
	}
	if c := sess.conn; c != nil {
		if err := c.write(frame); err != nil {
			// The connection is gone; the event waits in the backlog.
			sess.conn = nil
			c.session = nil
			_ = c.ws.Close()
		}
	}
}

// dispatchFrame is json.Marshal(gwFrame{Op: opDispatch, D: raw, S: &seq,
// T: &event}), written out directly: raw, json.Marshal's output, is
// already compact and escaped, so marshaling it again (which compacts and
// escapes it anew) would give the same bytes.
func dispatchFrame(raw []byte, seq int64, event string) []byte {
	name, err := json.Marshal(event)
	if err != nil {
		panic(err)
	}
	frame := make([]byte, 0, len(raw)+len(name)+40)
	frame = append(frame, `{"op":0,"d":`...)
	frame = append(frame, raw...)
	frame = append(frame, `,"s":`...)
	frame = strconv.AppendInt(frame, seq, 10)
	frame = append(frame, `,"t":`...)
	frame = append(frame, name...)
	return append(frame, '}')
}

// ShardOf is the shard of a guild among shards, by Discord's formula:
// (guild_id >> 22) % shards. Direct messages (guildID "") go to shard 0.
func ShardOf(guildID string, shards int) int {
	if shards <= 1 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(shards))
}

// holds reports whether the session gets guildID's events: every guild
// without a shard, else the guilds of its shard (DMs on shard 0).
func (sess *gwSession) holds(guildID string) bool {
	return sess.shard == nil || ShardOf(guildID, sess.shard[1]) == sess.shard[0]
}

// allGuilds routes a dispatch to every session, whatever its shard.
const allGuilds = "\x00all"

// dispatch sends an event to every live session (connected or awaiting a
// resume) whose intents include need and whose shard holds guildID (see
// holds; allGuilds: every session), and reports how many it reached.
func (s *Server) dispatch(event string, d any, need int, guildID string) int {
	return s.dispatchWhere(event, d, need, func(sess *gwSession) bool { return guildID == allGuilds || sess.holds(guildID) })
}

// dispatchWhere sends an event to every live session whose intents include
// need and that keep accepts, and reports how many it reached.
func (s *Server) dispatchWhere(event string, d any, need int, keep func(*gwSession) bool) int {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	var raw []byte // marshaled once, for the first session that gets it
	for _, sess := range g.sessions {
		if !sess.dead && sess.intents&need == need && keep(sess) {
			if raw == nil {
				if r, ok := d.(json.RawMessage); ok {
					raw = r // marshaled by the caller
				} else {
					raw = marshalDispatch(event, d)
				}
			}
			s.dispatchRawLocked(sess, event, raw)
			n++
		}
	}
	if n > 0 {
		g.notify()
	}
	return n
}

// Dispatch sends an arbitrary gateway event (op 0, type event, payload data)
// to every live bot session, whatever its shard. Sessions that are
// disconnected get it when they resume.
func (s *Server) Dispatch(event string, data any) {
	s.dispatch(event, data, 0, allGuilds)
}

// ShardLive reports whether a session that identified as shard of shards
// (shards 1: without a shard) is connected now.
func (s *Server) ShardLive(shard, shards int) bool {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, sess := range g.sessions {
		if sess.dead || sess.conn == nil {
			continue
		}
		if (shards <= 1 && sess.shard == nil) || (sess.shard != nil && sess.shard[0] == shard && sess.shard[1] == shards) {
			return true
		}
	}
	return false
}

// DropConnection cuts every gateway connection without a close frame, as a
// network failure would. Sessions stay resumable; dispatches sent meanwhile
// are replayed on RESUME.
func (s *Server) DropConnection() {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		if sess := c.session; sess != nil && sess.conn == c {
			sess.conn = nil
		}
		c.session = nil
		_ = c.ws.Close()
		g.stats.Dropped++
	}
	g.notify()
}

// InvalidateSessions ends every gateway session, as Discord does when a
// session has expired or can no longer be resumed: the connections are cut
// without a close frame, the client's RESUME is answered with op 9
// INVALID_SESSION (d: false), and it must IDENTIFY afresh (discordgo v0.29
// does so on the same connection). What the sessions missed is lost; until
// the client has identified again, interactions find no session
// (ErrNoSession), as a user's click finds no bot on Discord.
func (s *Server) InvalidateSessions() {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, sess := range g.sessions {
		if !sess.dead {
			sess.dead = true
			g.stats.Invalidated++
		}
		sess.conn = nil
	}
	for c := range g.conns {
		c.session = nil
		_ = c.ws.Close()
		g.stats.Dropped++
	}
	g.notify()
}

// RedeliverOnResume makes the next successful RESUME send again the last n
// INTERACTION_CREATE dispatches the client had already received (with
// their old sequence numbers), before the dispatches it missed: a gateway
// that delivers an event twice. A bot must not act twice on one
// interaction.
func (s *Server) RedeliverOnResume(n int) {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	g.redeliver = n
}

// RequestReconnect sends op 7 RECONNECT on every connection; the client is
// expected to reconnect and resume.
func (s *Server) RequestReconnect() {
	g := &s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		_ = c.send(opReconnect, nil)
	}
}

// readyJSON builds the READY payload: the guilds of the session's shard.
func (s *Server) readyJSON(sessionID string, shard *[2]int) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	guilds := make([]map[string]any, 0, len(s.guildOrder))
	for _, id := range s.guildOrder {
		if shard == nil || ShardOf(id, shard[1]) == shard[0] {
			guilds = append(guilds, map[string]any{"id": id, "unavailable": true})
		}
	}
	ready := map[string]any{
		"v":                  10,
		"user":               userJSON(&s.BotUser),
		"guilds":             guilds,
		"session_id":         sessionID,
		"session_type":       "normal",
		"resume_gateway_url": s.wsURL,
		"private_channels":   []any{},
		"relationships":      []any{},
		"application":        map[string]any{"id": s.AppID, "flags": 0},
		"_trace":             []string{"discordtest"},
	}
	if shard != nil {
		ready["shard"] = shard
	}
	return ready
}

// guildCreates builds the GUILD_CREATE payloads of the guilds a session's
// shard holds.
func (s *Server) guildCreates(sess *gwSession) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]map[string]any, 0, len(s.guildOrder))
	for _, id := range s.guildOrder {
		if sess.holds(id) {
			out = append(out, s.guildCreateJSON(id))
		}
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
