package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// shownText is the text a reader sees on a message (discordtest's
// Message.Shown).
func shownText(m *discordtest.Message) string { return m.Shown() }

// readText is a message's text with the places of a ranking as the
// screen writes them: "**2.** Ala" (bold, so that Discord reads no
// numbered list) is "2. Ala".
func readText(m *discordtest.Message) string { return boldPlace.ReplaceAllString(m.Shown(), "$1") }

var boldPlace = regexp.MustCompile(`(?m)^\*\*([0-9]+(?:\.|st|nd|rd|th))\*\*`)

// playing reports whether a table message is of a game being played: it
// has controls, and not only the Rematch of a finished game.
func playing(m *discordtest.Message) bool {
	return slices.ContainsFunc(m.CustomIDs(), func(id string) bool { return !strings.HasPrefix(id, "again/") })
}

// controlsOf lists the interactive components of a message (buttons and
// selects, wherever they sit), in display order.
func controlsOf(m *discordtest.Message) []discordtest.Component {
	var out []discordtest.Component
	var walk func(cs []discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			if c.CustomID != "" && c.Type != discordtest.ComponentActionRow {
				out = append(out, c)
			}
			walk(c.Components)
			if c.Accessory != nil {
				walk([]discordtest.Component{*c.Accessory})
			}
		}
	}
	walk(m.Components)
	return out
}

// gameControls are the controls of a hand message that act at its table
// (t/...), Back included.
func gameControls(m *discordtest.Message) []discordtest.Component {
	var out []discordtest.Component
	for _, c := range controlsOf(m) {
		if strings.HasPrefix(c.CustomID, "t/") {
			out = append(out, c)
		}
	}
	return out
}

// hasPicture reports whether a message shows the picture of that name: a
// media gallery refers to it, and it is attached.
// pictureFile reports whether file is a picture of the kind kind names
// ("hand.png": "hand-<hash>.png").
func pictureFile(file, kind string) bool {
	return file == kind || strings.HasPrefix(file, strings.TrimSuffix(kind, ".png")+"-") && strings.HasSuffix(file, ".png")
}

func hasPicture(m *discordtest.Message, name string) bool {
	shown := false
	var walk func(cs []discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			if c.Type == discordtest.ComponentMediaGallery {
				shown = true
			}
			walk(c.Components)
		}
	}
	walk(m.Components)
	attached := slices.ContainsFunc(m.Attachments, func(a discordtest.Attachment) bool {
		return pictureFile(a.Filename, name) && a.ContentType == "image/png" && len(a.Data) > 0
	})
	return shown && attached
}

// replayScreen replays a table's log and builds the screen everyone sees
// of it, in the table's language, with the seats named as the bot names
// them.
func replayScreen(t testing.TB, db *sqlite.DB, loc *locales.Bundle, id string) render.Screen {
	t.Helper()
	rec, log, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		t.Fatal(err)
	}
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	l := loc.Lang(rec.Lang)
	sc, ok := render.ScreenOf(rec.Setup.Game, l, st.View(engine.Spectator), seatNames(l, rec), nil)
	if !ok {
		t.Fatalf("%s has no screen", rec.Setup.Game)
	}
	return sc
}

// mediaDescriptions are the descriptions of the pictures a message shows,
// read from the last request that set the message as it stands (the fake
// keeps no media items): a PATCH of a channel message by its id, an
// interaction's callback, or any message payload whose text displays and
// controls are those of m.
func mediaDescriptions(fake *discordtest.Server, m *discordtest.Message) []string {
	want := shownText(&discordtest.Message{Components: m.Components}) + "\x00" + strings.Join(m.CustomIDs(), ",")
	calls := fake.Calls()
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		if c.Status < 200 || c.Status > 299 || len(c.Body) == 0 {
			continue
		}
		body := c.Body
		if strings.HasPrefix(c.Path, "/interactions/") {
			var cb struct {
				Data json.RawMessage `json:"data"`
			}
			if json.Unmarshal(body, &cb) != nil || len(cb.Data) == 0 {
				continue
			}
			body = cb.Data
		}
		var p struct {
			Components []mediaComponent `json:"components"`
		}
		if json.Unmarshal(body, &p) != nil {
			continue
		}
		var got discordtest.Message
		if json.Unmarshal(body, &got) != nil {
			continue
		}
		byID := c.Method == http.MethodPatch && strings.HasSuffix(c.Path, "/messages/"+m.ID)
		byInteraction := m.InteractionID != "" && strings.HasPrefix(c.Path, "/interactions/"+m.InteractionID+"/")
		same := shownText(&discordtest.Message{Components: got.Components})+"\x00"+strings.Join(got.CustomIDs(), ",") == want
		if !same || (!byID && !byInteraction && c.Method == http.MethodPatch && strings.Contains(c.Path, "/channels/")) {
			continue
		}
		var out []string
		var walk func(cs []mediaComponent)
		walk = func(cs []mediaComponent) {
			for _, mc := range cs {
				for _, it := range mc.Items {
					out = append(out, it.Description)
				}
				walk(mc.Components)
			}
		}
		walk(p.Components)
		return out
	}
	return nil
}

// mediaComponent is a component as a request carries it, with its media
// items.
type mediaComponent struct {
	Type       int              `json:"type"`
	Components []mediaComponent `json:"components"`
	Items      []struct {
		Media struct {
			URL string `json:"url"`
		} `json:"media"`
		Description string `json:"description"`
	} `json:"items"`
}
