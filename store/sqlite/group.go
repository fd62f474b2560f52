package sqlite

import (
	"context"
	"fmt"
	"sync"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store"
)

// maxBatch bounds how many appends one transaction stores.
const maxBatch = 128

// committer group-commits appends: callers queue requests; one goroutine
// (started on first use) takes every request queued and stores them in one
// transaction, then answers each.
type committer struct {
	once   sync.Once
	mu     sync.Mutex
	queue  []*appendReq
	wake   chan struct{}
	quit   chan struct{}
	done   chan struct{}
	closed bool
}

type appendReq struct {
	ctx    context.Context
	id     string
	e      table.Entry
	status table.Status
	err    chan error
}

func (c *committer) start(d *DB) {
	c.once.Do(func() {
		c.wake = make(chan struct{}, 1)
		c.quit = make(chan struct{})
		c.done = make(chan struct{})
		go c.loop(d)
	})
}

func (c *committer) append(ctx context.Context, d *DB, id string, e table.Entry, status table.Status) error {
	c.start(d)
	req := &appendReq{ctx: ctx, id: id, e: e, status: status, err: make(chan error, 1)}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return store.ErrClosed
	}
	c.queue = append(c.queue, req)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	// Wait for the outcome even if ctx ends: once queued, the entry may be
	// committed, and the caller must not believe otherwise.
	return <-req.err
}

func (c *committer) loop(d *DB) {
	defer close(c.done)
	for {
		c.mu.Lock()
		batch := c.queue
		if len(batch) > maxBatch {
			batch = batch[:maxBatch]
		}
		c.queue = c.queue[len(batch):]
		closed := c.closed
		c.mu.Unlock()
		if len(batch) > 0 {
			d.commitBatch(batch)
			continue
		}
		if closed {
			return
		}
		select {
		case <-c.wake:
		case <-c.quit:
		}
	}
}

// close stops taking appends, stores the queued ones and stops the loop.
func (c *committer) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	if c.quit != nil {
		close(c.quit)
		<-c.done
	}
}

// commitBatch stores a batch of appends in one transaction, each in its own
// savepoint, and answers every request once the transaction has ended.
func (d *DB) commitBatch(batch []*appendReq) {
	ctx := context.Background()
	answer := func(err error) {
		for _, r := range batch {
			r.err <- err
		}
	}
	tx, err := d.w.begin(ctx)
	if err != nil {
		answer(fmt.Errorf("store: beginning a write: %w", err))
		return
	}
	errs := make([]error, len(batch))
	stored := 0
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT a`); err != nil {
			errs[i] = fmt.Errorf("store: table %s: %w", r.id, err)
			continue
		}
		if err := appendTx(ctx, tx, r.id, r.e, r.status); err != nil {
			errs[i] = err
			if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO a`); rerr != nil {
				// SQLite rolled the whole transaction back (a full disk
				// does): nothing of the batch is stored.
				_ = tx.Rollback()
				answer(fmt.Errorf("store: nothing of this batch was stored: %w", err))
				return
			}
		} else {
			stored++
		}
		if _, err := tx.ExecContext(ctx, `RELEASE a`); err != nil {
			_ = tx.Rollback()
			answer(fmt.Errorf("store: table %s: %w", r.id, err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		d.afterCommitFailure(ctx, err)
		answer(fmt.Errorf("store: committing: %w", err))
		return
	}
	for i, r := range batch {
		r.err <- errs[i]
	}
}
