package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/store"
)

// shardKey is the advisory lock of a shard: a number no other lock of the
// database's users is likely to take.
func shardKey(shard int) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "stolik shard %d", shard)
	return int64(h.Sum64() >> 1)
}

// shardCheck is how often a held shard lock is checked (its connection
// pinged, and the lock taken again on a new one when the old is gone).
var shardCheck = 5 * time.Second

// HoldShard takes shard's lock: a session advisory lock on a connection of
// its own, kept for the process's life. The server frees it when the
// connection goes, so when the process dies. When the connection is lost
// (the server restarted), the lock is taken again on a new one; lost is
// called when another process has taken it meanwhile.
func (d *DB) HoldShard(ctx context.Context, shard int, lost func()) (func(), error) {
	if err := d.live(); err != nil {
		return nil, err
	}
	key := shardKey(shard)
	// A connection of its own, outside the pool, so that the lock takes
	// none of the pool's connections from the work.
	cfg := d.pool.Config().ConnConfig
	take := func(ctx context.Context) (*pgx.Conn, error) {
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("store/postgres: a connection for the lock of shard %d: %w", shard, err)
		}
		var ok bool
		if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil {
			_ = c.Close(context.Background())
			return nil, fmt.Errorf("store/postgres: taking the lock of shard %d: %w", shard, err)
		}
		if !ok {
			_ = c.Close(context.Background())
			return nil, store.ErrShardHeld
		}
		return c, nil
	}
	c, err := take(ctx)
	if err != nil {
		return nil, err
	}
	hold, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(shardCheck)
		defer t.Stop()
		for {
			select {
			case <-hold.Done():
				if c != nil {
					unlock, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					_, _ = c.Exec(unlock, `SELECT pg_advisory_unlock($1)`, key)
					_ = c.Close(unlock) // the session ends: the lock with it
					cancel()
				}
				return
			case <-t.C:
			}
			if c != nil {
				ping, cancel := context.WithTimeout(hold, shardCheck)
				err := c.Ping(ping)
				cancel()
				if err == nil {
					continue
				}
				_ = c.Close(context.Background()) // the session, and its lock, are gone
				c = nil
			}
			again, cancel := context.WithTimeout(hold, shardCheck)
			c, err = take(again)
			cancel()
			switch {
			case errors.Is(err, store.ErrShardHeld):
				if lost != nil {
					lost()
				}
				<-hold.Done()
				return
			case err != nil:
				c = nil // the server is still away: try again at the next tick
			}
		}
	}()
	return func() { stop(); <-done }, nil
}
