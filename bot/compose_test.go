package bot

import (
	"bytes"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/render"
)

// TestClipAtAWord: a text too long is shortened at a word, well under the
// limit, ending in "…", never inside a mention or a markdown pair; a text
// that fits is left alone.
func TestClipAtAWord(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short enough", 80, "short enough"},
		{"Play Queen 7 on the trick of Bartholomew Fitzgerald-Wellington and take it home", 40, "Play Queen 7 on the trick of…"},
		{"Your move: <@300000000000000001> <@300000000000000002> <@300000000000000003>", 50, "Your move: <@300000000000000001>…"},
		{"**Once upon a time** and then **the ball went on all night long**", 50, "**Once upon a time** and then…"},
		{strings.Repeat("ж", 100), 40, strings.Repeat("ж", 37) + "…"},
	} {
		got := clip(c.in, c.n)
		if got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if n := utf8.RuneCountInString(got); got != c.in && n > c.n-2 {
			t.Errorf("clip(%q, %d) has %d characters: within 1 of the limit reads as cut there", c.in, c.n, n)
		}
	}
}

// TestFitPartsDropsByPriority: the last moves go first, oldest first, their
// heading with the last of them; then the status lines; the lines that may
// not go stay, and a line too long alone is shortened at a word.
func TestFitPartsDropsByPriority(t *testing.T) {
	long := strings.Repeat("word ", 20) // 100 characters
	parts := func() []part {
		return []part{
			{lines: []line{{text: "Your move: <@1>"}}},
			{lines: []line{{text: "header"}, {text: long, drop: 4, kind: "status"}, {text: long, drop: 3, kind: "status"}}},
			{lines: []line{{text: "Last moves:", head: true, kind: "move"}, {text: "· " + long, drop: 1, kind: "move"}, {text: "· " + long, drop: 2, kind: "move"}}},
		}
	}
	all := textSize(parts())
	ps := parts()
	if dropped := fitParts(ps, all); len(dropped) != 0 || textSize(ps) != all {
		t.Errorf("what fits changed: %v", dropped)
	}
	ps = parts()
	dropped := fitParts(ps, all-50)
	if !dropped["move"] || dropped["status"] || len(ps[2].lines) != 2 || !strings.Contains(ps[2].lines[1].text, long) || ps[2].lines[0].text != "Last moves:" {
		t.Errorf("the oldest move must go first: %v, %+v", dropped, ps[2].lines)
	}
	ps = parts()
	dropped = fitParts(ps, all-250)
	if len(ps[2].lines) != 0 || !dropped["status"] || len(ps[1].lines) != 2 || ps[1].lines[1].drop != 4 {
		t.Errorf("after the moves and their heading, the status line ranked first: %v, %+v, %+v", dropped, ps[1].lines, ps[2].lines)
	}
	ps = parts()
	fitParts(ps, 30)
	if ps[0].lines[0].text != "Your move: <@1>" || ps[1].lines[0].text != "header" || len(ps[1].lines) != 1 {
		t.Errorf("what may not go went: %+v", ps)
	}
	ps = []part{{lines: []line{{text: "Result: " + long + long}}}}
	fitParts(ps, 120)
	if got := ps[0].lines[0].text; !strings.HasSuffix(got, "…") || utf8.RuneCountInString(got) > 120 || strings.HasSuffix(got, "wor…") {
		t.Errorf("a line too long alone: %q", got)
	}
}

