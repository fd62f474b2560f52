package bot_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// langCountingStore counts the store's reads of users' languages.
type langCountingStore struct {
	*sqlite.DB
	reads *atomic.Int64
}

func (s langCountingStore) UserLang(ctx context.Context, userID string) (string, error) {
	s.reads.Add(1)
	return s.DB.UserLang(ctx, userID)
}

// TestUserLanguageRemembered: a user's language is read from the store
// once, not at every interaction; a choice made with /stolik language
// applies at once; and when other processes share the store, a choice
// made through one of them reaches this bot within a minute.
func TestUserLanguageRemembered(t *testing.T) {
	for _, shared := range []bool{false, true} {
		name := "one process"
		if shared {
			name = "shared store"
		}
		t.Run(name, func(t *testing.T) {
			clock := discordtest.NewFakeClock(day0)
			w := newWorldAt(t, clock)
			var reads atomic.Int64
			w.wrap = func(db *sqlite.DB) bot.Store { return langCountingStore{db, &reads} }
			w.shared = shared
			w.stop()
			w.start()
			ctx := context.Background()
			en, uk := w.loc.Lang("en"), w.loc.Lang("uk")

			w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3))
			id := w.tableID()
			for range 3 {
				w.slash(olena, "status")
			}
			if n := reads.Load(); n > 2 {
				t.Errorf("%d reads of the users' languages for two users' four interactions, want at most 2", n)
			}
			// Chosen with the command: the next answer is in it.
			w.slash(olena, "language", discordtest.Opt("language", "en"))
			if m := w.slash(olena, "status"); !strings.Contains(shownText(m), "table "+id) {
				t.Errorf("status right after choosing English: %q", shownText(m))
			}
			// Chosen through another process (written to the store directly).
			if err := w.db.SetUserLang(ctx, olena, "uk"); err != nil {
				t.Fatal(err)
			}
			rules := func() string {
				return shownText(w.slash(olena, "rules", discordtest.Opt("game", "princesses")))
			}
			if got := rules(); got != en.T("princesses.rules", nil) {
				t.Errorf("before a minute passed: rules %.40q…, want the remembered English", got)
			}
			clock.Advance(time.Minute + time.Second)
			want := en.T("princesses.rules", nil)
			if shared {
				want = uk.T("princesses.rules", nil) // the other process's choice reached this one
			}
			if got := rules(); got != want {
				t.Errorf("a minute later: rules %.40q…, want %.40q…", got, want)
			}
		})
	}
}
