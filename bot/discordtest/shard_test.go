package discordtest_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// shardSeen is what one sharded session received.
type shardSeen struct {
	mu           sync.Mutex
	ready        []string // READY's guilds
	guildCreates []string
	channels     []string // CHANNEL_CREATE's channels
	interactions []string // the guild of each INTERACTION_CREATE ("" in DMs)
}

func (r *shardSeen) get() (ready, creates, channels, ins []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ready), slices.Clone(r.guildCreates), slices.Clone(r.channels), slices.Clone(r.interactions)
}

// connectShard opens a session as shard of shards and records what it gets;
// it answers every interaction with a message.
func connectShard(t *testing.T, s *discordtest.Server, shard, shards int) (*discordgo.Session, *shardSeen) {
	t.Helper()
	seen := &shardSeen{}
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.ShardID, dg.ShardCount = shard, shards
		dg.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
			seen.mu.Lock()
			defer seen.mu.Unlock()
			switch e.Type {
			case "READY":
				var r struct {
					Guilds []struct{ ID string } `json:"guilds"`
					Shard  *[2]int               `json:"shard"`
				}
				_ = json.Unmarshal(e.RawData, &r)
				for _, g := range r.Guilds {
					seen.ready = append(seen.ready, g.ID)
				}
				if r.Shard == nil || *r.Shard != [2]int{shard, shards} {
					t.Errorf("shard %d: READY's shard = %v", shard, r.Shard)
				}
			case "GUILD_CREATE":
				var g struct{ ID string }
				_ = json.Unmarshal(e.RawData, &g)
				seen.guildCreates = append(seen.guildCreates, g.ID)
			case "CHANNEL_CREATE":
				var c struct{ ID string }
				_ = json.Unmarshal(e.RawData, &c)
				seen.channels = append(seen.channels, c.ID)
			}
		})
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			seen.mu.Lock()
			seen.interactions = append(seen.interactions, i.GuildID)
			seen.mu.Unlock()
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "shard " + strconv.Itoa(shard), Components: []discordgo.MessageComponent{buttons("again")}},
			})
		})
	})
	return dg, seen
}

