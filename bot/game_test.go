package bot

import (
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// checkLimits fails when a message breaks Discord's limits.
func checkLimits(t *testing.T, where string, m message) {
	t.Helper()
	if n := utf8.RuneCountInString(m.text()); n > maxContent {
		t.Errorf("%s: content of %d characters", where, n)
	}
	if strings.Contains(m.content, locales.MissingOpen) {
		t.Errorf("%s: missing text in %q", where, m.content)
	}
	if len(m.components) > maxRows {
		t.Errorf("%s: %d rows", where, len(m.components))
	}
	ids := map[string]bool{}
	for _, row := range m.components {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			t.Fatalf("%s: top-level component %T", where, row)
		}
		if len(ar.Components) == 0 || len(ar.Components) > maxRowButtons {
			t.Errorf("%s: row of %d components", where, len(ar.Components))
		}
		for _, c := range ar.Components {
			var id string
			switch c := c.(type) {
			case discordgo.Button:
				id = c.CustomID
				if n := utf8.RuneCountInString(c.Label); n == 0 || n > maxButtonLabel {
					t.Errorf("%s: button label %q", where, c.Label)
				}
			case discordgo.SelectMenu:
				id = c.CustomID
				if len(ar.Components) != 1 {
					t.Errorf("%s: a select shares its row", where)
				}
				if len(c.Options) == 0 || len(c.Options) > maxSelectItems || c.MaxValues > len(c.Options) || *c.MinValues > c.MaxValues {
					t.Errorf("%s: select with %d options, %d..%d values", where, len(c.Options), *c.MinValues, c.MaxValues)
				}
			default:
				t.Errorf("%s: component %T", where, c)
			}
			if id == "" || len(id) > maxCustomID || ids[id] {
				t.Errorf("%s: custom_id %q empty, too long or repeated", where, id)
			}
			ids[id] = true
		}
	}
}

func testBot(t *testing.T) *Bot {
	t.Helper()
	return &Bot{loc: locales.MustLoad(), log: slog.New(slog.DiscardHandler), cfg: Defaults()}
}

// TestHandMessagesWithinLimits plays whole games and checks every seat's
// hand message and the public message at every step, in every language.
func TestHandMessagesWithinLimits(t *testing.T) {
	b := testBot(t)
	g, _ := engine.Lookup("princesses")
	for _, c := range []struct {
		seats int
		opts  engine.Options
	}{
		{3, engine.Options{"rounds": "a"}},
		{4, engine.Options{"rounds": "a", "powers": "off"}},
		{6, engine.Options{"rounds": "invitation", "edition": "classic", "promo": "on"}},
	} {
		su := engine.Setup{Game: "princesses", Options: c.opts, Seats: c.seats, Seed: 7}
		st, err := engine.Start(g, su, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := table.Record{ID: "abcdefgh", Setup: su, Status: table.StatusPlaying, Lang: "pl"}
		for s := 0; s < c.seats; s++ {
			rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: "u" + string(rune('0'+s)), Name: strings.Repeat("Ż", 32)})
		}
		for n := 0; ; n++ {
			snap := &table.Snapshot{Record: rec, Game: g, State: st, Version: n}
			if done, _ := st.Result(); done {
				snap.Record.Status = table.StatusFinished
			}
			checkLimits(t, "public", b.publicMessage(snap, nil))
			for _, lang := range locales.Languages() {
				for s := 0; s < c.seats; s++ {
					checkLimits(t, "hand", b.handMessage(b.loc.Lang(lang), snap, engine.Seat(s), strings.Repeat("x", 200), ""))
				}
			}
			if done, _ := st.Result(); done {
				break
			}
			s := st.Acting()[0]
			legal := st.Legal(s)
			if _, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: legal[len(legal)/2].String()}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestPassBothWaysIsTwoSteps(t *testing.T) {
	l := locales.MustLoad().Lang("uk")
	v := &princesses.View{Phase: "pass", PassLeft: 1, PassRight: 1}
	for _, c := range []string{"Q2", "Q5", "F3", "A8", "P10"} {
		card, _ := princesses.ParseCard(c)
		v.Hand = append(v.Hand, card)
	}
	snap := &table.Snapshot{Record: table.Record{ID: "t1"}, Version: 9}
	rows, _ := passControls(l, snap, v, "")
	sel := rows[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	if sel.CustomID != "t/t1/9/~passl" || len(sel.Options) != 5 || sel.MaxValues != 1 {
		t.Errorf("left step: %+v", sel)
	}
	rows, extra := passControls(l, snap, v, "F3")
	sel = rows[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	if sel.CustomID != "t/t1/9/pass F3 *" || len(sel.Options) != 4 || !strings.Contains(extra, "Фея 3") {
		t.Errorf("right step: %+v, %q", sel, extra)
	}
	for _, o := range sel.Options {
		if o.Value == "F3" {
			t.Error("the left card is offered again")
		}
	}
}
