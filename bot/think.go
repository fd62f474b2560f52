package bot

import (
	"cmp"
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/table"
)

// thinker makes the search players' decisions away from the interactions:
// a queue of the tables whose next seat to act is a search player, worked
// by at most half the processors. A decision takes tens of milliseconds of
// one processor; it is made on a copy of the table without holding its
// lock, so that a click on that table is answered meanwhile, and applied
// under the lock only when the table has not moved since (else it is made
// again). The interactions and the quick AI seats keep the other half of
// the processors.
type thinker struct {
	mu      sync.Mutex
	pending map[string]bool // tables queued or being thought about
	queue   []string
	running int // workers
}

// thinkers is how many search decisions are made at once.
func thinkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// thinkLater queues table id for its search player's decision. Nothing is
// queued once the bot is shutting down: the next start resumes the table
// (resume runs its AI seats).
func (b *Bot) thinkLater(id string) {
	t := &b.think
	b.runMu.Lock()
	defer b.runMu.Unlock()
	if b.closing {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending == nil {
		t.pending = map[string]bool{}
	}
	if t.pending[id] {
		return
	}
	t.pending[id] = true
	t.queue = append(t.queue, id)
	b.busy.Add(1) // counted until thought about (WaitIdle)
	if t.running < thinkers() {
		t.running++
		b.inflight.Add(1) // a shutdown waits for the decision in progress
		go b.thinkAll()
	}
}

// thinkAll works the queue until it is empty.
func (b *Bot) thinkAll() {
	defer b.inflight.Done()
	t := &b.think
	for {
		t.mu.Lock()
		if len(t.queue) == 0 {
			t.running--
			t.mu.Unlock()
			return
		}
		id := t.queue[0]
		t.queue = t.queue[1:]
		delete(t.pending, id)
		t.mu.Unlock()
		b.thinkOne(id)
		b.busy.Add(-1)
	}
}

// thinkOne makes the decision of the search player to act at table id,
// applies it when the table still stands where it was decided, and runs the
// AI seats after it (which may queue the table again).
func (b *Bot) thinkOne(id string) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic in an AI decision", "table", id, "panic", p)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	snap, err := b.tables.Get(ctx, id)
	if err != nil {
		b.log.Warn("AI decision: reading the table", "table", id, "err", err)
		return
	}
	if snap.Record.Status != table.StatusPlaying || !b.cfg.OnShard(snap.Record.GuildID) {
		return
	}
	seat, kind, found := aiToAct(snap)
	if !found {
		return
	}
	p, err := ai.Player(snap.Game, cmp.Or(kind, b.cfg.AIBot), len(snap.Record.Seats), 0)
	if err != nil {
		b.log.Error("AI decision", "table", id, "err", err)
		return
	}
	a := engine.Decide(p, snap.State, seat, engine.NewRand(randomUint64(), 0))

	unlock := b.lock(id)
	defer unlock()
	cur, err := b.tables.Get(ctx, id)
	if err != nil {
		b.log.Warn("AI decision: reading the table", "table", id, "err", err)
		return
	}
	if cur.Version != snap.Version {
		// The table moved while the seat thought (another seat of a
		// simultaneous decision, another process): think again.
		b.thinkLater(id)
		return
	}
	before := cur.State.Acting()
	evs, after, err := b.act(ctx, id, seat, a.String(), cur.Version)
	if engine.Code(err) == engine.CodeStale {
		b.log.Info("AI seat moved by another process", "table", id, "seat", seat)
		return
	}
	if err != nil {
		b.log.Error("AI move", "table", id, "seat", seat, "action", a.String(), "err", err)
		return
	}
	more, after, err := b.runAI(ctx, after)
	if err != nil {
		b.log.Error("AI move", "table", id, "err", err)
	}
	b.publish(ctx, after, append(evs, more...), before, true)
}
