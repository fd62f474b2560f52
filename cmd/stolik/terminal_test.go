package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	courtiersview "github.com/stolik-bot/stolik/render/courtiers"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// script plays a terminal game with answers given in advance; the output,
// with the lines wrapped at 80 columns joined again.
func script(t *testing.T, answers string, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if code := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(answers), &out, &out); code != 0 {
		t.Fatalf("%v: exit %d:\n%s", args, code, out.String())
	}
	return unwrapped(out.String())
}

// answer is what the terminal printed for the n-th answer (from 0): the
// text between the n-th and the next prompt.
func answer(l *locales.Localizer, out string, n int) string {
	parts := redraws(out, []string{l.T("term.prompt", nil), l.T("term.prompt_step", nil)})
	if n+1 >= len(parts) {
		return ""
	}
	return parts[n+1]
}

// help is per game: it explains the game's own notation, and every
// example it gives is an action of that game (no play Q7 outside Rebel
// Princess), and so is the move it suggests now.
func TestHelpPerGame(t *testing.T) {
	t.Parallel()
	for _, game := range render.Games() {
		g, _ := engine.Lookup(game)
		for _, lang := range locales.Languages() {
			t.Run(game+"/"+lang, func(t *testing.T) {
				t.Parallel()
				l := locales.MustLoad().Lang(lang)
				out := script(t, "help\nquit\n", game, "--lang", lang, "--seed", "3")
				help := answer(l, out, 0)
				if !strings.Contains(help, l.T("term.help."+game, nil)) {
					t.Errorf("help lacks the game's notation:\n%s", help)
				}
				first, _, _ := strings.Cut(l.T("term.help.how", nil), ".")
				if !strings.Contains(help, first) {
					t.Errorf("help lacks how to answer:\n%s", help)
				}
				r, _ := render.For(game)
				examples, _ := r.Examples()
				for _, ex := range examples {
					if !strings.Contains(help, ex) {
						t.Errorf("help lacks the example %q", ex)
					}
					if _, err := g.ParseAction(ex); err != nil {
						t.Errorf("the example %q is not an action of %s: %v", ex, game, err)
					}
				}
				nowAt := strings.Index(help, strings.Split(l.T("term.help.now", map[string]any{"Action": "\x00"}), "\x00")[0])
				if nowAt < 0 {
					t.Fatalf("help suggests no move:\n%s", help)
				}
				now := strings.TrimSpace(strings.SplitN(help[nowAt:], ":", 2)[1])
				now, _, _ = strings.Cut(now, "\n")
				if _, err := g.ParseAction(now); err != nil {
					t.Errorf("the move suggested, %q, is not an action: %v", now, err)
				}
				if game != "princesses" && strings.Contains(help, "Q7") {
					t.Errorf("%s help speaks of Q7:\n%s", game, help)
				}
			})
		}
	}
}

