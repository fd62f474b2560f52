// Package logthrottle rate-limits repeated warning and error lines: a
// slog.Handler wrapper that lets the first line of a kind through, then at
// most one per interval, carrying the number of lines of that kind it held
// back meanwhile ("suppressed": N). One fault (a full disk, Discord down)
// otherwise writes the same line thousands of times a minute and buries
// everything else.
//
// A line's kind is its level, its message and the kind of its error (the
// "err" attribute): by default the type of the innermost error of its
// chain (with its number when it is one, as syscall.Errno), so that one call
// site failing for two different reasons is two kinds; Options.Kind can say
// more (an error code). Debug and Info lines always pass. Lines held back
// are reported only with the next line of their kind: a fault that stops
// leaves its last count untold.
package logthrottle

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"time"
)

// DefaultInterval is the interval when Options.Interval is 0.
const DefaultInterval = 10 * time.Second

// ErrKey is the attribute whose error a line's kind comes from.
const ErrKey = "err"

// SuppressedKey is the attribute that counts the lines held back since the
// last line of the same kind went out.
const SuppressedKey = "suppressed"

// Options configure a Handler.
type Options struct {
	// Interval is the least time between two lines of one kind
	// (DefaultInterval when 0).
	Interval time.Duration
	// Now tells the time (time.Now when nil); tests pass a fake clock.
	Now func() time.Time
	// Kind names the kind of a line's error (ErrKey); nil, or "" returned,
	// means ErrorKind.
	Kind func(err error) string
}

// Handler is the throttling slog.Handler. Handlers made from it by WithAttrs
// and WithGroup share its counts.
type Handler struct {
	next slog.Handler
	st   *state
}

type key struct {
	level slog.Level
	msg   string
	kind  string
}

type entry struct {
	last       time.Time // when a line of this kind last went out
	suppressed int       // lines held back since
}

type state struct {
	mu       sync.Mutex
	interval time.Duration
	now      func() time.Time
	kind     func(error) string
	seen     map[key]*entry
}

// maxKinds bounds the kinds remembered: beyond it, the kinds with nothing
// held back whose last line is older than the interval are forgotten.
const maxKinds = 4096

// New wraps next.
func New(next slog.Handler, o Options) *Handler {
	st := &state{interval: o.Interval, now: o.Now, kind: o.Kind, seen: map[key]*entry{}}
	if st.interval <= 0 {
		st.interval = DefaultInterval
	}
	if st.now == nil {
		st.now = time.Now
	}
	return &Handler{next: next, st: st}
}

// Enabled reports whether next handles level.
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle passes r on, unless it is a warning or an error of a kind that
// already went out less than the interval ago: then it is counted, and the
// next line of its kind to go out says how many were held back.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return h.next.Handle(ctx, r)
	}
	k := key{level: r.Level, msg: r.Message, kind: h.st.kindOf(r)}
	n, pass := h.st.admit(k)
	if !pass {
		return nil
	}
	if n > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int(SuppressedKey, n))
	}
	return h.next.Handle(ctx, r)
}

// admit reports whether a line of kind k goes out now, and how many of
// its kind were held back before it.
func (st *state) admit(k key) (suppressed int, pass bool) {
	now := st.now()
	st.mu.Lock()
	defer st.mu.Unlock()
	e := st.seen[k]
	if e == nil {
		if len(st.seen) >= maxKinds {
			st.forget(now)
		}
		st.seen[k] = &entry{last: now}
		return 0, true
	}
	if now.Sub(e.last) < st.interval {
		e.suppressed++
		return 0, false
	}
	n := e.suppressed
	e.last, e.suppressed = now, 0
	return n, true
}

// forget drops the kinds that hold nothing back and last went out more
// than the interval ago; st.mu is held.
func (st *state) forget(now time.Time) {
	for k, e := range st.seen {
		if e.suppressed == 0 && now.Sub(e.last) >= st.interval {
			delete(st.seen, k)
		}
	}
}

// kindOf is the kind of a record's error: "" when it has none.
func (st *state) kindOf(r slog.Record) string {
	var err error
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != ErrKey {
			return true
		}
		if e, ok := a.Value.Resolve().Any().(error); ok {
			err = e
		}
		return false
	})
	if err == nil {
		return ""
	}
	if st.kind != nil {
		if k := st.kind(err); k != "" {
			return k
		}
	}
	return ErrorKind(err)
}

// ErrorKind is the default kind of an error: the type of the innermost
// error of its chain (the first branch of a joined error), with its value
// when that is a number (syscall.Errno: a full disk is not a permission
// error). Its text is not used: it often names what failed (a table, a
// path), which would make every line a kind of its own.
func ErrorKind(err error) string {
	for {
		var next error
		switch e := err.(type) {
		case interface{ Unwrap() []error }:
			if errs := e.Unwrap(); len(errs) > 0 {
				next = errs[0]
			}
		default:
			next = errors.Unwrap(err)
		}
		if next == nil {
			switch v := reflect.ValueOf(err); v.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				return fmt.Sprintf("%T(%d)", err, v.Int())
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				return fmt.Sprintf("%T(%d)", err, v.Uint())
			}
			return fmt.Sprintf("%T", err)
		}
		err = next
	}
}

// WithAttrs returns a Handler whose lines carry attrs, sharing h's counts.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &Handler{next: h.next.WithAttrs(attrs), st: h.st}
}

// WithGroup returns a Handler whose attributes go in a group, sharing h's
// counts.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), st: h.st}
}
