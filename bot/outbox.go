package bot

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/ratelimit"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

// outbox is a table's public output: the table message to edit and the
// lines (events, turn pings) to post in its channel. Output is sent at once
// unless the table's last output went out less than the publish interval
// ago; then everything that comes in meanwhile is merged and sent once when
// the interval is over: one edit showing the latest state and one post
// holding every line, in order. That keeps a fast table within Discord's
// per-channel rate limit and costs fewer REST calls per move. The steps of
// one player's turn may wait a little longer (push). An edit that would
// change nothing is skipped. With pictures on, a table message goes out
// from a timer even when it may go at once: its picture is drawn there
// (editTable), at most once per interval.
type outbox struct {
	id      string     // the table's
	flushMu sync.Mutex // held while sending: a table's output goes out in order

	mu        sync.Mutex // guards what follows
	snap      *table.Snapshot
	snapSeq   uint64
	where     string
	lines     []string
	scheduled bool
	timer     *time.Timer // when scheduled: sends the output at due
	due       time.Time
	last      time.Time     // when the last output went out
	since     time.Time     // when the oldest output not sent yet came in
	urgent    bool          // some output not sent yet may not wait beyond the interval
	acting    []engine.Seat // the seats that had to act in the last table message queued

	pinged map[engine.Seat]time.Time // guarded by mu: when each seat was last mentioned in a post
	// onlyPings: every line not sent yet is a turn ping (guarded by mu);
	// pinging: one of them is.
	onlyPings, pinging bool
	// handLabel is the label of the My hand button a post with a turn ping
	// carries, in the table's language (guarded by mu): the latest post
	// where the game is played is a way into the hand.
	handLabel string
	// lastPing is the last post that held nothing but turn pings, in the
	// channel pingWhere (guarded by flushMu): a newer ping replaces it, so
	// that a channel does not fill with "Your move" posts.
	lastPing, pingWhere string

	// recent are the table's last public moves that its message lists
	// (recentMoves at most, oldest first), once known: worked out from the
	// log the first time this process shows the table.
	recent      []engine.Event // guarded by mu
	recentKnown bool           // guarded by mu

	shown    string // guarded by flushMu: the table message as last sent
	shownSeq uint64 // guarded by flushMu

	failures int // guarded by mu: output that Discord refused, in a row
	// over: guarded by mu; a flush has shown the table ended, so the
	// outbox goes as soon as nothing is left to send.
	over bool

	// via is the newest interaction in the table's channel whose webhook
	// may carry its posts (via.go; guarded by mu); pingVia the one that
	// carried lastPing, if one did (guarded by flushMu).
	via, pingVia *via

	// pending is when the oldest state not yet shown by the table message
	// came in (guarded by mu): the table message's lag is measured from it.
	pending time.Time
}

// Output that Discord refused after the retries of one request (a longer
// outage, rate limits) is queued again and sent after 2 s, 4 s, … up to a
// minute, at most maxFailures times in a row: the table message must end
// up current and no result may be lost to a short outage.
const (
	failureBackoff = 2 * time.Second
	maxFailures    = 8
)

var outboxSeq atomic.Uint64

func (b *Bot) outbox(id string) *outbox {
	v, _ := b.outboxes.LoadOrStore(id, &outbox{id: id})
	return v.(*outbox)
}

