package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// interaction is the fake's record of one interaction; guarded by Server.mu
// except the fields set at creation.
type interaction struct {
	id, token string
	kind      int    // 2 command, 3 component, 4 autocomplete, 5 modal submit
	name      string // command name, custom_id clicked, or modal custom_id
	userID    string
	guildID   string
	channelID string
	created   time.Time
	sourceMsg string // component and modal submit: the message the component is on
	acked     chan struct{}
	// sent is when the interaction's event was handed to the connection
	// (gateway) or the request made (HTTP), after its JSON was built;
	// ackArrived is when the request that acknowledged it reached the
	// fake, before its body was read (both by the real clock).
	sent, ackArrived time.Time

	ack       int // callback type of the initial response; 0 before it
	response  Response
	original  string // the @original message
	filled    bool   // the first follow-up after a deferral filled @original
	followups []string
	modal     *Modal // set by a type 9 response until submitted
	rejected  []Call

	focusedType int // autocomplete: the type of the option being typed (0: unknown)
}

// Interaction is a test's handle on an interaction it dispatched.
type Interaction struct {
	ID        string
	Token     string
	Type      int // 2 application command, 3 message component, 4 autocomplete, 5 modal submit
	UserID    string
	GuildID   string // empty in DMs
	ChannelID string
	// Name is the command's name, the custom_id clicked or selected, or the
	// submitted modal's custom_id.
	Name string

	s  *Server
	in *interaction
}

// DefaultWait is how long Wait waits when its context has no deadline.
const DefaultWait = 10 * time.Second

// Acked is closed once the bot gave its initial response.
func (i *Interaction) Acked() <-chan struct{} { return i.in.acked }

// AckLatency is how long the bot took to acknowledge the interaction as
// Discord would see it: from when its event was sent (its JSON built) to
// when the request with the initial response arrived (before the fake read
// it). It leaves out what the fake itself does on either side, building
// the event and checking the response, and when the caller's goroutine
// next ran. ok is false before the acknowledgement.
func (i *Interaction) AckLatency() (d time.Duration, ok bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.in.ack == 0 || i.in.sent.IsZero() || i.in.ackArrived.IsZero() {
		return 0, false
	}
	return i.in.ackArrived.Sub(i.in.sent), true
}

// Response returns the initial response, if the bot gave it.
func (i *Interaction) Response() (Response, bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.in.ack == 0 {
		return Response{}, false
	}
	return cloneResponse(i.in.response), true
}

// Wait waits for the bot's initial response and returns it. It fails the
// test if ctx ends first (after DefaultWait if ctx has no deadline), listing
// the requests about this interaction the fake rejected. Call it from the
// test goroutine.
func (i *Interaction) Wait(ctx context.Context) Response {
	i.s.t.Helper()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultWait)
		defer cancel()
	}
	select {
	case <-i.in.acked:
		r, _ := i.Response()
		return r
	case <-ctx.Done():
		var b strings.Builder
		for _, c := range i.Rejected() {
			b.WriteString("\n\t" + c.String())
		}
		i.s.t.Fatalf("discordtest: %s got no initial response (%v); rejected requests:%s", i, ctx.Err(), b.String())
		return Response{}
	}
}

func (i *Interaction) String() string {
	kind := map[int]string{2: "command /", 3: "component ", 4: "autocomplete /", 5: "modal "}[i.Type]
	return fmt.Sprintf("interaction %s (%s%s by %s)", i.ID, kind, i.Name, i.UserID)
}

// Original returns the current state of the interaction's @original message:
// the response message (4, 5), or the message the component is on (6, 7).
// Nil if there is none or it was deleted.
func (i *Interaction) Original() *Message {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if m := i.s.messages[i.in.original]; m != nil {
		return m.clone()
	}
	return nil
}

// Answer is the message the user sees as the interaction's answer:
// @original, unless @original is the public message the user clicked,
// acknowledged by a deferred update (an "aside" answer): then the answer
// is the newest ephemeral follow-up still there, or nil.
func (i *Interaction) Answer() *Message {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.answerLocked()
}

func (i *Interaction) answerLocked() *Message {
	orig := i.s.messages[i.in.original]
	if orig != nil && !orig.Ephemeral() && i.in.original == i.in.sourceMsg {
		for k := len(i.in.followups) - 1; k >= 0; k-- {
			if m := i.s.messages[i.in.followups[k]]; m != nil && m.Ephemeral() {
				return m.clone()
			}
		}
		return nil
	}
	if orig != nil {
		return orig.clone()
	}
	return nil
}

// WaitAnswer waits for the initial response (as Wait) and, when that is
// a deferred update of the public message clicked, for the ephemeral
// follow-up that answers; it returns Answer, nil if none came before ctx
// ended (DefaultWait without a deadline).
func (i *Interaction) WaitAnswer(ctx context.Context) *Message {
	i.s.t.Helper()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultWait)
		defer cancel()
	}
	i.Wait(ctx)
	for {
		if m := i.Answer(); m != nil {
			return m
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Millisecond):
		}
	}
}

