package bot_test

import (
	"net/http"
	"testing"
)

// TestArchivedThread: a table's thread archived meanwhile (a week without
// a message, or a moderator closing it) is reopened when a move must
// update the table message, which Discord refuses to edit in an archived
// thread (400, 50083); the table message then shows the move.
func TestArchivedThread(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	id := r.open(guildID, channelID, "princesses", 3, nil, ala, olena, bob)
	r.moveWithButton(id, ala, olena, bob)
	tm := r.tableMessage(id)
	th := r.fake.Channel(tm.ChannelID)
	if th == nil || !th.IsThread() {
		t.Fatalf("the table message is not in a thread: %+v", th)
	}
	for round := 1; round <= 2; round++ {
		r.fake.ArchiveThread(th.ID)
		edits := r.tableMessage(id).Edits
		r.moveWithButton(id, ala, olena, bob)
		r.idle()
		if got := r.tableMessage(id); got.Edits <= edits {
			t.Errorf("archive %d: the table message was not edited after the move (%d edits before, %d after)", round, edits, got.Edits)
		}
		if r.fake.Channel(th.ID).Archived {
			t.Errorf("archive %d: the thread is still archived", round)
		}
	}
	refused := 0
	for _, c := range r.fake.Calls() {
		if c.Status == http.StatusBadRequest && c.Error != nil && c.Error.Code == 50083 {
			refused++
		}
	}
	if refused > 2 {
		t.Errorf("%d requests refused in the archived thread, want at most one an archive", refused)
	}
	r.checkLogs(id)
}
