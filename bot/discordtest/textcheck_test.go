package discordtest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// errorRecorder is a testing.TB whose Errorf records instead of failing.
type errorRecorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *errorRecorder) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// postMessage sends a raw message payload to the channel and returns the
// status.
func postMessage(t *testing.T, s *discordtest.Server, payload any) int {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", s.URL()+"/api/v10/channels/"+channelID+"/messages", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bot test-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

type obj = map[string]any

func row(cs ...obj) obj { return obj{"type": 1, "components": cs} }

func button(id, label string) obj { return obj{"type": 2, "style": 2, "custom_id": id, "label": label} }

func textDisplay(s string) obj { return obj{"type": 10, "content": s} }

// long is a text of n characters ending in end.
func long(n int, end string) string {
	return strings.Repeat("a", n-len([]rune(end))) + end
}

// textCase is a payload and the kinds of violation it must produce, in
// order ("" for none).
type textCase struct {
	name    string
	payload obj
	want    []string
}

func runTextCases(t *testing.T, cases []textCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := world(t, discordtest.WithLenientText())
			if st := postMessage(t, s, c.payload); st != 200 {
				t.Fatalf("status %d, errors %v", st, s.Errors())
			}
			got := s.TextViolations()
			var kinds []string
			for _, v := range got {
				kinds = append(kinds, v[:strings.Index(v, ":")])
			}
			if strings.Join(kinds, ",") != strings.Join(c.want, ",") {
				t.Errorf("violations %q, want kinds %q", got, c.want)
			}
		})
	}
}

var allowNone = obj{"parse": []string{}}

func TestTextCut(t *testing.T) {
	t.Parallel()
	v2 := discordtest.FlagComponentsV2
	cut, none := []string{discordtest.TextCut}, []string(nil)
	runTextCases(t, []textCase{
		{"content at the limit", obj{"content": long(2000, "…")}, cut},
		{"content one below", obj{"content": long(1999, "...")}, cut},
		{"content full without ellipsis", obj{"content": long(2000, "a")}, none},
		{"short content with ellipsis", obj{"content": long(1500, "…")}, none},
		{"cut mention", obj{"content": "Kolej <@30…", "allowed_mentions": allowNone}, cut},
		{"cut timestamp", obj{"content": "koniec <t:17000", "allowed_mentions": allowNone}, cut},
		{"whole mentions", obj{"content": "<@301> <#200> <t:1700000000:R> <@&5>", "allowed_mentions": allowNone}, none},
		{"button label", obj{"content": "x", "components": []obj{row(button("a", long(80, "…")))}}, cut},
		{"button label short", obj{"content": "x", "components": []obj{row(button("a", long(60, "…")))}}, none},
		{"option description", obj{"content": "x", "components": []obj{row(obj{
			"type": 3, "custom_id": "s", "options": []obj{
				{"label": "A", "value": "a", "description": long(100, "…")},
				{"label": long(99, "…"), "value": "b"},
			}})}}, []string{discordtest.TextCut, discordtest.TextCut}},
		{"placeholder", obj{"content": "x", "components": []obj{row(obj{
			"type": 3, "custom_id": "s", "placeholder": long(150, "…"), "options": []obj{{"label": "A", "value": "a"}}})}}, cut},
		{"v2 text at the total", obj{"flags": v2, "components": []obj{
			textDisplay(long(3000, "a")), textDisplay(long(1000, "…"))}}, cut},
		{"v2 text below the total", obj{"flags": v2, "components": []obj{
			textDisplay(long(1000, "a")), textDisplay(long(1000, "…"))}}, none},
		{"media description", obj{"flags": v2, "components": []obj{
			obj{"type": 12, "items": []obj{{"media": obj{"url": "https://example.com/a.png"}, "description": long(1024, "…")}}}}}, cut},
		{"embed description", obj{"embeds": []obj{{"description": long(4096, "…")}}}, cut},
	})
}

func TestTextDuplicate(t *testing.T) {
	t.Parallel()
	dup, none := []string{discordtest.TextDuplicate}, []string(nil)
	sel := func(id, placeholder string, opts ...obj) obj {
		return obj{"type": 3, "custom_id": id, "placeholder": placeholder, "options": opts}
	}
	runTextCases(t, []textCase{
		{"two buttons", obj{"content": "x", "components": []obj{row(button("a", "Zagraj"), button("b", "Zagraj"))}}, dup},
		{"in two rows", obj{"content": "x", "components": []obj{row(button("a", "Q♥")), row(button("b", "Q♥"))}}, dup},
		{"different emoji", obj{"content": "x", "components": []obj{row(
			obj{"type": 2, "style": 2, "custom_id": "a", "label": "7", "emoji": obj{"name": "♥"}},
			obj{"type": 2, "style": 2, "custom_id": "b", "label": "7", "emoji": obj{"name": "♠"}})}}, none},
		{"disabled", obj{"content": "x", "components": []obj{row(
			obj{"type": 2, "style": 2, "custom_id": "a", "label": "—", "disabled": true},
			obj{"type": 2, "style": 2, "custom_id": "b", "label": "—", "disabled": true})}}, none},
		{"options", obj{"content": "x", "components": []obj{row(sel("s", "Wybierz",
			obj{"label": "Dama", "value": "1"}, obj{"label": "Dama", "value": "2"}))}}, dup},
		{"options told apart by description", obj{"content": "x", "components": []obj{row(sel("s", "Wybierz",
			obj{"label": "Dama", "value": "1", "description": "kier"}, obj{"label": "Dama", "value": "2", "description": "pik"}))}}, none},
		{"two selects", obj{"content": "x", "components": []obj{
			row(sel("s1", "Wybierz", obj{"label": "A", "value": "a"})),
			row(sel("s2", "Wybierz", obj{"label": "B", "value": "b"}))}}, dup},
		{"v2 section accessory and row", obj{"flags": discordtest.FlagComponentsV2, "components": []obj{
			obj{"type": 9, "components": []obj{textDisplay("Stół")}, "accessory": button("a", "Dołącz")},
			row(button("b", "Dołącz"))}}, dup},
		{"distinct", obj{"content": "x", "components": []obj{row(button("a", "Tak"), button("b", "Nie"))}}, none},
	})
}

