package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestWithoutAttachFiles: in a channel where the server took the Attach
// Files permission from the bot, Discord refuses every message the bot
// sends there with a picture (403, 50013). The table is played all the
// same: its message goes in words (the seats' lines in the text), the
// host is told once, no more refused requests follow, and a hand asked for
// (an interaction's answer, which may always carry files) still gets its
// picture. Once the permission is back, the table's picture returns after
// the bot's wait.
func TestWithoutAttachFiles(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewFakeClock(day0)
	r := newRig(t, rigOptions{clock: clock})
	r.fake.SetBotPermissions(channelID, discordtest.BotPermissions&^discordgo.PermissionAttachFiles)
	id := r.open(guildID, channelID, "princesses", 3, nil, ala, olena, bob)

	const warning = "the bot may not attach files in a channel"
	warnings := func() int {
		n := 0
		for _, line := range strings.Split(r.logs.String(), "\n") {
			var e map[string]any
			if json.Unmarshal([]byte(line), &e) == nil && strings.HasPrefix(e["msg"].(string), warning) && e["level"] == "WARN" {
				n++
			}
		}
		return n
	}
	refused := func() int { return r.refusedCalls(http.StatusForbidden, discordgo.ErrCodeMissingPermissions) }
	inWords := func(when string) {
		t.Helper()
		tm := r.tableMessage(id)
		if len(tm.Attachments) > 0 || hasPicture(tm, "table.png") {
			t.Errorf("%s: the table message has attachments %v", when, tm.Attachments)
		}
		for _, s := range replayScreen(t, r.db, r.loc, id).Seats {
			if !strings.Contains(shownText(tm), s.Line) {
				t.Errorf("%s: seat %d's line %q is not in the text: %q", when, s.Seat, s.Line, shownText(tm))
			}
		}
	}
	move := func() *discordtest.Message { t.Helper(); return r.moveWithButton(id, ala, olena, bob) }

	inWords("started")
	if w, n := warnings(), refused(); w != 1 || n != 1 {
		t.Fatalf("after the start: %d warnings, %d refused requests; want 1 and 1", w, n)
	}
	hand := move()
	if !hasPicture(hand, "hand.png") {
		t.Errorf("the hand asked for has no picture: %v", hand.Attachments)
	}
	move()
	inWords("after two moves")
	if w, n := warnings(), refused(); w != 1 || n != 1 {
		t.Errorf("after two moves: %d warnings, %d refused requests; want still 1 and 1", w, n)
	}

	// The server gives the permission back: the bot tries again after its
	// wait, and the table's picture is back.
	r.fake.ClearBotPermissions(channelID)
	clock.Advance(11 * time.Minute)
	move()
	if tm := r.tableMessage(id); !hasPicture(tm, "table.png") {
		t.Errorf("with the permission back: the table message has attachments %v", tm.Attachments)
	}
	if n := refused(); n != 1 {
		t.Errorf("%d refused requests in all, want 1", n)
	}
	r.checkLogs(id)
}

// TestReadmeInvitePermissions: the invite URL in the README asks for every
// permission the bot uses in a channel (the pictures need Attach Files,
// the threads their two), and the number in its text is the URL's.
func TestReadmeInvitePermissions(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	url := regexp.MustCompile(`scope=bot\+applications\.commands&permissions=(\d+)`).FindSubmatch(readme)
	if url == nil {
		t.Fatal("no invite URL with permissions in the README")
	}
	perms, err := strconv.ParseInt(string(url[1]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "("+string(url[1])+")") {
		t.Errorf("the README's text does not give the URL's permissions (%s)", url[1])
	}
	for name, p := range map[string]int64{
		"View Channels": discordgo.PermissionViewChannel, "Send Messages": discordgo.PermissionSendMessages,
		"Attach Files": discordgo.PermissionAttachFiles, "Read Message History": discordgo.PermissionReadMessageHistory,
		"Create Public Threads": discordgo.PermissionCreatePublicThreads, "Send Messages in Threads": discordgo.PermissionSendMessagesInThreads,
	} {
		if perms&p == 0 {
			t.Errorf("the invite URL's permissions %d lack %s", perms, name)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), "*"+name+"*") {
			t.Errorf("the README does not name %s", name)
		}
	}
}

// TestCannotPost: where the bot may not send messages (or see the
// channel), /stolik open says so in the opener's language and opens no
// table; where the interaction's permissions let it try but Discord then
// refuses the post, the opener hears the same, and the table is set aside.
func TestCannotPost(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	pl := r.loc.Lang("pl")
	for _, perms := range []int64{
		discordtest.BotPermissions &^ discordgo.PermissionSendMessages &^ discordgo.PermissionSendMessagesInThreads,
		discordtest.BotPermissions &^ discordgo.PermissionViewChannel,
	} {
		r.fake.SetBotPermissions(channelID, perms)
		if got := r.slash(ala, guildID, channelID, "open", discordtest.Opt("game", "lynx")); shownText(got) != pl.T("bot.cannot_post", nil) || !got.Ephemeral() {
			t.Errorf("permissions %d: the answer %q", perms, shownText(got))
		}
		if ids, err := r.db.InChannel(context.Background(), channelID); err != nil || len(ids) != 0 {
			t.Errorf("permissions %d: tables %v, %v", perms, ids, err)
		}
	}
	refused := func() int { return r.refusedCalls(http.StatusForbidden, 0) }
	if n := refused(); n != 0 {
		t.Errorf("%d requests refused: the bot tried to post where it may not", n)
	}
	// In a thread of this channel the bot may post (Send Messages in
	// Threads); in the channel itself Discord refuses the lobby.
	r.fake.SetBotPermissions(channelID, discordtest.BotPermissions&^discordgo.PermissionSendMessages)
	if got := r.slash(ala, guildID, channelID, "open", discordtest.Opt("game", "lynx")); shownText(got) != pl.T("bot.cannot_post", nil) {
		t.Errorf("the refused lobby: the answer %q", shownText(got))
	}
	if ids, err := r.db.InChannel(context.Background(), channelID); err != nil || len(ids) != 0 {
		t.Errorf("the refused lobby left tables %v, %v", ids, err)
	}
	if n := refused(); n != 1 {
		t.Errorf("%d requests refused, want the lobby's", n)
	}
	r.fake.ClearBotPermissions(channelID)
	if got := r.slash(ala, guildID, channelID, "open", discordtest.Opt("game", "lynx")); shownText(got) != pl.T("bot.opened", map[string]any{"ID": r.tableIn(channelID)}) {
		t.Errorf("with the permissions back: %q", shownText(got))
	}
}
