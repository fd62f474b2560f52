package bot

import (
	"context"
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
