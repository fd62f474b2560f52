package discordtest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// readCapture parses every line of a capture file.
func readCapture(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", n, err, sc.Text())
		}
		out = append(out, line)
	}
	if !bytes.HasSuffix(b, []byte("\n")) {
		t.Errorf("the capture does not end with a newline")
	}
	return out
}

// Not parallel: t.Setenv.
func TestCapture(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "capture.jsonl")
	t.Setenv(discordtest.CaptureEnv, path)

	s := world(t)
	dg := connect(t, s, func(dg *discordgo.Session) {
		dg.AddHandler(func(dg *discordgo.Session, i *discordgo.InteractionCreate) {
			_ = dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content:    "Stół otwarty",
					Components: []discordgo.MessageComponent{buttons("t/1/join")},
				},
			})
		})
	})
	register(t, dg, s)
	if _, err := dg.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: "Zasady w załączniku",
		Files:   []*discordgo.File{{Name: "zasady gry.txt", ContentType: "text/plain", Reader: strings.NewReader("Gramy do 3.")}},
	}); err != nil {
		t.Fatal(err)
	}
	in := s.SlashCommand(alice, guildID, channelID, "table", discordtest.Opt("game", "princesses"))
	resp := in.Wait(ctx(t))
	if _, err := dg.ChannelMessage(channelID, "999"); err == nil {
		t.Errorf("GET of an unknown message succeeded")
	}

	lines := readCapture(t, path)
	var requests []map[string]any
	names := map[string]bool{}
	for _, l := range lines {
		if l["test"] != t.Name() {
			t.Errorf("test = %v, want %s: %v", l["test"], t.Name(), l)
		}
		if k, ok := l["kind"].(string); ok {
			names[k+" "+l["id"].(string)] = true
			continue
		}
		for _, f := range []string{"method", "path", "status", "version", "time"} {
			if _, ok := l[f]; !ok {
				t.Errorf("request line without %s: %v", f, l)
			}
		}
		if p := l["path"].(string); strings.HasPrefix(p, "/api/") || strings.Contains(p, "?") {
			t.Errorf("path %q keeps the prefix or the query", p)
		}
		requests = append(requests, l)
	}
	for _, want := range []string{"user " + discordtest.DefaultAppID, "user " + alice, "user " + bob, "guild " + guildID, "channel " + channelID} {
		if !names[want] {
			t.Errorf("no name line for %s; have %v", want, names)
		}
	}
	if len(requests) != s.RESTCalls() {
		t.Errorf("%d request lines for %d REST calls", len(requests), s.RESTCalls())
	}

	find := func(method, prefix, suffix string) map[string]any {
		t.Helper()
		for _, l := range requests {
			if p := l["path"].(string); l["method"] == method && strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix) {
				return l
			}
		}
		t.Fatalf("no %s %s…%s in the capture", method, prefix, suffix)
		return nil
	}

	// The multipart message: its payload_json as the body, its file saved.
	msg := find("POST", "/channels/"+channelID+"/messages", "/messages")
	if ct := msg["content_type"].(string); !strings.HasPrefix(ct, "multipart/form-data") {
		t.Errorf("content_type = %q", ct)
	}
	if body, _ := msg["body"].(map[string]any); body["content"] != "Zasady w załączniku" {
		t.Errorf("body = %v", msg["body"])
	}
	if msg["status"] != 200.0 || msg["message_id"] == nil || msg["channel_id"] != channelID {
		t.Errorf("message line = %v", msg)
	}
	files, _ := msg["files"].([]any)
	if len(files) != 1 {
		t.Fatalf("files = %v", msg["files"])
	}
	f := files[0].(map[string]any)
	if f["name"] != "zasady gry.txt" || f["size"] != 11.0 || f["content_type"] != "text/plain" {
		t.Errorf("file = %v", f)
	}
	if data, err := os.ReadFile(filepath.Join(dir, f["path"].(string))); err != nil || string(data) != "Gramy do 3." {
		t.Errorf("saved file: %q, %v", data, err)
	}

	// The interaction response.
	cb := find("POST", "/interactions/"+in.ID+"/", "/callback")
	if cb["status"] != 204.0 || cb["itype"] != 2.0 || cb["iname"] != "table" || cb["iuser"] != alice ||
		cb["ichannel"] != channelID || cb["message_id"] != resp.Message.ID || cb["channel_id"] != channelID {
		t.Errorf("callback line = %v", cb)
	}
	if age, ok := cb["iage_ms"].(float64); !ok || age < 0 {
		t.Errorf("iage_ms = %v", cb["iage_ms"])
	}
	if body, _ := cb["body"].(map[string]any); body["type"] != 4.0 {
		t.Errorf("callback body = %v", cb["body"])
	}

	// A rejected request is there too, with its error.
	miss := find("GET", "/channels/"+channelID+"/messages/999", "")
	if miss["status"] != 404.0 || miss["error"].(map[string]any)["code"] != 10008.0 {
		t.Errorf("rejected line = %v", miss)
	}
}
