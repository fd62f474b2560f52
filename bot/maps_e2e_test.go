package bot_test

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestMapsBackToStartAfterTables: the bot's maps keyed by table, user,
// channel or interaction hold nothing for a table that has ended. 50
// tables (200 in the soak step), each opened by a user of its own in a channel of its own (every
// other one in a thread), go to their end: most are played out by AI
// players after their one human hands the seat over (having asked for
// the hand, whose picture is edited into the answer), every tenth is
// abandoned in its lobby and every tenth in play. Then every cleaned map is
// back to its size before the first table, and every bounded one within
// its cap.
func TestMapsBackToStartAfterTables(t *testing.T) {
	w := newWorld(t)
	// In the suite the AI that takes over plays at the normal level: the
	// search player's decisions would only cost time. The soak step keeps
	// the default (hard), whose moves come from the thinker's queue, off
	// the interactions, and must leave the maps clean too.
	if !enginetest.Soak() {
		w.config = func(c *bot.Config) { c.StandInAI = "normal" }
		w.stop()
		w.start()
	}
	ctx := context.Background()
	// 50 tables cover every path (k%10 picks it) five times; the soak step
	// (STOLIK_SOAK=1, scripts/soak.sh) opens 200.
	tables := 50
	if enginetest.Soak() {
		tables = 200
	}
	before, _ := w.bot.MapSizes()
	for k := range tables {
		user, channel := fmt.Sprintf("31%016d", k), fmt.Sprintf("21%016d", k)
		w.fake.AddUser(user, fmt.Sprintf("gracz%d", k), []string{"pl", "uk", "en-US"}[k%3])
		w.fake.AddChannel(guildID, channel)
		w.do(w.fake.SlashCommand(user, guildID, channel, "stolik", discordtest.Sub("open",
			discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3), discordtest.Opt("rounds", "a"),
			discordtest.Opt("thread", k%2 == 0))))
		ids, err := w.db.InChannel(ctx, channel)
		if err != nil || len(ids) != 1 {
			t.Fatalf("table %d: open tables in its channel: %v, %v", k, ids, err)
		}
		id := ids[0]
		var want table.Status
		switch {
		case k%10 == 3:
			w.do(w.fake.SlashCommand(user, guildID, channel, "stolik", discordtest.Sub("abandon")))
			want = table.StatusAbandoned
		default:
			m := w.do(w.fake.Click(user, w.tableMessage(id), "lobby/"+id+"/start"))
			w.do(w.fake.Click(user, m, "lobby/"+id+"/startai"))
			w.do(w.fake.Click(user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
			where := channel
			if meta, err := w.db.Meta(ctx, id); err != nil {
				t.Fatal(err)
			} else if meta.ThreadID != "" {
				where = meta.ThreadID
			}
			if k%10 == 7 {
				w.do(w.fake.SlashCommand(user, guildID, where, "stolik", discordtest.Sub("abandon")))
				want = table.StatusAbandoned
				break
			}
			offer := w.do(w.fake.SlashCommand(user, guildID, where, "stolik", discordtest.Sub("leave")))
			w.do(w.fake.Click(user, offer, "leave/"+id+"/ai"))
			want = table.StatusFinished
		}
		if rec, _, err := w.db.Load(ctx, id); err != nil || rec.Status != want {
			t.Fatalf("table %d (%s): status %v, %v; want %v", k, id, rec.Status, err, want)
		}
	}
	w.idle()
	after, bounded := w.bot.MapSizes()
	if !maps.Equal(after, before) {
		t.Errorf("after %d tables the maps hold %v, before them %v", tables, after, before)
	}
	for name, n := range bounded {
		if n > bot.MapBounds[name] {
			t.Errorf("%s holds %d, above its bound %d", name, n, bot.MapBounds[name])
		}
	}
	t.Logf("bounded maps after %d tables: %v", tables, bounded)
}

// TestRefusedFilesForgotten: the channels where Discord refused the bot's
// pictures are remembered for noFilesFor (10 minutes of the bot's clock),
// then forgotten: the map holds the channels refused lately, not every
// channel ever refused.
func TestRefusedFilesForgotten(t *testing.T) {
	clock := discordtest.NewFakeClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	w := newWorldAt(t, clock)
	before, _ := w.bot.MapSizes()
	for k := range 100 {
		w.bot.RefuseFiles(fmt.Sprintf("22%016d", k))
	}
	if w.bot.FilesAllowed(fmt.Sprintf("22%016d", 5)) {
		t.Error("pictures allowed at once in a channel that refused them")
	}
	if got, _ := w.bot.MapSizes(); got["noFiles"] != before["noFiles"]+100 {
		t.Errorf("noFiles holds %d after 100 refusals, %d before", got["noFiles"], before["noFiles"])
	}
	clock.Advance(9 * time.Minute)
	w.bot.RefuseFiles(fmt.Sprintf("22%016d", 100))
	if got, _ := w.bot.MapSizes(); got["noFiles"] != before["noFiles"]+101 {
		t.Errorf("noFiles holds %d 9 minutes after 100 refusals and one more, %d before", got["noFiles"], before["noFiles"])
	}
	clock.Advance(2 * time.Minute)
	w.bot.RefuseFiles(fmt.Sprintf("22%016d", 101))
	if got, _ := w.bot.MapSizes(); got["noFiles"] != before["noFiles"]+2 {
		t.Errorf("noFiles holds %d 11 minutes after 100 refusals, want the 2 refused since, %d before", got["noFiles"], before["noFiles"])
	}
	if !w.bot.FilesAllowed(fmt.Sprintf("22%016d", 5)) {
		t.Error("pictures still refused 11 minutes later")
	}
	if w.bot.FilesAllowed(fmt.Sprintf("22%016d", 101)) {
		t.Error("pictures allowed in a channel that refused them a moment ago")
	}
}