// TestTableMessageWithoutPicture: when drawing fails, the table message
// goes without its picture and with its words in its place (the centre,
// the seats); the failure is logged once.
func TestTableMessageWithoutPicture(t *testing.T) {
	b := testBot(t)
	var logs bytes.Buffer
	b.log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b.pics.table = func(render.Screen) ([][]byte, error) { return nil, errors.New("no ink") }
	c := limitCases[6] // lynx, 5 seats
	var msgs []message
	walkGame(t, c.game, c.seats, c.opts, 3, func(snap *table.Snapshot) {
		if snap.Version == 4 || snap.Version == 5 {
			msgs = append(msgs, b.publicMessage(snap, nil))
		}
		if snap.Version == 4 {
			m := b.publicMessage(snap, nil)
			if m.pic == nil || len(m.components) < 2 {
				t.Fatalf("no picture to draw: %+v", m)
			}
			if _, ok := m.components[1].(discordgo.MediaGallery); !ok {
				t.Fatalf("the picture is not second: %T", m.components[1])
			}
			sc, _ := render.ScreenOf(c.game, b.loc.Lang(snap.Record.Lang), snap.State.View(engine.Spectator), names(b.loc.Lang(snap.Record.Lang), snap.Record), nil)
			drawn, pics := b.draw(m)
			text := v2Text(drawn.components)
			if len(pics) != 0 || drawn.pic != nil {
				t.Fatalf("a picture was attached: %v", pics)
			}
			for _, c := range drawn.components {
				if _, ok := c.(discordgo.MediaGallery); ok {
					t.Errorf("the message still shows a picture")
				}
			}
			for _, s := range sc.Seats {
				if !strings.Contains(text, s.Line) {
					t.Errorf("without its picture, the message lacks seat %d's line %q", s.Seat, s.Line)
				}
			}
			checkLimits(t, "without a picture", drawn)
		}
	})
	for _, m := range msgs {
		b.draw(m)
	}
	if n := strings.Count(logs.String(), "drawing a picture"); n != 1 {
		t.Errorf("the failure was logged %d times:\n%s", n, logs.String())
	}
}

// TestTableStatusInWords: with a picture, the table message says the status
// lines in words (a picture scaled down by a chat shows them too small to
// read) and draws none of them; what the acting seats are doing is left to
// the first line, and the latest plays to the last moves when they are
// listed.
func TestTableStatusInWords(t *testing.T) {
	t.Parallel()
	b := testBot(t)
	cases := []limitCase{
		{"princesses", 6, engine.Options{"rounds": "invitation", "edition": "classic", "promo": "on"}},
		{"lynx", 5, engine.Options{"mode": "expert"}},
		{"courtiers", 5, nil},
		{"chapters", 6, nil},
	}
	known := len(cases) // the games whose screens are known to have status lines
	for i, c := range withMissing(cases) {
		seen := map[string]int{}
		walkGame(t, c.game, c.seats, c.opts, 7, func(snap *table.Snapshot) {
			l := b.loc.Lang(snap.Record.Lang)
			sc, ok := render.ScreenOf(c.game, l, snap.State.View(engine.Spectator), names(l, snap.Record), nil)
			if !ok || snap.Record.Status != table.StatusPlaying {
				return
			}
			m := b.publicMessage(snap, nil)
			if m.pic == nil {
				t.Fatalf("%s: no picture", c.game)
			}
			if got := m.pic.sc.StatusLines(); len(got) != 0 {
				t.Errorf("%s v%d: the picture draws status lines %q", c.game, snap.Version, got)
			}
			text := v2Text(m.components)
			for _, s := range append(slices.Clone(sc.Status), sc.Recent...) {
				seen["status"]++
				if !strings.Contains(text, s) {
					t.Errorf("%s v%d: the message lacks the status line %q:\n%s", c.game, snap.Version, s, text)
				}
			}
			for _, s := range sc.Doing {
				seen["doing"]++
				if strings.Contains(text, s) {
					t.Errorf("%s v%d: the message says %q besides its first line:\n%s", c.game, snap.Version, s, text)
				}
			}
		})
		if seen["status"] == 0 && i < known {
			t.Errorf("%s: no status line in the whole game: the check checked nothing", c.game)
		}
		if (c.game == "lynx" || c.game == "courtiers") && seen["doing"] == 0 {
			t.Errorf("%s: no line of what the acting seats do: the check checked nothing", c.game)
		}
	}
}

// A place at the start of a result line is set in bold, so that Discord
// does not read "2. Ala" as a numbered list (it would number a shared
// place anew); other lines are left as they are.
func TestLiteralPlaces(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1. Ala: 3 oświadczyn", "**1.** Ala: 3 oświadczyn"},
		{"12. Bot 3: 4 бали", "**12.** Bot 3: 4 бали"},
		{"2nd Ala: 12 points", "**2nd** Ala: 12 points"},
		{"1st Bob (2 cards in hand)", "**1st** Bob (2 cards in hand)"},
		{"You finished 2nd.", "You finished 2nd."},
		{"2 rounds left", "2 rounds left"},
		{"3.5 points", "3.5 points"},
		{"", ""},
	} {
		if got := literal(tc.in); got != tc.want {
			t.Errorf("literal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
