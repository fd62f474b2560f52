package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestSimultaneousOpensMakeOneTable: twenty /stolik open in one channel at
// once (five users, four each) open one table; every other one is told,
// in its user's language, that the channel already has it.
func TestSimultaneousOpensMakeOneTable(t *testing.T) {
	w := newWorld(t)
	users := []string{ala, olena, bob, zosia, eve}
	var ins []*discordtest.Interaction
	var who []string
	for k := 0; k < 20; k++ {
		u := users[k%len(users)]
		ins = append(ins, w.fake.SlashCommand(u, guildID, channelID, "stolik", discordtest.Sub("open", discordtest.Opt("game", "lynx"), discordtest.Opt("seats", 3))))
		who = append(who, u)
	}
	for _, in := range ins {
		in.Wait(context.Background())
	}
	w.idle()
	ids, err := w.db.InChannel(context.Background(), channelID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("open tables in the channel: %v, %v; want one", ids, err)
	}
	opened, refused := 0, 0
	for k, in := range ins {
		m := in.Original()
		l := w.loc.Lang(map[string]string{ala: "pl", olena: "uk", bob: "en", zosia: "pl", eve: "en"}[who[k]])
		switch text := shownText(m); {
		case text == l.T("bot.table_exists", map[string]any{"ID": ids[0]}):
			refused++
		case strings.Contains(text, ids[0]):
			opened++
		default:
			t.Errorf("answer %d to %s: %q", k, who[k], text)
		}
	}
	if opened != 1 || refused != 19 {
		t.Errorf("%d opened and %d refused, want 1 and 19", opened, refused)
	}
	w.fake.AssertNoErrors(t)
}
