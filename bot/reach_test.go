package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// Member permissions of the crafted interactions: Discord's default (no
// Manage Server), and a server manager's.
var (
	memberPerms  = strconv.FormatInt(395137084480, 10)
	managerPerms = strconv.FormatInt(395137084480|discordgo.PermissionManageGuild, 10)
)

// reachRig is a rig with a finished table and a table being played with a
// stall vote open, both opened in channelID (their games in threads).
type reachRig struct {
	*rig
	done, play     string // the finished table, the one being played
	doneTh, playTh string // their threads
	seeds          []string
	logLines       []string // every log entry of both, as an export writes it
}

func newReachRig(t *testing.T) *reachRig {
	clock := discordtest.NewFakeClock(day0)
	r := &reachRig{rig: newRig(t, rigOptions{clock: clock})}
	ctx := context.Background()

	// A finished game: ala against an AI with a deadline; when it passes,
	// nobody else can vote, so a stand-in takes her seat (kept for her) and
	// the AI players finish the game.
	r.done = r.open(guildID, channelID, "lynx", 2, []discordtest.Arg{discordtest.Opt("deadline", "24h")}, ala)
	clock.Advance(25 * time.Hour)
	r.bot.RunDue(ctx)
	r.idle()
	// A game being played: the deadlines of ala, olena and bob pass, and
	// a vote about each of their seats opens.
	r.play = r.open(guildID, channelID, "princesses", 4, []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("deadline", "24h")}, ala, olena, bob)
	clock.Advance(25 * time.Hour)
	r.bot.RunDue(ctx)
	r.idle()

	for _, id := range []string{r.done, r.play} {
		rec, log, err := r.db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		r.seeds = append(r.seeds, strconv.FormatUint(rec.Setup.Seed, 10))
		for _, e := range log {
			r.logLines = append(r.logLines, fmt.Sprintf("%d: %s", e.Seat, e.Action))
		}
		meta, err := r.db.Meta(ctx, id)
		if err != nil || meta.ThreadID == "" {
			t.Fatalf("table %s did not move to a thread: %v", id, err)
		}
		if id == r.done {
			r.doneTh = meta.ThreadID
			if rec.Status != table.StatusFinished {
				t.Fatalf("the stand-in did not finish the game: %s", rec.Status)
			}
		} else {
			r.playTh = meta.ThreadID
		}
	}
	if _, cid := r.stallVote(); cid == "" {
		t.Fatal("no stall vote was opened")
	}
	return r
}

// stallVote is the message of a stall vote about bob's seat (2), and one
// of its controls.
func (r *reachRig) stallVote() (*discordtest.Message, string) {
	for _, m := range r.fake.Messages(r.playTh) {
		for _, cid := range m.CustomIDs() {
			if strings.HasPrefix(cid, "stall/"+r.play+"/2/") {
				return m, cid
			}
		}
	}
	return nil, ""
}

// state is everything the store holds about both tables, votes included.
func (r *reachRig) state() string {
	r.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	b.WriteString(r.stored(r.done, r.play))
	for _, id := range []string{r.done, r.play} {
		for _, topic := range []string{"abandon", "stall:0", "stall:1", "stall:2", "stall:3"} {
			v, err := r.db.Votes(ctx, id, topic)
			if err != nil {
				r.t.Fatal(err)
			}
			js, _ := json.Marshal(v)
			b.Write(js)
		}
		dls, err := r.db.Deadlines(ctx, id)
		if err != nil {
			r.t.Fatal(err)
		}
		js, _ := json.Marshal(dls)
		b.Write(js)
	}
	return b.String()
}

// public is every public message of the channels and threads given.
func (r *reachRig) public(channels ...string) map[string][]*discordtest.Message {
	out := map[string][]*discordtest.Message{}
	for _, c := range channels {
		out[c] = r.fake.Messages(c)
	}
	return out
}

// secrets reports what of the tables' seeds or logs an answer shows.
func (r *reachRig) secrets(m *discordtest.Message) []string {
	text := m.Text()
	for _, a := range m.Attachments {
		text += "\n" + a.Filename + "\n" + string(a.Data)
	}
	var out []string
	for _, s := range r.seeds {
		if strings.Contains(text, s) {
			out = append(out, "seed "+s)
		}
	}
	for _, l := range r.logLines {
		if strings.Contains(text, "\n"+l+"\n") || strings.HasPrefix(text, l+"\n") {
			out = append(out, "log entry "+l)
		}
	}
	return out
}

// command is a crafted /stolik sub command from user in channel, with the
// member permissions given (in a server).
func (r *reachRig) command(user, channel, perms, sub string, options ...map[string]any) map[string]any {
	s := map[string]any{"type": 1, "name": sub}
	if options != nil {
		s["options"] = options
	}
	cmd := r.fake.Commands("")[0]
	p := r.fake.InteractionPayload(discordtest.InteractionCommand, user, channel,
		map[string]any{"id": cmd.ID, "name": "stolik", "type": 1, "options": []any{s}}, nil)
	return withPerms(p, perms)
}

