package discordtest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Component types (https://discord.com/developers/docs/components/reference).
const (
	ComponentActionRow         = 1
	ComponentButton            = 2
	ComponentStringSelect      = 3
	ComponentTextInput         = 4
	ComponentUserSelect        = 5
	ComponentRoleSelect        = 6
	ComponentMentionableSelect = 7
	ComponentChannelSelect     = 8
	ComponentSection           = 9
	ComponentTextDisplay       = 10
	ComponentThumbnail         = 11
	ComponentMediaGallery      = 12
	ComponentFile              = 13
	ComponentSeparator         = 14
	ComponentContainer         = 17
)

// Button styles.
const (
	ButtonPrimary   = 1
	ButtonSecondary = 2
	ButtonSuccess   = 3
	ButtonDanger    = 4
	ButtonLink      = 5
	ButtonPremium   = 6
)

// Message flags the fake cares about.
const (
	FlagSuppressEmbeds       = 1 << 2
	FlagEphemeral            = 1 << 6
	FlagLoading              = 1 << 7
	FlagSuppressNotification = 1 << 12
	FlagComponentsV2         = 1 << 15
)

// Interaction callback types.
const (
	CallbackPong               = 1
	CallbackChannelMessage     = 4
	CallbackDeferredMessage    = 5
	CallbackDeferredUpdate     = 6
	CallbackUpdateMessage      = 7
	CallbackAutocompleteResult = 8
	CallbackModal              = 9
	CallbackPremiumRequired    = 10
	CallbackLaunchActivity     = 12
)

// Interaction types the fake dispatches.
const (
	interactionApplicationCommand = 2
	interactionMessageComponent   = 3
	interactionAutocomplete       = 4
	interactionModalSubmit        = 5
)

// Channel types.
const (
	ChannelGuildText      = 0
	ChannelDM             = 1
	ChannelAnnouncement   = 5
	ChannelPublicThread   = 11
	ChannelPrivateThread  = 12
	ChannelAnnounceThread = 10
)

// User is a Discord user known to the fake.
type User struct {
	ID       string
	Username string
	Locale   string // the client locale sent in interactions, e.g. "pl"
	Bot      bool
}

// Guild is a guild known to the fake.
type Guild struct {
	ID              string
	Name            string
	PreferredLocale string
}

// Channel is a channel known to the fake: a guild text channel, a thread the
// bot created, or a DM channel.
type Channel struct {
	ID        string
	Type      int
	GuildID   string // empty for DMs
	ParentID  string // threads: the channel the thread lives in
	Name      string
	Recipient string   // DMs: the user on the other side
	Members   []string // private threads: users added to the thread
	OwnerID   string   // threads: who created it
	// ArchiveDuration is a thread's auto_archive_duration in minutes.
	ArchiveDuration int
	// Archived marks a thread archived (ArchiveThread): its messages can
	// be neither edited nor deleted until it is unarchived, which a new
	// message in it does, as does PATCH /channels/{id} {"archived": false}.
	Archived bool
}

// IsThread reports whether c is a thread.
func (c *Channel) IsThread() bool {
	return c.Type == ChannelPublicThread || c.Type == ChannelPrivateThread || c.Type == ChannelAnnounceThread
}

// Message is the current state of a message the bot sent. Values returned by
// the Server are copies: they do not change when the bot edits the message;
// ask the Server again for the new state.
type Message struct {
	ID          string       `json:"id"`
	ChannelID   string       `json:"channel_id"`
	GuildID     string       `json:"guild_id,omitempty"`
	Content     string       `json:"content"`
	Embeds      []Embed      `json:"embeds"`
	Components  []Component  `json:"components"`
	Flags       int          `json:"flags"`
	Attachments []Attachment `json:"attachments"`
	TTS         bool         `json:"tts"`
	// Type is Discord's message type: 0 default, 19 reply, 20 response to
	// a slash command.
	Type int `json:"type"`

	// EphemeralTo is the only user who can see an ephemeral message.
	EphemeralTo string `json:"-"`
	// InteractionID is the interaction a response or follow-up belongs to.
	InteractionID string `json:"-"`
	// ReplyTo is the message_reference of a reply.
	ReplyTo   string    `json:"-"`
	CreatedAt time.Time `json:"-"`
	EditedAt  time.Time `json:"-"` // zero if never edited
	Edits     int       `json:"-"`
}

// Ephemeral reports whether only EphemeralTo can see m.
func (m *Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports whether m is a deferred response nobody has filled yet
// (the "Bot is thinking..." state).
func (m *Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// Text concatenates, one per line, every piece of text a person could read on
// m: content, embed authors, titles, descriptions, fields and footers, button
// labels, select placeholders, option labels and descriptions, and V2 text
// displays.
func (m *Message) Text() string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(m.Content)
	for _, e := range m.Embeds {
		if e.Author != nil {
			add(e.Author.Name)
		}
		add(e.Title)
		add(e.Description)
		for _, f := range e.Fields {
			add(f.Name)
			add(f.Value)
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
	}
	walkComponents(m.Components, func(c *Component) bool {
		add(c.Label)
		add(c.Placeholder)
		add(c.Content)
		for _, o := range c.Options {
			add(o.Label)
			add(o.Description)
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// Component returns the component of m with the given custom_id, searching
// inside action rows, sections and containers, or nil.
func (m *Message) Component(customID string) *Component {
	var found *Component
	walkComponents(m.Components, func(c *Component) bool {
		if c.CustomID == customID && c.Type != ComponentActionRow {
			found = c
			return false
		}
		return true
	})
	return found
}

// CustomIDs lists the custom_id of every interactive component of m in
// display order.
func (m *Message) CustomIDs() []string {
	var ids []string
	walkComponents(m.Components, func(c *Component) bool {
		if c.CustomID != "" {
			ids = append(ids, c.CustomID)
		}
		return true
	})
	return ids
}

// Control is the custom_id of the message's control that is id itself or
// id with more parts after a "/" (a version: "hand/t1/7" for "hand/t1"),
// as a user clicks what the message shows; id when the message has none
// (a click on it then fails, naming the controls it has).
func (m *Message) Control(id string) string {
	if m == nil {
		return id
	}
	for _, c := range m.CustomIDs() {
		if c == id || strings.HasPrefix(c, id+"/") {
			return c
		}
	}
	return id
}

func (m *Message) String() string {
	kind := "message"
	if m.Ephemeral() {
		kind = "ephemeral message to " + m.EphemeralTo
	}
	return fmt.Sprintf("%s %s in %s: %q %v", kind, m.ID, m.ChannelID, m.Content, m.CustomIDs())
}

// walkComponents calls fn for every component in cs, depth first (rows
// before their children). fn returns false to stop.
// Shown is the text a reader sees on a message: its content and its text
// displays (Components V2), in order, one per line; not the labels of its
// controls (Text has those too).
func (m *Message) Shown() string {
	if m == nil {
		return ""
	}
	var parts []string
	if m.Content != "" {
		parts = append(parts, m.Content)
	}
	walkComponents(m.Components, func(c *Component) bool {
		if c.Type == ComponentTextDisplay && c.Content != "" {
			parts = append(parts, c.Content)
		}
		return true
	})
	return strings.Join(parts, "\n")
}

func walkComponents(cs []Component, fn func(*Component) bool) bool {
	for i := range cs {
		c := &cs[i]
		if !fn(c) {
			return false
		}
		if !walkComponents(c.Components, fn) {
			return false
		}
		if c.Accessory != nil && !walkComponents([]Component{*c.Accessory}, fn) {
			return false
		}
	}
	return true
}

// Embed is a rich embed as Discord sends it.
type Embed struct {
	Type        string       `json:"type,omitempty"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	URL         string       `json:"url,omitempty"`
	Timestamp   string       `json:"timestamp,omitempty"`
	Color       int          `json:"color,omitempty"`
	Footer      *EmbedFooter `json:"footer,omitempty"`
	Image       *EmbedMedia  `json:"image,omitempty"`
	Thumbnail   *EmbedMedia  `json:"thumbnail,omitempty"`
	Author      *EmbedAuthor `json:"author,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
}

// EmbedField is one name/value field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text    string `json:"text"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name    string `json:"name"`
	URL     string `json:"url,omitempty"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedMedia is an embed's image or thumbnail.
type EmbedMedia struct {
	URL string `json:"url"`
}

// Component is any message component: an action row and what it holds
// (buttons, selects), a modal text input, or a Components V2 layout piece.
// Only the fields of its Type are set.
type Component struct {
	Type        int            `json:"type"`
	ID          int            `json:"id,omitempty"`
	CustomID    string         `json:"custom_id,omitempty"`
	Style       int            `json:"style,omitempty"`
	Label       string         `json:"label,omitempty"`
	Emoji       *Emoji         `json:"emoji,omitempty"`
	URL         string         `json:"url,omitempty"`
	SKUID       string         `json:"sku_id,omitempty"`
	Disabled    bool           `json:"disabled,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	MinValues   *int           `json:"min_values,omitempty"`
	MaxValues   *int           `json:"max_values,omitempty"`
	Options     []SelectOption `json:"options,omitempty"`
	Components  []Component    `json:"components,omitempty"`
	Accessory   *Component     `json:"accessory,omitempty"`
	Content     string         `json:"content,omitempty"` // text display
	Value       string         `json:"value,omitempty"`   // text input
	Required    *bool          `json:"required,omitempty"`
	MinLength   *int           `json:"min_length,omitempty"`
	MaxLength   *int           `json:"max_length,omitempty"`
}

// IsSelect reports whether c is any kind of select menu.
func (c *Component) IsSelect() bool {
	return c.Type == ComponentStringSelect || (c.Type >= ComponentUserSelect && c.Type <= ComponentChannelSelect)
}

// Emoji is a component emoji.
type Emoji struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Animated bool   `json:"animated,omitempty"`
}

// SelectOption is one option of a string select.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Emoji       *Emoji `json:"emoji,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// Attachment is a file uploaded with a message (multipart requests).
type Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Size        int    `json:"size"`
	ContentType string `json:"content_type,omitempty"`
	URL         string `json:"url"`
	// Data is the file's content as uploaded (not served at URL).
	Data []byte `json:"-"`
}

// Modal is a modal the bot opened with a type 9 callback.
type Modal struct {
	CustomID   string      `json:"custom_id"`
	Title      string      `json:"title"`
	Components []Component `json:"components"`
}

// Response is the initial response the bot gave to an interaction.
type Response struct {
	// Type is the callback type: 4, 5, 6, 7, 8 or 9.
	Type int
	// Message is the message as it stood right after the response: the new
	// message (4), the loading placeholder (5), the message the component
	// is on (6), or that message after the update (7). Nil for a modal and
	// for autocomplete choices.
	Message *Message
	// Modal is the modal the bot opened (9).
	Modal *Modal
	// Choices are the autocomplete suggestions the bot gave (8); an empty,
	// non-nil slice when it gave none.
	Choices []CommandChoice
	// Body is the callback's JSON body as the bot sent it.
	Body json.RawMessage
}

// Command is an application command as the bot registered it, in Discord's
// JSON shape, with the id, application_id and version the fake assigned.
type Command struct {
	ID                       string            `json:"id"`
	ApplicationID            string            `json:"application_id"`
	GuildID                  string            `json:"guild_id,omitempty"`
	Version                  string            `json:"version"`
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	DefaultMemberPermissions *string           `json:"default_member_permissions"`
	DMPermission             *bool             `json:"dm_permission,omitempty"`
	Contexts                 []int             `json:"contexts,omitempty"`
	IntegrationTypes         []int             `json:"integration_types,omitempty"`
	NSFW                     bool              `json:"nsfw,omitempty"`
}

// Option returns the top-level option named name, or nil.
func (c *Command) Option(name string) *CommandOption {
	return findOption(c.Options, name)
}

// CommandOption is an option, subcommand or subcommand group of a Command.
type CommandOption struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Required                 bool              `json:"required,omitempty"`
	Choices                  []CommandChoice   `json:"choices,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	ChannelTypes             []int             `json:"channel_types,omitempty"`
	MinValue                 *float64          `json:"min_value,omitempty"`
	MaxValue                 *float64          `json:"max_value,omitempty"`
	MinLength                *int              `json:"min_length,omitempty"`
	MaxLength                *int              `json:"max_length,omitempty"`
	Autocomplete             bool              `json:"autocomplete,omitempty"`
}

// Option returns the nested option named name, or nil.
func (o *CommandOption) Option(name string) *CommandOption {
	return findOption(o.Options, name)
}

func findOption(opts []CommandOption, name string) *CommandOption {
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	return nil
}

// CommandChoice is one predefined choice of a command option. Value is a
// string or a float64, as decoded from JSON.
type CommandChoice struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	Value             any               `json:"value"`
}

// Command option types.
const (
	OptionSubCommand      = 1
	OptionSubCommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionChannel         = 7
	OptionRole            = 8
	OptionMentionable     = 9
	OptionNumber          = 10
	OptionAttachment      = 11
)

// Call is one REST request the fake received.
type Call struct {
	Seq    int // 1-based, in arrival order
	Time   time.Time
	Method string
	// Path is the request path without the /api/vN prefix, e.g.
	// "/channels/200/messages".
	Path string
	// Route is the route it matched, e.g. "POST /channels/{channel.id}/messages";
	// empty for a request no route matched.
	Route string
	Query url.Values
	// Host is the host discordgo addressed (normally discord.com).
	Host string
	// Body is the JSON payload (payload_json of a multipart request), nil if
	// the request had none.
	Body  json.RawMessage
	Files []string // names of uploaded files
	// Status is the HTTP status the fake answered with.
	Status int
	// Error is the error the fake answered with, nil on success.
	Error *APIError
	// Injected marks a 429 or 5xx the test asked for (RateLimitNext,
	// FailNext); such calls are not in Errors.
	Injected bool
	// MessageID is the message a successful request created, changed or
	// deleted (for an interaction's @original, the message it stands
	// for), "" when none.
	MessageID string
	// Limited marks a request refused with 429 by the fake's rate limits
	// (WithRateLimits); such calls are in Errors.
	Limited bool
	// Unexpected marks a request no route of the fake matched.
	Unexpected bool
}

func (c Call) String() string {
	s := fmt.Sprintf("#%d %s %s -> %d", c.Seq, c.Method, c.Path, c.Status)
	if c.Error != nil {
		s += " " + c.Error.Error()
	}
	if len(c.Body) > 0 {
		body := string(c.Body)
		if len(body) > 300 {
			body = body[:300] + "..."
		}
		s += " " + body
	}
	return s
}

// APIError is an error the fake answered with, in Discord's shape:
// {"message": ..., "code": ..., "errors": {...}}.
type APIError struct {
	Status  int            `json:"-"`
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Errors  map[string]any `json:"errors,omitempty"`
	// Fields lists the entries of Errors flat, for assertions.
	Fields []FieldError `json:"-"`
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("HTTP %d, code %d: %s", e.Status, e.Code, e.Message)
	for _, f := range e.Fields {
		s += "; " + f.String()
	}
	return s
}

// Has reports whether e holds a field error whose dotted path is path, e.g.
// "data.components.0.components.0.custom_id".
func (e *APIError) Has(path string) bool {
	for _, f := range e.Fields {
		if f.Path == path {
			return true
		}
	}
	return false
}

// FieldError is one entry of a 50035 Invalid Form Body error.
type FieldError struct {
	Path    string // dotted, e.g. "data.content"
	Code    string // e.g. "BASE_TYPE_MAX_LENGTH"
	Message string
}

func (f FieldError) String() string { return f.Path + ": " + f.Code + " (" + f.Message + ")" }

// GatewayStats counts what happened on the fake gateway.
type GatewayStats struct {
	Connections int // websocket connections accepted
	Live        int // connections open now that identified or resumed
	Identifies  int
	Resumes     int // successful resumes
	Replayed    int // dispatches replayed by resumes
	Heartbeats  int
	Dispatches  int // dispatches sent or queued, over all sessions
	Invalidated int // sessions ended (client close 1000/1001, failed resume)
	Dropped     int // connections cut by DropConnection or InvalidateSessions
	Redelivered int // dispatches a resume sent again (RedeliverOnResume)
}

func cloneJSON[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic("discordtest: clone: " + err.Error())
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic("discordtest: clone: " + err.Error())
	}
	return out
}