// push queues the table message of snap (when edit is true) and lines for
// the channel where, and sends them now or when the interval is over.
//
// An edit that may wait (minor: a move that posts nothing) and makes nobody
// new wait — the player who moved goes on with their turn, or a seat of a
// simultaneous decision has chosen — waits up to one and a half publish
// intervals for more (the table message is then at most that far behind:
// the load test's lag), so that the steps of one turn (three placements, a
// play and what follows it) and the choices of a round go out as one edit;
// the table message still changes at once when someone else's turn begins.
// push queues output: the table message (edit) and lines to post, the
// last pings of them turn pings ("Your move: @…"). minor says that it may
// wait a little longer.
func (ob *outbox) push(ctx context.Context, b *Bot, snap *table.Snapshot, where string, lines []string, pings int, edit, minor bool) {
	now := time.Now()
	ob.mu.Lock()
	if edit {
		if snap.State != nil && snap.Record.Status == table.StatusPlaying {
			acting := snap.State.Acting()
			for _, s := range acting {
				if !slices.Contains(ob.acting, s) {
					minor = false // someone new must act
				}
			}
			ob.acting = acting
		} else {
			minor, ob.acting = false, nil
		}
		ob.snap, ob.snapSeq = snap, outboxSeq.Add(1)
		if ob.pending.IsZero() {
			ob.pending = now
		}
	}
	if v := viaOf(ctx); v != nil && (ob.via == nil || v.at.After(ob.via.at)) {
		ob.via = v
	}
	if len(lines) > 0 {
		if len(ob.lines) == 0 {
			ob.onlyPings, ob.pinging = true, false
		}
		ob.onlyPings = ob.onlyPings && pings == len(lines)
		ob.pinging = ob.pinging || pings > 0
		if pings > 0 && snap != nil {
			ob.handLabel = clip(b.tableLang(snap.Record).T("bot.button.hand", nil), maxButtonLabel)
		}
		ob.where = where
		ob.lines = append(ob.lines, lines...)
		minor = false
	}
	if ob.since.IsZero() {
		ob.since = now
	}
	if !minor {
		ob.urgent = true
	}
	due := ob.last.Add(b.publishEvery)
	if !ob.urgent {
		if held := ob.since.Add(b.publishEvery * 3 / 2); held.After(due) {
			due = held
		}
	}
	if ob.scheduled {
		if due.Before(ob.due) && ob.timer.Stop() {
			// Something that may not wait came in: send sooner. (When Stop
			// fails, the timer has fired and the output is on its way.)
			ob.due = due
			ob.timer.Reset(max(due.Sub(now), 0))
		}
		ob.mu.Unlock()
		return
	}
	if !due.After(now) {
		if len(ob.lines) > 0 && ob.via != nil && !ob.via.isAcked() {
			// The posts may follow up the interaction being handled,
			// once it is answered: not from its own goroutine.
			ob.schedule(b, 0)
			ob.mu.Unlock()
			return
		}
		if b.cfg.Pictures && ob.snap != nil && ob.snap.Record.Status != table.StatusLobby {
			// The table's picture is drawn off the caller's path, which
			// holds the table's lock and may be an interaction's.
			ob.schedule(b, 0)
			ob.mu.Unlock()
			return
		}
		ob.mu.Unlock()
		ob.flush(ctx, b)
		return
	}
	ob.schedule(b, due.Sub(now))
	ob.mu.Unlock()
}

// schedule sends the output after d; ob.mu is held.
func (ob *outbox) schedule(b *Bot, d time.Duration) {
	ob.scheduled, ob.due = true, time.Now().Add(d)
	b.busy.Add(1)
	ob.timer = time.AfterFunc(d, func() {
		defer b.busy.Add(-1)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ob.mu.Lock()
		ob.scheduled = false
		ob.mu.Unlock()
		ob.flush(ctx, b)
	})
}

// unschedule cancels the timer of pending output, if it has not fired: the
// output stays queued for the next flush.
func (ob *outbox) unschedule(b *Bot) {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	if ob.scheduled && ob.timer.Stop() {
		ob.scheduled = false
		b.busy.Add(-1)
	}
}

