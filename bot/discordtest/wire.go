package discordtest

import "time"

// JSON shapes of Discord objects the fake sends. They hold what discordgo
// reads and what Discord's documentation lists as always present.

func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000+00:00")
}

func userJSON(u *User) map[string]any {
	m := map[string]any{
		"id":            u.ID,
		"username":      u.Username,
		"discriminator": "0",
		"global_name":   u.Username,
		"avatar":        nil,
		"public_flags":  0,
	}
	if u.Bot {
		m["bot"] = true
	}
	return m
}

// memberJSON is a guild member; s.mu is held.
func (s *Server) memberJSON(u *User) map[string]any {
	return map[string]any{
		"user":      userJSON(u),
		"nick":      nil,
		"avatar":    nil,
		"roles":     []string{},
		"joined_at": timestamp(time.Unix(1700000000, 0)),
		"deaf":      false,
		"mute":      false,
		"flags":     0,
		"pending":   false,
	}
}

// channelJSON is a channel object; s.mu is held.
func (s *Server) channelJSON(ch *Channel) map[string]any {
	m := map[string]any{"id": ch.ID, "type": ch.Type, "flags": 0}
	switch {
	case ch.Type == ChannelDM:
		m["last_message_id"] = nil
		recipients := []any{}
		if u := s.user(ch.Recipient); u != nil {
			recipients = append(recipients, userJSON(u))
		}
		m["recipients"] = recipients
	case ch.IsThread():
		m["guild_id"] = ch.GuildID
		m["parent_id"] = ch.ParentID
		m["name"] = ch.Name
		m["owner_id"] = ch.OwnerID
		m["rate_limit_per_user"] = 0
		m["member_count"] = len(ch.Members)
		m["message_count"] = 0
		m["thread_metadata"] = map[string]any{
			"archived":              ch.Archived,
			"locked":                false,
			"auto_archive_duration": ch.ArchiveDuration,
			"archive_timestamp":     timestamp(s.clock.Now()),
			"create_timestamp":      timestamp(s.clock.Now()),
		}
	default:
		m["guild_id"] = ch.GuildID
		m["name"] = ch.Name
		m["position"] = 0
		m["permission_overwrites"] = []any{}
		m["nsfw"] = false
		m["parent_id"] = nil
		m["topic"] = nil
		m["rate_limit_per_user"] = 0
		m["last_message_id"] = nil
	}
	return m
}

// guildJSON is the guild object of GET /guilds/{id}; s.mu is held.
func (s *Server) guildJSON(g *Guild) map[string]any {
	return map[string]any{
		"id":               g.ID,
		"name":             g.Name,
		"icon":             nil,
		"owner_id":         "0",
		"preferred_locale": g.PreferredLocale,
		"roles": []any{map[string]any{
			"id": g.ID, "name": "@everyone", "permissions": appPermissions, "position": 0,
			"color": 0, "hoist": false, "managed": false, "mentionable": false, "flags": 0,
		}},
		"emojis":   []any{},
		"stickers": []any{},
		"features": []string{},
	}
}

// guildCreateJSON is the GUILD_CREATE payload; s.mu is held.
func (s *Server) guildCreateJSON(id string) map[string]any {
	g := s.guilds[id]
	m := s.guildJSON(g)
	channels, threads := []any{}, []any{}
	for _, ch := range s.channels {
		if ch.GuildID != id {
			continue
		}
		if ch.IsThread() {
			threads = append(threads, s.channelJSON(ch))
		} else {
			channels = append(channels, s.channelJSON(ch))
		}
	}
	m["joined_at"] = timestamp(s.clock.Now())
	m["large"] = false
	m["unavailable"] = false
	m["member_count"] = len(s.users) + 1
	m["members"] = []any{}
	m["channels"] = channels
	m["threads"] = threads
	m["voice_states"] = []any{}
	m["presences"] = []any{}
	m["stage_instances"] = []any{}
	m["guild_scheduled_events"] = []any{}
	return m
}

// wireMessage is a message object as REST and gateway payloads carry it.
type wireMessage struct {
	*Message
	Author           map[string]any `json:"author"`
	Timestamp        string         `json:"timestamp"`
	EditedTimestamp  *string        `json:"edited_timestamp"`
	Mentions         []any          `json:"mentions"`
	MentionRoles     []string       `json:"mention_roles"`
	MentionEveryone  bool           `json:"mention_everyone"`
	Pinned           bool           `json:"pinned"`
	WebhookID        string         `json:"webhook_id,omitempty"`
	ApplicationID    string         `json:"application_id,omitempty"`
	MessageReference map[string]any `json:"message_reference,omitempty"`
}

// messageJSON renders m. The result may be marshaled after s.mu is
// released: it holds a shallow copy of m, whose embeds, components and
// attachments are never written to once m is stored (see clone.go).
func (s *Server) messageJSON(m *Message) wireMessage {
	c := new(*m)
	if c.Embeds == nil {
		c.Embeds = []Embed{}
	}
	if c.Components == nil {
		c.Components = []Component{}
	}
	if c.Attachments == nil {
		c.Attachments = []Attachment{}
	}
	w := wireMessage{
		Message:      c,
		Author:       userJSON(&s.BotUser),
		Timestamp:    timestamp(c.CreatedAt),
		Mentions:     []any{},
		MentionRoles: []string{},
	}
	if !c.EditedAt.IsZero() {
		ts := timestamp(c.EditedAt)
		w.EditedTimestamp = &ts
	}
	if c.InteractionID != "" {
		w.WebhookID = s.AppID
		w.ApplicationID = s.AppID
	}
	if c.ReplyTo != "" {
		w.MessageReference = map[string]any{"message_id": c.ReplyTo, "channel_id": c.ChannelID, "guild_id": c.GuildID}
	}
	return w
}
