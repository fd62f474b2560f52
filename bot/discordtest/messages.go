package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// msgPatch holds the message fields a payload carries; a nil field was
// absent. JSON null is decoded to the zero value, which clears the field.
type msgPatch struct {
	content     *string
	embeds      *[]Embed
	components  *[]Component
	flags       *int
	tts         *bool
	attachments *[]map[string]any
	reference   *struct {
		MessageID string `json:"message_id"`
	}
	stickers *[]string
	poll     bool
	files    []Attachment
}

func decodeField[T any](f *formErrors, p []string, raw map[string]json.RawMessage, key string) *T {
	b, ok := raw[key]
	if !ok {
		return nil
	}
	v := new(T)
	if string(b) == "null" {
		return v
	}
	if err := json.Unmarshal(b, v); err != nil {
		f.add(at(p, key), "MODEL_TYPE_CONVERT", "Invalid value: "+err.Error())
		return nil
	}
	return v
}

// parseMessage reads the message fields of body (an object, or null).
func parseMessage(f *formErrors, p []string, body []byte) *msgPatch {
	patch := &msgPatch{}
	var raw map[string]json.RawMessage
	if len(body) > 0 {
		if err := json.Unmarshal(body, &raw); err != nil {
			f.add(p, "MODEL_TYPE_CONVERT", "Expected an object")
			return patch
		}
	}
	patch.content = decodeField[string](f, p, raw, "content")
	patch.embeds = decodeField[[]Embed](f, p, raw, "embeds")
	patch.components = decodeField[[]Component](f, p, raw, "components")
	patch.flags = decodeField[int](f, p, raw, "flags")
	patch.tts = decodeField[bool](f, p, raw, "tts")
	patch.attachments = decodeField[[]map[string]any](f, p, raw, "attachments")
	patch.reference = decodeField[struct {
		MessageID string `json:"message_id"`
	}](f, p, raw, "message_reference")
	patch.stickers = decodeField[[]string](f, p, raw, "sticker_ids")
	if b, ok := raw["poll"]; ok && string(b) != "null" {
		patch.poll = true
	}
	return patch
}

// apply writes the patch into m. Flags are left to the caller.
func (pt *msgPatch) apply(m *Message) {
	if pt.content != nil {
		m.Content = *pt.content
	}
	if pt.embeds != nil {
		m.Embeds = *pt.embeds
	}
	if pt.components != nil {
		m.Components = *pt.components
	}
	if pt.tts != nil {
		m.TTS = *pt.tts
	}
	if pt.attachments != nil {
		keep := map[string]bool{}
		for _, a := range *pt.attachments {
			keep[fmt.Sprint(a["id"])] = true
		}
		m.Attachments = slices.DeleteFunc(m.Attachments, func(a Attachment) bool { return !keep[a.ID] })
	}
	m.Attachments = append(m.Attachments, pt.files...)
}

// sendsSomething reports whether a create payload carries something that
// makes a message non-empty besides what Message holds.
func (pt *msgPatch) sendsSomething() bool {
	return pt.poll || (pt.stickers != nil && len(*pt.stickers) > 0)
}

// newMessage builds a message from a create payload and validates it.
func (s *Server) newMessage(rq *request, p []string, body []byte, allowedFlags int) (*Message, *msgPatch, *APIError) {
	var f formErrors
	patch := parseMessage(&f, p, body)
	if !f.empty() {
		return nil, nil, f.apiError()
	}
	patch.files = s.uploads(rq)
	m := &Message{}
	patch.apply(m)
	if patch.flags != nil {
		m.Flags = *patch.flags
	}
	validateMessage(&f, p, m, allowedFlags)
	if !f.empty() {
		return nil, nil, f.apiError()
	}
	if messageEmpty(m) && !patch.sendsSomething() {
		return nil, nil, errEmptyMessage()
	}
	return m, patch, nil
}

// uploads gives the request's files attachment ids; s.mu is held.
func (s *Server) uploads(rq *request) []Attachment {
	out := slices.Clone(rq.files)
	for i := range out {
		out[i].ID = s.newID()
		out[i].URL = s.http.URL + "/attachments/" + out[i].ID + "/" + url.PathEscape(out[i].Filename)
	}
	return out
}

