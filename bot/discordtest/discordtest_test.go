package discordtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

const (
	guildID   = "100"
	channelID = "200"
	alice     = "301"
	bob       = "302"
)

// world starts a fake with one guild (Polish), one channel and two users
// (Alice in Polish, Bob in Ukrainian).
func world(t testing.TB, opts ...discordtest.Option) *discordtest.Server {
	t.Helper()
	s := discordtest.New(t, opts...)
	s.AddGuild(guildID, "Stolik", "pl")
	s.AddChannel(guildID, channelID)
	s.AddUser(alice, "ala", "pl")
	s.AddUser(bob, "bohdan", "uk")
	return s
}

// connect opens a real discordgo session against the fake. setup runs
// before Open, to add handlers.
func connect(t testing.TB, s *discordtest.Server, setup func(*discordgo.Session)) *discordgo.Session {
	t.Helper()
	dg, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Configure(dg)
	dg.Identify.Intents = discordgo.IntentsGuilds
	if setup != nil {
		setup(dg)
	}
	if err := dg.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	// Registered after New's cleanup, so it runs first: the session closes
	// before the fake stops.
	t.Cleanup(func() {
		dg.ShouldReconnectOnError = false // see discordtest.WithHeartbeatInterval
		_ = dg.Close()
	})
	return dg
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// recv waits for a value from a handler.
func recv[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %T", *new(T))
		panic("unreachable")
	}
}

// restCode returns the Discord error code of a discordgo REST error, or -1.
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return -1
}

func tableCommand() *discordgo.ApplicationCommand {
	pl, uk := discordgo.Polish, discordgo.Ukrainian
	return &discordgo.ApplicationCommand{
		Name:                     "table",
		Description:              "Open a card table in this channel",
		NameLocalizations:        &map[discordgo.Locale]string{pl: "stół", uk: "стіл"},
		DescriptionLocalizations: &map[discordgo.Locale]string{pl: "Otwórz stół w tym kanale", uk: "Відкрити стіл у цьому каналі"},
		Options: []*discordgo.ApplicationCommandOption{{
			Type:              discordgo.ApplicationCommandOptionString,
			Name:              "game",
			NameLocalizations: map[discordgo.Locale]string{pl: "gra", uk: "гра"},
			Description:       "Game to play",
			Required:          true,
			Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "Rebel Princess", NameLocalizations: map[discordgo.Locale]string{pl: "Księżniczki"}, Value: "princesses"},
				{Name: "Lynx", Value: "lynx"},
			},
		}, {
			Type:        discordgo.ApplicationCommandOptionInteger,
			Name:        "seats",
			Description: "Number of seats",
			MinValue:    new(float64(2)),
			MaxValue:    6,
		}},
	}
}

func register(t testing.TB, dg *discordgo.Session, s *discordtest.Server) {
	t.Helper()
	if _, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{tableCommand()}); err != nil {
		t.Fatalf("BulkOverwrite: %v", err)
	}
}

func buttons(ids ...string) discordgo.ActionsRow {
	row := discordgo.ActionsRow{}
	for _, id := range ids {
		row.Components = append(row.Components, discordgo.Button{Label: "Play " + id, CustomID: id})
	}
	return row
}

func TestReadyAndCommandRegistration(t *testing.T) {
	t.Parallel()
	s := world(t)
	// discordgo's State keeps and updates the objects it hands to typed
	// handlers, so the test decodes its own copies of the raw events.
	events := make(chan *discordgo.Event, 4)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
			if e.Type == "READY" || e.Type == "GUILD_CREATE" {
				events <- e
			}
		})
	})

	// Handlers run in their own goroutines: put the events back in order.
	got := []*discordgo.Event{recv(t, events), recv(t, events)}
	slices.SortFunc(got, func(a, b *discordgo.Event) int { return int(a.Sequence - b.Sequence) })
	var r discordgo.Ready
	if e := got[0]; e.Type != "READY" || json.Unmarshal(e.RawData, &r) != nil || e.Sequence != 1 {
		t.Fatalf("first event = %s s=%d", e.Type, e.Sequence)
	}
	if r.SessionID == "" || r.User.ID != s.BotUser.ID || !r.User.Bot || r.Application.ID != s.AppID {
		t.Errorf("READY = session %q user %+v application %+v", r.SessionID, r.User, r.Application)
	}
	if len(r.Guilds) != 1 || r.Guilds[0].ID != guildID || !r.Guilds[0].Unavailable {
		t.Errorf("READY guilds = %+v", r.Guilds)
	}
	var g discordgo.Guild
	if e := got[1]; e.Type != "GUILD_CREATE" || json.Unmarshal(e.RawData, &g) != nil || e.Sequence != 2 {
		t.Fatalf("second event = %s s=%d", e.Type, e.Sequence)
	}
	if g.Name != "Stolik" || g.PreferredLocale != "pl" || len(g.Channels) != 1 || g.Unavailable {
		t.Errorf("GUILD_CREATE = %+v", g)
	}
	if dg.State.User.ID != s.BotUser.ID {
		t.Errorf("State.User = %+v", dg.State.User)
	}

	created, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{tableCommand()})
	if err != nil {
		t.Fatal(err)
	}
	if len(created) != 1 || created[0].ID == "" || created[0].ApplicationID != s.AppID {
		t.Fatalf("created = %+v", created)
	}
	cmds := s.Commands("")
	if len(cmds) != 1 {
		t.Fatalf("Commands = %+v", cmds)
	}
	c := cmds[0]
	if c.Name != "table" || c.NameLocalizations["pl"] != "stół" || c.NameLocalizations["uk"] != "стіл" ||
		c.DescriptionLocalizations["uk"] != "Відкрити стіл у цьому каналі" {
		t.Errorf("command = %+v", c)
	}
	game := c.Option("game")
	if game == nil || !game.Required || game.NameLocalizations["pl"] != "gra" || len(game.Choices) != 2 ||
		game.Choices[0].Value != "princesses" || game.Choices[0].NameLocalizations["pl"] != "Księżniczki" {
		t.Errorf("option game = %+v", game)
	}
	if seats := c.Option("seats"); seats == nil || *seats.MinValue != 2 || *seats.MaxValue != 6 {
		t.Errorf("option seats = %+v", seats)
	}

	// Listing returns them (discordgo asks with_localizations=true).
	listed, err := dg.ApplicationCommands(s.AppID, "")
	if err != nil || len(listed) != 1 || (*listed[0].NameLocalizations)[discordgo.Polish] != "stół" {
		t.Errorf("ApplicationCommands = %+v, %v", listed, err)
	}
	// A second overwrite keeps the command's id.
	again, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{tableCommand()})
	if err != nil || again[0].ID != created[0].ID {
		t.Errorf("re-registration changed the id: %v -> %+v, %v", created[0].ID, again, err)
	}
	// Guild commands are kept apart.
	if _, err := dg.ApplicationCommandBulkOverwrite(s.AppID, guildID, []*discordgo.ApplicationCommand{{
		Name: "debug", Description: "Debug tools",
	}}); err != nil {
		t.Fatal(err)
	}
	if g := s.Commands(guildID); len(g) != 1 || g[0].Name != "debug" || g[0].GuildID != guildID {
		t.Errorf("guild commands = %+v", g)
	}
	s.AssertNoErrors(t)
}

