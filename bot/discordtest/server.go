package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Defaults of a new Server.
const (
	DefaultAppID       = "1300000000000000001"
	DefaultBotUsername = "testbot"
	// DefaultHeartbeatInterval is what HELLO announces unless
	// WithHeartbeatInterval says otherwise: Discord's usual value.
	// discordgo heartbeats once at Open and then at this interval, so in a
	// short test the ticker rarely fires (see WithHeartbeatInterval).
	DefaultHeartbeatInterval = 41250 * time.Millisecond
)

// Discord's deadlines for interactions
// (https://discord.com/developers/docs/interactions/receiving-and-responding).
const (
	ResponseDeadline = 3 * time.Second
	TokenLifetime    = 15 * time.Minute
)

// BotPermissions are the bot's permissions in every channel where
// SetBotPermissions did not set others, sent as the app_permissions of the
// interactions there: add reactions, view channel, send messages, manage
// messages, embed links, attach files, read history, use external emojis,
// manage threads, create public and private threads, send in threads
// (bits 6, 10, 11, 13, 14, 15, 16, 18, 34, 35, 36, 38).
const BotPermissions int64 = 1<<6 | 1<<10 | 1<<11 | 1<<13 | 1<<14 | 1<<15 | 1<<16 | 1<<18 | 1<<34 | 1<<35 | 1<<36 | 1<<38

// appPermissions is BotPermissions as Discord writes them (a string).
var appPermissions = strconv.FormatInt(BotPermissions, 10)

const discordEpochMs = 1420070400000

// Option configures a Server.
type Option func(*config)

type config struct {
	clock      Clock
	heartbeat  time.Duration
	latency    time.Duration
	appID      string
	botName    string
	token      string
	privileged bool
	log        bool
	noBodies   bool
	// lenientText records text violations without failing the test.
	lenientText bool
	limits      *Limits // WithRateLimits
}

// WithClock makes the fake read time from c, typically a *FakeClock.
func WithClock(c Clock) Option { return func(cfg *config) { cfg.clock = c } }

// WithHeartbeatInterval sets the heartbeat_interval HELLO announces, to
// test heartbeating itself.
//
// A short interval exposes a race in discordgo v0.29: Session.Close holds
// the session for 1 s after sending its close frame, and a heartbeat tick in
// that second fails and makes discordgo reconnect. After a deliberate Close
// it then retries forever against the stopped fake, unless the test cleared
// session.ShouldReconnectOnError before Close. After a DropConnection it may
// close the new connection with code 1000, which ends the session (here as
// on Discord), so the bot re-identifies instead of resuming.
func WithHeartbeatInterval(d time.Duration) Option {
	return func(cfg *config) { cfg.heartbeat = d }
}

// WithToken makes the fake accept only this bot token (without the "Bot "
// prefix) in IDENTIFY and in REST Authorization headers. By default any
// "Bot ..." token is accepted.
func WithToken(token string) Option { return func(cfg *config) { cfg.token = token } }

// WithoutCallBodies keeps Calls without their bodies, so that a long load
// run does not hold every payload in memory.
func WithoutCallBodies() Option { return func(cfg *config) { cfg.noBodies = true } }

// WithLog logs every REST call and gateway frame through t.Logf.
func WithLog() Option { return func(cfg *config) { cfg.log = true } }

// Server is the fake Discord. Create it with New; its methods are safe for
// concurrent use. Methods that take the part of a user (SlashCommand, Click,
// ...) fail the test on misuse and must be called from the test goroutine.
type Server struct {
	// AppID is the application id; the bot user has the same id.
	AppID string
	// BotUser is the bot's own user, as READY and GET /users/@me show it.
	BotUser User

	t     TB
	cfg   config
	clock Clock
	http  *httptest.Server
	wsURL string

	mu           sync.Mutex
	guilds       map[string]*Guild
	guildOrder   []string
	channels     map[string]*Channel
	users        map[string]*User
	closedDMs    map[string]bool
	botPerms     map[string]int64 // channel id -> the bot's permissions there (SetBotPermissions)
	messages     map[string]*Message
	msgOrder     []string
	threadFrom   map[string]bool // message ids a thread was started from
	commands     map[string][]Command
	interactions map[string]*interaction
	byToken      map[string]*interaction
	calls        []Call
	faults       []*fault
	latency      time.Duration
	lastID       uint64

	capture        *captureSink // STOLIK_CAPTURE, nil when unset
	strictText     bool         // text violations fail the test
	textViolations []string

	gw gateway

	endpoint endpoint // the Interactions Endpoint URL mode (httpinteractions.go)

	limiter limiter // WithRateLimits (ratelimit.go)
}