// store records a new message; s.mu is held. A stored message is never
// written to again: edits store a new one (see clone.go), so it may be
// shared inside the fake without a copy.
func (s *Server) store(m *Message) *Message {
	m.ID = s.newID()
	m.CreatedAt = s.clock.Now()
	s.messages[m.ID] = m
	s.msgOrder = append(s.msgOrder, m.ID)
	return m
}

// edit applies a PATCH payload to a stored message and validates the result.
// ignoreEphemeral drops bit 64 from the payload's flags, as an update
// callback does (the ephemeral flag cannot change there).
func (s *Server) edit(rq *request, p []string, m *Message, body []byte, ignoreEphemeral bool) (*Message, *APIError) {
	var f formErrors
	patch := parseMessage(&f, p, body)
	if !f.empty() {
		return nil, f.apiError()
	}
	if ignoreEphemeral && patch.flags != nil {
		*patch.flags &^= FlagEphemeral
	}
	patch.files = s.uploads(rq)
	// m stays as it is (stored messages are never written to): n starts
	// as a shallow copy, whose embeds and components the patch replaces
	// whole, if at all, and whose attachments apply changes in place.
	n := new(*m)
	n.Attachments = slices.Clone(m.Attachments)
	patch.apply(n)
	if patch.flags != nil {
		fl := *patch.flags
		if fl&FlagEphemeral != 0 && !m.Ephemeral() {
			f.add(at(p, "flags"), "MESSAGE_FLAGS_INVALID", "A message cannot become ephemeral.")
		}
		if m.Flags&FlagComponentsV2 != 0 && fl&FlagComponentsV2 == 0 {
			f.add(at(p, "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "IS_COMPONENTS_V2 cannot be removed.")
		}
		if bad := fl &^ (flagsEdit | FlagEphemeral); bad != 0 {
			f.add(at(p, "flags"), "MESSAGE_FLAGS_INVALID", fmt.Sprintf("Invalid flags: %d cannot be set here.", bad))
		}
		n.Flags = fl&^FlagEphemeral | m.Flags&(FlagEphemeral|FlagSuppressNotification)
	}
	loading := m.Loading()
	n.Flags &^= FlagLoading
	validateMessage(&f, p, n, flagsEdit|FlagEphemeral|FlagSuppressNotification)
	if !f.empty() {
		return nil, f.apiError()
	}
	if messageEmpty(n) {
		return nil, errEmptyMessage()
	}
	if !loading {
		n.EditedAt = s.clock.Now()
		n.Edits++
	}
	s.messages[n.ID] = n
	return n, nil
}

func (s *Server) getChannel(rq *request) reply {
	ch := s.channels[rq.params["channel.id"]]
	if ch == nil {
		return fail(errUnknownChannel())
	}
	return ok(s.channelJSON(ch))
}

// archived is the error for an edit or a deletion of a public message m
// in an archived thread (400, 50083), through a channel route or a
// webhook; nil otherwise. s.mu is held.
func (s *Server) archived(m *Message) *APIError {
	if ch := s.channels[m.ChannelID]; ch != nil && ch.Archived && !m.Ephemeral() {
		return apiErr(http.StatusBadRequest, codeThreadArchived, "Thread is archived")
	}
	return nil
}

// modifyThread serves PATCH /channels/{channel.id} for a thread: archived
// (true or false) is the one field it takes.
func (s *Server) modifyThread(rq *request) reply {
	ch := s.channels[rq.params["channel.id"]]
	if ch == nil {
		return fail(errUnknownChannel())
	}
	var body map[string]json.RawMessage
	if e := decodeBody(rq, &body); e != nil {
		return fail(e)
	}
	var f formErrors
	for k := range body {
		if k != "archived" {
			f.add([]string{k}, "UNSUPPORTED", "The fake changes a thread's archived field only.")
		}
	}
	var archived bool
	if raw, ok := body["archived"]; !ok || json.Unmarshal(raw, &archived) != nil {
		f.add([]string{"archived"}, "BASE_TYPE_BOOLEAN", "Must be either true or false.")
	}
	if !ch.IsThread() {
		f.add([]string{"archived"}, "CHANNEL_TYPE_INVALID", "Only a thread can be archived.")
	}
	if !f.empty() {
		return fail(f.apiError())
	}
	ch.Archived = archived
	return ok(s.channelJSON(ch))
}

// channelMessage finds a public message of a channel; ephemeral messages
// cannot be reached through channel routes.
func (s *Server) channelMessage(rq *request) (*Message, *APIError) {
	if s.channels[rq.params["channel.id"]] == nil {
		return nil, errUnknownChannel()
	}
	m := s.messages[rq.params["message.id"]]
	if m == nil || m.ChannelID != rq.params["channel.id"] || m.Ephemeral() {
		return nil, errUnknownMessage()
	}
	return m, nil
}

func (s *Server) listMessages(rq *request) reply {
	chID := rq.params["channel.id"]
	if s.channels[chID] == nil {
		return fail(errUnknownChannel())
	}
	limit := 50
	if v := rq.query.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			var f formErrors
			f.add([]string{"limit"}, "NUMBER_TYPE_MAX", "Must be between 1 and 100.")
			return fail(f.apiError())
		}
		limit = n
	}
	before, after := rq.query.Get("before"), rq.query.Get("after")
	out := []wireMessage{}
	for i := len(s.msgOrder) - 1; i >= 0 && len(out) < limit; i-- {
		m := s.messages[s.msgOrder[i]]
		switch {
		case m == nil || m.ChannelID != chID || m.Ephemeral():
		case before != "" && compareIDs(m.ID, before) >= 0:
		case after != "" && compareIDs(m.ID, after) <= 0:
		default:
			out = append(out, s.messageJSON(m))
		}
	}
	return ok(out)
}