// Followups returns the follow-up messages in their current state, oldest
// first, leaving out deleted ones. The first follow-up after a deferred
// response fills @original instead and is not listed.
func (i *Interaction) Followups() []*Message {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	var out []*Message
	for _, id := range i.in.followups {
		if m := i.s.messages[id]; m != nil {
			out = append(out, m.clone())
		}
	}
	return out
}

// Rejected returns the requests about this interaction that the fake
// rejected (late or second responses, invalid payloads, expired tokens...).
func (i *Interaction) Rejected() []Call {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return slices.Clone(i.in.rejected)
}

func cloneResponse(r Response) Response {
	if r.Message != nil {
		r.Message = r.Message.clone()
	}
	if r.Modal != nil {
		r.Modal = r.Modal.clone()
	}
	r.Body = slices.Clone(r.Body)
	if r.Choices != nil {
		r.Choices = cloneJSON(r.Choices)
	}
	return r
}

// newInteraction registers an interaction; s.mu is held.
func (s *Server) newInteraction(kind int, name string, u *User, ch *Channel) *interaction {
	in := &interaction{
		id:        s.newID(),
		kind:      kind,
		name:      name,
		userID:    u.ID,
		guildID:   ch.GuildID,
		channelID: ch.ID,
		created:   s.clock.Now(),
		acked:     make(chan struct{}),
	}
	in.token = randomToken("interaction:"+in.id+":", 48)
	s.interactions[in.id] = in
	s.byToken[in.token] = in
	return in
}

// interactionJSON builds an INTERACTION_CREATE payload; s.mu is held.
func (s *Server) interactionJSON(in *interaction, data any) map[string]any {
	u := s.users[in.userID]
	ch := s.channels[in.channelID]
	p := map[string]any{
		"id":                    in.id,
		"application_id":        s.AppID,
		"type":                  in.kind,
		"data":                  data,
		"token":                 in.token,
		"version":               1,
		"channel_id":            ch.ID,
		"channel":               s.channelJSON(ch),
		"locale":                u.Locale,
		"app_permissions":       strconv.FormatInt(s.permsIn(ch), 10),
		"entitlements":          []any{},
		"attachment_size_limit": 10 << 20,
	}
	if g := s.guilds[in.guildID]; g != nil {
		member := s.memberJSON(u)
		member["permissions"] = appPermissions
		p["guild_id"] = g.ID
		p["guild_locale"] = g.PreferredLocale
		p["guild"] = map[string]any{"id": g.ID, "locale": g.PreferredLocale, "features": []string{}}
		p["member"] = member
		p["context"] = 0
		p["authorizing_integration_owners"] = map[string]string{"0": g.ID}
	} else {
		p["user"] = userJSON(u)
		p["context"] = 1
		p["authorizing_integration_owners"] = map[string]string{"0": "0"}
	}
	if m := s.messages[in.sourceMsg]; m != nil {
		p["message"] = s.messageJSON(m)
	}
	return p
}

// ErrNoSession is returned by the ...Err methods when no bot session is on
// the gateway to receive an interaction.
var ErrNoSession = errors.New("discordtest: no bot session on the gateway to receive the interaction")

// send dispatches INTERACTION_CREATE (or POSTs the interaction to the
// interactions endpoint, SetInteractionsURL) and returns the test's handle.
func (s *Server) send(in *interaction, payload map[string]any) *Interaction {
	s.t.Helper()
	h, err := s.sendErr(in, payload)
	if err != nil {
		s.t.Fatalf("%v", err)
	}
	return h
}

func (s *Server) sendErr(in *interaction, payload map[string]any) (*Interaction, error) {
	if s.deliverHTTP(in, payload) {
		return s.handle(in), nil
	}
	raw := json.RawMessage(marshalDispatch("INTERACTION_CREATE", payload))
	s.stampSent(in)
	if s.dispatch("INTERACTION_CREATE", raw, 0, in.guildID) == 0 {
		return nil, ErrNoSession
	}
	return s.handle(in), nil
}

// stampSent notes when in's event is sent (Interaction.AckLatency).
func (s *Server) stampSent(in *interaction) {
	now := time.Now()
	s.mu.Lock()
	in.sent = now
	s.mu.Unlock()
}

// handle is the test's handle of a dispatched interaction.
func (s *Server) handle(in *interaction) *Interaction {
	return &Interaction{
		ID: in.id, Token: in.token, Type: in.kind, UserID: in.userID, GuildID: in.guildID,
		ChannelID: in.channelID, Name: in.name, s: s, in: in,
	}
}

// Arg is an option given to a slash command: a value (Opt) or a subcommand
// or subcommand group with its own options (Sub).
type Arg struct {
	name  string
	value any
	sub   bool
	args  []Arg
}

// Opt is an option value. Give strings for string, user, channel, role and
// mentionable options (ids for the latter), an int for integer options, a
// float64 or int for number options and a bool for boolean options.
func Opt(name string, value any) Arg { return Arg{name: name, value: value} }

