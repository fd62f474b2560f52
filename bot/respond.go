package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits that the bot's own output must respect.
const (
	maxContent     = 2000
	maxButtonLabel = 80
	maxCustomID    = 100
	maxSelectItems = 25
	maxRows        = 5
	maxRowButtons  = 5
	maxOptionText  = 100
	maxPlaceholder = 150
	// Components V2: the text displays of one message hold 4000
	// characters in all, and a message holds 40 components in all (nested
	// ones counted); a media item's description holds 1024.
	maxV2Text           = 4000
	maxV2Components     = 40
	maxMediaDescription = 1024
)

// message is what the bot says: text and components.
type message struct {
	content    string
	components []discordgo.MessageComponent
	mentions   bool              // allow user mentions to ping
	files      map[string]string // attachments: file name -> text

	// v2 marks a Components V2 message: components lay it out (text
	// displays, a media gallery, action rows) and content is empty.
	v2 bool
	// pic is the pictures drawn only when the message is sent, attached
	// under the names of pic.files, which media galleries refer to.
	pic *pictureJob
	// plain makes what to send instead when the picture cannot be drawn:
	// the same message with words in place of the picture.
	plain func() message
	// hand says that the message is a player's hand (handMessage): once
	// sent as an answer, it is kept up to date when the turn comes back.
	hand *handRef
}

// attachments builds fresh readers for the message's files (a retried
// request needs its own).
func (m message) attachments() []*discordgo.File {
	var out []*discordgo.File
	for name, text := range m.files {
		out = append(out, &discordgo.File{Name: name, ContentType: "text/plain; charset=utf-8", Reader: strings.NewReader(text)})
	}
	return out
}