// The commands typed during a game explain it in the player's language:
// the princesses' powers, the round card, a card, the missions, the whole
// table, what happened.
func TestCommandsDuringAGame(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for _, lang := range []string{"en", "pl", "uk"} {
		l := b.Lang(lang)
		t.Run("princesses/"+lang, func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "t.db")
			out := script(t, "1\npower\nrules\ncard haggle\ncard Q7\ntable\nlog\nmissions\nquit\n",
				"princesses", "--lang", lang, "--seed", "8", "--seats", "4", "--option", "rounds=haggle", "--option", "edition=classic", "--db", db)
			st := storedState(t, out, db)
			v := st.View(0).(*princesses.View)
			power := answer(l, out, 1)
			for s, id := range v.Princess {
				key := "princesses.princess." + id
				for _, w := range []string{l.T(key+".name", nil), plainText(l.T(key+".text_classic", nil))} {
					if !strings.Contains(power, w) {
						t.Errorf("power lacks seat %d's %q:\n%s", s, w, power)
					}
				}
			}
			sc, _ := render.ScreenOf("princesses", l, v, names(l, 4), nil)
			rules := answer(l, out, 2)
			for _, w := range []string{sc.Rule.Full, strings.SplitN(plainText(l.T("princesses.rules", nil)), "\n", 2)[0]} {
				if !strings.Contains(rules, w) {
					t.Errorf("rules lack %q:\n%s", w, rules)
				}
			}
			if w := l.T("princesses.round.haggle.name", nil); !strings.Contains(answer(l, out, 3), w) {
				t.Errorf("card haggle lacks %q:\n%s", w, answer(l, out, 3))
			}
			if w := l.T("princesses.card.Q", map[string]any{"Rank": 7}); !strings.Contains(answer(l, out, 4), w) {
				t.Errorf("card Q7 lacks %q:\n%s", w, answer(l, out, 4))
			}
			table := strings.ReplaceAll(answer(l, out, 5), "   ", " ") // a seat line wrapped: its indent joined
			for _, s := range sc.Seats {
				if !strings.Contains(table, s.Line) {
					t.Errorf("table lacks the seat line %q:\n%s", s.Line, table)
				}
			}
			if !strings.Contains(table, sc.Rule.Full) {
				t.Errorf("table lacks the round card's rule:\n%s", table)
			}
			if !strings.Contains(answer(l, out, 6), l.T("term.log.header", nil)) {
				t.Errorf("log shows nothing:\n%s", answer(l, out, 6))
			}
			if w := l.T("term.missions.none", map[string]any{"Game": l.T("game.princesses.name", nil)}); !strings.Contains(answer(l, out, 7), w) {
				t.Errorf("missions: %q", answer(l, out, 7))
			}
		})
		t.Run("courtiers/"+lang, func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "t.db")
			out := script(t, "missions\npower\ncard hare-assassin\ncard\nquit\n", "courtiers", "--lang", lang, "--seed", "4", "--db", db)
			v := storedState(t, out, db).View(0).(*courtiers.View)
			for _, m := range v.Missions {
				name, text := courtiersview.CourtierMission(l, m)
				if ms := answer(l, out, 0); !strings.Contains(ms, name) || !strings.Contains(ms, text) {
					t.Errorf("missions lack %q: %q:\n%s", name, text, ms)
				}
			}
			if w := l.T("courtiers.role.assassin.text", nil); !strings.Contains(answer(l, out, 1), w) || !strings.Contains(answer(l, out, 2), w) {
				t.Errorf("power or card lack %q:\n%s\n%s", w, answer(l, out, 1), answer(l, out, 2))
			}
			if w := "card carp-assassin"; !strings.Contains(answer(l, out, 3), w) {
				t.Errorf("card alone does not say how to use it: %q", answer(l, out, 3))
			}
		})
		t.Run("chapters-lynx/"+lang, func(t *testing.T) {
			t.Parallel()
			out := script(t, "card 41\npower\nquit\n", "chapters", "--lang", lang, "--seed", "4")
			if w := l.T("chapters.card.unicorn", nil); !strings.Contains(answer(l, out, 0), w) {
				t.Errorf("card 41 lacks %q:\n%s", w, answer(l, out, 0))
			}
			if w := l.T("term.power.chapters", nil); !strings.Contains(answer(l, out, 1), w) || strings.Count(answer(l, out, 1), "\n") < 8 {
				t.Errorf("power does not list the hand's cards:\n%s", answer(l, out, 1))
			}
			out = script(t, "power\ncard X\nmissions\nquit\n", "lynx", "--lang", lang, "--seed", "4")
			game := map[string]any{"Game": l.T("game.lynx.name", nil)}
			for i, w := range []string{l.T("term.power.none", game), l.T("term.card.lynx", nil), l.T("term.missions.none", game)} {
				if !strings.Contains(answer(l, out, i), w) {
					t.Errorf("answer %d lacks %q:\n%s", i, w, answer(l, out, i))
				}
			}
		})
	}
}

// names are the terminal's names of a table's seats.
func names(l *locales.Localizer, seats int) render.Names {
	out := render.Names{l.T("ui.you", nil)}
	for s := 1; s < seats; s++ {
		out = append(out, l.T("ui.bot", map[string]any{"N": s}))
	}
	return out
}