// Sub is a subcommand or subcommand group with its options.
func Sub(name string, args ...Arg) Arg { return Arg{name: name, sub: true, args: args} }

// SlashCommandErr is SlashCommand returning its error instead of failing
// the test.
func (s *Server) SlashCommandErr(userID, guildID, channelID, name string, args ...Arg) (*Interaction, error) {
	s.mu.Lock()
	in, payload, err := s.slashCommand(userID, guildID, channelID, name, args)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("discordtest: SlashCommand /%s: %w", name, err)
	}
	return s.sendErr(in, payload)
}

// SlashCommand makes a user run a registered CHAT_INPUT command: it
// dispatches INTERACTION_CREATE (type 2) with data.name, data.options typed
// from the registered command, the user's locale, the guild's locale and
// member, and a fresh id and token. guildID "" runs the command in the
// user's DM with the bot (channelID may then be ""). The test fails if the
// command is not registered where it is run, or if the options do not fit
// it (unknown or missing required options, wrong types, values outside the
// choices), since Discord's client would not let a user send that.
func (s *Server) SlashCommand(userID, guildID, channelID, name string, args ...Arg) *Interaction {
	s.t.Helper()
	s.mu.Lock()
	in, payload, err := s.slashCommand(userID, guildID, channelID, name, args)
	s.mu.Unlock()
	if err != nil {
		s.t.Fatalf("discordtest: SlashCommand /%s: %v", name, err)
	}
	return s.send(in, payload)
}

// AutocompleteErr is Autocomplete returning its error instead of failing
// the test.
func (s *Server) AutocompleteErr(userID, guildID, channelID, name, focused string, args ...Arg) (*Interaction, error) {
	s.mu.Lock()
	in, payload, err := s.commandInteraction(interactionAutocomplete, userID, guildID, channelID, name, args, focused)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("discordtest: Autocomplete /%s: %w", name, err)
	}
	return s.sendErr(in, payload)
}

// Autocomplete makes a user type in an autocomplete option of a registered
// CHAT_INPUT command: it dispatches APPLICATION_COMMAND_AUTOCOMPLETE (type
// 4) with the options given so far, the option named focused marked
// "focused": true with its partial value (a string, as typed: not checked
// against choices or a minimum length, and required options may still be
// missing). The focused option must be among args and registered with
// autocomplete. The bot answers with callback type 8 (its choices are in
// Response.Choices); any other callback is rejected, as Discord does.
func (s *Server) Autocomplete(userID, guildID, channelID, name, focused string, args ...Arg) *Interaction {
	s.t.Helper()
	in, err := s.AutocompleteErr(userID, guildID, channelID, name, focused, args...)
	if err != nil {
		s.t.Fatalf("%v", err)
	}
	return in
}

func (s *Server) slashCommand(userID, guildID, channelID, name string, args []Arg) (*interaction, map[string]any, error) {
	return s.commandInteraction(interactionApplicationCommand, userID, guildID, channelID, name, args, "")
}

// commandInteraction builds a command (kind 2) or autocomplete (kind 4,
// focused naming the option being typed) interaction; s.mu is held.
func (s *Server) commandInteraction(kind int, userID, guildID, channelID, name string, args []Arg, focused string) (*interaction, map[string]any, error) {
	u := s.users[userID]
	if u == nil {
		return nil, nil, fmt.Errorf("unknown user %s", userID)
	}
	var ch *Channel
	if guildID == "" {
		if channelID == "" {
			channelID = s.dmChannel(userID)
			if channelID == "" {
				channelID = s.newID()
				s.channels[channelID] = &Channel{ID: channelID, Type: ChannelDM, Recipient: userID}
			}
		}
		ch = s.channels[channelID]
		if ch == nil || ch.Type != ChannelDM || ch.Recipient != userID {
			return nil, nil, fmt.Errorf("channel %s is not the DM channel of user %s", channelID, userID)
		}
	} else {
		if s.guilds[guildID] == nil {
			return nil, nil, fmt.Errorf("unknown guild %s", guildID)
		}
		ch = s.channels[channelID]
		if ch == nil || ch.GuildID != guildID {
			return nil, nil, fmt.Errorf("no channel %s in guild %s", channelID, guildID)
		}
		if ch.Type == ChannelPrivateThread && !slices.Contains(ch.Members, userID) {
			return nil, nil, fmt.Errorf("user %s is not in private thread %s", userID, channelID)
		}
	}
	cmd := s.findChatCommand(guildID, name)
	if cmd == nil {
		return nil, nil, fmt.Errorf("no such command where it was run (guild %q); registered: %v",
			guildID, s.commandNames(guildID))
	}
	res := resolved{}
	var ac *autocompleting
	if kind == interactionAutocomplete {
		ac = &autocompleting{focused: focused}
	}
	opts, err := s.buildOptions(cmd.Options, args, guildID, &res, ac)
	if err != nil {
		return nil, nil, err
	}
	if ac != nil && !ac.found {
		return nil, nil, fmt.Errorf("the focused option %q is not among the options given", focused)
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": 1}
	if len(opts) > 0 {
		data["options"] = opts
	}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if r := res.json(); r != nil {
		data["resolved"] = r
	}
	in := s.newInteraction(kind, name, u, ch)
	if ac != nil {
		in.focusedType = ac.typ
	}
	return in, s.interactionJSON(in, data), nil
}

// findChatCommand finds a CHAT_INPUT command usable in a guild (guild
// commands first) or in DMs (global commands allowed there); s.mu is held.
func (s *Server) findChatCommand(guildID, name string) *Command {
	scopes := []string{""}
	if guildID != "" {
		scopes = []string{guildID, ""}
	}
	for _, scope := range scopes {
		for i := range s.commands[scope] {
			c := &s.commands[scope][i]
			if c.Type != 1 || c.Name != name {
				continue
			}
			if guildID == "" && ((c.DMPermission != nil && !*c.DMPermission) ||
				(c.Contexts != nil && !slices.Contains(c.Contexts, 1))) {
				continue
			}
			if guildID != "" && c.Contexts != nil && !slices.Contains(c.Contexts, 0) {
				continue
			}
			return c
		}
	}
	return nil
}

func (s *Server) commandNames(guildID string) []string {
	var names []string
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.commands[scope] {
			names = append(names, c.Name)
		}
		if guildID == "" {
			break
		}
	}
	return names
}

