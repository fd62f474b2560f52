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

// TestScoreboardLine: under a game's picture, in play, the table message
// has one line with every seat's score so far, in the table's language
// (Lynx keeps points from the first set played).
func TestScoreboardLine(t *testing.T) {
	w := newWorld(t)
	g := w.openGame("lynx", 3, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, bob)
	for k := 0; k < 4; k++ {
		g.move(toAct(w.tableMessage(g.id))[0])
	}
	pl := w.loc.Lang("pl")
	prefix, _, _ := strings.Cut(pl.T("bot.totals", map[string]any{"List": "\x00"}), "\x00")
	var line string
	for _, l := range strings.Split(shownText(w.tableMessage(g.id)), "\n") {
		if strings.HasPrefix(l, prefix) {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no scoreboard line %q…: %s", prefix, shownText(w.tableMessage(g.id)))
	}
	for _, name := range []string{"ala", "bob", pl.T("ui.bot", map[string]any{"N": 3})} {
		if !strings.Contains(line, name+" ") {
			t.Errorf("the scoreboard %q does not name %s", line, name)
		}
	}
}
