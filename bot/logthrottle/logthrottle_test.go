package logthrottle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/logthrottle"
)

// clock is a fake clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var errFull = errors.New("database or disk is full")

// codeError carries a code, for a Kind function.
type codeError struct{ code string }

func (e *codeError) Error() string { return "failed with " + e.code }

// line is one step: the clock moves by advance, then the line is logged.
type line struct {
	advance time.Duration
	level   slog.Level
	msg     string
	err     error
}

// out is a line that went out: its message and its "suppressed" count
// (-1 when it has none).
type out struct {
	msg        string
	suppressed int
}

func TestThrottle(t *testing.T) {
	wrapped := func(err error) error { return fmt.Errorf("store: appending: %w", err) }
	cases := []struct {
		name  string
		lines []line
		want  []out
	}{
		{"the first line passes, repeats within the interval do not, the next after it counts them",
			[]line{
				{0, slog.LevelError, "appending", errFull},
				{time.Second, slog.LevelError, "appending", errFull},
				{time.Second, slog.LevelError, "appending", wrapped(errFull)}, // the same kind through a wrapper
				{time.Second, slog.LevelError, "appending", errFull},
				{7 * time.Second, slog.LevelError, "appending", errFull}, // 10 s after the first
				{time.Second, slog.LevelError, "appending", errFull},
				{10 * time.Second, slog.LevelError, "appending", errFull},
				{10 * time.Second, slog.LevelError, "appending", errFull},
			},
			[]out{{"appending", -1}, {"appending", 3}, {"appending", 1}, {"appending", -1}}},
		{"another message, level or error kind is another kind",
			[]line{
				{0, slog.LevelError, "appending", errFull},
				{0, slog.LevelError, "reading", errFull},
				{0, slog.LevelWarn, "appending", errFull},
				{0, slog.LevelError, "appending", context.DeadlineExceeded},
				{0, slog.LevelError, "appending", &fs.PathError{Op: "write", Path: "a", Err: syscall.ENOSPC}},
				{0, slog.LevelError, "appending", &fs.PathError{Op: "open", Path: "b", Err: syscall.EACCES}},
				{0, slog.LevelError, "appending", &fs.PathError{Op: "write", Path: "c", Err: syscall.ENOSPC}},
				{0, slog.LevelError, "appending", nil},
				{0, slog.LevelError, "appending", errors.New("another text, the same type")},
				{0, slog.LevelError, "appending", nil},
			},
			[]out{{"appending", -1}, {"reading", -1}, {"appending", -1}, {"appending", -1}, {"appending", -1}, {"appending", -1}, {"appending", -1}}},
		{"debug and info lines always pass",
			[]line{
				{0, slog.LevelInfo, "moved", nil},
				{0, slog.LevelInfo, "moved", nil},
				{0, slog.LevelDebug, "click", errFull},
				{0, slog.LevelDebug, "click", errFull},
			},
			[]out{{"moved", -1}, {"moved", -1}, {"click", -1}, {"click", -1}}},
		{"a code from Kind tells errors of one type apart",
			[]line{
				{0, slog.LevelError, "rest", &codeError{"429"}},
				{0, slog.LevelError, "rest", &codeError{"500"}},
				{0, slog.LevelError, "rest", &codeError{"429"}},
				{10 * time.Second, slog.LevelError, "rest", &codeError{"429"}},
			},
			[]out{{"rest", -1}, {"rest", -1}, {"rest", 1}}},
		{"a joined error's kind is its first branch's",
			[]line{
				{0, slog.LevelWarn, "closing", errors.Join(errFull, fs.ErrClosed)},
				{0, slog.LevelWarn, "closing", errFull},
				{0, slog.LevelWarn, "closing", errors.Join(fs.ErrClosed)},
			},
			[]out{{"closing", -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{t: time.Date(2026, 8, 7, 12, 0, 0, 0, time.UTC)}
			var buf bytes.Buffer
			h := logthrottle.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), logthrottle.Options{
				Interval: 10 * time.Second, Now: clk.now,
				Kind: func(err error) string {
					var ce *codeError
					if errors.As(err, &ce) {
						return "code " + ce.code
					}
					return ""
				},
			})
			log := slog.New(h).With("component", "test") // derived loggers share the counts
			for _, l := range c.lines {
				clk.t = clk.t.Add(l.advance)
				var args []any
				if l.err != nil {
					args = append(args, "err", l.err)
				}
				if l.level == slog.LevelError {
					slog.New(h).Log(context.Background(), l.level, l.msg, args...)
				} else {
					log.Log(context.Background(), l.level, l.msg, args...)
				}
			}
			var got []out
			for _, s := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				if s == "" {
					continue
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(s), &m); err != nil {
					t.Fatalf("%q: %v", s, err)
				}
				o := out{msg: m["msg"].(string), suppressed: -1}
				if n, ok := m[logthrottle.SuppressedKey].(float64); ok {
					o.suppressed = int(n)
				}
				got = append(got, o)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("lines out: %v, want %v", got, c.want)
			}
		})
	}
}

// TestManyKindsForgotten: the kinds remembered stay bounded, and a kind
// forgotten after its interval passes again at once.
func TestManyKindsForgotten(t *testing.T) {
	clk := &clock{t: time.Date(2026, 8, 7, 12, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	log := slog.New(logthrottle.New(slog.NewTextHandler(&buf, nil), logthrottle.Options{Now: clk.now}))
	for i := range 10000 {
		log.Error(fmt.Sprintf("message %d", i))
		clk.t = clk.t.Add(time.Millisecond)
	}
	if n := strings.Count(buf.String(), "\n"); n != 10000 {
		t.Errorf("%d lines of 10000 distinct kinds went out", n)
	}
	buf.Reset()
	clk.t = clk.t.Add(logthrottle.DefaultInterval)
	log.Error("message 0")
	log.Error("message 0")
	if n := strings.Count(buf.String(), "\n"); n != 1 {
		t.Errorf("%d lines after the interval, want 1: %q", n, buf.String())
	}
}