func TestInvalidCommandsRejected(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 26)
	for i := range choices {
		choices[i] = &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprint("c", i), Value: fmt.Sprint(i)}
	}
	bad := &discordgo.ApplicationCommand{
		Name:              "Table",
		Description:       strings.Repeat("d", 101),
		NameLocalizations: &map[discordgo.Locale]string{"ua": "стіл", discordgo.Polish: "Stół Gry"},
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Game", Choices: choices,
		}, {
			Type: discordgo.ApplicationCommandOptionString, Name: "mode", Description: "", Required: true,
		}},
	}
	_, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{bad})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Fatalf("err = %v, want 50035", err)
	}
	errs := s.Errors()
	if len(errs) != 1 {
		t.Fatalf("Errors = %v", errs)
	}
	for _, path := range []string{
		"0.name", "0.description", "0.name_localizations.ua", "0.name_localizations.pl",
		"0.options.0.choices", "0.options.1.description", "0.options.1.required",
	} {
		if !errs[0].Error.Has(path) {
			t.Errorf("no error at %s in %v", path, errs[0].Error)
		}
	}
	if len(s.Commands("")) != 0 {
		t.Error("a rejected overwrite changed the commands")
	}
}

func TestSlashCommandEphemeralReply(t *testing.T) {
	t.Parallel()
	s := world(t)
	secondErr := make(chan error, 1)
	seen := make(chan *discordgo.InteractionCreate, 1)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			seen <- i
			resp := &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content:    "Twoja ręka: Q7 K2",
					Flags:      discordgo.MessageFlagsEphemeral,
					Components: []discordgo.MessageComponent{buttons("t/1/3/play Q7", "t/1/3/play K2")},
				},
			}
			if err := dg.InteractionRespond(i.Interaction, resp); err != nil {
				secondErr <- fmt.Errorf("first response: %w", err)
				return
			}
			secondErr <- dg.InteractionRespond(i.Interaction, resp)
		})
	})
	register(t, dg, s)

	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 4))
	resp := in.Wait(ctx(t))
	if resp.Type != discordtest.CallbackChannelMessage || !resp.Message.Ephemeral() ||
		resp.Message.EphemeralTo != alice || resp.Message.Content != "Twoja ręka: Q7 K2" {
		t.Errorf("response = %+v, message %v", resp, resp.Message)
	}
	if got := resp.Message.CustomIDs(); !slices.Equal(got, []string{"t/1/3/play Q7", "t/1/3/play K2"}) {
		t.Errorf("custom ids = %q", got)
	}

	i := recv(t, seen)
	data := i.ApplicationCommandData()
	if data.Name != "table" || data.Options[0].StringValue() != "princesses" || data.Options[1].IntValue() != 4 {
		t.Errorf("data = %+v", data)
	}
	if string(i.Locale) != "pl" || i.GuildLocale == nil || string(*i.GuildLocale) != "pl" ||
		i.Member.User.ID != alice || i.GuildID != guildID || i.ChannelID != channelID || i.AppPermissions == 0 {
		t.Errorf("interaction = %+v", i.Interaction)
	}

	if err := recv(t, secondErr); restCode(err) != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		t.Errorf("second response: %v, want 40060", err)
	}
	if rej := in.Rejected(); len(rej) != 1 || rej[0].Status != 400 {
		t.Errorf("Rejected = %v", rej)
	}

	// Only Alice sees it.
	if eph := s.Ephemeral(alice); len(eph) != 1 || eph[0].Text() != "Twoja ręka: Q7 K2\nPlay t/1/3/play Q7\nPlay t/1/3/play K2" {
		t.Errorf("Ephemeral(alice) = %v", eph)
	}
	if len(s.VisibleTo(bob)) != 0 || len(s.Messages(channelID)) != 0 {
		t.Errorf("the ephemeral leaked: bob sees %v, channel has %v", s.VisibleTo(bob), s.Messages(channelID))
	}
	if o := in.Original(); o == nil || o.ID != resp.Message.ID {
		t.Errorf("Original = %v", o)
	}
}

func TestResponseAfterDeadlineRejected(t *testing.T) {
	t.Parallel()
	clk := discordtest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := world(t, discordtest.WithClock(clk))
	received, release := make(chan *discordgo.Interaction, 1), make(chan struct{})
	result := make(chan error, 2)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			received <- i.Interaction
			<-release
			result <- dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "too late"},
			})
			_, err := dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "also late"})
			result <- err
		})
	})
	register(t, dg, s)

	in := s.SlashCommand(bob, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	recv(t, received)
	clk.Advance(4 * time.Second)
	close(release)
	if err := recv(t, result); restCode(err) != discordgo.ErrCodeUnknownInteraction {
		t.Errorf("late response: %v, want 10062", err)
	}
	if err := recv(t, result); restCode(err) != discordgo.ErrCodeUnknownWebhook {
		t.Errorf("follow-up of an unanswered interaction: %v, want 10015", err)
	}
	if _, ok := in.Response(); ok {
		t.Error("a late response was accepted")
	}
	if len(s.Messages(channelID)) != 0 {
		t.Error("a late response was posted")
	}
}

func TestInvalidResponsePayloadsRejected(t *testing.T) {
	t.Parallel()
	s := world(t)
	errs := make(chan error, 4)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			respond := func(d *discordgo.InteractionResponseData) {
				errs <- dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource, Data: d,
				})
			}
			rows := make([]discordgo.MessageComponent, 6)
			for r := range rows {
				rows[r] = buttons(fmt.Sprint("b", r))
			}
			respond(&discordgo.InteractionResponseData{Content: "six rows", Components: rows})
			respond(&discordgo.InteractionResponseData{Content: "long id", Components: []discordgo.MessageComponent{
				buttons(strings.Repeat("x", 101)),
			}})
			respond(&discordgo.InteractionResponseData{Content: strings.Repeat("ą", 2001)})
			respond(&discordgo.InteractionResponseData{Content: "fine"}) // still in time: accepted
		})
	})
	register(t, dg, s)

	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	if resp := in.Wait(ctx(t)); resp.Message.Content != "fine" {
		t.Errorf("response = %v", resp.Message)
	}
	for range 3 {
		if err := recv(t, errs); restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("err = %v, want 50035", err)
		}
	}
	if err := recv(t, errs); err != nil {
		t.Errorf("valid response: %v", err)
	}
	rejected := s.Errors()
	if len(rejected) != 3 {
		t.Fatalf("Errors = %v", rejected)
	}
	for i, path := range []string{"data.components", "data.components.0.components.0.custom_id", "data.content"} {
		if !rejected[i].Error.Has(path) {
			t.Errorf("rejection %d: no error at %s: %v", i, path, rejected[i].Error)
		}
	}
}

