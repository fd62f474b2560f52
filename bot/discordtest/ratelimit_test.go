package discordtest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// rawPost sends one bot-token POST to the fake and returns its status,
// headers and JSON body.
func rawPost(t *testing.T, s *discordtest.Server, path, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bot test-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, resp.Header, out
}

func TestRateLimitsEnforced(t *testing.T) {
	t.Parallel()
	const other = "201"
	s := world(t, discordtest.WithRateLimits(discordtest.Limits{
		Global:  4,
		Routes:  []discordtest.RouteLimit{{Route: "POST /channels/{channel.id}/messages", Limit: 2, Per: time.Minute}},
		Invalid: 4, InvalidWindow: time.Minute,
	}))
	s.AddChannel(guildID, other)
	msg := func(ch string) string { return "/api/v10/channels/" + ch + "/messages" }

	// A route's bucket: 2 a minute per channel, announced in the headers.
	for i := 0; i < 2; i++ {
		st, h, _ := rawPost(t, s, msg(channelID), `{"content": "hi"}`)
		if st != 200 || h.Get("X-RateLimit-Limit") != "2" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(1-i) ||
			h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset-After") == "" || h.Get("X-RateLimit-Reset") == "" {
			t.Fatalf("message %d: %d %v", i, st, h)
		}
	}
	st, h, body := rawPost(t, s, msg(channelID), `{"content": "hi"}`)
	if ra, _ := body["retry_after"].(float64); st != 429 || body["global"] != false || ra < 50 || ra > 60 ||
		h.Get("X-RateLimit-Scope") != "user" || h.Get("Retry-After") != "60" {
		t.Fatalf("third message in a channel: %d %v %v", st, h, body)
	}
	// Another channel is another bucket; the global limit counts both.
	if st, _, _ := rawPost(t, s, msg(other), `{"content": "hi"}`); st != 200 {
		t.Fatalf("another channel: %d", st)
	}
	// The refused one did not count: 3 of 4 used this second, unless the
	// second turned meanwhile; fill it and expect a global 429.
	var global map[string]any
	var gh http.Header
	for i := 0; i < 6 && global == nil; i++ {
		if st, h, b := rawPost(t, s, "/api/v10/users/@me/channels", `{"recipient_id": "`+alice+`"}`); st == 429 {
			global, gh = b, h
		}
	}
	if global == nil || global["global"] != true || gh.Get("X-RateLimit-Global") != "true" || gh.Get("X-RateLimit-Scope") != "global" {
		t.Fatalf("global limit: %v %v", global, gh)
	}
	if rs := s.RateStats(); rs.Limited != 2 || rs.Global != 1 || rs.Invalid != 2 || rs.PeakSecond > 4 {
		t.Errorf("RateStats = %+v", rs)
	}
	// Interaction callbacks are exempt from the global limit (an unknown
	// one is answered 404, not 429).
	for i := 0; i < 5; i++ {
		if st, _, _ := rawPost(t, s, "/api/v10/interactions/1/nope/callback", `{"type": 1}`); st == 429 {
			t.Fatalf("an interaction callback was refused by the global limit")
		}
	}
	// Invalid requests: 2 so far (the two 429s); two more 401s reach the
	// ban, after which everything is refused.
	for i := 0; i < 2; i++ {
		req, _ := http.NewRequest("GET", s.URL()+"/api/v10/users/@me", nil)
		req.Header.Set("Authorization", "Bot wrong")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 && resp.StatusCode != 429 {
			t.Fatalf("bad token: %d", resp.StatusCode)
		}
	}
	if st, _, body := rawPost(t, s, msg(other), `{"content": "hi"}`); st != 429 || !strings.Contains(body["message"].(string), "blocked") {
		t.Fatalf("after the invalid requests: %d %v", st, body)
	}
	if rs := s.RateStats(); rs.Banned != 1 {
		t.Errorf("RateStats = %+v", rs)
	}
	limited := 0
	for _, c := range s.Errors() {
		if c.Limited {
			limited++
		}
	}
	if limited < 3 {
		t.Errorf("refused calls marked Limited: %d", limited)
	}
}
