package bot_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// unsureStore fails the next Append as a failed sync or a cut connection
// does — after writing the move (landed) or before — and then, for a
// while, cannot be read either (downReads Load calls fail).
type unsureStore struct {
	bot.Store
	mu        sync.Mutex
	armed     bool
	landed    bool
	downReads int
}

var errSyncFailed = errors.New("disk I/O error: fsync")

func (s *unsureStore) arm(landed bool, downReads int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed, s.landed, s.downReads = true, landed, downReads
}

func (s *unsureStore) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	s.mu.Lock()
	armed, landed := s.armed, s.landed
	s.armed = false
	s.mu.Unlock()
	if !armed {
		return s.Store.Append(ctx, id, e, status)
	}
	if landed {
		if err := s.Store.Append(ctx, id, e, status); err != nil {
			return err
		}
	}
	return errSyncFailed
}

func (s *unsureStore) Load(ctx context.Context, id string) (table.Record, []table.Entry, error) {
	s.mu.Lock()
	down := s.downReads > 0
	if down {
		s.downReads--
	}
	s.mu.Unlock()
	if down {
		return table.Record{}, nil, errSyncFailed
	}
	return s.Store.Load(ctx, id)
}

// TestUnsureMoveToldTruly: when storing a move fails in a way that may
// have stored it, the player is told it is being checked — never that
// nothing changed — and once the store can be read again the same answer
// says what the log holds: saved (and the table shows the move) or not
// saved (and the move can be made again), in the player's language.
func TestUnsureMoveToldTruly(t *testing.T) {
	for _, landed := range []bool{true, false} {
		t.Run(fmt.Sprintf("landed=%v", landed), func(t *testing.T) {
			us := &unsureStore{}
			r := newRig(t, rigOptions{wrap: func(s bot.Store) bot.Store { us.Store = s; return us }})
			id := r.open(guildID, channelID, "chapters", 3, []discordtest.Arg{discordtest.Opt("language", "en")}, ala, bob)
			user := toAct(r.tableMessage(id))[0]
			l := r.loc.Lang(userLang[user])
			hand := r.answer(r.fake.Click(user, r.tableMessage(id), r.tableMessage(id).Control("hand/"+id)))
			var button string
			for _, c := range moveControls(hand) {
				if !c.IsSelect() && !strings.Contains(c.CustomID, "/>") {
					button = c.CustomID
					break
				}
			}
			if button == "" {
				t.Fatalf("no move button: %s", hand)
			}
			_, log0, _ := r.db.Load(context.Background(), id)
			us.arm(landed, 2) // the store cannot be read for the first two tries
			in := r.fake.Click(user, hand, button)
			first := in.Wait(context.Background())
			r.idle() // the check runs after the answer; idle waits for it
			_, log1, err := r.db.Load(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(log1) > len(log0); got != landed {
				t.Fatalf("the log grew: %v; the move landed: %v", got, landed)
			}
			// What the player was told first (the answer comes at once: the
			// store failed at once), and what the same answer says now.
			if first.Type != 7 || !strings.HasPrefix(shownText(first.Message), l.T("error.move_checking", nil)) {
				t.Errorf("the first answer (type %d): %v, want %q", first.Type, first.Message, l.T("error.move_checking", nil))
			}
			want, wrong := "error.move_saved", "error.move_not_saved"
			if !landed {
				want, wrong = wrong, want
			}
			now := shownText(in.Original())
			if !strings.HasPrefix(now, l.T(want, nil)) || strings.Contains(now, l.T(wrong, nil)) || strings.Contains(now, l.T("error.move_checking", nil)) {
				t.Errorf("the answer after the check: %q, want it to begin with %q", now, l.T(want, nil))
			}
			// The game goes on from the log.
			r.moveWithButton(id, ala, bob)
			r.checkLogs(id)
		})
	}
}
