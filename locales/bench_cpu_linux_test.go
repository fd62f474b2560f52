//go:build linux

package locales

import (
	"runtime"
	"syscall"
	"testing"
)

// BenchmarkTCPU and BenchmarkNCPU are BenchmarkT and BenchmarkN that also
// report the CPU time of the benchmarking thread per call (cpu-ns/op): on a
// shared machine the wall-clock ns/op counts the time the thread waits for
// a core, the CPU time much less so.
//
// go test -run '^$' -bench 'Benchmark[TN]CPU$' -count 8 ./locales/

// threadCPU is the CPU time (user and system) of the calling thread.
func threadCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// rusageThread is Linux's RUSAGE_THREAD (not in package syscall).
const rusageThread = 1

func benchCPU(b *testing.B, plural bool) {
	cases := benchCases(b, plural)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU(b)
	for i := 0; i < b.N; i++ {
		c := &cases[i%len(cases)]
		if plural {
			benchSink = c.l.N(c.key, c.count, c.data)
		} else {
			benchSink = c.l.T(c.key, c.data)
		}
	}
	b.ReportMetric(float64(threadCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkTCPU(b *testing.B) { benchCPU(b, false) }
func BenchmarkNCPU(b *testing.B) { benchCPU(b, true) }