// New starts a fake Discord on 127.0.0.1 and stops it when the test ends
// (t's Cleanup). t is a *testing.T or *testing.B in tests, or a *Standalone
// in a program (the load test).
func New(t TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{
		clock:     realClock{},
		heartbeat: DefaultHeartbeatInterval,
		appID:     DefaultAppID,
		botName:   DefaultBotUsername,
	}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{
		AppID:        cfg.appID,
		BotUser:      User{ID: cfg.appID, Username: cfg.botName, Locale: "en-US", Bot: true},
		t:            t,
		cfg:          cfg,
		clock:        cfg.clock,
		guilds:       map[string]*Guild{},
		channels:     map[string]*Channel{},
		users:        map[string]*User{},
		closedDMs:    map[string]bool{},
		botPerms:     map[string]int64{},
		messages:     map[string]*Message{},
		threadFrom:   map[string]bool{},
		commands:     map[string][]Command{},
		interactions: map[string]*interaction{},
		byToken:      map[string]*interaction{},
		latency:      cfg.latency,
		strictText:   !cfg.lenientText,
		limiter:      limiter{limits: cfg.limits},
	}
	if c, err := openCapture(); err != nil {
		t.Logf("discordtest: %s: %v; not capturing", CaptureEnv, err)
	} else {
		s.capture = c
	}
	s.gw.init()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.wsURL = "ws" + strings.TrimPrefix(s.http.URL, "http") + gatewayPath
	t.Cleanup(s.close)
	s.captureMeta("user", map[string]any{"id": s.AppID, "name": cfg.botName, "bot": true})
	return s
}

func (s *Server) close() {
	s.endpoint.close()
	s.gw.closeAll()
	s.http.Close()
	s.gw.wg.Wait()
}

// URL is the base URL of the fake, e.g. http://127.0.0.1:41234.
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the websocket URL GET /gateway answers with.
func (s *Server) GatewayURL() string { return s.wsURL }

// Clock is the clock the fake reads.
func (s *Server) Clock() Clock { return s.clock }

