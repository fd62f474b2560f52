package bot_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// openInThread opens a Rebel Princess table of ala, olena and bob in
// channel, which the bot moves to a thread, makes a first move when move
// is set, and returns the rig, the table and its thread.
func openInThread(t *testing.T, channel string, move bool) (*rig, string, string) {
	t.Helper()
	r := newRig(t, rigOptions{})
	id := r.open(guildID, channel, "princesses", 3, nil, ala, olena, bob)
	if move {
		r.moveWithButton(id, ala, olena, bob)
	}
	th := r.fake.Channel(r.tableMessage(id).ChannelID)
	if th == nil || !th.IsThread() || th.ParentID != channel {
		t.Fatalf("the table message is not in a thread of %s: %+v", channel, th)
	}
	return r, id, th.ID
}

// TestArchivedThread: a table's thread archived meanwhile (a week without
// a message, or a moderator closing it) is reopened when a move must
// update the table message, which Discord refuses to edit in an archived
// thread (400, 50083); the table message then shows the move.
func TestArchivedThread(t *testing.T) {
	t.Parallel()
	r, id, th := openInThread(t, channelID, true)
	for round := 1; round <= 2; round++ {
		r.fake.ArchiveThread(th)
		edits := r.tableMessage(id).Edits
		r.moveWithButton(id, ala, olena, bob)
		r.idle()
		if got := r.tableMessage(id); got.Edits <= edits {
			t.Errorf("archive %d: the table message was not edited after the move (%d edits before, %d after)", round, edits, got.Edits)
		}
		if r.fake.Channel(th).Archived {
			t.Errorf("archive %d: the thread is still archived", round)
		}
	}
	if refused := r.refusedCalls(http.StatusBadRequest, discordgo.ErrCodePerformedOperationOnArchivedThread); refused > 2 {
		t.Errorf("%d requests refused in the archived thread, want at most one an archive", refused)
	}
	r.checkLogs(id)
}

// TestDeletedThread: a moderator deletes a table's thread mid-game. The
// players go on with /stolik hand in the channel; the first move after it
// brings the table back to the channel: its message is posted there (and
// shows the move), the lobby message that pointed to the thread is gone,
// and what the table posts later goes to the channel too.
func TestDeletedThread(t *testing.T) {
	t.Parallel()
	r, id, th := openInThread(t, channelID, true)
	if r.fake.Message(th) == nil {
		t.Fatalf("no lobby message %s in the channel", th)
	}
	r.fake.DeleteThread(th)

	_, log0, _ := r.db.Load(context.Background(), id)
	moved := false
	for _, u := range []string{ala, olena, bob} {
		hand := r.slash(u, guildID, channelID, "hand")
		for _, c := range moveControls(hand) {
			if !c.IsSelect() {
				r.answer(r.fake.Click(u, hand, c.CustomID))
				moved = true
				break
			}
		}
		if moved {
			break
		}
	}
	r.idle()
	_, log1, _ := r.db.Load(context.Background(), id)
	if !moved || len(log1) != len(log0)+1 {
		t.Fatalf("no move through /stolik hand: %d entries before, %d after", len(log0), len(log1))
	}
	tm := r.tableMessage(id)
	if tm.ChannelID != channelID {
		t.Errorf("the table message is in %s, want the channel %s", tm.ChannelID, channelID)
	}
	if sc := replayScreen(t, r.db, r.loc, id); !strings.Contains(shownText(tm), sc.Title) {
		t.Errorf("the table message %q does not show the table as it stands (%q)", shownText(tm), sc.Title)
	}
	if r.fake.Message(th) != nil {
		t.Error("the lobby message that pointed to the deleted thread is still there")
	}
	// The game goes on in the channel with the table message's buttons.
	before := len(r.fake.Messages(channelID))
	r.moveWithButton(id, ala, olena, bob)
	r.idle()
	if got := r.tableMessage(id); got.ChannelID != channelID || len(r.fake.Messages(channelID)) < before {
		t.Errorf("after a move in the channel: the table message in %s, %d messages (were %d)", got.ChannelID, len(r.fake.Messages(channelID)), before)
	}
	for _, line := range strings.Split(r.logs.String(), "\n") {
		if strings.Contains(line, "posting the table's events") || strings.Contains(line, "editing the table message") {
			t.Errorf("output lost to the deleted thread: %s", line)
		}
	}
	if gone := r.refusedCalls(http.StatusNotFound, discordgo.ErrCodeUnknownChannel); gone > 2 {
		t.Errorf("%d requests met the deleted thread, want at most 2 (the table message's edit, the deletion of a turn ping)", gone)
	}
	r.checkLogs(id)
}

// TestDeletedThreadThenPost: when the first thing a table says after its
// thread was deleted is a post (here a vote to abandon it), the post goes
// to the channel, and the table message is posted there again.
func TestDeletedThreadThenPost(t *testing.T) {
	t.Parallel()
	r, id, th := openInThread(t, channel3, false)
	r.fake.DeleteThread(th)
	r.slash(olena, guildID, channel3, "abandon")
	r.idle()
	rec, _, _ := r.db.Load(context.Background(), id)
	vote := r.loc.Lang(rec.Lang).T("bot.abandon_vote", map[string]any{"Name": "olena", "N": 1, "Needed": 2})
	posted := false
	for _, m := range r.fake.Messages(channel3) {
		posted = posted || strings.Contains(m.Text(), vote)
	}
	if !posted {
		t.Errorf("the vote %q is not in the channel", vote)
	}
	if tm := r.tableMessage(id); tm.ChannelID != channel3 {
		t.Errorf("the table message is in %s, want the channel", tm.ChannelID)
	}
}
