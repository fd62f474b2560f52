package bot_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// markingStore is the SQLite store, recording the tables the bot marks
// corrupt.
type markingStore struct {
	*sqlite.DB
	mu     sync.Mutex
	marked map[string][]string // table id -> the reasons given
}

func (s *markingStore) MarkCorrupt(ctx context.Context, id, reason string) error {
	s.mu.Lock()
	s.marked[id] = append(s.marked[id], reason)
	s.mu.Unlock()
	return s.DB.MarkCorrupt(ctx, id, reason)
}

// unmarkingStore is a store without MarkCorrupt: every load of a damaged
// table fails anew.
type unmarkingStore struct{ bot.Store }

// TestDamagedTable: a table whose stored options are not JSON any more
// cannot be loaded. Every player who clicks its controls, or asks for its
// history, is told in their own language that its record is damaged and
// the host knows; the log holds one error line about it, naming the table
// and the reason, however many clicks come; and the table is marked
// corrupt in the store when the store can do that.
func TestDamagedTable(t *testing.T) {
	t.Parallel()
	for _, marking := range []bool{true, false} {
		name := "a store that marks it"
		if !marking {
			name = "a store that cannot mark it"
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			ctx := context.Background()
			id := w.openTable(ala, olena, bob)
			public := w.tableMessage(id)
			hand := w.do(w.fake.Click(ala, public, public.Control("hand/"+id)))
			if len(hand.CustomIDs()) == 0 {
				t.Fatalf("ala has no controls: %s", hand)
			}
			w.stop()

			raw, err := sql.Open("sqlite3", "file:"+w.dbPath+"?_busy_timeout=5000")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.ExecContext(ctx, `UPDATE tables SET options = '{not json' WHERE id = ?`, id); err != nil {
				t.Fatal(err)
			}
			if err := raw.Close(); err != nil {
				t.Fatal(err)
			}
			ms := &markingStore{marked: map[string][]string{}}
			w.wrap = func(db *sqlite.DB) bot.Store {
				if !marking {
					return unmarkingStore{db}
				}
				ms.DB = db
				return ms
			}
			w.start() // the resume pass may find it first

			control := hand.CustomIDs()[0]
			for round := range 2 {
				for _, c := range []struct {
					user, lang string
					in         func() *discordtest.Interaction
				}{
					{ala, "pl", func() *discordtest.Interaction { return w.fake.Click(ala, public, public.Control("hand/"+id)) }},
					{olena, "uk", func() *discordtest.Interaction { return w.fake.Click(olena, public, "watch/"+id) }},
					{bob, "en", func() *discordtest.Interaction { return w.fake.Click(bob, public, public.Control("hand/"+id)) }},
					{ala, "pl", func() *discordtest.Interaction {
						// Her hand's control (answered by an edit of the hand, which loses it).
						p := w.fake.InteractionPayload(discordtest.InteractionComponent, ala, w.gameChannel(id),
							map[string]any{"custom_id": control, "component_type": discordtest.ComponentButton}, hand)
						in, err := w.fake.DispatchInteraction(p)
						if err != nil {
							t.Fatal(err)
						}
						return in
					}},
					{olena, "uk", func() *discordtest.Interaction {
						return w.fake.SlashCommand(olena, guildID, channelID, "stolik", discordtest.Sub("history", discordtest.Opt("table", id)))
					}},
				} {
					m := w.do(c.in())
					want := w.loc.Lang(c.lang).T("error.table_damaged", nil)
					if shownText(m) != want || !m.Ephemeral() || len(m.CustomIDs()) != 0 {
						t.Errorf("round %d, %s: answer %s, want %q", round, c.user, m, want)
					}
				}
			}

			var lines []map[string]any
			for _, l := range strings.Split(strings.TrimSpace(w.logs.String()), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("log line %q: %v", l, err)
				}
				if strings.Contains(l, id) {
					lines = append(lines, m)
				}
			}
			if len(lines) != 1 || lines[0]["level"] != "ERROR" || lines[0]["table"] != id ||
				!strings.Contains(lines[0]["err"].(string), "options") {
				t.Errorf("log lines about the table: %v, want one error naming the table and the reason", lines)
			}
			if marking {
				if reasons := ms.marked[id]; len(reasons) != 1 || !strings.Contains(reasons[0], "options") {
					t.Errorf("marked corrupt with %q, want once with the reason", reasons)
				}
			}
			if m := w.fake.Message(public.ID); shownText(m) != shownText(public) {
				t.Errorf("the table message changed: %s", m)
			}
		})
	}
}