func TestMessageLimits(t *testing.T) {
	t.Parallel()
	s := world(t, discordtest.WithLenientText()) // the texts are made to break limits
	dg := connect(t, s, nil)
	row := func(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
		return discordgo.ActionsRow{Components: cs}
	}
	btn := func(id string) discordgo.Button { return discordgo.Button{Label: "b", CustomID: id} }
	opts := func(n int) []discordgo.SelectMenuOption {
		o := make([]discordgo.SelectMenuOption, n)
		for i := range o {
			o[i] = discordgo.SelectMenuOption{Label: fmt.Sprint("o", i), Value: fmt.Sprint(i)}
		}
		return o
	}
	manyEmbeds := make([]*discordgo.MessageEmbed, 11)
	for i := range manyEmbeds {
		manyEmbeds[i] = &discordgo.MessageEmbed{Title: "t"}
	}
	tests := []struct {
		name string
		msg  *discordgo.MessageSend
		path string // "" for 50006
	}{
		{"content 2001", &discordgo.MessageSend{Content: strings.Repeat("a", 2001)}, "content"},
		{"6 buttons in a row", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(btn("1"), btn("2"), btn("3"), btn("4"), btn("5"), btn("6"))}}, "components.0.components"},
		{"select not alone", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(btn("1"), discordgo.SelectMenu{CustomID: "s", Options: opts(2)})}}, "components.0.components.1"},
		{"26 options", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.SelectMenu{CustomID: "s", Options: opts(26)})}}, "components.0.components.0.options"},
		{"option label 101", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: strings.Repeat("l", 101), Value: "v"}}})}},
			"components.0.components.0.options.0.label"},
		{"duplicate custom_id", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(btn("same")), row(btn("same"))}}, "components.1.components.0.custom_id"},
		{"button without custom_id", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: "x"})}}, "components.0.components.0.custom_id"},
		{"link button with custom_id", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: "x", Style: discordgo.LinkButton, URL: "https://example.com", CustomID: "c"})}},
			"components.0.components.0.custom_id"},
		{"link button without url", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: "x", Style: discordgo.LinkButton})}}, "components.0.components.0.url"},
		{"label 81", &discordgo.MessageSend{Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: strings.Repeat("l", 81), CustomID: "c"})}}, "components.0.components.0.label"},
		{"11 embeds", &discordgo.MessageSend{Embeds: manyEmbeds}, "embeds"},
		{"embed title 257", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 257)}}}, "embeds.0.title"},
		{"embed description 4097", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Description: strings.Repeat("d", 4097)}}},
			"embeds.0.description"},
		{"embeds over 6000", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{
			{Description: strings.Repeat("d", 4000)}, {Description: strings.Repeat("d", 2001)}}}, "embeds"},
		{"ephemeral in a channel", &discordgo.MessageSend{Content: "x", Flags: discordgo.MessageFlagsEphemeral}, "flags"},
		{"empty", &discordgo.MessageSend{}, ""},
	}
	for _, tc := range tests {
		_, err := dg.ChannelMessageSendComplex(channelID, tc.msg)
		want := discordgo.ErrCodeInvalidFormBody
		if tc.path == "" {
			want = discordgo.ErrCodeCannotSendEmptyMessage
		}
		if restCode(err) != want {
			t.Errorf("%s: err = %v, want %d", tc.name, err, want)
			continue
		}
		last := s.Errors()[len(s.Errors())-1]
		if tc.path != "" && !last.Error.Has(tc.path) {
			t.Errorf("%s: no error at %s: %v", tc.name, tc.path, last.Error)
		}
	}
	if n := len(s.Messages(channelID)); n != 0 {
		t.Errorf("%d invalid messages were stored", n)
	}
	// The limits themselves pass.
	full := make([]discordgo.MessageComponent, 5)
	for r := range full {
		full[r] = row(btn(fmt.Sprint(r, "a")), btn(fmt.Sprint(r, "b")), btn(fmt.Sprint(r, "c")), btn(fmt.Sprint(r, "d")), btn(fmt.Sprint(r, "e")))
	}
	full[4] = row(discordgo.SelectMenu{CustomID: "s", Options: opts(25), MaxValues: 25})
	if _, err := dg.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:    strings.Repeat("ż", 2000),
		Components: full,
		Embeds:     []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 256), Description: strings.Repeat("d", 4096)}},
	}); err != nil {
		t.Errorf("a message at the limits was rejected: %v", err)
	}
}

func TestDeferredFollowupsAndTokenExpiry(t *testing.T) {
	t.Parallel()
	clk := discordtest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := world(t, discordtest.WithClock(clk))
	got := make(chan *discordgo.Interaction, 1)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
			})
			got <- i.Interaction
		})
	})
	register(t, dg, s)

	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	resp := in.Wait(ctx(t))
	i := recv(t, got)
	if resp.Type != discordtest.CallbackDeferredMessage || !resp.Message.Loading() || !resp.Message.Ephemeral() {
		t.Fatalf("response = %+v %v", resp, resp.Message)
	}

	clk.Advance(14 * time.Minute)
	// The first follow-up fills the loading message and stays ephemeral.
	m, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "dealt"})
	if err != nil || m.ID != resp.Message.ID || m.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("first follow-up = %+v, %v", m, err)
	}
	if o := in.Original(); o.Loading() || o.Content != "dealt" || o.EphemeralTo != alice {
		t.Errorf("Original = %v", o)
	}
	// Later follow-ups are new messages, public unless flagged.
	if _, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "public"}); err != nil {
		t.Fatal(err)
	}
	content := "dealt again"
	if _, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	if f := in.Followups(); len(f) != 1 || f[0].Content != "public" || f[0].Ephemeral() {
		t.Errorf("Followups = %v", f)
	}
	if o := in.Original(); o.Content != "dealt again" || o.Edits != 1 {
		t.Errorf("Original after edit = %v (edits %d)", o, o.Edits)
	}

	clk.Advance(2 * time.Minute) // 16 minutes after the interaction
	_, err = dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "too late"})
	if restCode(err) != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("follow-up after 16 min: %v, want 50027", err)
	}
	if _, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content}); restCode(err) != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("edit after 16 min: %v, want 50027", err)
	}
	if len(in.Rejected()) != 2 {
		t.Errorf("Rejected = %v", in.Rejected())
	}
}

func TestRateLimitAndServerErrorsRetried(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	const route = "POST /channels/{channel.id}/messages"

	s.RateLimitNext(route, 1, 50*time.Millisecond)
	start := time.Now()
	if _, err := dg.ChannelMessageSend(channelID, "after a 429"); err != nil {
		t.Fatalf("send after 429: %v", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("discordgo retried after %v, before retry_after", d)
	}
	s.FailNext(route, 1, 502)
	if _, err := dg.ChannelMessageSend(channelID, "after a 502"); err != nil {
		t.Fatalf("send after 502: %v", err)
	}
	var statuses []int
	for _, c := range s.Calls() {
		if c.Route == route {
			statuses = append(statuses, c.Status)
		}
	}
	if !slices.Equal(statuses, []int{429, 200, 502, 200}) {
		t.Errorf("statuses = %v", statuses)
	}
	if msgs := s.Messages(channelID); len(msgs) != 2 {
		t.Errorf("Messages = %v", msgs)
	}
	s.AssertNoErrors(t) // injected faults are not the bot's errors

	// Without retries the 429 surfaces with its retry_after.
	s.RateLimitNext(route, 1, 250*time.Millisecond)
	_, err := dg.ChannelMessageSend(channelID, "no retry", discordgo.WithRetryOnRatelimit(false))
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 250*time.Millisecond {
		t.Errorf("err = %v, want a RateLimitError with retry_after 250ms", err)
	}
}

func TestResumeReplaysMissedDispatch(t *testing.T) {
	t.Parallel()
	clk := discordtest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := world(t, discordtest.WithClock(clk))
	resumed := make(chan *discordgo.Resumed, 1)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Resumed) { resumed <- r })
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "still here"},
			})
		})
	})
	register(t, dg, s)

	s.DropConnection()
	// Dispatched while the bot is disconnected: queued for the resume.
	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	if resp := in.Wait(ctx(t)); resp.Message.Content != "still here" {
		t.Errorf("response = %v", resp.Message)
	}
	recv(t, resumed)
	st := s.GatewayStats()
	if st.Identifies != 1 || st.Resumes != 1 || st.Replayed < 1 || st.Connections != 2 || st.Dropped != 1 {
		t.Errorf("stats = %+v", st)
	}
	if msgs := s.Messages(channelID); len(msgs) != 1 || msgs[0].Type != 20 {
		t.Errorf("Messages = %v", msgs)
	}
}

