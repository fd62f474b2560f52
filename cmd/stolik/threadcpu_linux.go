package main

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// lockThread keeps the calling goroutine on its thread, so that threadCPU
// measures its work alone.
func lockThread() { runtime.LockOSThread() }

// threadCPU is the CPU time the calling thread has used (user and system),
// and whether it could be read.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
