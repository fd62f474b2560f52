package bot_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestHostileNamesAreInert: a player whose nickname is made of mention,
// mass-mention, markdown and link syntax plays a whole game. No message
// the bot sends — the lobby, the table message, posts, hands — shows that
// syntax as markup (the fake's strict text checks), none mentions the
// user the name names, and every post pings by explicit ids only.
func TestHostileNamesAreInert(t *testing.T) {
	w := newLongWorld(t)
	const mallory = "300000000000000009"
	hostile := "<@" + eve + ">@everyone<@&1> **x** [y](https://e.example) # z"
	w.fake.AddUser(mallory, hostile, "en-US")
	g := w.openGame("chapters", 3, []discordtest.Arg{discordtest.Opt("language", "en")}, mallory, ala)
	g.playOut(400)
	g.finish()
	for _, c := range w.fake.Calls() {
		if c.Body == nil || c.Status >= 300 || !strings.HasPrefix(c.Path, "/channels/") && !strings.HasPrefix(c.Path, "/interactions/") && !strings.HasPrefix(c.Path, "/webhooks/") {
			continue
		}
		body := string(c.Body)
		for _, bad := range []string{"<@" + eve + ">", "\\u003c@" + eve, "<@&1>", "[y](", "**x**", "@everyone"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s %s shows %q from the name", c.Method, c.Path, bad)
			}
		}
		var p struct {
			AllowedMentions *struct {
				Parse []string `json:"parse"`
				Users []string `json:"users"`
			} `json:"allowed_mentions"`
		}
		if json.Unmarshal(c.Body, &p) == nil && p.AllowedMentions != nil {
			if len(p.AllowedMentions.Parse) > 0 {
				t.Errorf("%s %s lets Discord parse mentions: %v", c.Method, c.Path, p.AllowedMentions.Parse)
			}
			for _, u := range p.AllowedMentions.Users {
				if u == eve {
					t.Errorf("%s %s may ping %s, named only in a nickname", c.Method, c.Path, eve)
				}
			}
		}
	}
	w.fake.AssertNoErrors(t)
}
