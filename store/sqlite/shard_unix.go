//go:build unix

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"

	"github.com/stolik-bot/stolik/store"
)

// HoldShard takes shard's lock: an exclusive flock on <database>.shard<N>.lock
// beside the database file. The kernel frees it when the process ends,
// however it ends; it is never lost while the process lives.
func (d *DB) HoldShard(_ context.Context, shard int, _ func()) (func(), error) {
	if d.path == "" {
		return nil, errors.New("store: a read-only database serves no shard")
	}
	p := fmt.Sprintf("%s.shard%d.lock", d.path, shard)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: the lock of shard %d: %w", shard, err)
	}
	fd := int(f.Fd())
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, store.ErrShardHeld
		}
		return nil, fmt.Errorf("store: the lock of shard %d (%s): %w", shard, p, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = syscall.Flock(fd, syscall.LOCK_UN)
			_ = f.Close()
		})
	}, nil
}
