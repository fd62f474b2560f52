package bot

import (
	"context"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

// handLife is how long a hand message can be edited through the token of
// the interaction that answered with it: Discord keeps a token 15 minutes;
// a minute is left for the edit to arrive.
const handLife = 14 * time.Minute

// handRef names the hand message a message is: its table and the language
// it is written in.
type handRef struct {
	table, lang string
	version     int // the table's version the hand shows
}

// openHand is a player's latest hand message at a table while it can be
// edited: the interaction it answered, and the language it is in.
type openHand struct {
	appID, token, user string
	msg                string // the follow-up it is, or "" for the interaction's @original
	lang               string
	version            int       // the table's version it shows
	at                 time.Time // when the answer was sent (the bot's clock)
}

// openHands are the players' latest hand messages, by table and user, while
// their tokens live: when a player's turn comes back, that message is
// brought up to date in place, so the player acts without asking for the
// hand again. An entry goes when its token is too old (swept at every new
// one) and when its table ends.
type openHands struct {
	mu sync.Mutex
	m  map[string]openHand
}

func handKey(tableID, user string) string { return tableID + "/" + user }

// note keeps oh as the user's latest hand message at a table, and returns
// the one it replaces while that can still be edited (another
// interaction's: ok is false when oh answered a click on it).
func (h *openHands) note(tableID string, oh openHand, now time.Time) (prev openHand, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]openHand{}
	}
	for k, o := range h.m {
		if now.Sub(o.at) >= handLife {
			delete(h.m, k)
		}
	}
	prev, ok = h.m[handKey(tableID, oh.user)]
	h.m[handKey(tableID, oh.user)] = oh
	return prev, ok && prev.token != oh.token
}

// get is the user's latest hand message at a table, if it can be edited.
func (h *openHands) get(tableID, user string, now time.Time) (openHand, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	oh, ok := h.m[handKey(tableID, user)]
	if ok && now.Sub(oh.at) >= handLife {
		delete(h.m, handKey(tableID, user))
		return openHand{}, false
	}
	return oh, ok
}

// forget drops a table's entries (it has ended).
func (h *openHands) forget(tableID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for k := range h.m {
		if len(k) > len(tableID) && k[:len(tableID)+1] == tableID+"/" {
			delete(h.m, k)
		}
	}
}

func (h *openHands) size() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

// noteHand remembers the hand message an interaction was answered with.
// When that is a new message (fresh: not the clicked one redrawn), the
// user's previous hand message at the table, while it can be edited, is
// deleted: one hand in front of the player, never an older one to act on
// by mistake. (An interaction webhook's request: not one of the bot's
// rate-limited ones.)
func (b *Bot) noteHand(ctx context.Context, i *discordgo.Interaction, target string, ref *handRef, fresh bool) {
	u := interactionUser(i)
	if ref == nil || u == nil || i.Token == "" {
		return
	}
	// The token's life counts on the bot's clock (the fake one in tests):
	// from now, a moment after the interaction came, which the minute
	// handLife leaves covers.
	now := b.clock.Now()
	if target == "@original" {
		target = ""
	}
	prev, ok := b.hands.note(ref.table, openHand{appID: i.AppID, token: i.Token, msg: target, user: u.ID, lang: ref.lang, version: ref.version, at: now}, now)
	if !ok || !fresh {
		return
	}
	msg := prev.msg
	if msg == "" {
		msg = "@original"
	}
	if err := b.s.WebhookMessageDelete(prev.appID, prev.token, msg, discordgo.WithContext(ctx)); err != nil {
		b.log.Debug("deleting a replaced hand message", "table", ref.table, "err", err)
	}
}

// refreshHands brings the open hand messages of the seats whose turn has
// just come up to date in place (an interaction webhook's edit: not one of
// the bot's rate-limited requests).
func (b *Bot) refreshHands(ctx context.Context, snap *table.Snapshot, seats []engine.Seat) {
	rec := snap.Record
	for _, s := range seats {
		si, ok := seatInfo(rec, s)
		if !ok || si.Kind != table.Human {
			continue
		}
		oh, ok := b.hands.get(rec.ID, si.UserID, b.clock.Now())
		if !ok || oh.version >= snap.Version {
			continue // none, or it shows the table as it is (the answer to the player's own move)
		}
		oh.version = snap.Version
		b.hands.note(rec.ID, oh, b.clock.Now())
		i := &discordgo.Interaction{AppID: oh.appID, Token: oh.token, User: &discordgo.User{ID: oh.user}}
		b.editReply(i, oh.msg).send(ctx, b.handMessage(b.loc.Lang(oh.lang), snap, s, "", ""))
	}
}