func TestHeartbeatsAcknowledged(t *testing.T) {
	t.Parallel()
	// discordgo reconnects if 5 intervals pass without an ACK, on the wall
	// clock: the interval is long enough (an ACK may be 1.25 s late) that a
	// busy machine under -race does not stall the fake that long.
	s := world(t, discordtest.WithHeartbeatInterval(250*time.Millisecond))
	connect(t, s, nil)
	if err := s.WaitGateway(ctx(t), func(st discordtest.GatewayStats) bool { return st.Heartbeats >= 6 }); err != nil {
		t.Fatal(err)
	}
	if st := s.GatewayStats(); st.Connections != 1 || st.Identifies != 1 || st.Live != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestChannelMessagesThreadsAndDMs(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)

	m, err := dg.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:    "Stół: Księżniczki",
		Embeds:     []*discordgo.MessageEmbed{{Title: "Lewa 1", Fields: []*discordgo.MessageEmbedField{{Name: "Ala", Value: "Q7"}}}},
		Components: []discordgo.MessageComponent{buttons("t/1/0/hand")},
	})
	if err != nil {
		t.Fatal(err)
	}
	other, err := dg.ChannelMessageSend(channelID, "to delete")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelMessageEdit(channelID, m.ID, "Stół: Księżniczki (runda 2)"); err != nil {
		t.Fatal(err)
	}
	if err := dg.ChannelMessageDelete(channelID, other.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelMessage(channelID, other.ID); restCode(err) != discordgo.ErrCodeUnknownMessage {
		t.Errorf("deleted message: %v, want 10008", err)
	}
	msgs := s.Messages(channelID)
	if len(msgs) != 1 {
		t.Fatalf("Messages = %v", msgs)
	}
	cur := msgs[0]
	if cur.Content != "Stół: Księżniczki (runda 2)" || cur.Edits != 1 || len(cur.Embeds) != 1 || cur.Component("t/1/0/hand") == nil {
		t.Errorf("current state = %v %+v", cur, cur.Embeds)
	}
	if cur.Text() != "Stół: Księżniczki (runda 2)\nLewa 1\nAla\nQ7\nPlay t/1/0/hand" {
		t.Errorf("Text = %q", cur.Text())
	}
	if got, err := dg.ChannelMessage(channelID, m.ID); err != nil || got.EditedTimestamp == nil || got.Author.ID != s.BotUser.ID {
		t.Errorf("GET message = %+v, %v", got, err)
	}

	// Threads: from a message (same id) and standalone.
	th, err := dg.MessageThreadStart(channelID, m.ID, "Stół 1", 1440)
	if err != nil || th.ID != m.ID || th.ParentID != channelID || th.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Fatalf("thread = %+v, %v", th, err)
	}
	if _, err := dg.MessageThreadStart(channelID, m.ID, "again", 1440); restCode(err) != 160004 {
		t.Errorf("second thread on a message: %v", err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "w wątku"); err != nil {
		t.Fatal(err)
	}
	if got := s.Messages(th.ID); len(got) != 1 || got[0].GuildID != guildID {
		t.Errorf("thread messages = %v", got)
	}

	// DMs.
	dm, err := dg.UserChannelCreate(bob)
	if err != nil || dm.Type != discordgo.ChannelTypeDM || dm.Recipients[0].ID != bob {
		t.Fatalf("DM channel = %+v, %v", dm, err)
	}
	if _, err := dg.ChannelMessageSend(dm.ID, "Твій хід"); err != nil {
		t.Fatal(err)
	}
	if d := s.DMs(bob); len(d) != 1 || d[0].Content != "Твій хід" {
		t.Errorf("DMs(bob) = %v", d)
	}
	s.CloseDMs(alice)
	dmA, err := dg.UserChannelCreate(alice)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelMessageSend(dmA.ID, "hi"); restCode(err) != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("DM to closed inbox: %v, want 50007", err)
	}

	// Lookups.
	if ch, err := dg.Channel(channelID); err != nil || ch.GuildID != guildID {
		t.Errorf("Channel = %+v, %v", ch, err)
	}
	if g, err := dg.Guild(guildID); err != nil || g.PreferredLocale != "pl" {
		t.Errorf("Guild = %+v, %v", g, err)
	}
	if u, err := dg.User("@me"); err != nil || u.ID != s.BotUser.ID {
		t.Errorf("User(@me) = %+v, %v", u, err)
	}
}

func TestClickSelectAndModal(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			var resp *discordgo.InteractionResponse
			switch i.Type {
			case discordgo.InteractionApplicationCommand:
				resp = &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{
						Content: "Ręka: Q7 K2",
						Flags:   discordgo.MessageFlagsEphemeral,
						Components: []discordgo.MessageComponent{
							buttons("play Q7", "play K2"),
							discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
								CustomID: "pass", Placeholder: "Pass cards", MinValues: new(2), MaxValues: 2,
								Options: []discordgo.SelectMenuOption{
									{Label: "Q7", Value: "Q7"}, {Label: "K2", Value: "K2"}, {Label: "A3", Value: "A3"},
								},
							}}},
						},
					},
				}
			case discordgo.InteractionMessageComponent:
				d := i.MessageComponentData()
				if d.CustomID == "pass" {
					resp = &discordgo.InteractionResponse{
						Type: discordgo.InteractionResponseModal,
						Data: &discordgo.InteractionResponseData{
							CustomID: "note", Title: "Note",
							Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
								discordgo.TextInput{CustomID: "text", Label: "Why?", Style: discordgo.TextInputShort, Required: true, MaxLength: 20},
							}}},
						},
					}
					break
				}
				resp = &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseUpdateMessage,
					Data: &discordgo.InteractionResponseData{
						Content:    "Zagrano " + strings.TrimPrefix(d.CustomID, "play ") + " (" + string(i.Locale) + ")",
						Components: []discordgo.MessageComponent{buttons("play K2")},
					},
				}
			case discordgo.InteractionModalSubmit:
				text := i.ModalSubmitData().Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput).Value
				resp = &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "note: " + text, Flags: discordgo.MessageFlagsEphemeral},
				}
			}
			_ = dg.InteractionRespond(i.Interaction, resp)
		})
	})
	register(t, dg, s)

	cmd := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "princesses"))
	hand := cmd.Wait(ctx(t)).Message

	// Select two cards: the bot answers with a modal, Alice submits it.
	sel := s.Select(alice, hand, "pass", "Q7", "A3")
	if r := sel.Wait(ctx(t)); r.Type != discordtest.CallbackModal || r.Modal.CustomID != "note" || r.Modal.Title != "Note" {
		t.Fatalf("select response = %+v", r)
	}
	sub := s.SubmitModal(alice, sel, map[string]string{"text": "za mocne"})
	if r := sub.Wait(ctx(t)); r.Message.Content != "note: za mocne" || r.Message.EphemeralTo != alice {
		t.Errorf("modal response = %v", r.Message)
	}

	// Click a card: the ephemeral hand is updated in place (type 7).
	click := s.Click(alice, hand, "play Q7")
	resp := click.Wait(ctx(t))
	if resp.Type != discordtest.CallbackUpdateMessage || resp.Message.ID != hand.ID {
		t.Errorf("click response = %+v", resp)
	}
	if o := cmd.Original(); o.Content != "Zagrano Q7 (pl)" || !slices.Equal(o.CustomIDs(), []string{"play K2"}) ||
		!o.Ephemeral() || o.Edits != 1 {
		t.Errorf("hand after click = %v", o)
	}
	if eph := s.Ephemeral(alice); len(eph) != 2 || eph[0].ID != hand.ID {
		t.Errorf("Ephemeral = %v", eph)
	}
	if len(s.VisibleTo(bob)) != 0 {
		t.Errorf("Bob sees %v", s.VisibleTo(bob))
	}
	s.AssertNoErrors(t)
}

