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
	const edit = "PATCH /channels/{channel.id}/messages/{message.id}"
	const post = "POST /channels/{channel.id}/messages"
	edits := func() int { return w.calls(edit) }
	before := edits()
	w.fake.FailNext(edit, 6, 500) // more than one request's retries
	w.do(w.fake.Click(olena, w.tableMessage(id), "lobby/"+id+"/join"))
	if !strings.Contains(shownText(w.tableMessage(id)), "olena") {
		t.Errorf("the lobby was not updated after the outage: %q", shownText(w.tableMessage(id)))
	}
	if n := edits() - before; n < 7 {
		t.Errorf("%d edit attempts, want the 6 refused and one more", n)
	}

	posts := len(w.fake.Messages(channelID))
	w.fake.FailNext(post, 6, 503)
	m := w.do(w.fake.Click(ala, w.tableMessage(id), "lobby/"+id+"/start"))
	w.do(w.fake.Click(ala, m, "lobby/"+id+"/startai"))
	if got := len(w.fake.Messages(channelID)); got <= posts {
		t.Errorf("no post after the outage (%d messages before, %d after)", posts, got)
	}
	if left := w.fake.ClearFaults(); left != 0 {
		t.Errorf("%d injected failures were never reached", left)
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
