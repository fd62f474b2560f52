package bot_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stolik-bot/stolik/engine/enginetest"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
)

// TestSimultaneousOpensMakeOneTable: twenty /stolik open at once in each
// of four channels (twenty channels, 400 opens, in the soak run; five
// users, four each) open one table a channel; every other one is told, in
// its user's language, that the channel already has it.
func TestSimultaneousOpensMakeOneTable(t *testing.T) {
	w := newWorld(t)
	users := []string{ala, olena, bob, zosia, eve}
	// Twenty channels in the soak run (400 opens at once); four in the
	// test suite, so that every answer keeps Discord's 3 seconds on a busy
	// machine under -race too.
	channels, opens := 4, 20
	if enginetest.Soak() {
		channels = 20
	}
	type sent struct {
		in      *discordtest.Interaction
		who, ch string
	}
	var all []sent
	for c := range channels {
		ch := channelID
		if c > 0 {
			ch = fmt.Sprintf("21%016d", c)
			w.fake.AddChannel(guildID, ch)
		}
		for k := range opens {
			u := users[k%len(users)]
			in := w.fake.SlashCommand(u, guildID, ch, "stolik", discordtest.Sub("open", discordtest.Opt("game", "lynx"), discordtest.Opt("seats", 3)))
			all = append(all, sent{in, u, ch})
		}
	}
	for _, s := range all {
		s.in.Wait(context.Background())
	}
	w.idle()
	table := map[string]string{}
	for c := range channels {
		ch := channelID
		if c > 0 {
			ch = fmt.Sprintf("21%016d", c)
		}
		ids, err := w.db.InChannel(context.Background(), ch)
		if err != nil || len(ids) != 1 {
			t.Fatalf("channel %s: open tables %v, %v; want one", ch, ids, err)
		}
		table[ch] = ids[0]
	}
	opened, refused := map[string]int{}, map[string]int{}
	for k, s := range all {
		m := s.in.Original()
		l := w.loc.Lang(map[string]string{ala: "pl", olena: "uk", bob: "en", zosia: "pl", eve: "en"}[s.who])
		switch text := shownText(m); {
		case text == l.T("bot.table_exists", map[string]any{"ID": table[s.ch]}):
			refused[s.ch]++
		case strings.Contains(text, table[s.ch]):
			opened[s.ch]++
		default:
			t.Errorf("answer %d to %s in %s: %q", k, s.who, s.ch, text)
		}
	}
	for ch := range table {
		if opened[ch] != 1 || refused[ch] != opens-1 {
			t.Errorf("channel %s: %d opened and %d refused, want 1 and %d", ch, opened[ch], refused[ch], opens-1)
		}
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
