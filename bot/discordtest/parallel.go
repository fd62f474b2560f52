package discordtest

import (
	"flag"
	"strconv"
)

// WaitingParallel is the -test.parallel that SetParallel gives a package
// whose tests mostly wait.
const WaitingParallel = 16

// SetParallel sets -test.parallel to n unless the command line set it; call
// it from TestMain before m.Run. The default (GOMAXPROCS: 2 on a 2-core
// machine) suits tests that compute; tests against the fake spend much of
// their time waiting on real time no fake clock reaches — discordgo's
// Session.Close sleeps one second before it closes the websocket, a bot
// restart waits for the gateway — so more of them may wait at once than
// there are cores.
func SetParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