// storedState is the state of the table a terminal game stored in db.
func storedState(t *testing.T, out, db string) engine.State {
	t.Helper()
	m := tableID.FindStringSubmatch(unwrapped(out))
	if m == nil {
		t.Fatalf("no table id in the output:\n%s", out)
	}
	rec, log := loadTable(t, db, m[1])
	g, _ := engine.Lookup(rec.Setup.Game)
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Several numbers take several cards at once and 0 takes the last one
// back; typed notation still works beside the numbers (in any case), a
// beginning of one leads to its next step, and 0 goes back a step.
func TestNumbersAndNotation(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("en")
	g, _ := engine.Lookup("princesses")
	db := filepath.Join(t.TempDir(), "t.db")
	// The second princess; a pass of cards 1 and 4, 4 taken back, then 7
	// and 9 of the 9 left; Q7 played by notation.
	out := script(t, "2\n1 4\n0\n7 9\nplay q7\nquit\n", "princesses", "--seed", "5", "--seats", "4", "--db", db)
	rec, log := loadTable(t, db, tableID.FindStringSubmatch(out)[1])
	var moves []engine.Move
	var hand []princesses.Card
	var mine []string
	for _, e := range log {
		if e.Seat == 0 {
			if strings.HasPrefix(e.Action, "pass ") {
				st, _ := engine.Replay(g, rec.Setup, moves)
				hand = st.View(0).(*princesses.View).Hand
			}
			mine = append(mine, e.Action)
		}
		moves = append(moves, engine.Move{Seat: e.Seat, Action: e.Action})
	}
	if len(hand) < 10 || len(mine) != 3 {
		t.Fatalf("the human's moves: %v (hand %v):\n%s", mine, hand, out)
	}
	pass, err := g.ParseAction(fmt.Sprintf("pass %s %s %s", hand[0], hand[7], hand[9]))
	if err != nil {
		t.Fatal(err)
	}
	if mine[1] != pass.String() || mine[2] != "play Q7" {
		t.Errorf("the human's moves are %v, want a choose, %q and play Q7", mine, pass)
	}
	// Courtisans: "place" is the first step again; a card by its number
	// leads to where it goes; 0 goes back, and at the first step says so;
	// "1 1" is a card and where it goes.
	out = script(t, "place\n1\n0\n0\n1 1\nquit\n", "courtiers", "--seed", "5", "--seats", "3")
	for i, want := range []string{"[place butterfly]", "[up]", "[place butterfly]", l.T("term.nothing_back", nil), "You place Butterfly above the Queen's table"} {
		if got := answer(l, out, i); !strings.Contains(got, want) {
			t.Errorf("answer %d lacks %q:\n%s", i, want, got)
		}
	}
}

// card in a game looks cards up as the screen names them, tells the
// table's own rules (expert Lynx: 1s steal jokers) and says plainly when
// nothing matches, with the cards there are.
func TestCardLookupInGame(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for _, tc := range []struct {
		args  []string
		query string
		want  func(l *locales.Localizer) string
	}{
		{[]string{"lynx", "--lang", "pl", "--option", "mode=expert"}, "X", func(l *locales.Localizer) string { return l.T("term.card.lynx_expert", nil) }},
		{[]string{"lynx", "--lang", "uk"}, "14", func(l *locales.Localizer) string { return l.T("term.card.range.lynx", nil) }},
		{[]string{"princesses", "--lang", "pl"}, "Żaba", func(l *locales.Localizer) string { return "A8: Żaba" }},
		{[]string{"chapters", "--lang", "en"}, "51", func(l *locales.Localizer) string {
			return l.T("term.card.range.chapters", map[string]any{"Max": 50})
		}},
	} {
		t.Run(tc.args[0]+"/"+tc.query, func(t *testing.T) {
			t.Parallel()
			l := b.Lang(tc.args[2])
			out := script(t, "card "+tc.query+"\nquit\n", append(tc.args, "--seed", "2")...)
			if got := answer(l, out, 0); !strings.Contains(got, tc.want(l)) {
				t.Errorf("card %s: lacks %q:\n%s", tc.query, tc.want(l), got)
			}
		})
	}
}

// The end of the game stays on screen until the player quits: table and
// log still answer after the last move.
func TestEndStaysOnScreen(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("pl")
	out, code := terminalGame(t, "lynx", "pl", nil, nil, func(p *player) { p.afterEnd = []string{"table", "log", "xyzzy"} }, "--seats", "3", "--seed", "4")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	_, after, ok := strings.Cut(out, l.T("ui.final_header", nil))
	if !ok {
		t.Fatalf("no end:\n%s", out)
	}
	end := l.T("term.prompt_end", nil)
	if n := strings.Count(after, end); n != 4 {
		t.Errorf("the end's prompt shows %d times, want 4 (table, log, a wrong word, quit):\n%s", n, after)
	}
	for _, w := range []string{l.T("ui.bot", map[string]any{"N": 2}) + ":", l.T("term.log.header", nil), l.T("term.end_help", nil)} {
		if !strings.Contains(unwrapped(after), w) {
			t.Errorf("after the end, no %q:\n%s", w, after)
		}
	}
	if !strings.HasSuffix(out, l.T("ui.bye", nil)+"\n") {
		t.Errorf("no goodbye at the end:\n%s", out[max(0, len(out)-300):])
	}
}

// In a terminal, an answer taller than the screen comes a page at a time:
// Enter shows the next page, anything else goes back to the game.
func TestInfoPages(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("uk")
	long := make([]string, 60)
	for i := range long {
		long[i] = fmt.Sprint("line ", i)
	}
	for _, tc := range []struct {
		in    string
		lines int
	}{{"\n\n", 60}, {"\nq\n", 46}, {"", 23}} {
		var out bytes.Buffer
		tm := &terminal{l: l, in: newLineReader(strings.NewReader(tc.in)), out: &lineCounter{w: &out}, paged: true}
		tm.info(context.Background(), long)
		got := strings.Count(out.String(), "line ")
		if got != tc.lines {
			t.Errorf("answers %q: %d lines shown, want %d:\n%s", tc.in, got, tc.lines, out.String())
		}
		if !strings.Contains(out.String(), l.N("term.more", 60-23, nil)) {
			t.Errorf("no page prompt:\n%s", out.String())
		}
	}
}