// resolved collects the users, members and channels named by options.
type resolved struct {
	users, members, channels, roles map[string]any
}

func (r *resolved) put(m *map[string]any, id string, v any) {
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[id] = v
}

func (r *resolved) json() map[string]any {
	out := map[string]any{}
	for k, v := range map[string]map[string]any{"users": r.users, "members": r.members, "channels": r.channels, "roles": r.roles} {
		if v != nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// autocompleting is the state of building an autocomplete interaction's
// options: the option being typed, and whether it was met.
type autocompleting struct {
	focused string
	found   bool
	typ     int // the focused option's type
}

// buildOptions turns test arguments into interaction options, checking them
// against the registered schema (ac is nil for a command, and holds the
// focused option for an autocomplete interaction); s.mu is held.
func (s *Server) buildOptions(schema []CommandOption, args []Arg, guildID string, res *resolved, ac *autocompleting) ([]map[string]any, error) {
	names := func() []string {
		var n []string
		for _, o := range schema {
			n = append(n, o.Name)
		}
		return n
	}
	hasSubs := len(schema) > 0 && (schema[0].Type == OptionSubCommand || schema[0].Type == OptionSubCommandGroup)
	if hasSubs && len(args) != 1 {
		return nil, fmt.Errorf("give exactly one subcommand (Sub) of %v", names())
	}
	seen := map[string]bool{}
	out := []map[string]any{}
	for _, a := range args {
		o := findOption(schema, a.name)
		if o == nil {
			return nil, fmt.Errorf("no option %q; options are %v", a.name, names())
		}
		if seen[a.name] {
			return nil, fmt.Errorf("option %q given twice", a.name)
		}
		seen[a.name] = true
		if o.Type == OptionSubCommand || o.Type == OptionSubCommandGroup {
			if !a.sub {
				return nil, fmt.Errorf("%q is a subcommand: use Sub", a.name)
			}
			nested, err := s.buildOptions(o.Options, a.args, guildID, res, ac)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a.name, err)
			}
			out = append(out, map[string]any{"name": o.Name, "type": o.Type, "options": nested})
			continue
		}
		if a.sub {
			return nil, fmt.Errorf("%q is not a subcommand: use Opt", a.name)
		}
		if ac != nil && a.name == ac.focused {
			v, err := focusedValue(o, a.value)
			if err != nil {
				return nil, fmt.Errorf("focused option %q: %w", a.name, err)
			}
			ac.found, ac.typ = true, o.Type
			out = append(out, map[string]any{"name": o.Name, "type": o.Type, "value": v, "focused": true})
			continue
		}
		v, err := s.optionValue(o, a.value, guildID, res)
		if err != nil {
			return nil, fmt.Errorf("option %q: %w", a.name, err)
		}
		out = append(out, map[string]any{"name": o.Name, "type": o.Type, "value": v})
	}
	for _, o := range schema {
		if o.Required && !seen[o.Name] && ac == nil {
			return nil, fmt.Errorf("required option %q missing", o.Name)
		}
	}
	return out, nil
}

// focusedValue is the partial value of the option an autocomplete
// interaction is about: what the user typed so far, sent as a string. The
// option must be registered with autocomplete; the client keeps what is
// typed within max_length.
func focusedValue(o *CommandOption, v any) (string, error) {
	if !o.Autocomplete {
		return "", fmt.Errorf("not registered with autocomplete")
	}
	str, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("give the text typed so far as a string, got %T", v)
	}
	if o.MaxLength != nil && length(str) > *o.MaxLength {
		return "", fmt.Errorf("%q is longer than max_length %d", str, *o.MaxLength)
	}
	return str, nil
}

