package discordtest

import (
	"fmt"
	"sync"
)

// TB is what the fake needs from whoever runs it. *testing.T and *testing.B
// satisfy it; programs that are not tests (stolik loadtest) use a
// *Standalone.
type TB interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(f func())
}

// Standalone runs a fake outside a test. Fatalf panics with a *Failure (the
// methods that would fail a test have ...Err variants that return the error
// instead: ClickErr, SelectErr, SlashCommandErr); Close runs the cleanups,
// stopping the fake.
type Standalone struct {
	// Log receives Logf lines (WithLog); nil drops them.
	Log func(line string)

	mu       sync.Mutex
	cleanups []func()
}

// Failure is the panic value of Standalone.Fatalf.
type Failure struct{ Msg string }

func (f *Failure) Error() string { return f.Msg }

// Helper does nothing.
func (*Standalone) Helper() {}

// Logf passes a line to Log.
func (s *Standalone) Logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

// Fatalf panics with a *Failure.
func (s *Standalone) Fatalf(format string, args ...any) {
	panic(&Failure{Msg: fmt.Sprintf(format, args...)})
}

// Cleanup registers f to run at Close.
func (s *Standalone) Cleanup(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

// Close runs the registered cleanups, last first.
func (s *Standalone) Close() {
	s.mu.Lock()
	fs := s.cleanups
	s.cleanups = nil
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