func TestTextMention(t *testing.T) {
	t.Parallel()
	ment, none := []string{discordtest.TextMention}, []string(nil)
	runTextCases(t, []textCase{
		{"user without allowed_mentions", obj{"content": "Kolej <@301>"}, ment},
		{"nickname form", obj{"content": "Kolej <@!301>"}, ment},
		{"role without allowed_mentions", obj{"content": "<@&5> gramy"}, ment},
		{"user with allowed_mentions", obj{"content": "Kolej <@301>", "allowed_mentions": allowNone}, none},
		{"user allowed to ping", obj{"content": "Kolej <@301>", "allowed_mentions": obj{"users": []string{"301"}}}, none},
		{"everyone", obj{"content": "@everyone gramy", "allowed_mentions": allowNone}, ment},
		{"here in a text display", obj{"flags": discordtest.FlagComponentsV2, "components": []obj{textDisplay("@here stół")},
			"allowed_mentions": allowNone}, ment},
		{"user in a text display", obj{"flags": discordtest.FlagComponentsV2, "components": []obj{textDisplay("<@301> gra")}}, ment},
		{"mention in an embed", obj{"embeds": []obj{{"description": "<@301>"}}}, none},
		{"no mention", obj{"content": "ala@example.com gra"}, none},
	})
}

// An ephemeral response pings nobody; the rules apply to follow-ups and
// edits through discordgo as to channel messages.
func TestTextChecksOnInteractions(t *testing.T) {
	t.Parallel()
	s := world(t, discordtest.WithLenientText())
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "Twoja ręka, <@301>", Flags: discordgo.MessageFlagsEphemeral},
			})
			_, _ = dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{
				Content: "Kolej <@302>",
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Zagraj", CustomID: "a"}, discordgo.Button{Label: "Zagraj", CustomID: "b"},
				}}},
			})
			content := long(2000, "…")
			_, _ = dg.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
		})
	})
	register(t, dg, s)
	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "lynx"))
	in.Wait(ctx(t))
	waitFor(t, func() bool { return len(s.TextViolations()) >= 3 }, func() string {
		return fmt.Sprintf("violations %q, calls %v", s.TextViolations(), s.Calls())
	})
	got := strings.Join(s.TextViolations(), "\n")
	for _, want := range []string{
		`mention: follow-up to /"table"`,
		`duplicate: follow-up to /"table"`,
		`cut: edit of @original to /"table"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if n := len(s.TextViolations()); n != 3 {
		t.Errorf("%d violations (the ephemeral mention counted?):\n%s", n, got)
	}
	if len(s.Errors()) != 0 {
		t.Errorf("the fake rejected: %v", s.Errors())
	}
}

func waitFor(t *testing.T, cond func() bool, state func() string) {
	t.Helper()
	c := ctx(t)
	for !cond() {
		select {
		case <-c.Done():
			t.Fatalf("timed out; %s", state())
		default:
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStrictTextFailsTheTest(t *testing.T) {
	t.Parallel()
	bad := obj{"content": "Kolej <@301>"}
	for _, strict := range []string{"off", "default", "option", "method"} {
		t.Run(strict, func(t *testing.T) {
			t.Parallel()
			r := &errorRecorder{TB: t}
			var opts []discordtest.Option
			switch strict {
			case "off", "method":
				opts = append(opts, discordtest.WithLenientText())
			case "option":
				opts = append(opts, discordtest.WithLenientText(), discordtest.WithStrictText())
			}
			s := world(r, opts...)
			if strict == "method" {
				s.StrictText()
			}
			if st := postMessage(t, s, bad); st != 200 {
				t.Errorf("status %d: a text violation must not fail the request", st)
			}
			if len(s.TextViolations()) != 1 {
				t.Errorf("TextViolations = %q", s.TextViolations())
			}
			errs := r.errors()
			switch {
			case strict == "off" && len(errs) != 0:
				t.Errorf("not strict, yet Errorf: %q", errs)
			case strict != "off" && (len(errs) != 1 || !strings.Contains(errs[0], "<@301>")):
				t.Errorf("Errorf calls = %q", errs)
			}
		})
	}
}