// Configure points a discordgo session at the fake. Call it before Open.
//
// What it overrides, all on the session itself:
//   - session.Client: an *http.Client whose transport sends every request to
//     this server, whatever host discordgo built the URL for, keeping the
//     path (/api/v9/...). The host discordgo meant is recorded in Call.Host.
//   - session.Dialer: a websocket dialer without proxy.
//
// That is all: the gateway URL needs no override, because Session.Open asks
// GET /api/v9/gateway through session.Client and the fake answers with its
// own ws:// URL (discordgo caches it on the session and resumes there).
// discordgo's package-level Endpoint* variables are left untouched, because
// they are computed once at package init (setting EndpointDiscord alone
// changes nothing) and are process-global. So nothing here is global, and
// tests using different fakes may run in parallel. A request made with a
// per-call discordgo.WithClient option bypasses the fake (and would try to
// reach the real Discord).
func (s *Server) Configure(session *discordgo.Session) {
	base, err := url.Parse(s.http.URL)
	if err != nil {
		s.t.Fatalf("discordtest: %v", err)
	}
	session.Client = &http.Client{
		Transport: rewriteTransport{base: base, next: keepAlive(s.http.Client().Transport)},
		Timeout:   10 * time.Second,
	}
	session.Dialer = &websocket.Dialer{
		NetDialContext:   (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		HandshakeTimeout: 5 * time.Second,
	}
}

// rewriteTransport sends every request to the fake.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

const hostHeader = "X-Discordtest-Host"

func (rt rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.Header.Set(hostHeader, r.URL.Host)
	r2.URL.Scheme = rt.base.Scheme
	r2.URL.Host = rt.base.Host
	r2.Host = rt.base.Host
	return rt.next.RoundTrip(r2)
}

var snowflakeRE = regexp.MustCompile(`^[0-9]{1,20}$`)

func (s *Server) checkID(what, id string) {
	s.t.Helper()
	if !snowflakeRE.MatchString(id) {
		s.t.Fatalf("discordtest: %s id %q is not a snowflake (digits only)", what, id)
	}
}

// AddGuild adds a guild the bot is in. preferredLocale defaults to "en-US".
// If the bot is already connected it receives GUILD_CREATE.
func (s *Server) AddGuild(id, name, preferredLocale string) {
	s.t.Helper()
	s.checkID("guild", id)
	if preferredLocale == "" {
		preferredLocale = "en-US"
	}
	if !discordLocales[preferredLocale] {
		s.t.Fatalf("discordtest: AddGuild: %q is not a Discord locale", preferredLocale)
	}
	s.mu.Lock()
	if _, ok := s.guilds[id]; ok {
		s.mu.Unlock()
		s.t.Fatalf("discordtest: AddGuild: guild %s exists", id)
	}
	s.guilds[id] = &Guild{ID: id, Name: name, PreferredLocale: preferredLocale}
	s.guildOrder = append(s.guildOrder, id)
	payload := s.guildCreateJSON(id)
	s.mu.Unlock()
	s.captureMeta("guild", map[string]any{"id": id, "name": name, "locale": preferredLocale})
	s.dispatch("GUILD_CREATE", payload, intentGuilds, id)
}

// AddChannel adds a text channel to a guild. If the bot is already connected
// it receives CHANNEL_CREATE.
func (s *Server) AddChannel(guildID, channelID string) {
	s.t.Helper()
	s.checkID("channel", channelID)
	s.mu.Lock()
	if s.guilds[guildID] == nil {
		s.mu.Unlock()
		s.t.Fatalf("discordtest: AddChannel: unknown guild %s", guildID)
	}
	if s.channels[channelID] != nil {
		s.mu.Unlock()
		s.t.Fatalf("discordtest: AddChannel: channel %s exists", channelID)
	}
	ch := &Channel{ID: channelID, Type: ChannelGuildText, GuildID: guildID, Name: "channel-" + channelID}
	s.channels[channelID] = ch
	payload := s.channelJSON(ch)
	s.mu.Unlock()
	s.captureMeta("channel", map[string]any{"id": channelID, "name": ch.Name, "type": ch.Type, "guild_id": guildID})
	s.dispatch("CHANNEL_CREATE", payload, intentGuilds, guildID)
}

// AddUser adds a user. locale is the user's client language, sent as the
// interaction's locale (defaults to "en-US"). Every user is a member of every
// guild and can read every guild channel and public thread.
func (s *Server) AddUser(id, username, locale string) {
	s.t.Helper()
	s.checkID("user", id)
	if locale == "" {
		locale = "en-US"
	}
	if !discordLocales[locale] {
		s.t.Fatalf("discordtest: AddUser: %q is not a Discord locale", locale)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[id]; ok || id == s.AppID {
		s.t.Fatalf("discordtest: AddUser: user %s exists", id)
	}
	s.users[id] = &User{ID: id, Username: username, Locale: locale}
	s.captureMeta("user", map[string]any{"id": id, "name": username, "locale": locale})
}

// CloseDMs makes the user refuse DMs from the bot: messages to their DM
// channel fail with 403, code 50007.
func (s *Server) CloseDMs(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closedDMs[userID] = true
}

// SetBotPermissions sets the bot's permissions in a channel and the
// threads started in it (a permission bit set, as Discord's; without it,
// the bot's permissions are BotPermissions everywhere). They are the
// app_permissions of the interactions there, and the fake enforces three
// of them on what the bot sends with its own token, as Discord does: View
// Channel (else 403, code 50001), Send Messages, or Send Messages in
// Threads in a thread, to post (else 403, code 50013), and Attach Files to
// upload a file with a message or an edit (else 403, code 50013). An
// interaction's answer is not checked: Discord lets an interaction's
// webhook post and carry files. ClearBotPermissions undoes it.
func (s *Server) SetBotPermissions(channelID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.botPerms[channelID] = perms
}

// ClearBotPermissions gives the bot its usual permissions in a channel
// again (SetBotPermissions).
func (s *Server) ClearBotPermissions(channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.botPerms, channelID)
}

// permsIn are the bot's permissions in ch (a thread's are its parent's,
// unless set); s.mu is held.
func (s *Server) permsIn(ch *Channel) int64 {
	if ch == nil {
		return BotPermissions
	}
	if p, ok := s.botPerms[ch.ID]; ok {
		return p
	}
	if ch.IsThread() {
		if p, ok := s.botPerms[ch.ParentID]; ok {
			return p
		}
	}
	return BotPermissions
}

// Permission bits the fake enforces (SetBotPermissions).
const (
	permViewChannel           = 1 << 10
	permSendMessages          = 1 << 11
	permAttachFiles           = 1 << 15
	permSendMessagesInThreads = 1 << 38
)

// mayNotSend is the error Discord gives the bot for rq, a request to a
// channel message route (a post when post is set, else an edit) in a
// channel where its permissions do not allow it; nil when they do. s.mu
// is held.
func (s *Server) mayNotSend(rq *request, post bool) *APIError {
	ch := s.channels[rq.params["channel.id"]]
	if ch == nil || ch.GuildID == "" {
		return nil
	}
	p := s.permsIn(ch)
	send := int64(permSendMessages)
	if ch.IsThread() {
		send = permSendMessagesInThreads
	}
	switch {
	case p&permViewChannel == 0:
		return apiErr(http.StatusForbidden, codeMissingAccess, "Missing Access")
	case post && p&send == 0, len(rq.files) > 0 && p&permAttachFiles == 0:
		return apiErr(http.StatusForbidden, codeMissingPermissions, "Missing Permissions")
	}
	return nil
}

// DeleteThread deletes a thread and its messages, as a moderator may:
// requests naming it then fail with 404, code 10003 (Unknown Channel). The
// message it was started from stays in its channel.
func (s *Server) DeleteThread(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[id]
	if ch == nil || !ch.IsThread() {
		return
	}
	delete(s.channels, id)
	for mid, m := range s.messages {
		if m.ChannelID == id {
			delete(s.messages, mid)
		}
	}
}

// ArchiveThread archives a thread, as Discord does after its
// auto_archive_duration without activity or a moderator closing it
// (Channel.Archived).
func (s *Server) ArchiveThread(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.channels[id]; ch != nil && ch.IsThread() {
		ch.Archived = true
	}
}

// User returns a known user, or nil.
func (s *Server) User(id string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.user(id); u != nil {
		c := *u
		return &c
	}
	return nil
}

func (s *Server) user(id string) *User {
	if id == s.AppID {
		return &s.BotUser
	}
	return s.users[id]
}

// Guild returns a known guild, or nil.
func (s *Server) Guild(id string) *Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.guilds[id]; g != nil {
		c := *g
		return &c
	}
	return nil
}