func (s *Server) optionValue(o *CommandOption, v any, guildID string, res *resolved) (any, error) {
	var out any
	switch o.Type {
	case OptionString:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		if o.MinLength != nil && length(str) < *o.MinLength || o.MaxLength != nil && length(str) > *o.MaxLength {
			return nil, fmt.Errorf("length of %q outside the allowed range", str)
		}
		out = str
	case OptionInteger, OptionNumber:
		f, ok := toFloat(v)
		if !ok {
			return nil, fmt.Errorf("want a number, got %T", v)
		}
		if o.Type == OptionInteger {
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("want an integer, got %v", v)
			}
			out = int64(f)
		} else {
			out = f
		}
		if o.MinValue != nil && f < *o.MinValue || o.MaxValue != nil && f > *o.MaxValue {
			return nil, fmt.Errorf("%v outside the allowed range", v)
		}
	case OptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		out = b
	case OptionUser, OptionMentionable:
		id, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want an id string, got %T", v)
		}
		u := s.user(id)
		switch {
		case u != nil:
			res.put(&res.users, id, userJSON(u))
			if guildID != "" {
				member := s.memberJSON(u)
				delete(member, "user")
				res.put(&res.members, id, member)
			}
		case o.Type == OptionMentionable && id == guildID:
			res.put(&res.roles, id, map[string]any{"id": id, "name": "@everyone", "permissions": appPermissions})
		default:
			return nil, fmt.Errorf("unknown user %s", id)
		}
		out = id
	case OptionChannel:
		id, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want an id string, got %T", v)
		}
		ch := s.channels[id]
		if ch == nil || (guildID != "" && ch.GuildID != guildID) {
			return nil, fmt.Errorf("unknown channel %s", id)
		}
		if len(o.ChannelTypes) > 0 && !slices.Contains(o.ChannelTypes, ch.Type) {
			return nil, fmt.Errorf("channel %s has type %d, not one of %v", id, ch.Type, o.ChannelTypes)
		}
		c := s.channelJSON(ch)
		c["permissions"] = appPermissions
		res.put(&res.channels, id, c)
		out = id
	case OptionRole:
		id, ok := v.(string)
		if !ok || id != guildID {
			return nil, fmt.Errorf("the fake knows only the @everyone role (the guild id)")
		}
		res.put(&res.roles, id, map[string]any{"id": id, "name": "@everyone", "permissions": appPermissions})
		out = id
	default:
		return nil, fmt.Errorf("option type %d is not supported by the fake", o.Type)
	}
	if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c CommandChoice) bool { return sameValue(c.Value, out) }) {
		return nil, fmt.Errorf("%v is not one of the choices", v)
	}
	return out, nil
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

func sameValue(choice, v any) bool {
	if cf, ok := toFloat(choice); ok {
		vf, ok := toFloat(v)
		return ok && cf == vf
	}
	return choice == v
}

// componentTarget checks that a user may interact with a component of a
// message and returns the current message and component; s.mu is held.
func (s *Server) componentTarget(userID string, msg *Message, customID string) (*User, *Message, *Component, error) {
	if msg == nil {
		return nil, nil, nil, fmt.Errorf("nil message")
	}
	u := s.users[userID]
	if u == nil {
		return nil, nil, nil, fmt.Errorf("unknown user %s", userID)
	}
	cur := s.messages[msg.ID]
	if cur == nil {
		return nil, nil, nil, fmt.Errorf("message %s does not exist (deleted?)", msg.ID)
	}
	if !s.visible(userID, cur) {
		return nil, nil, nil, fmt.Errorf("user %s cannot see %s", userID, cur)
	}
	c := cur.Component(customID)
	if c == nil {
		return nil, nil, nil, fmt.Errorf("message %s has no component %q; it has %q", cur.ID, customID, cur.CustomIDs())
	}
	if c.Disabled {
		return nil, nil, nil, fmt.Errorf("component %q of message %s is disabled", customID, cur.ID)
	}
	return u, cur, c, nil
}

// Click makes a user press a button of a message the bot sent: it
// dispatches INTERACTION_CREATE (type 3, component_type 2) carrying the
// message. The test fails if the message (in its current state, not the
// snapshot given) has no enabled, non-link button with that custom_id, or
// if the user cannot see the message, since no user could click it.
func (s *Server) Click(userID string, msg *Message, customID string) *Interaction {
	s.t.Helper()
	s.mu.Lock()
	in, payload, err := s.click(userID, msg, customID)
	s.mu.Unlock()
	if err != nil {
		s.t.Fatalf("discordtest: Click %q: %v", customID, err)
	}
	return s.send(in, payload)
}

// ClickErr is Click returning what Click would fail the test with: for
// programs and for tests in which the bot may be down (no session to
// receive the interaction).
func (s *Server) ClickErr(userID string, msg *Message, customID string) (*Interaction, error) {
	s.mu.Lock()
	in, payload, err := s.click(userID, msg, customID)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("discordtest: Click %q: %w", customID, err)
	}
	return s.sendErr(in, payload)
}