// clip shortens s to fit n characters, well under the limit (a text cut
// right at a limit reads as cut off): at a word boundary, with "…", never
// inside a mention, a channel link or a timestamp ("<@123>"), and never
// leaving a markdown pair ("**", "`", "||", "~~", "__") open.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	keep := n - max(3, n/20) // room for "…" and a margin under the limit
	if keep < 1 {
		return "…"
	}
	r := []rune(s)
	cut := string(r[:keep])
	if !unicode.IsSpace(r[keep]) {
		// At the last space, unless none is near (one long word).
		if i := strings.LastIndexAny(cut, " \n"); i >= len(cut)/2 {
			cut = cut[:i]
		}
	}
	// Never inside <...>: a mention, a channel link, a timestamp.
	if i := strings.LastIndex(cut, "<"); i >= 0 && !strings.Contains(cut[i:], ">") {
		cut = cut[:i]
	}
	for changed := true; changed; {
		changed = false
		for _, mark := range []string{"**", "__", "~~", "||", "`"} {
			if strings.Count(cut, mark)%2 == 1 {
				cut, changed = cut[:strings.LastIndex(cut, mark)], true
			}
		}
	}
	cut = strings.TrimRightFunc(cut, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:·–—-(", r) })
	return cut + "…"
}

// text is the content within Discord's 2000 characters: whole lines from
// the end give way (never a cut line), and a first line too long alone is
// shortened at a word.
func (m message) text() string { return fitText(m.content, maxContent) }

func (m message) allowed() *discordgo.MessageAllowedMentions {
	if m.mentions {
		// The users the bot means, by id: nothing in the text is parsed.
		return &discordgo.MessageAllowedMentions{Users: mentionedUsers(append(textsOf(m.components), m.content)...)}
	}
	return &discordgo.MessageAllowedMentions{}
}

// comps never returns nil, so that an edit clears old components.
func (m message) comps() []discordgo.MessageComponent {
	if m.components == nil {
		return []discordgo.MessageComponent{}
	}
	return m.components
}

// asV2 is m as a Components V2 message: its text in a text display
// before its components.
func (m message) asV2() message {
	if m.v2 {
		return m
	}
	var cs []discordgo.MessageComponent
	if t := m.text(); strings.TrimSpace(t) != "" {
		cs = append(cs, discordgo.TextDisplay{Content: t})
	}
	return message{components: append(cs, m.components...), mentions: m.mentions, files: m.files, v2: true}
}

// reply answers one interaction exactly once. It acknowledges by itself
// (deferring) when the answer is not ready after ackAfter, so that the
// 3-second deadline is never missed however slow the work is; the answer
// then edits @original.
type reply struct {
	b      *Bot
	i      *discordgo.Interaction
	update bool // edit the message the component is on (7/6), not a new message (4/5)

	// refresh: the reply edits an earlier answer through its token
	// (editReply), not one of this interaction's own.
	refresh bool
	// aside: the click is on a public message (the table's, a post's):
	// it is acknowledged by a deferred update of that message, which
	// changes nothing there but lets this interaction's webhook edit it
	// for 15 minutes without the bot token (clickedTokens), and the
	// answer is an ephemeral follow-up.
	aside bool
	// target is the message that later edits of the answer address:
	// "@original", or the follow-up that an aside answer is.
	target string

	mu       sync.Mutex
	deferred bool
	done     bool
	timer    *time.Timer
}

// newReply starts the acknowledgement timer. update says whether the answer
// replaces the clicked (ephemeral) message; otherwise it is a new ephemeral
// message. The timer counts from when the interaction arrived, not from
// now: the work before the reply (the user's language, the table's lookup)
// reads the store and may be slow too.
func (b *Bot) newReply(i *discordgo.Interaction, update bool) *reply {
	if update && (i.Message == nil || i.Message.Flags&discordgo.MessageFlagsEphemeral == 0) {
		// Only the clicker's own ephemeral message is redrawn in place. A
		// client may send any custom_id from any message: a public one
		// (the table's) must not become one user's answer.
		update = false
	}
	aside := !update && i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.ID != "" &&
		i.Message.Flags&discordgo.MessageFlagsEphemeral == 0
	r := &reply{b: b, i: i, update: update, aside: aside, target: "@original"}
	wait := b.ackAfter
	if at, ok := b.received.Load(i); ok {
		wait -= time.Since(at.(time.Time))
	}
	r.timer = time.AfterFunc(max(wait, 0), r.deferNow)
	return r
}

// editReply is a reply that edits the answer an earlier interaction gave,
// through its token (valid 15 minutes): send replaces that message.
func (b *Bot) editReply(i *discordgo.Interaction, target string) *reply {
	t := time.AfterFunc(time.Hour, func() {})
	t.Stop()
	if target == "" {
		target = "@original"
	}
	return &reply{b: b, i: i, update: true, deferred: true, refresh: true, timer: t, target: target}
}

func (r *reply) deferNow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done || r.deferred {
		return
	}
	typ := discordgo.InteractionResponseDeferredChannelMessageWithSource
	data := &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	if r.update || r.aside {
		typ, data = discordgo.InteractionResponseDeferredMessageUpdate, nil
	}
	err := r.b.retry(context.Background(), func() error {
		return r.b.s.InteractionRespond(r.i, &discordgo.InteractionResponse{Type: typ, Data: data})
	})
	if err != nil && !isCode(err, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged) {
		r.b.log.Warn("deferring an interaction", "interaction", r.i.ID, "err", err)
		r.done = true // the token is gone; nothing more can be said
		return
	}
	r.deferred = true
	r.b.answered(r.i.ID)
	if r.aside {
		r.b.clicked.note(r.i.Message.ID, r.b.clickedRef(r.i))
		return // nothing shows "thinking…"; no need to tell the host
	}
	// Players see "thinking…" meanwhile; the host should hear that
	// answers are this slow (the store, the machine, or Discord itself).
	r.b.log.Warn("an answer was not ready in time: acknowledged by deferring", "interaction", r.i.ID, "after", r.b.ackAfter)
}