// flush sends what is pending: first the posts (a turn ping or a result
// matters more than the table message, and goes first for the global rate
// limit), then the table message, whose state is taken only once the
// global limit lets its edit through, so that the edits that came in
// while it waited go out as one, showing the newest state.
func (ob *outbox) flush(ctx context.Context, b *Bot) {
	ob.flushMu.Lock()
	defer ob.flushMu.Unlock()
	ob.mu.Lock()
	where, lines := ob.where, ob.lines
	onlyPings, pinging, handLabel := ob.onlyPings, ob.pinging, ob.handLabel
	v := ob.via
	ob.lines = nil
	ob.last, ob.since, ob.urgent = time.Now(), time.Time{}, false
	editing := ob.snap != nil && ob.snapSeq > ob.shownSeq
	ob.mu.Unlock()
	var unsent []string
	if len(lines) > 0 {
		content := strings.Join(lines, "\n")
		parts := split(content, maxContent)
		for i, part := range parts {
			var posted *discordgo.Message
			var err error
			m := message{content: part, mentions: true}
			if i == len(parts)-1 && pinging && handLabel != "" {
				// The post that tells players it is their turn opens their
				// hand in one tap.
				m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: handLabel, Style: discordgo.PrimaryButton, CustomID: handID(ob.id)},
				}}}
			}
			var followed *via
			if v.usable(ctx, where, b.clock.Now()) {
				posted, err = b.followUp(ctx, v, m)
				if archivedThread(err) && b.reopen(ctx, where) {
					posted, err = b.followUp(ctx, v, m)
				}
				if err == nil {
					followed = v
				} else {
					b.log.Debug("posting as a follow-up of an interaction", "channel", where, "err", err)
				}
			}
			if followed == nil {
				posted, where, err = b.sendAt(ctx, ob.id, where, m)
				if archivedThread(err) && b.reopen(ctx, where) {
					posted, where, err = b.sendAt(ctx, ob.id, where, m)
				}
			}
			if err != nil {
				b.log.Warn("posting the table's events", "channel", where, "err", err)
				if transient(err) {
					unsent = parts[i:]
					break
				}
				continue
			}
			if i == len(parts)-1 && pinging {
				ob.replacePing(ctx, b, where, posted.ID, followed, onlyPings && len(parts) == 1)
			}
		}
	}
	var snap *table.Snapshot
	var seq uint64
	editFailed := false
	if editing {
		editCtx := ctx
		ob.mu.Lock()
		msgID := ob.snap.Record.MessageID
		ob.mu.Unlock()
		if _, ok := b.clicked.get(msgID, b.clock.Now()); ok && msgID != "" {
			// Edited through a click's webhook (editClicked): not
			// counted against the global limit.
		} else if b.rest != nil {
			if err := b.rest.Wait(ctx, ratelimit.Edit); err != nil {
				editFailed = true // the state stays queued
			}
			editCtx = ratelimit.Admitted(ctx)
		}
		ob.mu.Lock()
		if !editFailed {
			snap, seq = ob.snap, ob.snapSeq
			ob.snap = nil
		}
		pending := ob.pending
		ob.pending = time.Time{}
		ob.mu.Unlock()
		if snap != nil && seq > ob.shownSeq {
			shown, err := b.editTable(editCtx, snap, ob.shown)
			ob.shown = shown
			if err == nil || !transient(err) {
				ob.shownSeq = seq
			}
			editFailed = err != nil && transient(err)
			if err == nil && b.onShown != nil && !pending.IsZero() && snap.Record.Status != table.StatusLobby {
				b.onShown(time.Since(pending))
			}
		}
		if editFailed {
			ob.mu.Lock()
			if ob.pending.IsZero() || (!pending.IsZero() && pending.Before(ob.pending)) {
				ob.pending = pending
			}
			ob.mu.Unlock()
		}
	}
	if editFailed || len(unsent) > 0 {
		ob.requeue(b, snap, seq, where, unsent, editFailed)
		return
	}
	ob.mu.Lock()
	ob.failures = 0
	ob.mu.Unlock()
	if snap != nil && (snap.Record.Status == table.StatusFinished || snap.Record.Status == table.StatusAbandoned) {
		b.hands.forget(snap.Record.ID) // nothing more to bring up to date
		b.clicked.forget(snap.Record.ID)
		ob.mu.Lock()
		ob.over = true
		ob.mu.Unlock()
	}
	// The outbox of an ended table goes once empty: at the flush that
	// showed the end, or at a later one when output came meanwhile (a
	// push while the end was being shown).
	ob.mu.Lock()
	idle := ob.over && ob.snap == nil && len(ob.lines) == 0 && !ob.scheduled
	ob.mu.Unlock()
	if idle {
		b.outboxes.CompareAndDelete(ob.id, ob)
	}
}

// replacePing deletes the last post that held nothing but turn pings, now
// that a newer post (id, in where; a follow-up of followed, if not nil)
// pings whoever must act; the newer one is deleted in its turn only when
// it too holds nothing else (only). A follow-up is deleted through its
// interaction's webhook while that lasts. flushMu is held.
func (ob *outbox) replacePing(ctx context.Context, b *Bot, where, id string, followed *via, only bool) {
	old, oldWhere, oldVia := ob.lastPing, ob.pingWhere, ob.pingVia
	ob.lastPing, ob.pingWhere, ob.pingVia = "", "", nil
	if only {
		ob.lastPing, ob.pingWhere, ob.pingVia = id, where, followed
	}
	if old == "" {
		return
	}
	if oldVia != nil && b.clock.Now().Sub(oldVia.at) < viaFresh {
		if err := b.s.FollowupMessageDelete(oldVia.i, old, discordgo.WithContext(ctx)); err == nil {
			return
		}
	}
	ctx = ratelimit.WithClass(ctx, ratelimit.Cleanup)
	if err := b.s.ChannelMessageDelete(oldWhere, old, discordgo.WithContext(ctx)); err != nil {
		b.log.Debug("deleting an older turn ping", "channel", oldWhere, "err", err)
	}
}

