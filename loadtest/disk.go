package loadtest

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"time"

	"github.com/stolik-bot/stolik/store/open"
)

// diskProbeEvery is how often the disk probe writes and syncs: rare enough
// to add little to the disk's work (20 syncs a second beside the bot's
// hundreds), often enough to see a stall of a tenth of a second.
const diskProbeEvery = 50 * time.Millisecond

// diskProbeStall is the sync time from which the probe counts a stall.
const diskProbeStall = 20 * time.Millisecond

// DiskProbe is the disk's own sync latency over the measured window,
// timed without the bot: a file beside the database, 12 KiB overwritten
// and synced every 50 ms, as a WAL commit of one move writes and syncs.
// When it stalls, every move waiting for its sync stalls with it, whatever
// the bot does (a move is answered only once it is durable).
type DiskProbe struct {
	Syncs         int
	P50, P99, Max time.Duration
	Stalls        int           // syncs that took diskProbeStall or more
	StalledFor    time.Duration // their time together
	Err           string        // why the probe stopped, if it did
}

// probeDisk starts the probe in dir; the function it returns stops it and
// gives what it measured.
func probeDisk(dir string) (stop func() DiskProbe) {
	done := make(chan struct{})
	out := make(chan DiskProbe, 1)
	go func() {
		var p DiskProbe
		var lat []time.Duration
		defer func() {
			p.Syncs = len(lat)
			p.P50, p.P99, p.Max = quantiles(lat)
			out <- p
		}()
		f, err := os.CreateTemp(dir, ".stolik-disk-probe-")
		if err != nil {
			p.Err = err.Error()
			return
		}
		defer os.Remove(f.Name())
		defer f.Close()
		const page, pages = 4096, 256 // a 1 MiB file, overwritten in turn
		buf := make([]byte, 3*page)
		_, _ = rand.Read(buf)
		tick := time.NewTicker(diskProbeEvery)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if _, err := f.WriteAt(buf, int64(i%(pages/3))*int64(len(buf))); err != nil {
				p.Err = err.Error()
				return
			}
			t := time.Now()
			if err := f.Sync(); err != nil {
				p.Err = err.Error()
				return
			}
			d := time.Since(t)
			lat = append(lat, d)
			if d >= diskProbeStall {
				p.Stalls++
				p.StalledFor += d
			}
		}
	}()
	return func() DiskProbe {
		close(done)
		return <-out
	}
}

// probeDir is where the probe writes: beside the SQLite file, or nowhere
// ("") for a PostgreSQL database, whose disk is the server's.
func probeDir(cfg Config) string {
	switch {
	case cfg.DB == "":
		return cfg.Dir
	case open.IsPostgres(cfg.DB):
		return ""
	default:
		return filepath.Dir(cfg.DB)
	}
}
