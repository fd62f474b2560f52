package bot_test

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestMain lets more tests run at once than there are cores: the
// end-to-end tests wait much of their time on real time (each bot's
// discordgo session sleeps a second when it closes, restarts wait for the
// gateway, outputs wait for their pictures), see discordtest.SetParallel.
func TestMain(m *testing.M) {
	flag.Parse()
	discordtest.SetParallel(discordtest.WaitingParallel)
	stop := watchdog()
	code := m.Run()
	stop()
	os.Exit(code)
}

// testFrame finds a test function of this package on a goroutine's stack.
var testFrame = regexp.MustCompile(`github\.com/stolik-bot/stolik/bot(?:_test)?\.(Test\w+)`)

// watchdog: shortly before `go test`'s timeout would end the package with
// a dump of every goroutine, which names the tests still running only at
// its top (a CI log that keeps the tail loses them), it writes which tests
// are still running and where each waits, as the last lines of the
// output, and ends the package. It returns the function that stops it.
func watchdog() func() {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return func() {}
	}
	timeout, _ := f.Value.(flag.Getter).Get().(time.Duration)
	if timeout <= 0 {
		return func() {}
	}
	lead := min(30*time.Second, timeout/10)
	timer := time.AfterFunc(timeout-lead, func() {
		buf := make([]byte, 64<<20)
		buf = buf[:runtime.Stack(buf, true)]
		running := map[string]int{}
		var where []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			m := testFrame.FindStringSubmatch(g)
			if m == nil || m[1] == "TestMain" {
				continue
			}
			running[m[1]]++
			// The innermost frames of the goroutine: where it waits.
			var fns []string
			lines := strings.Split(g, "\n")
			for i := 1; i < len(lines) && len(fns) < 4; i += 2 {
				fn := lines[i]
				if j := strings.LastIndexByte(fn, '('); j > 0 {
					fn = fn[:j]
				}
				if !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "internal/") {
					fns = append(fns, strings.TrimPrefix(fn, "github.com/stolik-bot/stolik/"))
				}
			}
			where = append(where, m[1]+": "+strings.Join(fns, " < "))
		}
		slices.Sort(where)
		where = slices.Compact(where)
		if len(where) > 40 {
			where = where[:40]
		}
		names := make([]string, 0, len(running))
		for n, k := range running {
			names = append(names, fmt.Sprintf("%s (%d goroutines)", n, k))
		}
		slices.Sort(names)
		fmt.Fprintf(os.Stderr, "\nbot tests: where the tests still running wait:\n  %s\n", strings.Join(where, "\n  "))
		fmt.Fprintf(os.Stderr, "bot tests: still running %v after the start, near the %v timeout: %s\n",
			timeout-lead, timeout, strings.Join(names, ", "))
		os.Exit(2)
	})
	return func() { timer.Stop() }
}
