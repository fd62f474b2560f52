package bot

import (
	"context"
	"sync"
	"time"
)

// WaitIdle waits until no interaction is being handled: an interaction's
// answer comes before the public messages it causes, so tests wait for
// those too.
func (b *Bot) WaitIdle(ctx context.Context) error {
	for b.busy.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	return nil
}

// RunDue handles the deadlines due now, as the scheduler does when it
// wakes (tests call it after moving a fake clock).
func (b *Bot) RunDue(ctx context.Context) {
	b.busy.Add(1)
	defer b.busy.Add(-1)
	b.runDue(ctx)
}

// HoldPictures holds the pictures edited into answers sent in words until
// release is called.
func (b *Bot) HoldPictures() (release func()) {
	gate := make(chan struct{})
	b.pics.hold.Store(&gate)
	return func() { close(gate) }
}

// SweepAI lets the AI seats move that were left still, as the scheduler
// does about once a minute.
func (b *Bot) SweepAI(ctx context.Context) {
	b.busy.Add(1)
	defer b.busy.Add(-1)
	b.sweepAI(ctx)
}

// MapSizes reports the sizes of the bot's maps keyed by table, user,
// channel or interaction: those cleaned when their table ends or nothing
// is in flight (cleaned), and those bounded by a cap (bounded).
func (b *Bot) MapSizes() (cleaned, bounded map[string]int) {
	count := func(m *sync.Map) int {
		n := 0
		m.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	cleaned = map[string]int{"outboxes": count(&b.outboxes), "noFiles": count(&b.noFiles), "received": count(&b.received)}
	cleaned["openHands"] = b.hands.size()
	cleaned["clicked"] = b.clicked.size()
	cleaned["vias"] = count(&b.vias)
	b.locks.mu.Lock()
	cleaned["locks"] = len(b.locks.m)
	b.locks.mu.Unlock()
	b.orders.mu.Lock()
	cleaned["orders"] = len(b.orders.m)
	b.orders.mu.Unlock()
	if b.callbacks != nil {
		b.callbacks.mu.Lock()
		cleaned["callbacks"] = len(b.callbacks.waiting)
		b.callbacks.mu.Unlock()
	}
	b.damagedTables.mu.Lock()
	bounded = map[string]int{"damagedTables": len(b.damagedTables.m)}
	b.damagedTables.mu.Unlock()
	b.langs.mu.Lock()
	bounded["langs"] = len(b.langs.m)
	b.langs.mu.Unlock()
	b.seen.mu.Lock()
	bounded["seen"] = len(b.seen.ids)
	b.seen.mu.Unlock()
	b.pics.mu.Lock()
	bounded["hands"] = len(b.pics.hands)
	b.pics.mu.Unlock()
	return cleaned, bounded
}

// MapBounds are the caps of the bounded maps of MapSizes.
var MapBounds = map[string]int{"damagedTables": damagedKept, "langs": maxUserLangs, "seen": deliveredKept, "hands": handCacheBytes}

// RefuseFiles notes that the bot may not attach files in channelID, as
// when Discord refuses a message's pictures there.
func (b *Bot) RefuseFiles(channelID string) { b.refuseFiles(channelID) }

// FilesAllowed reports whether the bot attaches pictures in channelID.
func (b *Bot) FilesAllowed(channelID string) bool { return b.filesAllowed(channelID) }
