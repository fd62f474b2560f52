package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stolik-bot/stolik/store/open"
)

// KneeStep is one run of a knee search.
type KneeStep struct {
	Tables int
	Report Report
	OK     bool // within the goal: lag p99 at most MaxLag, no 429, every interaction answered, no error
}

// KneeReport is a knee search: the largest number of live tables, for one
// think time, at which the table messages stay at most MaxLag behind at
// p99 with no request refused.
type KneeReport struct {
	Think     time.Duration
	Processes int
	MaxLag    time.Duration
	// Knee is the largest number of tables that met the goal; Bound is
	// true when the search stopped at the most it was allowed to try (the
	// knee is at least Knee), false when a run above it failed.
	Knee  int
	Bound bool
	Steps []KneeStep
}

// Knee searches the capacity knee: runs of cfg (each on a database of its
// own) from cfg.Tables up, doubling the tables while the goal holds (up to
// most), then two bisections between the last that held and the first
// that did not. A PostgreSQL cfg.DB names a server where a database is
// created for each run (and dropped after it): its user must be allowed
// to create databases.
func Knee(ctx context.Context, cfg Config, most int, maxLag time.Duration, progress io.Writer) (KneeReport, error) {
	kr := KneeReport{Think: cfg.Think, Processes: max(cfg.Processes, 1), MaxLag: maxLag}
	try := func(n int) (bool, error) {
		c := cfg
		c.Tables, c.Progress = n, nil
		if open.IsPostgres(cfg.DB) {
			dsn, drop, err := freshPostgres(ctx, cfg.DB)
			if err != nil {
				return false, err
			}
			defer drop()
			c.DB = dsn
		}
		rep, err := Run(ctx, c)
		if err != nil {
			return false, err
		}
		ok := rep.LagP99 <= maxLag && rep.Refused == 0 && rep.Unanswered == 0 && len(rep.Errors) == 0
		kr.Steps = append(kr.Steps, KneeStep{Tables: n, Report: rep, OK: ok})
		if progress != nil {
			fmt.Fprintf(progress, "%5d tables: %s\n", n, kneeLine(rep, ok))
		}
		return ok, nil
	}
	good, bad := 0, 0
	for n := max(cfg.Tables, 1); ; n *= 2 {
		n = min(n, most)
		ok, err := try(n)
		if err != nil {
			return kr, err
		}
		if !ok {
			bad = n
			break
		}
		good = n
		if n == most {
			kr.Knee, kr.Bound = good, true
			return kr, nil
		}
	}
	for range 2 {
		if bad-good <= max(good/10, 1) {
			break
		}
		mid := (good + bad) / 2
		ok, err := try(mid)
		if err != nil {
			return kr, err
		}
		if ok {
			good = mid
		} else {
			bad = mid
		}
	}
	kr.Knee = good
	return kr, nil
}

// kneeLine is one run in a line.
func kneeLine(r Report, ok bool) string {
	verdict := "over"
	if ok {
		verdict = "within"
	}
	return fmt.Sprintf("%s — lag p50 %v p99 %v max %v; %.0f actions/s; bot-token %.2f per action (%.1f/s); 429 %d; unanswered %d; ack p99 %v",
		verdict, r.LagP50.Round(10*time.Millisecond), r.LagP99.Round(10*time.Millisecond), r.LagMax.Round(10*time.Millisecond),
		float64(r.Actions)/r.Window.Seconds(), r.RateLimitedPerAction(), float64(r.RateLimited)/r.Window.Seconds(),
		r.Refused, r.Unanswered, r.AckP99.Round(100*time.Microsecond))
}

// Print writes the knee search.
func (k KneeReport) Print(w io.Writer) {
	more := ""
	if k.Bound {
		more = " or more (the most tried)"
	}
	fmt.Fprintf(w, "capacity knee at a %v think time, %d process(es): %d tables%s with the table message at most %v behind at p99 and no request refused\n",
		k.Think, k.Processes, k.Knee, more, k.MaxLag)
	for _, s := range k.Steps {
		fmt.Fprintf(w, "  %5d tables: %s\n", s.Tables, kneeLine(s.Report, s.OK))
	}
}

// freshPostgres creates an empty database on the server of serverURL and
// returns its URL and the function that drops it.
func freshPostgres(ctx context.Context, serverURL string) (string, func(), error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", nil, errors.New("loadtest: the PostgreSQL URL cannot be read") // url's error would quote it, password and all
	}
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return "", nil, fmt.Errorf("loadtest: connecting to PostgreSQL to create a database: %w", err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "stolik_knee_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("loadtest: creating a database for a run: %w", err)
	}
	u.Path = "/" + name
	drop := func() {
		c, err := pgx.Connect(context.Background(), serverURL)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return u.String(), drop, nil
}
