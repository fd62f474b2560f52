package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Interaction types, for hand-made payloads
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-type).
const (
	InteractionPing           = 1
	InteractionCommand        = 2
	InteractionComponent      = 3
	InteractionAutocomplete   = 4
	InteractionModalSubmitted = 5
)

// InteractionPayload returns the INTERACTION_CREATE payload Discord would
// send when userID acts in channelID ("" for the user's DM with the bot,
// created if need be): a fresh id and token, the
// application id, the type, the user's locale, the channel, and in a guild
// channel guild_id, guild_locale and member (with the user), in a DM
// channel user. data is used as given; msg, if not nil, is the message a
// component is on. Nothing is checked against the registered commands or
// the message's components: a test changes whatever it likes in the map
// and sends it with DispatchInteraction, to play a client that sends what
// Discord's own client would not.
func (s *Server) InteractionPayload(kind int, userID, channelID string, data map[string]any, msg *Message) map[string]any {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[userID]
	if u == nil {
		s.t.Fatalf("discordtest: InteractionPayload: unknown user %s", userID)
		return nil
	}
	if channelID == "" {
		if channelID = s.dmChannel(userID); channelID == "" {
			channelID = s.newID()
			s.channels[channelID] = &Channel{ID: channelID, Type: ChannelDM, Recipient: userID}
		}
	}
	ch := s.channels[channelID]
	if ch == nil {
		s.t.Fatalf("discordtest: InteractionPayload: unknown channel %s", channelID)
		return nil
	}
	in := &interaction{id: s.newID(), kind: kind, userID: userID, guildID: ch.GuildID, channelID: ch.ID}
	in.token = randomToken("interaction:"+in.id+":", 48)
	if msg != nil {
		in.sourceMsg = msg.ID
	}
	p := s.interactionJSON(in, data)
	if data == nil {
		delete(p, "data")
	}
	return p
}

// DispatchInteraction sends a hand-made INTERACTION_CREATE payload to every
// live bot session, as given (as JSON: Go's encoder turns invalid UTF-8
// into U+FFFD, as no JSON payload can carry it). The fake registers the interaction
// under the payload's id and token (strings; a payload without them cannot
// be answered), with the user of member.user or user, guild_id, channel_id,
// and the message of message.id for a component, so that the bot's answers
// are accepted or rejected as for any interaction and the returned handle
// reports them. It returns ErrNoSession when no session is on the gateway.
func (s *Server) DispatchInteraction(payload map[string]any) (*Interaction, error) {
	str := func(m map[string]any, k string) string {
		v, _ := m[k].(string)
		return v
	}
	obj := func(m map[string]any, k string) map[string]any {
		v, _ := m[k].(map[string]any)
		return v
	}
	// Read the payload as the bot will: through JSON.
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("discordtest: DispatchInteraction: %w", err)
	}
	var view map[string]any
	if err := json.Unmarshal(raw, &view); err != nil {
		return nil, fmt.Errorf("discordtest: DispatchInteraction: %w", err)
	}
	payload = view
	in := &interaction{
		id:        str(payload, "id"),
		token:     str(payload, "token"),
		guildID:   str(payload, "guild_id"),
		channelID: str(payload, "channel_id"),
		acked:     make(chan struct{}),
	}
	if k, ok := toFloat(payload["type"]); ok {
		in.kind = int(k)
	}
	if data := obj(payload, "data"); data != nil {
		in.name = str(data, "custom_id")
		if in.name == "" {
			in.name = str(data, "name")
		}
	}
	if m := obj(payload, "member"); m != nil {
		in.userID = str(obj(m, "user"), "id")
	}
	if in.userID == "" {
		in.userID = str(obj(payload, "user"), "id")
	}
	s.mu.Lock()
	in.created = s.clock.Now()
	if m := obj(payload, "message"); m != nil && s.messages[str(m, "id")] != nil {
		in.sourceMsg = str(m, "id")
	}
	if in.id != "" && in.token != "" {
		if s.interactions[in.id] != nil || s.byToken[in.token] != nil {
			s.mu.Unlock()
			return nil, errors.New("discordtest: DispatchInteraction: an interaction with this id or token exists")
		}
		s.interactions[in.id] = in
		s.byToken[in.token] = in
	}
	s.mu.Unlock()
	h, err := s.sendErr(in, view)
	if err != nil {
		return nil, fmt.Errorf("discordtest: DispatchInteraction: %w", err)
	}
	return h, nil
}
