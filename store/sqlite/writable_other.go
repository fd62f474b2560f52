//go:build !unix

package sqlite

import "errors"

// writable leaves the check to SQLite and the write probe.
func writable(string) error { return nil }

// FreeBytes is unknown here.
func FreeBytes(string) (uint64, error) { return 0, errors.ErrUnsupported }
