package discordtest_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// echo answers every interaction with its custom_id (or command name) and
// records the interaction ids it saw, in order.
type echo struct {
	mu   sync.Mutex
	seen []string
	got  chan string
}

func newEcho() *echo { return &echo{got: make(chan string, 64)} }

func (e *echo) handle(dg *discordgo.Session, i *discordgo.InteractionCreate) {
	e.mu.Lock()
	e.seen = append(e.seen, i.ID)
	e.mu.Unlock()
	text := "?"
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		text = "clicked " + i.MessageComponentData().CustomID
	case discordgo.InteractionApplicationCommand:
		text = "ran " + i.ApplicationCommandData().Name
	}
	if i.ID != "" && i.Token != "" {
		_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral},
		})
	}
	e.got <- i.ID // after the answer
}

func (e *echo) ids() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

func TestDispatchInteraction(t *testing.T) {
	t.Parallel()
	s := world(t)
	e := newEcho()
	connect(t, s, func(dg *discordgo.Session) { dg.AddHandler(e.handle) })

	// A component on no message, with a custom_id longer than Discord allows.
	long := strings.Repeat("x", 300)
	p := s.InteractionPayload(discordtest.InteractionComponent, alice, channelID,
		map[string]any{"custom_id": long, "component_type": 2}, nil)
	if p["guild_id"] != guildID || p["member"] == nil || p["user"] != nil || p["locale"] != "pl" {
		t.Errorf("payload = %v", p)
	}
	in, err := s.DispatchInteraction(p)
	if err != nil {
		t.Fatal(err)
	}
	resp := in.Wait(ctx(t))
	if resp.Message.Content != "clicked "+long || !resp.Message.Ephemeral() || resp.Message.EphemeralTo != alice {
		t.Errorf("response = %v", resp.Message)
	}
	if in.UserID != alice || in.GuildID != guildID || in.Name != long {
		t.Errorf("handle = %+v", in)
	}
	// The same id again is refused: DispatchInteraction makes new interactions.
	if _, err := s.DispatchInteraction(p); err == nil {
		t.Error("an interaction id was accepted twice")
	}

	// No member and no user: the handle has no user; the answer still goes.
	p = s.InteractionPayload(discordtest.InteractionComponent, bob, channelID, map[string]any{"custom_id": "x", "component_type": 2}, nil)
	delete(p, "member")
	in, err = s.DispatchInteraction(p)
	if err != nil {
		t.Fatal(err)
	}
	if resp := in.Wait(ctx(t)); resp.Message.Content != "clicked x" || in.UserID != "" {
		t.Errorf("no user: %v, %+v", resp.Message, in)
	}

	// Without an id and token the interaction cannot be answered; the bot
	// still receives it.
	p = s.InteractionPayload(discordtest.InteractionComponent, bob, channelID, map[string]any{"custom_id": "y", "component_type": 2}, nil)
	delete(p, "id")
	delete(p, "token")
	if _, err := s.DispatchInteraction(p); err != nil {
		t.Fatal(err)
	}
	for id := recv(t, e.got); id != ""; id = recv(t, e.got) {
		// the first two, received already
	}
	s.AssertNoErrors(t)
}

func TestInvalidateSessionsForcesIdentify(t *testing.T) {
	t.Parallel()
	s := world(t)
	e := newEcho()
	dg := connect(t, s, func(dg *discordgo.Session) { dg.AddHandler(e.handle) })
	register(t, dg, s)

	s.InvalidateSessions()
	// Until the bot has identified again, nobody receives the click.
	if _, err := s.SlashCommandErr(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx")); err != nil && !errors.Is(err, discordtest.ErrNoSession) {
		t.Fatalf("while invalidated: %v", err)
	}
	if err := s.WaitGateway(ctx(t), func(st discordtest.GatewayStats) bool { return st.Identifies == 2 && st.Live == 1 }); err != nil {
		t.Fatalf("no fresh identify: %v, %+v", err, s.GatewayStats())
	}
	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	if resp := in.Wait(ctx(t)); resp.Message.Content != "ran table" {
		t.Errorf("after identify: %v", resp.Message)
	}
	st := s.GatewayStats()
	if st.Invalidated < 1 || st.Dropped != 1 || st.Resumes != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestRedeliverOnResume(t *testing.T) {
	t.Parallel()
	s := world(t)
	e := newEcho()
	resumed := make(chan struct{}, 1)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(e.handle)
		dg.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { resumed <- struct{}{} })
	})
	register(t, dg, s)
	first := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	first.Wait(ctx(t))
	recv(t, e.got)

	s.RedeliverOnResume(1)
	s.DropConnection()
	// Missed while disconnected: replayed after the redelivered one.
	second := s.SlashCommand(bob, guildID, channelID, "table", discordtest.Opt("game", "princesses"))
	second.Wait(ctx(t))
	recv(t, resumed)
	recv(t, e.got)
	recv(t, e.got) // both answered (or refused)
	// Handlers run in their own goroutines: the order they start in is not
	// the order of the frames.
	ids := e.ids()
	slices.Sort(ids)
	if want := []string{first.ID, first.ID, second.ID}; !slices.Equal(ids, want) {
		t.Errorf("seen %v, want %v", ids, want)
	}
	if st := s.GatewayStats(); st.Redelivered != 1 || st.Resumes != 1 {
		t.Errorf("stats = %+v", st)
	}
	// The echo bot answered the redelivered interaction again: Discord
	// refuses a second initial response.
	if rej := first.Rejected(); len(rej) != 1 || rej[0].Error == nil || rej[0].Error.Code != 40060 {
		t.Errorf("rejected = %v", rej)
	}
}

func TestClearFaults(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	const route = "POST /channels/{channel.id}/messages"
	s.FailNext(route, 2, 500)
	s.RateLimitNext("*", 1, time.Second)
	if n := s.ClearFaults(); n != 3 {
		t.Errorf("ClearFaults = %d, want 3", n)
	}
	if _, err := dg.ChannelMessageSend(channelID, "no fault left"); err != nil {
		t.Fatal(err)
	}
	if n := s.ClearFaults(); n != 0 {
		t.Errorf("ClearFaults = %d after clearing", n)
	}
}