// send gives the answer (once; later calls do nothing). An answer with a
// picture (a hand's, a status's) goes in words at once and the picture is
// edited in when drawn (pictureLater), unless it is drawn already (a hand
// shown before). A hand's picture is drawn only when its owner asked for
// the hand (askedFor).
func (r *reply) send(ctx context.Context, m message) {
	var (
		order *answerOrder
		n     uint64
		later *message
		hand  = m.hand
	)
	if u := interactionUser(r.i); u != nil {
		order = r.b.orderOf(u.ID)
		defer r.b.orders.release(order)
		n = order.next()
		if m.pic != nil && m.plain != nil && !r.b.pics.ready(m.pic) {
			if full := m; !m.pic.hand || m.pic.asked {
				later = &full
			}
			m = m.plain()
		}
	}
	m, pics := r.b.draw(m)
	r.timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	// An answer that replaces the clicked message keeps it a Components
	// V2 message when it was one (Discord refuses to take the flag off).
	if r.update && r.i.Message != nil && r.i.Message.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 {
		m = m.asV2()
	}
	var err error
	if r.aside && !r.deferred {
		// Acknowledged by a deferred update of the clicked public
		// message; the answer follows up, ephemeral.
		err = r.b.retry(ctx, func() error {
			return r.b.s.InteractionRespond(r.i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, discordgo.WithContext(ctx))
		})
		if err != nil {
			r.b.log.Warn("answering an interaction", "interaction", r.i.ID, "err", err)
			return
		}
		r.deferred = true
		r.b.answered(r.i.ID)
		r.b.clicked.note(r.i.Message.ID, r.b.clickedRef(r.i))
	}
	switch {
	case r.aside:
		err = r.b.retry(ctx, func() error {
			id, err := r.b.followUpAnswer(ctx, r.i, m, pics)
			if err == nil {
				r.target = id
			}
			return err
		})
	case m.v2 && r.deferred:
		err = r.b.retry(ctx, func() error {
			// The interaction's own bucket (see pictureLater).
			endpoint := discordgo.EndpointWebhookMessage(r.i.AppID, r.i.Token, r.target)
			_, err := r.b.v2Request(ctx, http.MethodPatch, endpoint, endpoint, m.v2Payload(true, 0), m.uploads(pics))
			return err
		})
	case m.v2:
		typ := discordgo.InteractionResponseChannelMessageWithSource
		flags := discordgo.MessageFlagsEphemeral
		if r.update {
			typ, flags = discordgo.InteractionResponseUpdateMessage, 0
		}
		endpoint := discordgo.EndpointInteractionResponse(r.i.ID, r.i.Token)
		err = r.b.retry(ctx, func() error {
			_, err := r.b.v2Request(ctx, http.MethodPost, endpoint, endpoint, v2Response{Type: typ, Data: m.v2Payload(r.update, flags)}, m.uploads(pics))
			return err
		})
	case r.deferred:
		content, comps := m.text(), m.comps()
		edit := &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: m.allowed()}
		endpoint := discordgo.EndpointWebhookMessage(r.i.AppID, r.i.Token, r.target)
		err = r.b.retry(ctx, func() error {
			if files := m.attachments(); len(files) > 0 {
				edit.Files = files
				_, err := r.b.s.WebhookMessageEdit(r.i.AppID, r.i.Token, r.target, edit, discordgo.WithContext(ctx))
				return err
			}
			// The interaction's own bucket (see pictureLater).
			_, err := r.b.s.RequestWithBucketID(http.MethodPatch, endpoint, edit, endpoint, discordgo.WithContext(ctx))
			return err
		})
	default:
		content, comps := m.text(), m.comps()
		typ := discordgo.InteractionResponseChannelMessageWithSource
		var flags discordgo.MessageFlags = discordgo.MessageFlagsEphemeral
		if r.update {
			typ, flags = discordgo.InteractionResponseUpdateMessage, 0
		}
		err = r.b.retry(ctx, func() error {
			return r.b.s.InteractionRespond(r.i, &discordgo.InteractionResponse{Type: typ, Data: &discordgo.InteractionResponseData{
				Content: content, Components: comps, Flags: flags, AllowedMentions: m.allowed(), Files: m.attachments(),
			}}, discordgo.WithContext(ctx))
		})
	}
	if err != nil {
		r.b.log.Warn("answering an interaction", "interaction", r.i.ID, "deferred", r.deferred, "err", err)
		return
	}
	r.b.answered(r.i.ID)
	if !r.refresh {
		r.b.noteHand(ctx, r.i, r.target, hand, !r.update)
	}
	if later != nil {
		r.b.pictureLater(r.i, r.target, order, n, *later)
	}
}

