package bot_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// clockStore takes its time storing a move on a fake clock, as a disk
// whose sync stalls would on the real one.
type clockStore struct {
	bot.Store
	clock *discordtest.FakeClock
	takes atomic.Int64 // a time.Duration
}

func (s *clockStore) Append(ctx context.Context, id string, e table.Entry, status table.Status) error {
	s.clock.Advance(time.Duration(s.takes.Load()))
	return s.Store.Append(ctx, id, e, status)
}

// TestSlowMoveWarned: a move the store takes half a second or more to make
// durable is told to the host in a warning naming the table and the time;
// a quicker one is not.
func TestSlowMoveWarned(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewFakeClock(day0)
	cs := &clockStore{clock: clock}
	r := newRig(t, rigOptions{clock: clock, wrap: func(s bot.Store) bot.Store { cs.Store = s; return cs }})
	id := r.open(guildID, channelID, "princesses", 3, nil, ala, olena, bob)

	const msg = "storing a move was slow"
	// move makes one move of whoever must act, and returns the warnings
	// about slow moves logged meanwhile.
	move := func(takes time.Duration) []map[string]any {
		t.Helper()
		before := len(r.logs.String())
		cs.takes.Store(int64(takes))
		_, log0, _ := r.db.Load(context.Background(), id)
		for _, u := range []string{ala, olena, bob} {
			hand := r.answer(r.fake.Click(u, r.tableMessage(id), r.tableMessage(id).Control("hand/"+id)))
			for _, c := range moveControls(hand) {
				if c.IsSelect() {
					continue
				}
				r.answer(r.fake.Click(u, hand, c.CustomID))
				break
			}
			if _, log1, _ := r.db.Load(context.Background(), id); len(log1) > len(log0) {
				var warned []map[string]any
				for _, line := range strings.Split(r.logs.String()[before:], "\n") {
					var e map[string]any
					if json.Unmarshal([]byte(line), &e) == nil && strings.HasPrefix(e["msg"].(string), msg) {
						warned = append(warned, e)
					}
				}
				return warned
			}
		}
		t.Fatal("neither player could move with a button")
		return nil
	}

	if w := move(100 * time.Millisecond); len(w) != 0 {
		t.Errorf("a move stored in 0.1 s was warned of: %v", w)
	}
	w := move(2 * time.Second)
	if len(w) != 1 {
		t.Fatalf("a move stored in 2 s: %d warnings, want 1: %v", len(w), w)
	}
	if w[0]["level"] != "WARN" || w[0]["table"] != id || w[0]["took"] != float64(2*time.Second) {
		t.Errorf("the warning: %v", w[0])
	}
}
