package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/locales"
)

// A game stored with --db goes on with play --db FILE --table ID, in the
// language it was started in, to its end; a finished table, another game's
// name or a new game's setup beside --table are refused.
func TestResumeAStoredGame(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for _, tc := range []struct{ game, lang string }{{"lynx", "pl"}, {"courtiers", "uk"}, {"princesses", "en"}} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			l := b.Lang(tc.lang)
			db := filepath.Join(t.TempDir(), "t.db")
			first := script(t, "1\n1\n1\n1\nquit\n", tc.game, "--lang", tc.lang, "--seats", "3", "--seed", "6", "--db", db)
			m := tableID.FindStringSubmatch(first)
			if m == nil {
				t.Fatalf("no table id:\n%s", first)
			}
			_, before := loadTable(t, db, m[1])
			if len(before) == 0 {
				t.Fatalf("nothing stored:\n%s", first)
			}
			if done, _ := storedState(t, first, db).Result(); done {
				t.Fatal("the game is over after four answers")
			}
			out, code := playArgs(t, tc.lang, nil, nil, nil, "--db", db, "--table", m[1])
			if code != 0 {
				t.Fatalf("resume: exit %d:\n%s", code, out)
			}
			checkGameOutput(t, l, out, l.N("term.resumed", len(before), nil), l.T("ui.final_header", nil))
			_, after := loadTable(t, db, m[1])
			if len(after) <= len(before) {
				t.Errorf("the log did not grow: %d, then %d moves", len(before), len(after))
			}
			for i := range before {
				if after[i] != before[i] {
					t.Fatalf("move %d changed: %v, then %v", i, before[i], after[i])
				}
			}
			if done, _ := storedState(t, out, db).Result(); !done {
				t.Error("the resumed game did not end")
			}
			for _, bad := range []struct {
				args []string
				want string
			}{
				{[]string{"play", "--db", db, "--table", m[1], "--lang", tc.lang}, l.T("cli.play.over", map[string]any{"ID": m[1], "Name": db})},
				{[]string{"play", "chapters", "--db", db, "--table", m[1]}, m[1]},
				{[]string{"play", "--db", db, "--table", m[1], "--seats", "4"}, "--seats"},
			} {
				var errOut bytes.Buffer
				if code := run(context.Background(), bad.args, strings.NewReader(""), &errOut, &errOut); code != 2 || !strings.Contains(errOut.String(), bad.want) {
					t.Errorf("%v: exit %d, want 2 and %q:\n%s", bad.args, code, bad.want, errOut.String())
				}
			}
		})
	}
}

// cancelAtPrompt is the terminal's output; the n-th time it ends with the
// prompt, it cancels (Ctrl-C) instead of answering.
type cancelAtPrompt struct {
	mu      sync.Mutex
	out     bytes.Buffer
	prompts []string
	n       int
	cancel  context.CancelFunc
	answers *io.PipeWriter
}

func (c *cancelAtPrompt) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Write(b)
	for _, p := range c.prompts {
		if bytes.HasSuffix(c.out.Bytes(), []byte(p)) {
			if c.n--; c.n < 0 {
				c.cancel()
			} else {
				go fmt.Fprintln(c.answers, "1")
			}
			break
		}
	}
	return len(b), nil
}

// Ctrl-C (the context ending) at a prompt, or the end of the input, ends
// the game at once and cleanly: exit 0, goodbye in the game's language, no
// error; the stored game goes on with play --table.
func TestCtrlCEndsTheGameCleanly(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for _, tc := range []struct {
		game, lang string
		eof        bool
	}{{"lynx", "pl", false}, {"chapters", "uk", false}, {"courtiers", "en", true}} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			l := b.Lang(tc.lang)
			db := filepath.Join(t.TempDir(), "t.db")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in, answers := io.Pipe()
			w := &cancelAtPrompt{prompts: []string{l.T("term.prompt", nil), l.T("term.prompt_step", nil)}, n: 3, cancel: cancel, answers: answers}
			if tc.eof {
				w.cancel = func() { go answers.Close() }
			}
			code := run(ctx, []string{"play", tc.game, "--lang", tc.lang, "--seats", "3", "--seed", "5", "--db", db}, in, w, w)
			out := unwrapped(w.out.String())
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if !strings.HasSuffix(out, l.T("ui.bye", nil)+"\n") {
				t.Errorf("no goodbye at the end:\n%s", out[max(0, len(out)-500):])
			}
			if strings.Contains(out, "context") {
				t.Errorf("an error is shown:\n%s", out)
			}
			m := tableID.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no table id:\n%s", out)
			}
			if got := strings.Count(out, "--table "+m[1]); got != 2 {
				t.Errorf("the way to go on is told %d times, want twice (at the start and at the end)", got)
			}
			_, moves := loadTable(t, db, m[1])
			if len(moves) == 0 {
				t.Fatal("nothing stored")
			}
			again := script(t, "quit\n", "--db", db, "--table", m[1])
			if !strings.Contains(again, l.N("term.resumed", len(moves), nil)) {
				t.Errorf("the stored game does not go on:\n%s", again)
			}
		})
	}
}