func TestMisuseFailsTheTest(t *testing.T) {
	t.Parallel()
	rec := &fatalRecorder{TB: t}
	s := world(rec)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			if i.ApplicationCommandData().Options[0].StringValue() == "lynx" {
				return // never answers
			}
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content: "hand",
					Flags:   discordgo.MessageFlagsEphemeral,
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Q7", CustomID: "play Q7"},
						discordgo.Button{Label: "K2", CustomID: "play K2", Disabled: true},
						discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com/rules"},
					}}},
				},
			})
		})
	})
	register(t, dg, s)
	hand := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "princesses")).Wait(ctx(t)).Message

	silent := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()

	for _, tc := range []struct {
		name, want string
		fn         func()
	}{
		{"absent custom_id", "has no component", func() { s.Click(alice, hand, "play A3") }},
		{"another user's ephemeral", "cannot see", func() { s.Click(bob, hand, "play Q7") }},
		{"disabled button", "disabled", func() { s.Click(alice, hand, "play K2") }},
		{"link button", "not a button that sends", func() { s.Click(alice, hand, "") }},
		{"unregistered command", "no such command", func() { s.SlashCommand(alice, guildID, channelID, "stats") }},
		{"value outside choices", "not one of the choices", func() {
			s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "chess"))
		}},
		{"missing required option", "required option", func() { s.SlashCommand(alice, guildID, channelID, "table") }},
		{"wrong option type", "want a number", func() {
			s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"), discordtest.Opt("seats", "4"))
		}},
		{"select on a message without it", "has no component", func() { s.Select(alice, hand, "pass", "Q7") }},
		{"modal never opened", "no open modal", func() { s.SubmitModal(alice, silent, nil) }},
		{"no response", "got no initial response", func() { silent.Wait(short) }},
	} {
		if got := rec.fatal(tc.fn); !strings.Contains(got, tc.want) {
			t.Errorf("%s: Fatalf(%q), want it to mention %q", tc.name, got, tc.want)
		}
	}
}

func TestVisibleToHidesOtherPlayersMessages(t *testing.T) {
	t.Parallel()
	s := world(t)
	got := make(chan *discordgo.Interaction, 2)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "hand of " + i.Member.User.ID, Flags: discordgo.MessageFlagsEphemeral},
			})
			got <- i.Interaction
		})
	})
	register(t, dg, s)
	s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx")).Wait(ctx(t))
	s.SlashCommand(bob, guildID, channelID, "table", discordtest.Opt("game", "lynx")).Wait(ctx(t))
	if _, err := dg.ChannelMessageSend(channelID, "public score"); err != nil {
		t.Fatal(err)
	}
	dm, _ := dg.UserChannelCreate(bob)
	if _, err := dg.ChannelMessageSend(dm.ID, "bob's secret mission"); err != nil {
		t.Fatal(err)
	}
	th, err := dg.ThreadStart(channelID, "alice only", discordgo.ChannelTypeGuildPrivateThread, 60)
	if err != nil {
		t.Fatal(err)
	}
	if err := dg.ThreadMemberAdd(th.ID, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "alice's private thread"); err != nil {
		t.Fatal(err)
	}

	texts := func(user string) []string {
		var out []string
		for _, m := range s.VisibleTo(user) {
			out = append(out, m.Text())
		}
		return out
	}
	if a := texts(alice); !slices.Equal(a, []string{"hand of " + alice, "public score", "alice's private thread"}) {
		t.Errorf("Alice sees %q", a)
	}
	if b := texts(bob); !slices.Equal(b, []string{"hand of " + bob, "public score", "bob's secret mission"}) {
		t.Errorf("Bob sees %q", b)
	}
}

func TestUnexpectedRoutesAndRawRequests(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	if _, err := dg.GuildRoles(guildID); err == nil {
		t.Error("GuildRoles succeeded on a route the fake does not serve")
	}
	un := s.Unexpected()
	if len(un) != 1 || un[0].Method != "GET" || un[0].Path != "/guilds/100/roles" || un[0].Status != 404 || un[0].Host != "discord.com" {
		t.Errorf("Unexpected = %v", un)
	}
	if len(s.Errors()) != 1 {
		t.Errorf("Errors = %v", s.Errors())
	}
	if n := s.RESTCalls(); n != 2 { // GET /gateway, GET /guilds/100/roles
		t.Errorf("RESTCalls = %d: %v", n, s.Calls())
	}
	// Arbitrary dispatches reach the bot.
	got := make(chan *discordgo.MessageCreate, 1)
	dg.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })
	s.Dispatch("MESSAGE_CREATE", map[string]any{
		"id": "999", "channel_id": channelID, "content": "hello from a user", "type": 0,
		"author": map[string]any{"id": alice, "username": "ala"}, "timestamp": "2026-03-01T12:00:00.000000+00:00",
	})
	if m := recv(t, got); m.Content != "hello from a user" || m.Author.ID != alice {
		t.Errorf("MESSAGE_CREATE = %+v", m.Message)
	}
}

func TestWrongTokenRefused(t *testing.T) {
	t.Parallel()
	s := world(t, discordtest.WithToken("secret"), discordtest.WithLog())
	dg, err := discordgo.New("Bot wrong")
	if err != nil {
		t.Fatal(err)
	}
	s.Configure(dg)
	if _, err := dg.User("@me"); err == nil {
		t.Error("REST accepted a wrong token")
	}
	if err := dg.Open(); err == nil {
		_ = dg.Close()
		t.Error("the gateway accepted a wrong token")
	}
	if st := s.GatewayStats(); st.Identifies != 0 {
		t.Errorf("stats = %+v", st)
	}
}

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the goroutine, so a test can check that the fake fails a misused test.
type fatalRecorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.msg = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// fatal runs fn in its own goroutine and returns what it passed to Fatalf
// ("" if it returned normally).
func (r *fatalRecorder) fatal(fn func()) string {
	r.mu.Lock()
	r.msg = ""
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msg
}

