package bot_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	hand := w.do(w.fake.Click(user, tm, tm.Control("hand/"+g.id)))
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
	if m := w.do(w.fake.Click(user, w.fake.Message(tm.ID), w.fake.Message(tm.ID).Control("hand/"+g.id))); len(moveControls(m)) != 0 || !strings.HasPrefix(shownText(m), l.T("error.table_damaged", nil)) {
		t.Errorf("the damaged table still offers moves: %s", m)
	}
}

// TestMyHandFromTheFuture: the table message's My hand carries the
// version the message shows. The last two moves removed while the bot was
// down, resume reads the message before it would redraw it, marks the
// table damaged and leaves the message as it was; My hand pressed then
// says the table is damaged, instead of showing a hand from the short log.
func TestMyHandFromTheFuture(t *testing.T) {
	w := newWorld(t)
	g := w.openGame("lynx", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, ala, bob)
	for k := 0; k < 6; k++ {
		g.move(toAct(w.tableMessage(g.id))[0])
	}
	w.idle()
	_, log, err := w.db.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	n := len(log)
	tm := w.tableMessage(g.id)
	if want := fmt.Sprintf("hand/%s/%d", g.id, n); tm.Control("hand/"+g.id) != want {
		t.Fatalf("the table message's My hand is %q, want %q", tm.Control("hand/"+g.id), want)
	}
	w.stop()
	db, err := sql.Open("sqlite3", w.dbPath+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM actions WHERE table_id = ? AND n >= ?`, g.id, n-2); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE tables SET log_len = ? WHERE id = ?`, n-2, g.id); err != nil {
		t.Fatal(err)
	}
	db.Close()
	w.start()
	w.idle()
	// Resume read the message before redrawing it, and left it as the
	// players saw it, the witness intact.
	if now := w.fake.Message(tm.ID); now.Control("hand/"+g.id) != fmt.Sprintf("hand/%s/%d", g.id, n) || !strings.Contains(w.logs.String(), "its message shows version") {
		t.Errorf("resume redrew the message over the witness (%v), or did not tell: %s", now.CustomIDs(), w.logs.String())
	}
	if m := w.do(w.fake.Click(ala, tm, tm.Control("hand/"+g.id))); len(moveControls(m)) != 0 ||
		!strings.HasPrefix(shownText(m), w.loc.Lang("pl").T("error.table_damaged", nil)) {
		t.Errorf("My hand from the future: %s", m)
	}
	var ce *table.CorruptError
	if _, _, err := w.db.Load(context.Background(), g.id); !errors.As(err, &ce) {
		t.Errorf("the table is not marked damaged: %v", err)
	}
}
