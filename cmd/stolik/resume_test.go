package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
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