// ClickOnShardErr is ClickErr delivered to the session of shard of shards
// instead of the one holding the message's guild: an interaction reaching
// a process that does not hold the guild, as one behind a load balancer
// (an HTTP interactions endpoint) may. With two processes answering one
// table, a test can check that a move is still made once.
func (s *Server) ClickOnShardErr(shard, shards int, userID string, msg *Message, customID string) (*Interaction, error) {
	s.mu.Lock()
	in, payload, err := s.click(userID, msg, customID)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("discordtest: Click %q: %w", customID, err)
	}
	onShard := func(sess *gwSession) bool {
		return sess.shard != nil && sess.shard[0] == shard && sess.shard[1] == shards
	}
	if s.dispatchWhere("INTERACTION_CREATE", payload, 0, onShard) == 0 {
		return nil, ErrNoSession
	}
	return s.handle(in), nil
}

func (s *Server) click(userID string, msg *Message, customID string) (*interaction, map[string]any, error) {
	u, cur, c, err := s.componentTarget(userID, msg, customID)
	if err != nil {
		return nil, nil, err
	}
	if c.Type != ComponentButton || c.Style == ButtonLink || c.Style == ButtonPremium {
		return nil, nil, fmt.Errorf("component %q is not a button that sends an interaction", customID)
	}
	in := s.newInteraction(interactionMessageComponent, customID, u, s.channels[cur.ChannelID])
	in.sourceMsg = cur.ID
	data := map[string]any{"custom_id": customID, "component_type": ComponentButton}
	return in, s.interactionJSON(in, data), nil
}

// Select makes a user pick values in a select menu of a message (type 3,
// component_type of the menu). For a string select the values must be
// option values; their count must fit min_values and max_values.
func (s *Server) Select(userID string, msg *Message, customID string, values ...string) *Interaction {
	s.t.Helper()
	s.mu.Lock()
	in, payload, err := s.selectValues(userID, msg, customID, values)
	s.mu.Unlock()
	if err != nil {
		s.t.Fatalf("discordtest: Select %q: %v", customID, err)
	}
	return s.send(in, payload)
}

// SelectErr is Select returning its error instead of failing the test.
func (s *Server) SelectErr(userID string, msg *Message, customID string, values ...string) (*Interaction, error) {
	s.mu.Lock()
	in, payload, err := s.selectValues(userID, msg, customID, values)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("discordtest: Select %q: %w", customID, err)
	}
	return s.sendErr(in, payload)
}

func (s *Server) selectValues(userID string, msg *Message, customID string, values []string) (*interaction, map[string]any, error) {
	u, cur, c, err := s.componentTarget(userID, msg, customID)
	if err != nil {
		return nil, nil, err
	}
	if !c.IsSelect() {
		return nil, nil, fmt.Errorf("component %q is not a select menu", customID)
	}
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return nil, nil, fmt.Errorf("%d values given; the menu takes %d to %d", len(values), minV, maxV)
	}
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] {
			return nil, nil, fmt.Errorf("value %q given twice", v)
		}
		seen[v] = true
		if c.Type == ComponentStringSelect && !slices.ContainsFunc(c.Options, func(o SelectOption) bool { return o.Value == v }) {
			return nil, nil, fmt.Errorf("no option with value %q", v)
		}
	}
	in := s.newInteraction(interactionMessageComponent, customID, u, s.channels[cur.ChannelID])
	in.sourceMsg = cur.ID
	data := map[string]any{"custom_id": customID, "component_type": c.Type, "values": values}
	return in, s.interactionJSON(in, data), nil
}

// SubmitModal makes the user who received a modal (the type 9 response to
// opened) submit it with the given text input values, keyed by custom_id.
// It dispatches a type 5 MODAL_SUBMIT interaction. The test fails if the bot
// did not open a modal, if another user submits it, if it was submitted
// already, or if the values break the inputs' required/min/max rules.
func (s *Server) SubmitModal(userID string, opened *Interaction, values map[string]string) *Interaction {
	s.t.Helper()
	s.mu.Lock()
	in, payload, err := s.submitModal(userID, opened, values)
	s.mu.Unlock()
	if err != nil {
		s.t.Fatalf("discordtest: SubmitModal: %v", err)
	}
	return s.send(in, payload)
}

