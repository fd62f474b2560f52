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
