package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/render"
)

// TestRulesTopicsE2E: a Polish player asks for Rebel Princess's round cards
// and pages through them with the buttons; every card of the deluxe edition
// is named on some page, each page is one message the fake accepts (it
// enforces Discord's limits), and the summary leads to the other topics.
// A Ukrainian player looks up one card by its id.
func TestRulesTopicsE2E(t *testing.T) {
	w := newWorld(t)
	pl, uk := w.loc.Lang("pl"), w.loc.Lang("uk")

	m := w.slash(ala, "rules", discordtest.Opt("game", "princesses"), discordtest.Opt("topic", "cards-deluxe"))
	var pages []string
	for {
		if !m.Ephemeral() || m.EphemeralTo != ala {
			t.Fatalf("the rules page is not ephemeral to ala: %v", m)
		}
		if n := utf8.RuneCountInString(m.Content); n == 0 || n > 2000 {
			t.Fatalf("page %d: %d characters", len(pages)+1, n)
		}
		pages = append(pages, m.Content)
		next := rulesID("princesses", "cards-deluxe", len(pages))
		c := m.Component(next)
		if c == nil || c.Disabled {
			break
		}
		if len(pages) > 20 {
			t.Fatal("the pages never end")
		}
		m = w.do(w.fake.Click(ala, m, next))
	}
	if len(pages) < 2 {
		t.Errorf("the round cards fit %d page: the test proves no paging", len(pages))
	}
	all := strings.Join(pages, "\n")
	if haggle := pl.T("princesses.round.haggle.name", nil); haggle != "Konszachty z Wiedźmą" || !strings.Contains(all, haggle) {
		t.Errorf("the pages lack %q", haggle)
	}
	for _, id := range princesses.RoundCardIDs(princesses.Deluxe) {
		if name := pl.T("princesses.round."+id+".name", nil); !strings.Contains(all, name) {
			t.Errorf("the pages lack round card %s (%q)", id, name)
		}
	}
	if !strings.Contains(pages[0], pl.T("princesses.topic.cards-deluxe", nil)) {
		t.Errorf("page 1 does not name its topic: %q", pages[0])
	}

	// The summary is unchanged, with buttons to the other topics.
	m = w.slash(ala, "rules", discordtest.Opt("game", "princesses"))
	if m.Content != pl.T("princesses.rules", nil) {
		t.Errorf("the summary: %q", m.Content)
	}
	m = w.do(w.fake.Click(ala, m, rulesID("princesses", "powers-classic", 0)))
	if promo := pl.T("princesses.princess.karmezina.name", nil); !strings.Contains(m.Text(), promo) {
		// Carmesina may be on a later page: follow it.
		found := false
		for p := 1; p < 10 && !found; p++ {
			id := rulesID("princesses", "powers-classic", p)
			if c := m.Component(id); c == nil || c.Disabled {
				break
			}
			m = w.do(w.fake.Click(ala, m, id))
			found = strings.Contains(m.Content, promo)
		}
		if !found {
			t.Errorf("the classic powers lack the promo princess %q", promo)
		}
	}

	// One card by id, in the reader's language; an unknown one is explained.
	m = w.slash(olena, "rules", discordtest.Opt("game", "princesses"), discordtest.Opt("card", "haggle"))
	if want := uk.T("princesses.round.haggle.text", nil); !strings.Contains(m.Content, want) {
		t.Errorf("haggle in uk: %q lacks %q", m.Content, want)
	}
	m = w.slash(olena, "rules", discordtest.Opt("game", "lynx"), discordtest.Opt("topic", "cards-deluxe"))
	if want := uk.T("ui.rules.no_topic", map[string]any{"Game": uk.T("game.lynx.name", nil), "List": render.RulesTopicList(uk, "lynx")}); m.Content != want {
		t.Errorf("an unknown topic: %q", m.Content)
	}
	m = w.slash(olena, "rules", discordtest.Opt("game", "princesses"), discordtest.Opt("card", "no such card"))
	if !strings.Contains(m.Content, "no such card") {
		t.Errorf("an unknown card: %q", m.Content)
	}
	w.fake.AssertNoErrors(t)
}

// rulesID is a rules page's custom_id: rules/<game>/<topic>/<page>.
func rulesID(game, topic string, page int) string {
	return "rules/" + game + "/" + topic + "/" + strconv.Itoa(page)
}
