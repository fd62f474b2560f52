package discordtest

// Changes finds the messages that are new or changed since a test last
// looked, without copying the others: an oracle that checks every message a
// user can see after every interaction need not copy a whole game's
// messages at each look. The fake stores a new *Message whenever a message
// changes, so an unchanged message is the very one seen last.
type Changes struct {
	s       *Server
	seen    map[string]*Message // message id -> the version marked seen
	pending map[string]*Message // returned since the last Mark
}

// Changes starts tracking changes: at first every message is new.
func (s *Server) Changes() *Changes {
	return &Changes{s: s, seen: map[string]*Message{}, pending: map[string]*Message{}}
}

// VisibleTo returns copies of the messages userID can see that are new or
// changed since the last Mark, oldest first.
func (c *Changes) VisibleTo(userID string) []*Message {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.msgOrder {
		m := s.messages[id]
		if m == nil || c.seen[id] == m || !s.visible(userID, m) {
			continue
		}
		c.pending[id] = m
		out = append(out, m.clone())
	}
	return out
}

// Mark records the versions VisibleTo returned since the last Mark as seen.
func (c *Changes) Mark() {
	for id, m := range c.pending {
		c.seen[id] = m
	}
	clear(c.pending)
}
