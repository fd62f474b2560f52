package bot_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestClickFromTheFuture: the database comes back from a restart without
// the last moves (rolled back behind the bot's back). A player's control
// drawn at a version the stored log never reached tells that moves they
// were shown are missing: the table is marked damaged and reported, the
// player told so in their language, and it is never served short — not to
// that click, nor to a control of a version the short log does reach.
func TestClickFromTheFuture(t *testing.T) {
	w := newWorld(t)
	g := w.openGame("lynx", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, ala, bob)
	for k := 0; k < 6; k++ {
		tm := w.tableMessage(g.id)
		g.move(toAct(tm)[0])
	}
	_, log, err := w.db.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	n := len(log)
	// The player who must act now holds a hand drawn at version n.
	user := toAct(w.tableMessage(g.id))[0]
	tm := w.tableMessage(g.id)
	hand := w.do(w.fake.Click(user, tm, "hand/"+g.id))
	controls := moveControls(hand)
	if len(controls) == 0 {
		t.Fatalf("no controls: %s", hand)
	}
	// The last two moves vanish while the bot is down.
	w.stop()
	db, err := sql.Open("sqlite3", w.dbPath+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DELETE FROM actions WHERE table_id = ? AND n >= ?`, `UPDATE tables SET log_len = ? WHERE id = ?`} {
		args := []any{g.id, n - 2}
		if strings.HasPrefix(q, "UPDATE") {
			args = []any{n - 2, g.id}
		}
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	w.start()

	l := w.loc.Lang(map[string]string{ala: "pl", bob: "en"}[user])
	c := controls[0]
	var in *discordtest.Interaction
	if c.IsSelect() {
		in = w.fake.Select(user, hand, c.CustomID, c.Options[0].Value)
	} else {
		in = w.fake.Click(user, hand, c.CustomID)
	}
	if m := w.do(in); !strings.HasPrefix(shownText(m), l.T("error.table_damaged", nil)) {
		t.Errorf("a click from the future: %q", shownText(m))
	}
	_, _, err = w.db.Load(context.Background(), g.id)
	var ce *table.CorruptError
	if !errors.As(err, &ce) {
		t.Errorf("the table is not marked damaged: %v", err)
	}
	if !strings.Contains(w.logs.String(), "rolled back") {
		t.Errorf("the host was not told: %s", w.logs.String())
	}
	// My hand now says the table is damaged: nothing is served short.
	if m := w.do(w.fake.Click(user, w.fake.Message(tm.ID), "hand/"+g.id)); len(moveControls(m)) != 0 || !strings.HasPrefix(shownText(m), l.T("error.table_damaged", nil)) {
		t.Errorf("the damaged table still offers moves: %s", m)
	}
}
