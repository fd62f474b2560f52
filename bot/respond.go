package bot

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
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
)

// message is what the bot says: text and components.
type message struct {
	content    string
	components []discordgo.MessageComponent
	mentions   bool              // allow user mentions to ping
	files      map[string]string // attachments: file name -> text
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

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func (m message) text() string { return clip(m.content, maxContent) }

func (m message) allowed() *discordgo.MessageAllowedMentions {
	if m.mentions {
		return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}
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

// reply answers one interaction exactly once. It acknowledges by itself
// (deferring) when the answer is not ready after ackAfter, so that the
// 3-second deadline is never missed however slow the work is; the answer
// then edits @original.
type reply struct {
	b      *Bot
	i      *discordgo.Interaction
	update bool // edit the message the component is on (7/6), not a new message (4/5)

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
	r := &reply{b: b, i: i, update: update}
	wait := b.ackAfter
	if at, ok := b.received.Load(i); ok {
		wait -= time.Since(at.(time.Time))
	}
	r.timer = time.AfterFunc(max(wait, 0), r.deferNow)
	return r
}

func (r *reply) deferNow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done || r.deferred {
		return
	}
	typ := discordgo.InteractionResponseDeferredChannelMessageWithSource
	data := &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	if r.update {
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
}

// send gives the answer (once; later calls do nothing).
func (r *reply) send(ctx context.Context, m message) {
	r.timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	content, comps := m.text(), m.comps()
	var err error
	if r.deferred {
		err = r.b.retry(ctx, func() error {
			_, err := r.b.s.InteractionResponseEdit(r.i, &discordgo.WebhookEdit{
				Content: &content, Components: &comps, AllowedMentions: m.allowed(), Files: m.attachments(),
			}, discordgo.WithContext(ctx))
			return err
		})
	} else {
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
	}
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