func (s *Server) createMessage(rq *request) reply {
	ch := s.channels[rq.params["channel.id"]]
	if ch == nil {
		return fail(errUnknownChannel())
	}
	if ch.Type == ChannelDM && s.closedDMs[ch.Recipient] {
		return fail(apiErr(http.StatusForbidden, codeCannotDM, "Cannot send messages to this user"))
	}
	if e := s.mayNotSend(rq, true); e != nil {
		return fail(e)
	}
	m, patch, e := s.newMessage(rq, nil, rq.body, flagsChannelMessage)
	if e != nil {
		return fail(e)
	}
	if patch.reference != nil && patch.reference.MessageID != "" {
		ref := s.messages[patch.reference.MessageID]
		if ref == nil || ref.ChannelID != ch.ID || ref.Ephemeral() {
			var f formErrors
			f.add([]string{"message_reference"}, "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
			return fail(f.apiError())
		}
		m.ReplyTo = ref.ID
		m.Type = 19
	}
	m.ChannelID = ch.ID
	m.GuildID = ch.GuildID
	ch.Archived = false // a new message unarchives a thread
	s.store(m)
	return ok(s.messageJSON(m))
}

// finder finds the message a route names: in a channel, or sent through
// an interaction's webhook.
type finder func(*Server, *request) (*Message, *APIError)

// getFound, editFound and deleteFound are the GET, PATCH and DELETE
// handlers of a message route, whichever way it names its message.
func getFound(find finder) handler {
	return func(s *Server, rq *request) reply {
		m, e := find(s, rq)
		if e != nil {
			return fail(e)
		}
		return ok(s.messageJSON(m))
	}
}

func editFound(find finder) handler {
	return func(s *Server, rq *request) reply {
		m, e := find(s, rq)
		if e != nil {
			return fail(e)
		}
		if e := s.mayNotSend(rq, false); e != nil {
			return fail(e) // a channel route (a webhook's has no channel.id)
		}
		if e := s.archived(m); e != nil {
			return fail(e)
		}
		n, e := s.edit(rq, nil, m, rq.body, false)
		if e != nil {
			return fail(e)
		}
		return ok(s.messageJSON(n))
	}
}

func deleteFound(find finder) handler {
	return func(s *Server, rq *request) reply {
		m, e := find(s, rq)
		if e != nil {
			return fail(e)
		}
		if e := s.archived(m); e != nil {
			return fail(e)
		}
		delete(s.messages, m.ID)
		return noContent()
	}
}

// threadBody is the payload of the thread routes.
type threadBody struct {
	Name                string `json:"name"`
	AutoArchiveDuration *int   `json:"auto_archive_duration"`
	Type                *int   `json:"type"`
}

func (s *Server) validateThread(rq *request) (*threadBody, *APIError) {
	var body threadBody
	if e := decodeBody(rq, &body); e != nil {
		return nil, e
	}
	var f formErrors
	f.between([]string{"name"}, body.Name, 1, 100)
	if d := body.AutoArchiveDuration; d != nil && !slices.Contains([]int{60, 1440, 4320, 10080}, *d) {
		f.add([]string{"auto_archive_duration"}, "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
	}
	if !f.empty() {
		return nil, f.apiError()
	}
	return &body, nil
}

// newThread creates a thread channel; s.mu is held.
func (s *Server) newThread(id string, parent *Channel, typ int, body *threadBody) *Channel {
	th := &Channel{
		ID: id, Type: typ, GuildID: parent.GuildID, ParentID: parent.ID, Name: body.Name,
		OwnerID: s.AppID, ArchiveDuration: 1440,
	}
	if body.AutoArchiveDuration != nil {
		th.ArchiveDuration = *body.AutoArchiveDuration
	}
	s.channels[id] = th
	return th
}

func (s *Server) threadParent(rq *request) (*Channel, *APIError) {
	parent := s.channels[rq.params["channel.id"]]
	if parent == nil {
		return nil, errUnknownChannel()
	}
	if parent.Type != ChannelGuildText && parent.Type != ChannelAnnouncement {
		return nil, apiErr(http.StatusBadRequest, codeWrongChannelType, "Cannot execute action on this channel type")
	}
	return parent, nil
}

func (s *Server) startThread(rq *request) reply {
	parent, e := s.threadParent(rq)
	if e != nil {
		return fail(e)
	}
	body, e := s.validateThread(rq)
	if e != nil {
		return fail(e)
	}
	// Discord still defaults to a private thread here.
	typ := ChannelPrivateThread
	if body.Type != nil {
		typ = *body.Type
	}
	allowed := []int{ChannelPublicThread, ChannelPrivateThread}
	if parent.Type == ChannelAnnouncement {
		allowed = []int{ChannelAnnounceThread}
	}
	if !slices.Contains(allowed, typ) {
		var f formErrors
		f.add([]string{"type"}, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of %v.", allowed))
		return fail(f.apiError())
	}
	return created(s.channelJSON(s.newThread(s.newID(), parent, typ, body)))
}

func (s *Server) startThreadFromMessage(rq *request) reply {
	parent, e := s.threadParent(rq)
	if e != nil {
		return fail(e)
	}
	m, e := s.channelMessage(rq)
	if e != nil {
		return fail(e)
	}
	if s.threadFrom[m.ID] {
		return fail(apiErr(http.StatusBadRequest, codeThreadAlreadyCreated, "A thread has already been created for this message"))
	}
	body, e := s.validateThread(rq)
	if e != nil {
		return fail(e)
	}
	typ := ChannelPublicThread
	if parent.Type == ChannelAnnouncement {
		typ = ChannelAnnounceThread
	}
	s.threadFrom[m.ID] = true
	// A thread started from a message shares the message's id.
	return created(s.channelJSON(s.newThread(m.ID, parent, typ, body)))
}

func (s *Server) threadMember(rq *request) (*Channel, string, *APIError) {
	th := s.channels[rq.params["channel.id"]]
	if th == nil {
		return nil, "", errUnknownChannel()
	}
	if !th.IsThread() {
		return nil, "", apiErr(http.StatusBadRequest, codeWrongChannelType, "Cannot execute action on this channel type")
	}
	uid := rq.params["user.id"]
	if s.users[uid] == nil {
		return nil, "", apiErr(http.StatusNotFound, codeUnknownUser, "Unknown User")
	}
	return th, uid, nil
}

func (s *Server) addThreadMember(rq *request) reply {
	th, uid, e := s.threadMember(rq)
	if e != nil {
		return fail(e)
	}
	if !slices.Contains(th.Members, uid) {
		th.Members = append(th.Members, uid)
	}
	return noContent()
}

func (s *Server) removeThreadMember(rq *request) reply {
	th, uid, e := s.threadMember(rq)
	if e != nil {
		return fail(e)
	}
	th.Members = slices.DeleteFunc(th.Members, func(m string) bool { return m == uid })
	return noContent()
}
