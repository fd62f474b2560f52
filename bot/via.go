package bot

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// via is an interaction whose webhook may carry a table's posts: Discord
// does not count an interaction's follow-up messages (and their deletion)
// against the bot token's global rate limit, and a follow-up that is not
// ephemeral is an ordinary message in the interaction's channel, mentions
// and buttons included. A player's move is an interaction in the table's
// channel, so the turn ping and the result it brings can go out as its
// follow-ups, leaving the bot token's budget to the table message's edits.
// A follow-up may be sent once the interaction has been answered, for 15
// minutes (viaFresh, with a margin).
type via struct {
	i       *discordgo.Interaction
	at      time.Time     // when it arrived
	acked   chan struct{} // closed once it has been answered (or deferred)
	ackOnce sync.Once
}

// viaFresh is how long after an interaction arrived its webhook is used
// (Discord keeps its token 15 minutes).
const viaFresh = 14 * time.Minute

// viaAckWait is how long a post waits for the interaction it would follow
// up to be answered before it goes through the bot token instead.
const viaAckWait = 3 * time.Second

type viaKey struct{}

// withVia marks ctx as the handling of interaction i, which arrived at at
// (the bot's clock); the Bot remembers it until done is called, so that
// its answer marks it answered.
func (b *Bot) withVia(ctx context.Context, i *discordgo.Interaction, at time.Time) (context.Context, func()) {
	if i.AppID == "" || i.Token == "" || i.ChannelID == "" {
		return ctx, func() {}
	}
	v := &via{i: i, at: at, acked: make(chan struct{})}
	b.vias.Store(i.ID, v)
	return context.WithValue(ctx, viaKey{}, v), func() { b.vias.Delete(i.ID) }
}

// viaOf is the interaction whose handling ctx is, or nil.
func viaOf(ctx context.Context) *via {
	v, _ := ctx.Value(viaKey{}).(*via)
	return v
}

// answered marks the interaction with id as answered.
func (b *Bot) answered(id string) {
	if v, ok := b.vias.Load(id); ok {
		v := v.(*via)
		v.ackOnce.Do(func() { close(v.acked) })
	}
}

// usable reports whether a post in channel may follow v up at now (the
// bot's clock), waiting (up to viaAckWait) for v's answer.
func (v *via) usable(ctx context.Context, channel string, now time.Time) bool {
	if v == nil || v.i.ChannelID != channel || now.Sub(v.at) > viaFresh {
		return false
	}
	t := time.NewTimer(viaAckWait)
	defer t.Stop()
	select {
	case <-v.acked:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// isAcked reports whether v has been answered.
func (v *via) isAcked() bool {
	select {
	case <-v.acked:
		return true
	default:
		return false
	}
}

// followUp posts m (words and buttons, no pictures) in v's channel as a
// follow-up of v.
func (b *Bot) followUp(ctx context.Context, v *via, m message) (*discordgo.Message, error) {
	var msg *discordgo.Message
	err := b.retry(ctx, func() error {
		var err error
		msg, err = b.s.FollowupMessageCreate(v.i, true, &discordgo.WebhookParams{
			Content: m.text(), Components: m.components, AllowedMentions: m.allowed(),
		}, discordgo.WithContext(ctx))
		return err
	})
	return msg, err
}

// tokenRef is an interaction's webhook: what it may edit (its @original)
// is edited through it without the bot token, for 15 minutes.
type tokenRef struct {
	appID, token string
	table        string    // the table whose control was clicked (its custom id's), "" if none
	at           time.Time // when the interaction was acknowledged (the bot's clock)
}

// clickedTokens are, for the public messages clicked lately (the table
// messages, through My hand and the lobby's buttons), the newest
// interaction acknowledged by a deferred update of that message (reply's
// aside): Discord lets its webhook edit that message (@original) for 15
// minutes, and does not count those edits against the bot token's global
// rate limit, so a table clicked in the last quarter of an hour gets its
// edits through it (editTable). An entry goes when it is too old (swept
// at most once a minute, at a new one; get never returns one too old),
// when Discord refuses it, and when its table ends.
type clickedTokens struct {
	mu    sync.Mutex
	m     map[string]tokenRef // message id -> the newest interaction clicked on it
	swept time.Time           // when entries too old were last dropped
}

func (c *clickedTokens) note(msgID string, t tokenRef) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]tokenRef{}
	}
	if t.at.Sub(c.swept) >= time.Minute {
		// Not at every click: a click on one table need not walk them all.
		c.swept = t.at
		for k, o := range c.m {
			if t.at.Sub(o.at) >= viaFresh {
				delete(c.m, k)
			}
		}
	}
	if o, ok := c.m[msgID]; !ok || !o.at.After(t.at) {
		c.m[msgID] = t
	}
}

// get is the newest usable interaction clicked on msgID at now.
func (c *clickedTokens) get(msgID string, now time.Time) (tokenRef, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[msgID]
	if ok && now.Sub(t.at) >= viaFresh {
		delete(c.m, msgID)
		return tokenRef{}, false
	}
	return t, ok
}

// drop forgets msgID's interaction if it is still token (Discord refused it).
func (c *clickedTokens) drop(msgID, token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.m[msgID]; ok && t.token == token {
		delete(c.m, msgID)
	}
}

// forget drops the messages of a table that has ended.
func (c *clickedTokens) forget(tableID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, t := range c.m {
		if t.table == tableID {
			delete(c.m, k)
		}
	}
}

// clickedRef is the webhook of a click on a public message.
func (b *Bot) clickedRef(i *discordgo.Interaction) tokenRef {
	t := tokenRef{appID: i.AppID, token: i.Token, at: b.clock.Now()}
	if i.Type == discordgo.InteractionMessageComponent {
		if parts := strings.SplitN(i.MessageComponentData().CustomID, "/", 3); len(parts) >= 2 {
			t.table = parts[1]
		}
	}
	return t
}

func (c *clickedTokens) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