// Channel returns the channel (including threads and DM channels the bot
// created), or nil.
func (s *Server) Channel(id string) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.channels[id]; ch != nil {
		c := *ch
		c.Members = slices.Clone(ch.Members)
		return &c
	}
	return nil
}

// Threads returns the threads created in a channel, oldest first.
func (s *Server) Threads(parentID string) []*Channel {
	s.mu.Lock()
	var ids []string
	for id, ch := range s.channels {
		if ch.ParentID == parentID {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(ids, compareIDs)
	out := make([]*Channel, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.Channel(id))
	}
	return out
}

// compareIDs orders snowflakes numerically.
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// Message returns the current state of a message, or nil if it never
// existed or was deleted.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messages[id]; m != nil {
		return m.clone()
	}
	return nil
}

// messagesWhere lists current messages, oldest first.
func (s *Server) messagesWhere(keep func(*Message) bool) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.msgOrder {
		if m := s.messages[id]; m != nil && keep(m) {
			out = append(out, m.clone())
		}
	}
	return out
}

// Messages returns the public messages in a channel (a guild channel, a
// thread or a DM channel) in their current state, oldest first.
func (s *Server) Messages(channelID string) []*Message {
	return s.messagesWhere(func(m *Message) bool { return m.ChannelID == channelID && !m.Ephemeral() })
}

// Ephemeral returns every ephemeral message the user received, in their
// current state, oldest first.
func (s *Server) Ephemeral(userID string) []*Message {
	return s.messagesWhere(func(m *Message) bool { return m.Ephemeral() && m.EphemeralTo == userID })
}

