package bot_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
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

// racingStore opens a table of "another process" in the same channel just
// before the bot's own Create: between the bot's check that the channel is
// free and its creation, as a second process on the database would.
type racingStore struct {
	bot.Store
	once  sync.Once
	rival string
}

func (s *racingStore) Create(ctx context.Context, rec table.Record) error {
	s.once.Do(func() {
		other := rec
		other.ID = "rival001"
		if err := s.Store.Create(ctx, other); err != nil {
			panic(err)
		}
		s.rival = other.ID
	})
	return s.Store.Create(ctx, rec)
}

// TestOpenRacedByAnotherProcess: the database holds one open table per
// channel, so an open that loses the race to another process's (after its
// own check found the channel free) opens nothing and tells the user, in
// their language, which table the channel has.
func TestOpenRacedByAnotherProcess(t *testing.T) {
	t.Parallel()
	rs := &racingStore{}
	r := newRig(t, rigOptions{wrap: func(s bot.Store) bot.Store { rs.Store = s; return rs }})
	m := r.slash(olena, guildID, channelID, "open", discordtest.Opt("game", "lynx"), discordtest.Opt("seats", 3))
	uk := r.loc.Lang("uk")
	if got, want := shownText(m), uk.T("bot.table_exists", map[string]any{"ID": rs.rival}); got != want {
		t.Errorf("the answer to the losing open: %q, want %q", got, want)
	}
	ids, err := r.db.InChannel(context.Background(), channelID)
	if err != nil || !slices.Equal(ids, []string{rs.rival}) {
		t.Errorf("open tables in the channel: %v, %v; want only the other process's %s", ids, err, rs.rival)
	}
	r.checkLogs()
}