// click is a crafted click on a control with custom_id cid from user in
// channel (the control need not be on a message there: a client can send
// any custom_id).
func (r *reachRig) click(user, channel, perms, cid string) map[string]any {
	p := r.fake.InteractionPayload(discordtest.InteractionComponent, user, channel,
		map[string]any{"custom_id": cid, "component_type": discordtest.ComponentButton}, nil)
	return withPerms(p, perms)
}

func withPerms(p map[string]any, perms string) map[string]any {
	if m, ok := p["member"].(map[string]any); ok {
		m["permissions"] = perms
	}
	return p
}

func strOpt(name, v string) map[string]any {
	return map[string]any{"name": name, "type": 3, "value": v}
}
func boolOpt(name string, v bool) map[string]any {
	return map[string]any{"name": name, "type": 5, "value": v}
}

// send dispatches a crafted interaction and returns its answer.
func (r *reachRig) send(p map[string]any) *discordtest.Message {
	r.t.Helper()
	in, err := r.fake.DispatchInteraction(p)
	if err != nil {
		r.t.Fatal(err)
	}
	return r.answer(in)
}

// TestTablesReachedOnlyFromTheirChannel: every way of reading a table or
// voting at it — /stolik history (of the channel's table or one named, and
// its export), status, abandon (a vote when not the opener's), the stall
// vote, and the other commands and controls that name or find a table — is
// answered "no open table in this channel" from another channel of the
// server, from a thread of another channel and from another server, even
// for a player of the table or a server manager: nothing of the table is
// shown (no seed, no log entry), stored or changed, and no public message
// changes.
func TestTablesReachedOnlyFromTheirChannel(t *testing.T) {
	t.Parallel()
	r := newReachRig(t)
	ctx := context.Background()
	th, err := r.dg.ThreadStart(channel3, "chat", discordgo.ChannelTypeGuildPublicThread, 60, discordgo.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	_, log, err := r.db.Load(ctx, r.play)
	if err != nil {
		t.Fatal(err)
	}
	hand := r.answer(r.fake.Click(ala, r.tableMessage(r.play), r.tableMessage(r.play).Control("hand/"+r.play)))
	if len(hand.CustomIDs()) == 0 {
		t.Fatalf("ala has nothing to do: %s", hand)
	}
	_, vote := r.stallVote()
	version := strconv.Itoa(len(log))

	places := []struct{ name, channel string }{
		{"another channel of the server", channel3},
		{"a thread of another channel", th.ID},
		{"another server", channel2},
	}
	askers := []struct {
		name, user, perms string
		l                 *locales.Localizer
	}{
		{"a player of both tables", ala, memberPerms, r.loc.Lang("pl")},
		{"a server manager", eve, managerPerms, r.loc.Lang("en")},
	}
	everywhere := []string{channelID, r.doneTh, r.playTh, channel3, th.ID, channel2}
	for _, place := range places {
		for _, who := range askers {
			u, c, p := who.user, place.channel, who.perms
			cases := []struct {
				name    string
				payload map[string]any
			}{
				{"history of the channel's table", r.command(u, c, p, "history")},
				{"history of the table being played", r.command(u, c, p, "history", strOpt("table", r.play))},
				{"history of the finished table", r.command(u, c, p, "history", strOpt("table", r.done))},
				{"export of the finished table", r.command(u, c, p, "history", strOpt("table", r.done), boolOpt("export", true))},
				{"export of the table being played", r.command(u, c, p, "history", strOpt("table", r.play), boolOpt("export", true))},
				{"status", r.command(u, c, p, "status")},
				{"abandon", r.command(u, c, p, "abandon")},
				{"hand", r.command(u, c, p, "hand")},
				{"join", r.command(u, c, p, "join")},
				{"leave", r.command(u, c, p, "leave")},
				{"start", r.command(u, c, p, "start", boolOpt("ai", true))},
				{"watch the table being played", r.click(u, c, p, "watch/"+r.play)},
				{"watch the finished table", r.click(u, c, p, "watch/"+r.done)},
				{"my hand", r.click(u, c, p, "hand/"+r.play)},
				{"my hand at the finished table", r.click(u, c, p, "hand/"+r.done)},
				{"the stall vote's control", r.click(u, c, p, vote)},
				{"a stall vote for a stand-in", r.click(u, c, p, "stall/"+r.play+"/1/ai")},
				{"a stall vote to wait", r.click(u, c, p, "stall/"+r.play+"/0/wait")},
				{"a stall vote for a new player", r.click(u, c, p, "stall/"+r.play+"/2/replace")},
				{"taking a seat", r.click(u, c, p, "seat/"+r.play+"/3")},
				{"leaving for an AI", r.click(u, c, p, "leave/"+r.play+"/ai")},
				{"leaving the seat open", r.click(u, c, p, "leave/"+r.play+"/open")},
				{"a lobby control", r.click(u, c, p, "lobby/"+r.play+"/start")},
				{"a game control", r.click(u, c, p, hand.CustomIDs()[0])},
				{"a game control at the current version", r.click(u, c, p, "t/"+r.play+"/"+version+"/~hand")},
			}
			for _, k := range cases {
				name := place.name + ", " + who.name + ": " + k.name
				before, pub := r.state(), r.public(everywhere...)
				m := r.send(k.payload)
				want := who.l.T("bot.no_table", nil)
				if !m.Ephemeral() || m.EphemeralTo != u || shownText(m) != want || len(m.Attachments) != 0 || len(m.CustomIDs()) != 0 {
					t.Errorf("%s: answer %s %v, want an ephemeral %q", name, m, m.Attachments, want)
				}
				if s := r.secrets(m); len(s) > 0 {
					t.Errorf("%s: the answer shows %v", name, s)
				}
				if r.state() != before {
					t.Errorf("%s: the store changed", name)
				}
				if !reflect.DeepEqual(r.public(everywhere...), pub) {
					t.Errorf("%s: a public message changed", name)
				}
			}
		}
	}
	r.fake.AssertNoErrors(t)
	r.checkLogs(r.done, r.play)
}

// TestExportOnlyForPlayersAndManagers: in the finished table's channel or
// its thread, its export goes to a player of the table (ala, whose seat a
// stand-in finished) and to a server manager; another member, a player of
// another table among them, is refused and shown nothing of it. The public
// history is for everyone there.
func TestExportOnlyForPlayersAndManagers(t *testing.T) {
	t.Parallel()
	r := newReachRig(t)
	adminPerms := strconv.FormatInt(discordgo.PermissionAdministrator|discordgo.PermissionViewChannel, 10)
	for _, where := range []struct{ name, channel string }{{"the channel", channelID}, {"the game's thread", r.doneTh}} {
		for _, c := range []struct {
			name, user, perms string
			lang              string
			ok                bool
		}{
			{"its player", ala, memberPerms, "pl", true},
			{"a server manager", eve, managerPerms, "en", true},
			{"an administrator", zosia, adminPerms, "pl", true},
			{"a member", eve, memberPerms, "en", false},
			{"a player of another table", bob, memberPerms, "en", false},
		} {
			name := where.name + ", " + c.name
			before := r.state()
			m := r.send(r.command(c.user, where.channel, c.perms, "history", strOpt("table", r.done), boolOpt("export", true)))
			l := r.loc.Lang(c.lang)
			if r.state() != before {
				t.Errorf("%s: the store changed", name)
			}
			if !c.ok {
				if want := l.T("async.export_not_allowed", nil); shownText(m) != want || len(m.Attachments) != 0 {
					t.Errorf("%s: answer %s %v, want %q", name, m, m.Attachments, want)
				}
				if s := r.secrets(m); len(s) > 0 {
					t.Errorf("%s: the answer shows %v", name, s)
				}
				continue
			}
			if len(m.Attachments) != 1 || !strings.Contains(string(m.Attachments[0].Data), "seed "+r.seeds[0]+"\n") ||
				!strings.HasPrefix(shownText(m), l.T("async.export_ready", map[string]any{"ID": r.done})) {
				t.Errorf("%s: the export: %s %v", name, m, m.Attachments)
			}
		}
		// The public history, for anyone in the channel.
		m := r.send(r.command(eve, where.channel, memberPerms, "history", strOpt("table", r.done)))
		en := r.loc.Lang("en")
		if !strings.HasPrefix(shownText(m), header(en, "lynx", r.done)) || len(m.Attachments) != 0 || len(r.secrets(m)) > 0 {
			t.Errorf("%s: the history: %s", where.name, m)
		}
	}
	// The table being played: its history is there, its export is refused
	// even for its players (its deal is secret).
	m := r.send(r.command(ala, r.playTh, memberPerms, "history", boolOpt("export", true)))
	if want := r.loc.Lang("pl").T("async.export_unfinished", nil); shownText(m) != want || len(m.Attachments) != 0 {
		t.Errorf("exporting the table being played: %s, want %q", m, want)
	}
	r.fake.AssertNoErrors(t)
	r.checkLogs(r.done, r.play)
}

// header is a table's header line, as the bot writes it.
func header(l *locales.Localizer, game, id string) string {
	return l.T("bot.table_header", map[string]any{"Game": l.T("game."+game+".name", nil), "ID": id})
}
