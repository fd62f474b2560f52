//go:build !linux

package main

import "time"

func lockThread() {}

// threadCPU cannot be read outside Linux.
func threadCPU() (time.Duration, bool) { return 0, false }