// TestShardsGetTheirGuilds: two sessions identify as shards 0 and 1 of 2;
// each gets READY and GUILD_CREATE for the guilds of its shard only
// ((guild_id >> 22) % 2), the interactions of those guilds only, and shard 0
// those of direct messages; a guild or channel added later goes to its
// shard; a shard without a session leaves its guilds' users with no bot.
func TestShardsGetTheirGuilds(t *testing.T) {
	t.Parallel()
	id := func(n uint64) string { return strconv.FormatUint(n<<22|12345, 10) }
	g0, g1, g0b, g1late := id(1000), id(1001), id(1002), id(1003) // shards 0, 1, 0, 1
	for g, want := range map[string]int{g0: 0, g1: 1, g0b: 0, g1late: 1, "": 0} {
		if got := discordtest.ShardOf(g, 2); got != want {
			t.Fatalf("ShardOf(%q, 2) = %d, want %d", g, got, want)
		}
	}
	s := discordtest.New(t)
	chans := map[string]string{}
	for k, g := range []string{g0, g1, g0b} {
		s.AddGuild(g, "G"+strconv.Itoa(k), "en-US")
		chans[g] = strconv.Itoa(500 + k)
		s.AddChannel(g, chans[g])
	}
	s.AddUser(alice, "ala", "pl")

	dg0, seen0 := connectShard(t, s, 0, 2)
	_, seen1 := connectShard(t, s, 1, 2)
	register(t, dg0, s)
	if !s.ShardLive(0, 2) || !s.ShardLive(1, 2) || s.ShardLive(2, 3) || s.ShardLive(0, 1) {
		t.Error("ShardLive does not match the sessions")
	}

	s.AddGuild(g1late, "Late", "en-US")
	s.AddChannel(g1late, "509")
	chans[g1late] = "509"
	s.AddChannel(g0, "510")
	for _, g := range []string{g0, g1, g0b, g1late} {
		in := s.SlashCommand(alice, g, chans[g], "table", discordtest.Opt("game", "lynx"))
		if r := in.Wait(ctx(t)); r.Message == nil || r.Message.Content != "shard "+strconv.Itoa(discordtest.ShardOf(g, 2)) {
			t.Errorf("guild %s: answered by %v, want shard %d", g, r.Message, discordtest.ShardOf(g, 2))
		}
	}
	if r := s.SlashCommand(alice, "", "", "table", discordtest.Opt("game", "lynx")).Wait(ctx(t)); r.Message == nil || r.Message.Content != "shard 0" {
		t.Errorf("a DM answered by %v, want shard 0", r.Message)
	}

	// Handlers run in goroutines of their own: wait until they have run.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, c0, ch0, in0 := seen0.get()
		_, c1, ch1, in1 := seen1.get()
		if len(in0)+len(in1) >= 5 && len(c0)+len(c1) >= 4 && len(ch0)+len(ch1) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	sorted := func(v []string) []string { slices.Sort(v); return v }
	r0, c0, ch0, in0 := seen0.get()
	r1, c1, ch1, in1 := seen1.get()
	if want := sorted([]string{g0, g0b}); !slices.Equal(sorted(r0), want) || !slices.Equal(sorted(c0), want) {
		t.Errorf("shard 0: READY %v, GUILD_CREATE %v; want %v", r0, c0, want)
	}
	if !slices.Equal(r1, []string{g1}) || !slices.Equal(sorted(c1), sorted([]string{g1, g1late})) {
		t.Errorf("shard 1: READY %v, GUILD_CREATE %v; want %v, then %s", r1, c1, g1, g1late)
	}
	if !slices.Equal(ch0, []string{"510"}) || !slices.Equal(ch1, []string{"509"}) {
		t.Errorf("CHANNEL_CREATE: shard 0 %v, shard 1 %v", ch0, ch1)
	}
	if want := sorted([]string{g0, g0b, ""}); !slices.Equal(sorted(in0), want) {
		t.Errorf("shard 0 got the interactions of %q, want %q", in0, want)
	}
	if want := sorted([]string{g1, g1late}); !slices.Equal(sorted(in1), want) {
		t.Errorf("shard 1 got the interactions of %q, want %q", in1, want)
	}

	// ClickOnShardErr delivers a click on a guild of shard 0 to shard 1.
	first := s.SlashCommand(alice, g0, chans[g0], "table", discordtest.Opt("game", "lynx")).Wait(ctx(t))
	if in, err := s.ClickOnShardErr(1, 2, alice, first.Message, "again"); err != nil {
		t.Errorf("ClickOnShardErr: %v", err)
	} else if r := in.Wait(ctx(t)); r.Message == nil || r.Message.Content != "shard 1" {
		t.Errorf("a click sent to shard 1 answered by %v", r.Message)
	}
	if _, err := s.ClickOnShardErr(0, 3, alice, first.Message, "again"); !errors.Is(err, discordtest.ErrNoSession) {
		t.Errorf("ClickOnShardErr to a shard nobody holds: %v, want ErrNoSession", err)
	}

	// Shard 0 leaves (a normal close ends its session): its guilds' users
	// find no bot, shard 1's still do.
	dg0.ShouldReconnectOnError = false
	if err := dg0.Close(); err != nil {
		t.Fatal(err)
	}
	for time.Now().Before(deadline) && s.ShardLive(0, 2) {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := s.SlashCommandErr(alice, g0, chans[g0], "table", discordtest.Opt("game", "lynx")); !errors.Is(err, discordtest.ErrNoSession) {
		t.Errorf("shard 0 gone: %v, want ErrNoSession", err)
	}
	if in, err := s.SlashCommandErr(alice, g1, chans[g1], "table", discordtest.Opt("game", "lynx")); err != nil {
		t.Errorf("shard 1: %v", err)
	} else if r := in.Wait(ctx(t)); r.Message == nil || r.Message.Content != "shard 1" {
		t.Errorf("shard 1 answered %v", r.Message)
	}
}
