package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// Rand is the chance source of one log step. It is derived from the table's
// secret seed and the step number alone, so that replaying a log never
// depends on how many numbers an earlier step drew. A scenario may attach
// stacks: scripted outcomes that a game consumes instead of shuffling.
type Rand struct {
	seed   uint64
	step   int
	r      *rand.Rand // made on first use: most steps draw nothing
	stacks *Stacks
}

// NewRand returns the chance source for step n of a table with the given
// seed. Step 0 is the game's creation; step i+1 applies log entry i.
func NewRand(seed uint64, step int) *Rand {
	return &Rand{seed: seed, step: step}
}

// gen returns the generator, keying ChaCha8 with a hash of (seed, step).
func (r *Rand) gen() *rand.Rand {
	if r.r == nil {
		var in [16]byte
		binary.LittleEndian.PutUint64(in[:8], r.seed)
		binary.LittleEndian.PutUint64(in[8:], uint64(r.step))
		r.r = rand.New(rand.NewChaCha8(sha256.Sum256(in[:])))
	}
	return r.r
}

// WithStacks attaches scripted outcomes; consumed stacks are removed from s.
func (r *Rand) WithStacks(s *Stacks) *Rand {
	r.stacks = s
	return r
}

// IntN returns a number in [0, n).
func (r *Rand) IntN(n int) int { return r.gen().IntN(n) }

// Uint64 returns a random 64-bit number (for AI seeds and table seeds).
func (r *Rand) Uint64() uint64 { return r.gen().Uint64() }

// Shuffle shuffles n elements with swap.
func (r *Rand) Shuffle(n int, swap func(i, j int)) { r.gen().Shuffle(n, swap) }

// Take removes and returns the pending stacks of one kind (e.g. "deal").
// Without stacks it returns nil.
func (r *Rand) Take(kind string) []Stack {
	if r == nil || r.stacks == nil {
		return nil
	}
	return r.stacks.take(kind)
}

// Stack is one scripted chance outcome, written in a scenario as
// "<kind> [<index>]: <values>", e.g. "deal 2: Q3 Q7" or "deck: 4 4 X".
type Stack struct {
	Kind   string
	Index  int // the seat or pile index; -1 when the line names none
	Values []string
	Line   int // where the scenario wrote it, for error messages
}

// Err builds the rule error for a stack that cannot be a legal deal.
func (s Stack) Err(why string, kv ...any) *RuleError {
	e := Errorf(CodeBadStack, append([]any{"kind", s.Kind, "line", s.Line, "why", why}, kv...)...)
	return e
}

// Stacks holds pending scripted outcomes in the order they were written.
type Stacks struct {
	pending []Stack
}

// Add queues a stack.
func (s *Stacks) Add(st Stack) { s.pending = append(s.pending, st) }

// Pending lists the stacks not yet consumed.
func (s *Stacks) Pending() []Stack { return s.pending }

func (s *Stacks) take(kind string) []Stack {
	var out []Stack
	kept := s.pending[:0]
	for _, st := range s.pending {
		if st.Kind == kind {
			out = append(out, st)
		} else {
			kept = append(kept, st)
		}
	}
	s.pending = kept
	return out
}
