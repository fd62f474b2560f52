package bot_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestWithinDiscordsRateLimits: a fake Discord that enforces Discord's
// limits, tightened: in one case the table message's channel bucket lets
// it be edited once a second, in the other the global limit (6 a second)
// is below that bucket and the bot is told half of it (rest_rate). With the clicks
// on the table message too old for their webhooks (15 minutes on the
// clock), its edits go through the bot token; the players move from their
// hands as fast as the bot answers. The bot gets no 429, stays within the
// global limit, and loses no update: once it is idle, the table message
// names whom the game waits for. (Told a rest_rate above the global
// limit, the bot gets 429s and the second case fails.)
func TestWithinDiscordsRateLimits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name              string
		global, editLimit int
	}{
		{"a route's bucket", 50, 1},
		{"the global limit", 6, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			playWithinLimits(t, c.global, c.editLimit)
		})
	}
}

// playWithinLimits plays with the fake's global limit at global and the
// table message's bucket at editLimit a second; the bot is told half the
// global limit, a margin for requests let through by its budget that a
// busy machine delays into one second of the fake's.
func playWithinLimits(t *testing.T, global, editLimit int) {
	clock := discordtest.NewFakeClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	limits := discordtest.DefaultLimits()
	limits.Global = global
	for i := range limits.Routes {
		if limits.Routes[i].Route == "PATCH /channels/{channel.id}/messages/{message.id}" {
			limits.Routes[i].Limit, limits.Routes[i].Per = editLimit, time.Second
		}
	}
	r := newRig(t, rigOptions{fake: []discordtest.Option{discordtest.WithRateLimits(limits)}, clock: clock, restRate: max(global/2, 1)})
	users := []string{ala, olena, bob}
	id := r.open(guildID, channelID, "lynx", 3, nil, users...)
	where := r.tableMessage(id).ChannelID
	clock.Advance(15 * time.Minute) // the lobby's clicks: too old

	ctx := context.Background()
	hands := map[string]*discordtest.Message{}
	for _, u := range users {
		hands[u] = r.slash(u, guildID, where, "hand")
	}
	const edit = "PATCH /channels/{channel.id}/messages/{message.id}"
	calls := func() int {
		n := 0
		for _, c := range r.fake.Calls() {
			if c.Route == edit && c.Status/100 == 2 {
				n++
			}
		}
		return n
	}
	edits0 := calls()
	logLen := func() int {
		_, log, err := r.db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return len(log)
	}
	start := logLen()
	for round := 0; logLen()-start < 24 && round < 200; round++ {
		moved := false
		for _, u := range users {
			cs := moveControls(hands[u])
			k := slices.IndexFunc(cs, func(c discordtest.Component) bool { return !c.IsSelect() })
			if k < 0 {
				continue
			}
			before := logLen()
			resp := r.fake.Click(u, hands[u], cs[k].CustomID).Wait(ctx) // the acknowledgement only: the edits pile up
			if resp.Message != nil && resp.Message.Ephemeral() {
				hands[u] = resp.Message
			}
			moved = moved || logLen() > before
		}
		if !moved {
			// Hands are brought up to date in place when the turn comes
			// back: read them again.
			r.idle()
			for _, u := range users {
				if m := r.fake.Message(hands[u].ID); m != nil {
					hands[u] = m
				}
			}
		}
	}
	r.idle()
	if n := logLen() - start; n < 10 {
		t.Fatalf("only %d moves: the players could not move", n)
	}
	if rs := r.fake.RateStats(); rs.Limited != 0 || rs.PeakSecond > limits.Global {
		t.Errorf("the limits: %+v, want no 429 and at most %d requests in a second", rs, limits.Global)
		for _, c := range r.fake.Calls() {
			if c.Limited {
				t.Logf("refused: %s (call %d)", c.Route, c.Seq)
			}
		}
	}
	if n := calls() - edits0; n == 0 {
		t.Errorf("no edit of the table message through the bot token")
	}
	rec, st, _ := replayed(t, r.db, id)
	if rec.Status != table.StatusPlaying {
		return
	}
	var want []string
	for _, s := range st.Acting() {
		for _, si := range rec.Seats {
			if si.Seat == s {
				want = append(want, si.UserID)
			}
		}
	}
	got := toAct(r.tableMessage(id))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(slices.Compact(got), want) {
		t.Errorf("the table message names %v, the game waits for %v: an update was lost", got, want)
	}
}