// DMs returns the messages in the user's DM channel with the bot.
func (s *Server) DMs(userID string) []*Message {
	s.mu.Lock()
	id := s.dmChannel(userID)
	s.mu.Unlock()
	if id == "" {
		return nil
	}
	return s.Messages(id)
}

func (s *Server) dmChannel(userID string) string {
	for id, ch := range s.channels {
		if ch.Type == ChannelDM && ch.Recipient == userID {
			return id
		}
	}
	return ""
}

// VisibleTo returns every message the user can see, oldest first: public
// messages in guild channels and public threads, private threads the user was
// added to, the user's own ephemeral messages and the user's DMs. Use it to
// prove that no message ever showed a user what was not theirs.
func (s *Server) VisibleTo(userID string) []*Message {
	return s.messagesWhere(func(m *Message) bool { return s.visible(userID, m) })
}

// visible reports whether userID can see m; s.mu is held.
func (s *Server) visible(userID string, m *Message) bool {
	if m.Ephemeral() {
		return m.EphemeralTo == userID
	}
	ch := s.channels[m.ChannelID]
	switch {
	case ch == nil:
		return false
	case ch.Type == ChannelDM:
		return ch.Recipient == userID
	case ch.Type == ChannelPrivateThread:
		return slices.Contains(ch.Members, userID)
	default:
		return true
	}
}

// Commands returns the commands the bot registered for a guild, or the global
// ones for guildID "".
func (s *Server) Commands(guildID string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneJSON(s.commands[guildID])
}

// Calls returns every REST request received, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Sent returns every request that could change something (all but GET), in
// order: what the bot sent.
func (s *Server) Sent() []Call {
	return s.callsWhere(func(c *Call) bool { return c.Method != http.MethodGet })
}

// Errors returns every request the fake rejected, except the 429s and 5xxs a
// test injected. A bot that behaves leaves it empty.
func (s *Server) Errors() []Call {
	return s.callsWhere(func(c *Call) bool { return c.Error != nil && !c.Injected })
}

// Unexpected returns the requests no route of the fake matched.
func (s *Server) Unexpected() []Call {
	return s.callsWhere(func(c *Call) bool { return c.Unexpected })
}

// RESTCalls returns how many REST requests the fake received.
func (s *Server) RESTCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

func (s *Server) callsWhere(keep func(*Call) bool) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for i := range s.calls {
		if keep(&s.calls[i]) {
			out = append(out, s.calls[i])
		}
	}
	return out
}

// AssertNoErrors fails t if the fake rejected any request (Errors, which
// includes Unexpected).
func (s *Server) AssertNoErrors(t interface {
	Helper()
	Errorf(format string, args ...any)
}) {
	t.Helper()
	for _, c := range s.Errors() {
		t.Errorf("discordtest: rejected request: %s", c)
	}
}

// SetLatency delays every later REST answer by d (real time).
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// newID returns a fresh snowflake based on the clock; s.mu is held.
func (s *Server) newID() string {
	ms := s.clock.Now().UnixMilli() - discordEpochMs
	id := uint64(max(ms, 0)) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

func randomToken(prefix string, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(prefix)) + base64.RawURLEncoding.EncodeToString(b)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// WaitGateway blocks until cond holds for the gateway's counters or ctx ends.
func (s *Server) WaitGateway(ctx context.Context, cond func(GatewayStats) bool) error {
	for {
		st, changed := s.gw.snapshot()
		if cond(st) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitConnected blocks until a bot session is connected and identified (or
// resumed), or ctx ends.
func (s *Server) WaitConnected(ctx context.Context) error {
	return s.WaitGateway(ctx, func(st GatewayStats) bool { return st.Live > 0 })
}

// GatewayStats returns the gateway's counters.
func (s *Server) GatewayStats() GatewayStats {
	st, _ := s.gw.snapshot()
	return st
}

// keepAlive is t keeping as many idle connections to the fake as the bot
// keeps to Discord (bot/redirect.go): http.Transport's default of 2 a
// host closes every connection beyond two once its request is done.
func keepAlive(t http.RoundTripper) http.RoundTripper {
	ht, ok := t.(*http.Transport)
	if !ok {
		return t
	}
	ht = ht.Clone()
	ht.MaxIdleConnsPerHost = 64
	return ht
}