func (s *Server) submitModal(userID string, opened *Interaction, values map[string]string) (*interaction, map[string]any, error) {
	src := opened.in
	if src.modal == nil {
		return nil, nil, fmt.Errorf("%s has no open modal", opened)
	}
	if userID != src.userID {
		return nil, nil, fmt.Errorf("the modal was shown to user %s, not %s", src.userID, userID)
	}
	rows := []map[string]any{}
	used := 0
	for _, row := range src.modal.Components {
		for _, ti := range row.Components {
			v, given := values[ti.CustomID]
			if given {
				used++
			} else {
				v = ti.Value
			}
			required := ti.Required == nil || *ti.Required
			switch n := length(v); {
			case required && n == 0:
				return nil, nil, fmt.Errorf("input %q is required", ti.CustomID)
			case n > 0 && ti.MinLength != nil && n < *ti.MinLength,
				ti.MaxLength != nil && n > *ti.MaxLength:
				return nil, nil, fmt.Errorf("input %q: length %d outside the allowed range", ti.CustomID, n)
			}
			rows = append(rows, map[string]any{
				"type":       ComponentActionRow,
				"components": []any{map[string]any{"type": ComponentTextInput, "custom_id": ti.CustomID, "value": v}},
			})
		}
	}
	if used != len(values) {
		return nil, nil, fmt.Errorf("values name inputs the modal does not have")
	}
	u := s.users[userID]
	in := s.newInteraction(interactionModalSubmit, src.modal.CustomID, u, s.channels[src.channelID])
	in.sourceMsg = src.sourceMsg
	data := map[string]any{"custom_id": src.modal.CustomID, "components": rows}
	src.modal = nil
	return in, s.interactionJSON(in, data), nil
}

// interactionCallback serves POST /interactions/{id}/{token}/callback.
func (s *Server) interactionCallback(rq *request) reply {
	in := s.interactions[rq.params["interaction.id"]]
	if in == nil || in.token != rq.params["interaction.token"] {
		return fail(errUnknownInteraction())
	}
	rq.in = in
	if in.ack != 0 {
		return fail(apiErr(http.StatusBadRequest, codeAlreadyAcknowledged, "Interaction has already been acknowledged."))
	}
	if s.clock.Now().Sub(in.created) > ResponseDeadline {
		return fail(errUnknownInteraction())
	}
	var body struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if e := decodeBody(rq, &body); e != nil {
		return fail(e)
	}
	invalidType := func() reply {
		var f formErrors
		f.add([]string{"type"}, "INTERACTION_RESPONSE_TYPE_INVALID",
			fmt.Sprintf("Interaction response type %d is not valid for this interaction", body.Type))
		return fail(f.apiError())
	}
	data := []string{"data"}
	resp := Response{Type: body.Type, Body: slices.Clone(rq.body)}
	if (in.kind == interactionAutocomplete) != (body.Type == CallbackAutocompleteResult) {
		// An autocomplete interaction is answered with choices only, and
		// only it may be.
		return invalidType()
	}
	switch body.Type {
	case CallbackAutocompleteResult:
		choices, e := s.autocompleteChoices(in, data, body.Data)
		if e != nil {
			return fail(e)
		}
		resp.Choices = choices
	case CallbackChannelMessage:
		m, _, e := s.newMessage(rq, data, body.Data, flagsInteraction)
		if e != nil {
			return fail(e)
		}
		in.original = s.storeResponse(in, m).ID
		resp.Message = m // stored, so never written to; Response copies it
	case CallbackDeferredMessage:
		var f formErrors
		patch := parseMessage(&f, data, body.Data)
		flags := 0
		if patch.flags != nil {
			flags = *patch.flags
		}
		if bad := flags &^ flagsDeferred; bad != 0 {
			f.add(at(data, "flags"), "MESSAGE_FLAGS_INVALID", "Only EPHEMERAL (64) may be set on a deferred response.")
		}
		if !f.empty() {
			return fail(f.apiError())
		}
		m := s.storeResponse(in, &Message{Flags: flags | FlagLoading})
		in.original = m.ID
		resp.Message = m // stored, so never written to; Response copies it
	case CallbackDeferredUpdate, CallbackUpdateMessage:
		if in.sourceMsg == "" {
			return invalidType()
		}
		src := s.messages[in.sourceMsg]
		if src == nil {
			return fail(errUnknownMessage())
		}
		if body.Type == CallbackUpdateMessage {
			var e *APIError
			// The ephemeral flag cannot change on update; it is ignored.
			if src, e = s.edit(rq, data, src, body.Data, true); e != nil {
				return fail(e)
			}
		}
		in.original = src.ID
		resp.Message = src
	case CallbackModal:
		if in.kind == interactionModalSubmit {
			return invalidType()
		}
		var modal Modal
		if len(body.Data) > 0 {
			if err := json.Unmarshal(body.Data, &modal); err != nil {
				var f formErrors
				f.add(data, "MODEL_TYPE_CONVERT", "Invalid modal: "+err.Error())
				return fail(f.apiError())
			}
		}
		var f formErrors
		validateModal(&f, data, &modal)
		if !f.empty() {
			return fail(f.apiError())
		}
		in.modal = &modal // never written to; Response copies it
		resp.Modal = in.modal
	default:
		return invalidType()
	}
	in.ack = body.Type
	in.response = resp
	in.ackArrived = rq.arrived
	close(in.acked)
	if rq.query.Get("with_response") != "true" {
		return noContent()
	}
	return ok(s.callbackResponseJSON(in, resp))
}

