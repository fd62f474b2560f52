//go:build !unix

package sqlite

import "context"

// HoldShard takes no lock where the system has no flock: one process a
// database is the host's to keep.
func (d *DB) HoldShard(context.Context, int, func()) (func(), error) { return func() {}, nil }