// requeue puts output that Discord refused back in front of what came in
// meanwhile (a newer table message replaces a refused one) and sends it
// again after a backoff, unless it has failed maxFailures times in a row.
func (ob *outbox) requeue(b *Bot, snap *table.Snapshot, seq uint64, where string, unsent []string, editFailed bool) {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	ob.failures++
	if ob.failures > maxFailures {
		b.log.Error("giving up on a table's output", "channel", where, "failures", ob.failures-1)
		ob.failures = 0
		return
	}
	if editFailed && ob.snap == nil {
		ob.snap, ob.snapSeq = snap, seq
	}
	if len(unsent) > 0 {
		if len(ob.lines) == 0 {
			ob.where = where
		}
		ob.onlyPings = false // never deleted later: what it holds is not known here
		ob.lines = append(slices.Clone(unsent), ob.lines...)
	}
	if ob.scheduled {
		return // newer output is on its way and takes this with it
	}
	b.runMu.Lock()
	closing := b.closing
	b.runMu.Unlock()
	if closing {
		// Shutting down: the last flush has had its try; a restart within
		// resume_window refreshes the table message.
		b.log.Warn("stopping with a table's output unsent", "channel", where)
		return
	}
	ob.schedule(b, min(failureBackoff<<(ob.failures-1), time.Minute))
}

// transient reports whether a failed REST call may succeed later: Discord
// was unreachable, overloaded (5xx) or rate limiting (429). Anything else
// (missing access, unknown channel) will fail the same way again.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false // the bot is stopping
	}
	st := restStatus(err)
	return st == 0 || st == http.StatusTooManyRequests || st >= http.StatusInternalServerError
}

// split cuts text into pieces of at most n runes at line ends where it can.
func split(text string, n int) []string {
	var out []string
	for len([]rune(text)) > n {
		r := []rune(text)
		cut := n
		if i := strings.LastIndex(string(r[:n]), "\n"); i > 0 {
			cut = len([]rune(string(r[:n])[:i]))
		}
		out = append(out, string(r[:cut]))
		text = strings.TrimPrefix(string(r[cut:]), "\n")
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}

// componentKey is a stable text form of components, to tell whether an edit
// would change them.
func componentKey(cs []discordgo.MessageComponent) string {
	b, err := json.Marshal(cs)
	if err != nil {
		return ""
	}
	return string(b)
}

// toPing keeps the seats to mention in a post: those not mentioned in the
// last ping_quiet. A player in the middle of a quick game sees whose turn
// it is on the table message (which always names them) without a post per
// move; one who has been away is pinged again.
func (ob *outbox) toPing(b *Bot, seats []engine.Seat) []engine.Seat {
	if b.pingQuiet <= 0 {
		return seats
	}
	now := time.Now()
	ob.mu.Lock()
	defer ob.mu.Unlock()
	if ob.pinged == nil {
		ob.pinged = map[engine.Seat]time.Time{}
	}
	var out []engine.Seat
	for _, s := range seats {
		if at, ok := ob.pinged[s]; ok && now.Sub(at) < b.pingQuiet {
			continue
		}
		ob.pinged[s] = now
		out = append(out, s)
	}
	return out
}

// addRecent adds the events of the moves that led to snap to the list of
// last moves. The caller holds the table's lock, so that moves come in
// order.
func (ob *outbox) addRecent(ctx context.Context, b *Bot, snap *table.Snapshot, evs []engine.Event) {
	ob.mu.Lock()
	if ob.recentKnown {
		ob.recent = lastN(append(ob.recent, evs...), recentMoves)
		ob.mu.Unlock()
		return
	}
	ob.mu.Unlock()
	ob.recentFor(ctx, b, snap) // the log holds evs already
}

// recentFor is the list of last moves to show with snap, worked out from the
// table's log when this process has not seen the table's moves.
func (ob *outbox) recentFor(ctx context.Context, b *Bot, snap *table.Snapshot) []engine.Event {
	ob.mu.Lock()
	if ob.recentKnown {
		out := slices.Clone(ob.recent)
		ob.mu.Unlock()
		return out
	}
	ob.mu.Unlock()
	evs, err := b.recentFromLog(ctx, snap)
	if err != nil {
		b.log.Warn("working out a table's last moves", "table", snap.Record.ID, "err", err)
		return nil
	}
	ob.mu.Lock()
	defer ob.mu.Unlock()
	if !ob.recentKnown {
		ob.recent, ob.recentKnown = evs, true
	}
	return slices.Clone(ob.recent)
}