func TestCommandsInDMsAndMoreRoutes(t *testing.T) {
	t.Parallel()
	s := world(t)
	withResponse := make(chan []byte, 1)
	seen := make(chan *discordgo.Interaction, 1)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			seen <- i.Interaction
			body, err := dg.RequestWithBucketID("POST",
				discordgo.EndpointInteractionResponse(i.ID, i.Token)+"?with_response=true",
				discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "w DM"},
				}, "callback")
			if err != nil {
				body = []byte(err.Error())
			}
			withResponse <- body
		})
	})
	register(t, dg, s)

	// A global command is usable in the user's DM with the bot.
	in := s.SlashCommand(bob, "", "", "table", discordtest.Opt("game", "lynx"))
	i := recv(t, seen)
	if i.Member != nil || i.User == nil || i.User.ID != bob || i.GuildID != "" || i.GuildLocale != nil || string(i.Locale) != "uk" {
		t.Errorf("DM interaction = %+v", i)
	}
	var cb struct {
		Interaction struct {
			ID                string `json:"id"`
			ResponseMessageID string `json:"response_message_id"`
		} `json:"interaction"`
		Resource struct {
			Type    int               `json:"type"`
			Message discordgo.Message `json:"message"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(recv(t, withResponse), &cb); err != nil {
		t.Fatal(err)
	}
	resp := in.Wait(ctx(t))
	if cb.Interaction.ID != in.ID || cb.Resource.Type != 4 || cb.Resource.Message.ID != resp.Message.ID ||
		cb.Interaction.ResponseMessageID != resp.Message.ID {
		t.Errorf("with_response = %+v", cb)
	}
	if d := s.DMs(bob); len(d) != 1 || d[0].Content != "w DM" {
		t.Errorf("DMs(bob) = %v", d)
	}
	if got, err := dg.InteractionResponse(i); err != nil || got.Content != "w DM" {
		t.Errorf("GET @original = %+v, %v", got, err)
	}

	// Single command routes.
	c, err := dg.ApplicationCommandCreate(s.AppID, guildID, &discordgo.ApplicationCommand{Name: "rules", Description: "Show the rules"})
	if err != nil || c.GuildID != guildID {
		t.Fatalf("create = %+v, %v", c, err)
	}
	if err := dg.ApplicationCommandDelete(s.AppID, guildID, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ApplicationCommand(s.AppID, guildID, c.ID); restCode(err) != discordgo.ErrCodeUnknownApplicationCommand {
		t.Errorf("deleted command: %v", err)
	}

	// Components V2 messages: layout components, no content.
	v2 := &discordgo.MessageSend{
		Flags:      discordgo.MessageFlagsIsComponentsV2,
		Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "## Lewa 3"}, buttons("next")},
	}
	m, err := dg.ChannelMessageSendComplex(channelID, v2)
	if err != nil {
		t.Fatalf("V2 message: %v", err)
	}
	if got := s.Message(m.ID); got.Text() != "## Lewa 3\nPlay next" {
		t.Errorf("V2 text = %q", got.Text())
	}
	v2.Content = "not allowed"
	if _, err := dg.ChannelMessageSendComplex(channelID, v2); restCode(err) != discordgo.ErrCodeInvalidFormBody ||
		!s.Errors()[len(s.Errors())-1].Error.Has("content") {
		t.Errorf("V2 with content: %v", err)
	}

	// Latency.
	s.SetLatency(50 * time.Millisecond)
	start := time.Now()
	if _, err := dg.Channel(channelID); err != nil || time.Since(start) < 50*time.Millisecond {
		t.Errorf("latency: %v after %v", err, time.Since(start))
	}
}

func TestRawHTTP(t *testing.T) {
	t.Parallel()
	s := world(t)
	post := func(path, body string) (int, map[string]any) {
		st, _, out := rawPost(t, s, path, body)
		return st, out
	}
	if st, body := post("/api/v10/channels/"+channelID+"/messages", `{"content": `); st != 400 || body["code"] != 50109.0 {
		t.Errorf("invalid JSON: %d %v", st, body)
	}
	if st, body := post("/api/v8/channels/"+channelID+"/messages", `{"content": "x"}`); st != 404 ||
		body["message"] != "404: Not Found" || body["code"] != 0.0 {
		t.Errorf("old API version: %d %v", st, body)
	}
	if st, body := post("/api/v10/interactions/1/nope/callback", `{"type": 4, "data": {"content": "x"}}`); st != 404 || body["code"] != 10062.0 {
		t.Errorf("unknown interaction: %d %v", st, body)
	}
	if st, body := post("/api/v10/channels/"+channelID+"/messages", `{"content": 5}`); st != 400 || body["code"] != 50035.0 {
		t.Errorf("content of the wrong type: %d %v", st, body)
	}
	if len(s.Unexpected()) != 1 || len(s.Errors()) != 4 {
		t.Errorf("Unexpected = %v, Errors = %v", s.Unexpected(), s.Errors())
	}
}

// searchCommand has a required option with choices and an autocomplete
// option, as /stolik open's rounds.
func searchCommand() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name: "search", Description: "Search the round cards",
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Game", Required: true,
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Rebel Princess", Value: "princesses"}},
		}, {
			Type: discordgo.ApplicationCommandOptionString, Name: "rounds", Description: "Round cards",
			Autocomplete: true, MaxLength: 20,
		}, {
			Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "Seats", Autocomplete: true,
		}},
	}
}

// autocompleteWorld is a fake with searchCommand registered; respond
// answers each interaction from the handler and reports the errors.
func autocompleteWorld(t *testing.T, respond func(dg *discordgo.Session, i *discordgo.InteractionCreate) []error) (*discordtest.Server, <-chan []error, <-chan *discordgo.InteractionCreate) {
	t.Helper()
	s := world(t)
	errs := make(chan []error, 4)
	seen := make(chan *discordgo.InteractionCreate, 4)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			seen <- i
			errs <- respond(dg, i)
		})
	})
	if _, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{searchCommand()}); err != nil {
		t.Fatalf("BulkOverwrite: %v", err)
	}
	return s, errs, seen
}

func choices(pairs ...string) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}

func autocompleteResult(c []*discordgo.ApplicationCommandOptionChoice) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: c}}
}

// An autocomplete interaction is type 4 with the focused option marked and
// its partial value, required options possibly missing; the choices of the
// type 8 answer are recorded; there is no message, so nothing follows.
func TestAutocompleteInteraction(t *testing.T) {
	t.Parallel()
	s, errs, seen := autocompleteWorld(t, func(dg *discordgo.Session, i *discordgo.InteractionCreate) []error {
		err := dg.InteractionRespond(i.Interaction, autocompleteResult(choices("Bal maskowy", "masquerade", "Maskarada", "i")))
		_, ferr := dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "after"})
		return []error{err, ferr}
	})
	in := s.Autocomplete(alice, guildID, channelID, "search", "rounds", discordtest.Opt("rounds", "mas"))
	resp := in.Wait(ctx(t))
	if in.Type != discordtest.InteractionAutocomplete || resp.Type != discordtest.CallbackAutocompleteResult || resp.Message != nil {
		t.Errorf("interaction %v, response %+v", in, resp)
	}
	if len(resp.Choices) != 2 || resp.Choices[0].Name != "Bal maskowy" || resp.Choices[0].Value != "masquerade" || resp.Choices[1].Value != "i" {
		t.Errorf("choices = %+v", resp.Choices)
	}
	i := recv(t, seen)
	data := i.ApplicationCommandData()
	if i.Type != discordgo.InteractionApplicationCommandAutocomplete || data.Name != "search" || len(data.Options) != 1 ||
		!data.Options[0].Focused || data.Options[0].Name != "rounds" || data.Options[0].StringValue() != "mas" {
		t.Errorf("interaction = %+v, data %+v", i.Interaction, data)
	}
	e := recv(t, errs)
	if e[0] != nil {
		t.Errorf("the answer was refused: %v", e[0])
	}
	if restCode(e[1]) != discordgo.ErrCodeUnknownWebhook {
		t.Errorf("a follow-up to an autocomplete: %v, want 10015", e[1])
	}
	if in.Original() != nil || len(in.Followups()) != 0 {
		t.Errorf("an autocomplete got messages: %v %v", in.Original(), in.Followups())
	}

	// With the other options given: they come typed, only the focused one
	// is marked; the partial value may be anything the user typed.
	in = s.Autocomplete(bob, guildID, channelID, "search", "rounds", discordtest.Opt("game", "princesses"), discordtest.Opt("rounds", ""))
	in.Wait(ctx(t))
	data = recv(t, seen).ApplicationCommandData()
	if len(data.Options) != 2 || data.Options[0].Focused || !data.Options[1].Focused || data.Options[1].StringValue() != "" {
		t.Errorf("data = %+v", data)
	}
	recv(t, errs)

	// What Discord's client would not send fails.
	for _, c := range []struct {
		focused string
		args    []discordtest.Arg
	}{
		{"game", []discordtest.Arg{discordtest.Opt("game", "pri")}},                       // not autocomplete
		{"rounds", []discordtest.Arg{discordtest.Opt("game", "princesses")}},              // focused option not given
		{"rounds", []discordtest.Arg{discordtest.Opt("rounds", strings.Repeat("a", 21))}}, // past max_length
		{"rounds", []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("game", "chess")}},
	} {
		if _, err := s.AutocompleteErr(alice, guildID, channelID, "search", c.focused, c.args...); err == nil {
			t.Errorf("Autocomplete %s %v: no error", c.focused, c.args)
		}
	}
}

// An autocomplete interaction takes only callback 8, and only it takes 8.
func TestAutocompleteCallbackTypes(t *testing.T) {
	t.Parallel()
	s, errs, _ := autocompleteWorld(t, func(dg *discordgo.Session, i *discordgo.InteractionCreate) []error {
		var out []error
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			for _, typ := range []discordgo.InteractionResponseType{4, 5, 6, 7} {
				out = append(out, dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: typ,
					Data: &discordgo.InteractionResponseData{Content: "no"}}))
			}
			out = append(out, dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal,
				Data: &discordgo.InteractionResponseData{CustomID: "m", Title: "T", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "x", Label: "X", Style: discordgo.TextInputShort}}},
				}}}))
			return append(out, dg.InteractionRespond(i.Interaction, autocompleteResult(choices("Five", "5"))))
		}
		out = append(out, dg.InteractionRespond(i.Interaction, autocompleteResult(choices("Five", "5"))))
		return append(out, dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok"}}))
	})
	in := s.Autocomplete(alice, guildID, channelID, "search", "rounds", discordtest.Opt("rounds", "5"))
	if resp := in.Wait(ctx(t)); resp.Type != discordtest.CallbackAutocompleteResult || len(resp.Choices) != 1 {
		t.Errorf("response = %+v", resp)
	}
	e := recv(t, errs)
	for k, err := range e[:5] {
		if restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("callback %d to an autocomplete: %v, want 50035", []int{4, 5, 6, 7, 9}[k], err)
		}
	}
	if e[5] != nil {
		t.Errorf("callback 8: %v", e[5])
	}
	if rej := in.Rejected(); len(rej) != 5 {
		t.Errorf("Rejected = %v", rej)
	}
	for _, f := range s.Errors() {
		if !f.Error.Has("type") {
			t.Errorf("rejection without an error at type: %v", f.Error)
		}
	}

	cmd := s.SlashCommand(alice, guildID, channelID, "search", discordtest.Opt("game", "princesses"))
	if resp := cmd.Wait(ctx(t)); resp.Type != discordtest.CallbackChannelMessage || resp.Choices != nil {
		t.Errorf("response = %+v", resp)
	}
	e = recv(t, errs)
	if restCode(e[0]) != discordgo.ErrCodeInvalidFormBody || e[1] != nil {
		t.Errorf("callback 8 to a command: %v; then 4: %v", e[0], e[1])
	}
}

// The choices of an autocomplete result are checked as Discord does: at
// most 25, names of 1 to 100 characters, values of the option's type (1 to
// 100 characters for strings).
func TestAutocompleteChoicesValidated(t *testing.T) {
	t.Parallel()
	many := make([]string, 0, 52)
	for k := range 26 {
		many = append(many, fmt.Sprint("c", k), fmt.Sprint(k))
	}
	bad := [][]*discordgo.ApplicationCommandOptionChoice{
		choices(many...),
		choices(strings.Repeat("ą", 101), "x"),
		choices("", "x"),
		choices("long", strings.Repeat("v", 101)),
		{{Name: "number for a string", Value: 5}},
	}
	s, errs, _ := autocompleteWorld(t, func(dg *discordgo.Session, i *discordgo.InteractionCreate) []error {
		var out []error
		if i.ApplicationCommandData().Options[0].Name == "seats" {
			out = append(out, dg.InteractionRespond(i.Interaction, autocompleteResult(choices("four", "4"))))
			return append(out, dg.InteractionRespond(i.Interaction, autocompleteResult([]*discordgo.ApplicationCommandOptionChoice{{Name: "four", Value: 4}})))
		}
		for _, c := range bad {
			out = append(out, dg.InteractionRespond(i.Interaction, autocompleteResult(c)))
		}
		// No choices at all (discordgo leaves an empty list out): accepted.
		return append(out, dg.InteractionRespond(i.Interaction, autocompleteResult(nil)))
	})
	in := s.Autocomplete(alice, guildID, channelID, "search", "rounds", discordtest.Opt("rounds", "x"))
	if resp := in.Wait(ctx(t)); resp.Choices == nil || len(resp.Choices) != 0 {
		t.Errorf("response = %+v", resp)
	}
	e := recv(t, errs)
	for k, err := range e[:len(bad)] {
		if restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("bad choices %d: %v, want 50035", k, err)
		}
	}
	if e[len(bad)] != nil {
		t.Errorf("no choices: %v", e[len(bad)])
	}
	rejected := s.Errors()
	for k, path := range []string{"data.choices", "data.choices.0.name", "data.choices.0.name", "data.choices.0.value", "data.choices.0.value"} {
		if k >= len(rejected) || !rejected[k].Error.Has(path) {
			t.Errorf("rejection %d: no error at %s: %v", k, path, rejected)
		}
	}

	in = s.Autocomplete(alice, guildID, channelID, "search", "seats", discordtest.Opt("seats", "4"))
	if resp := in.Wait(ctx(t)); len(resp.Choices) != 1 || resp.Choices[0].Value != float64(4) {
		t.Errorf("response = %+v", resp)
	}
	if e := recv(t, errs); restCode(e[0]) != discordgo.ErrCodeInvalidFormBody || e[1] != nil {
		t.Errorf("a string for an integer option: %v; a number: %v", e[0], e[1])
	}
}

// An option cannot both autocomplete and have choices, and only string,
// integer and number options autocomplete.
func TestAutocompleteWithChoicesNotRegistered(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	cmd := searchCommand()
	cmd.Options[1].Choices = choices("Five", "5")
	cmd.Options = append(cmd.Options, &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionBoolean, Name: "ai", Description: "AI", Autocomplete: true,
	})
	_, err := dg.ApplicationCommandBulkOverwrite(s.AppID, "", []*discordgo.ApplicationCommand{cmd})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Fatalf("err = %v, want 50035", err)
	}
	errs := s.Errors()
	if len(errs) != 1 || !errs[0].Error.Has("0.options.1.autocomplete") || !errs[0].Error.Has("0.options.3.autocomplete") {
		t.Fatalf("Errors = %v", errs)
	}
	if len(s.Commands("")) != 0 {
		t.Error("a rejected overwrite registered commands")
	}
}

// TestAckLatency: the latency is from the event sent to the callback's
// arrival, so a bot that waits before answering shows its wait and no
// more than the whole round trip the caller saw; none before the answer.
func TestAckLatency(t *testing.T) {
	t.Parallel()
	s := world(t)
	const wait = 30 * time.Millisecond
	release := make(chan struct{})
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			<-release
			time.Sleep(wait)
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral},
			})
		})
	})
	register(t, dg, s)
	start := time.Now()
	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 4))
	if d, ok := in.AckLatency(); ok {
		t.Errorf("a latency before the answer: %v", d)
	}
	close(release)
	in.Wait(ctx(t))
	round := time.Since(start)
	d, ok := in.AckLatency()
	if !ok || d < wait || d > round {
		t.Errorf("AckLatency = %v, %v; want between the bot's wait %v and the round trip %v", d, ok, wait, round)
	}
}

// TestBotPermissions: the bot's permissions set in a channel hold in it
// and in a thread started in it: without Attach Files a message posted or
// edited with a file fails with 403, 50013 (and without a file goes
// through); without Send Messages a post fails with 50013, though in a
// thread Send Messages in Threads is what counts; without View Channel
// anything fails with 50001. (The interactions there carry the same
// app_permissions: the bot's TestCannotPost.) Cleared, everything goes
// through again.
func TestBotPermissions(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "table.png", ContentType: "image/png", Reader: strings.NewReader("\x89PNG")}}
	}
	m, err := dg.ChannelMessageSend(channelID, "Stół")
	if err != nil {
		t.Fatal(err)
	}
	th, err := dg.MessageThreadStart(channelID, m.ID, "Stół 1", 1440)
	if err != nil {
		t.Fatal(err)
	}
	usual := discordtest.BotPermissions
	s.SetBotPermissions(channelID, usual&^discordgo.PermissionAttachFiles)
	for _, ch := range []string{channelID, th.ID} {
		if _, err := dg.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "z obrazkiem", Files: file()}); restCode(err) != discordgo.ErrCodeMissingPermissions {
			t.Errorf("a file posted in %s: %v, want 50013", ch, err)
		}
		if _, err := dg.ChannelMessageSend(ch, "bez obrazka"); err != nil {
			t.Errorf("words posted in %s: %v", ch, err)
		}
	}
	content := "z obrazkiem"
	if _, err := dg.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: m.ID, Channel: channelID, Content: &content, Files: file()}); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("a file edited in: %v, want 50013", err)
	}
	if got := s.Message(m.ID); got.Content != "Stół" || len(got.Attachments) != 0 {
		t.Errorf("the refused edit changed the message: %v", got)
	}

	s.SetBotPermissions(channelID, usual&^discordgo.PermissionSendMessages)
	if _, err := dg.ChannelMessageSend(channelID, "w kanale"); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("a post without Send Messages: %v, want 50013", err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "w wątku"); err != nil {
		t.Errorf("a post in the thread with Send Messages in Threads: %v", err)
	}
	s.SetBotPermissions(channelID, usual&^discordgo.PermissionViewChannel)
	if _, err := dg.ChannelMessageEdit(channelID, m.ID, "zmiana"); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("an edit without View Channel: %v, want 50001", err)
	}

	s.ClearBotPermissions(channelID)
	if _, err := dg.ChannelMessageSendComplex(th.ID, &discordgo.MessageSend{Content: "z obrazkiem", Files: file()}); err != nil {
		t.Errorf("a file posted once cleared: %v", err)
	}
}

// TestArchivedThreads: in an archived thread the bot can neither edit nor
// delete a message (400, 50083); a new message unarchives it, as does
// PATCH /channels/{id} {"archived": false}, which a channel that is not a
// thread refuses.
func TestArchivedThreads(t *testing.T) {
	t.Parallel()
	s := world(t)
	dg := connect(t, s, nil)
	m, err := dg.ChannelMessageSend(channelID, "Stół")
	if err != nil {
		t.Fatal(err)
	}
	th, err := dg.MessageThreadStart(channelID, m.ID, "Stół 1", 10080)
	if err != nil {
		t.Fatal(err)
	}
	in, err := dg.ChannelMessageSend(th.ID, "w wątku")
	if err != nil {
		t.Fatal(err)
	}
	s.ArchiveThread(th.ID)
	if ch, err := dg.Channel(th.ID); err != nil || ch.ThreadMetadata == nil || !ch.ThreadMetadata.Archived {
		t.Errorf("the archived thread reads %+v, %v", ch, err)
	}
	if _, err := dg.ChannelMessageEdit(th.ID, in.ID, "zmiana"); restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		t.Errorf("an edit in an archived thread: %v, want 50083", err)
	}
	if err := dg.ChannelMessageDelete(th.ID, in.ID); restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		t.Errorf("a deletion in an archived thread: %v, want 50083", err)
	}
	open := false
	if ch, err := dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &open}); err != nil || ch.ThreadMetadata == nil || ch.ThreadMetadata.Archived {
		t.Errorf("unarchiving: %+v, %v", ch, err)
	}
	if _, err := dg.ChannelMessageEdit(th.ID, in.ID, "zmiana"); err != nil {
		t.Errorf("an edit once unarchived: %v", err)
	}
	s.ArchiveThread(th.ID)
	if _, err := dg.ChannelMessageSend(th.ID, "znowu"); err != nil || s.Channel(th.ID).Archived {
		t.Errorf("a new message in the archived thread: %v, archived %v", err, s.Channel(th.ID).Archived)
	}
	if _, err := dg.ChannelEditComplex(channelID, &discordgo.ChannelEdit{Archived: &open}); restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("archiving a channel that is no thread: %v, want 50035", err)
	}
}
