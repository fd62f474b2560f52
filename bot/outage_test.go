package bot_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// An outage longer than one request's retries: the table message edit and
// the channel posts Discord refused are sent again later, so the table
// message ends up current and no post is lost.
func TestOutputOutlivesAnOutage(t *testing.T) {
	w := newWorld(t)
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3), discordtest.Opt("thread", false))
	id := w.tableID()
	// The table message is edited through the webhook of the last click
	// on it while that lasts (not counted against the global rate
	// limit), else through the bot token: both refused.
	const edit = "PATCH /channels/{channel.id}/messages/{message.id}"
	const webhookEdit = "PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}"
	const post = "POST /channels/{channel.id}/messages"
	edits := func() int { return w.calls(edit) + w.calls(webhookEdit) }
	before := edits()
	w.fake.FailNext(webhookEdit, 6, 500)
	w.fake.FailNext(edit, 6, 500) // more than one request's retries
	w.do(w.fake.Click(olena, w.tableMessage(id), "lobby/"+id+"/join"))
	if !strings.Contains(shownText(w.tableMessage(id)), "olena") {
		t.Errorf("the lobby was not updated after the outage: %q", shownText(w.tableMessage(id)))
	}
	if n := edits() - before; n < 7 {
		t.Errorf("%d edit attempts, want at least 6 refused and one more", n)
	}
	w.fake.ClearFaults()

	// The posts go as follow-ups of the interaction that made them, or
	// through the bot token when that fails: both refused.
	const followUp = "POST /webhooks/{webhook.id}/{webhook.token}"
	m := w.do(w.fake.Click(ala, w.tableMessage(id), "lobby/"+id+"/start"))
	posts := len(w.fake.Messages(channelID))
	w.fake.FailNext(followUp, 6, 503)
	w.fake.FailNext(post, 6, 503)
	w.do(w.fake.Click(ala, m, "lobby/"+id+"/startai"))
	if got := len(w.fake.Messages(channelID)); got <= posts {
		t.Errorf("no post after the outage (%d messages before, %d after)", posts, got)
	}
	if left := w.fake.ClearFaults(); left > 6 {
		t.Errorf("%d of the 12 injected failures were never reached", left)
	}
}

// calls counts the requests the bot made on a route of the fake.
func (w *world) calls(route string) int {
	n := 0
	for _, c := range w.fake.Calls() {
		if c.Route == route {
			n++
		}
	}
	return n
}