// autocompleteChoices reads and checks the choices of an autocomplete
// result (callback 8): at most 25, each with a name of 1 to 100 characters
// and a value of the focused option's type (a string of 1 to 100
// characters for a string option). A result without choices (discordgo
// leaves an empty list out) offers none; s.mu is held.
func (s *Server) autocompleteChoices(in *interaction, data []string, body json.RawMessage) ([]CommandChoice, *APIError) {
	var payload struct {
		Choices []CommandChoice `json:"choices"`
	}
	if len(body) > 0 && string(body) != "null" {
		if err := json.Unmarshal(body, &payload); err != nil {
			var f formErrors
			f.add(data, "MODEL_TYPE_CONVERT", "Invalid autocomplete result: "+err.Error())
			return nil, f.apiError()
		}
	}
	var f formErrors
	cp := at(data, "choices")
	if f.maxItems(cp, len(payload.Choices), maxCommandChoices) {
		for i, ch := range payload.Choices {
			validateChoice(&f, at(cp, i), ch, in.focusedType)
		}
	}
	if !f.empty() {
		return nil, f.apiError()
	}
	if payload.Choices == nil {
		payload.Choices = []CommandChoice{}
	}
	return payload.Choices, nil
}

// storeResponse stores a message created by an interaction in its channel,
// ephemeral to the user if flagged; s.mu is held.
func (s *Server) storeResponse(in *interaction, m *Message) *Message {
	m.ChannelID = in.channelID
	m.GuildID = in.guildID
	m.InteractionID = in.id
	if in.kind == interactionApplicationCommand {
		m.Type = 20
	}
	if m.Ephemeral() {
		m.EphemeralTo = in.userID
	}
	return s.store(m)
}

func (s *Server) callbackResponseJSON(in *interaction, resp Response) map[string]any {
	cb := map[string]any{"id": in.id, "type": in.kind}
	out := map[string]any{"interaction": cb}
	res := map[string]any{"type": resp.Type}
	if m := s.messages[in.original]; m != nil && resp.Type != CallbackModal {
		cb["response_message_id"] = m.ID
		cb["response_message_loading"] = m.Loading()
		cb["response_message_ephemeral"] = m.Ephemeral()
		res["message"] = s.messageJSON(m)
	}
	out["resource"] = res
	return out
}

// webhookInteraction finds the interaction behind an interaction webhook
// route. A token is usable once the interaction was acknowledged and for 15
// minutes after it was created; later Discord answers 401 Invalid Webhook
// Token (50027).
func (s *Server) webhookInteraction(rq *request) (*interaction, *APIError) {
	in := s.byToken[rq.params["webhook.token"]]
	if in == nil || rq.params["webhook.id"] != s.AppID {
		return nil, errUnknownWebhook()
	}
	rq.in = in
	if s.clock.Now().Sub(in.created) > TokenLifetime {
		return nil, apiErr(http.StatusUnauthorized, codeInvalidWebhookToken, "Invalid Webhook Token")
	}
	if in.ack == 0 || in.kind == interactionAutocomplete {
		// An autocomplete interaction has no message to follow up or edit.
		return nil, errUnknownWebhook()
	}
	return in, nil
}

// executeWebhook serves POST /webhooks/{app}/{token}: a follow-up.
func (s *Server) executeWebhook(rq *request) reply {
	in, e := s.webhookInteraction(rq)
	if e != nil {
		return fail(e)
	}
	m, _, e := s.newMessage(rq, nil, rq.body, flagsInteraction)
	if e != nil {
		return fail(e)
	}
	if orig := s.messages[in.original]; in.ack == CallbackDeferredMessage && !in.filled && orig != nil && orig.Loading() {
		// The first follow-up after a deferred response replaces the
		// loading message and keeps the deferral's visibility.
		m.ID, m.CreatedAt = orig.ID, orig.CreatedAt
		m.ChannelID, m.GuildID, m.InteractionID, m.Type = orig.ChannelID, orig.GuildID, orig.InteractionID, orig.Type
		m.EphemeralTo = orig.EphemeralTo
		m.Flags = m.Flags&^FlagEphemeral | orig.Flags&FlagEphemeral
		s.messages[m.ID] = m
		in.filled = true
	} else {
		s.storeResponse(in, m)
		in.followups = append(in.followups, m.ID)
		if ch := s.channels[m.ChannelID]; ch != nil && !m.Ephemeral() {
			ch.Archived = false // a new message unarchives a thread
		}
	}
	if rq.query.Get("wait") != "true" {
		return noContent()
	}
	return ok(s.messageJSON(m))
}

// webhookMessage finds @original or a follow-up of the interaction.
func (s *Server) webhookMessage(rq *request) (*Message, *APIError) {
	in, e := s.webhookInteraction(rq)
	if e != nil {
		return nil, e
	}
	id := rq.params["message.id"]
	if id == "@original" {
		id = in.original
	}
	if id == "" || (id != in.original && !slices.Contains(in.followups, id)) {
		return nil, errUnknownMessage()
	}
	m := s.messages[id]
	if m == nil {
		return nil, errUnknownMessage()
	}
	return m, nil
}