// followUpAnswer sends m as an ephemeral follow-up of i and returns its id.
func (b *Bot) followUpAnswer(ctx context.Context, i *discordgo.Interaction, m message, pics []drawnPicture) (string, error) {
	endpoint := discordgo.EndpointWebhookToken(i.AppID, i.Token) + "?wait=true"
	bucket := discordgo.EndpointWebhookToken(i.AppID, i.Token)
	var payload any
	if m.v2 {
		payload = m.v2Payload(false, discordgo.MessageFlagsEphemeral)
	} else {
		payload = &discordgo.WebhookParams{Content: m.text(), Components: m.comps(), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: m.allowed()}
	}
	files := m.uploads(pics)
	if !m.v2 {
		files = m.attachments()
	}
	body, err := b.v2Request(ctx, http.MethodPost, endpoint, bucket, payload, files)
	if err != nil {
		return "", err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(body, &msg); err != nil || msg.ID == "" {
		return "", fmt.Errorf("bot: a follow-up without its message: %w", err)
	}
	return msg.ID, nil
}

// v2Message is the payload of a Components V2 message: discordgo's own
// types cannot set the flag on a webhook edit, nor describe an attachment.
type v2Message struct {
	// Content is "" on an edit, which clears the text of a message that
	// was not a Components V2 one; left out on a new message.
	Content         *string                           `json:"content,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	// Attachments are the files the message keeps: on an edit, the old
	// picture goes and the new one (uploaded as files[0]) stays.
	Attachments []v2Attachment `json:"attachments"`
}

type v2Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// v2Response is an interaction callback with a Components V2 message.
type v2Response struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data v2Message                         `json:"data"`
}

// drawnPicture is a drawn picture of a message.
type drawnPicture struct {
	name, alt string
	png       []byte
}

// v2Payload is m as a Components V2 payload; edit says whether it
// replaces a message (its text and files go).
func (m message) v2Payload(edit bool, flags discordgo.MessageFlags) v2Message {
	p := v2Message{Components: m.comps(), Flags: flags | discordgo.MessageFlagsIsComponentsV2, AllowedMentions: m.allowed(), Attachments: []v2Attachment{}}
	if edit {
		p.Content = new(string)
	}
	if m.pic != nil {
		for i, f := range m.pic.files {
			p.Attachments = append(p.Attachments, v2Attachment{ID: strconv.Itoa(i), Filename: f.name, Description: f.alt})
		}
	}
	return p
}

// uploads are the files of a request: the drawn picture (files[0]) and
// the text files.
func (m message) uploads(pics []drawnPicture) []*discordgo.File {
	var out []*discordgo.File
	for _, p := range pics {
		out = append(out, &discordgo.File{Name: p.name, ContentType: "image/png", Reader: bytes.NewReader(p.png)})
	}
	return append(out, m.attachments()...)
}

// v2Request sends a Components V2 payload, as multipart form data when
// there are files, and returns the answer's body.
func (b *Bot) v2Request(ctx context.Context, method, endpoint, bucket string, payload any, files []*discordgo.File) ([]byte, error) {
	if len(files) == 0 {
		return b.s.RequestWithBucketID(method, endpoint, payload, bucket, discordgo.WithContext(ctx))
	}
	contentType, body, err := discordgo.MultipartBodyWithJSON(payload, files)
	if err != nil {
		return nil, err
	}
	return b.s.RequestRaw(method, endpoint, contentType, body, bucket, 0, discordgo.WithContext(ctx))
}

// restStatus returns the HTTP status of a failed REST call, or 0.
func restStatus(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

// isCode reports whether err is a Discord JSON error with the given code.
func isCode(err error, code int) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == code
}

// retry runs a REST call, retrying server errors (5xx) a few times with a
// growing pause. Client errors are final: an expired interaction token
// (401, 50027) or an unknown interaction (10062) is never retried. 429s are
// waited out by discordgo itself.
func (b *Bot) retry(ctx context.Context, call func() error) error {
	var err error
	pause := 100 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ {
		if err = call(); err == nil {
			return nil
		}
		if restStatus(err) < http.StatusInternalServerError {
			return err
		}
		b.log.Info("retrying after a Discord server error", "status", restStatus(err), "attempt", attempt+1)
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(pause):
		}
		pause *= 2
	}
	return err
}

// asNew makes the answer a new ephemeral message instead of an update of
// the clicked one, unless it has already been deferred as an update.
func (r *reply) asNew() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.deferred {
		r.update = false
	}
}
