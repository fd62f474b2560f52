package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// player answers the terminal's prompts like a person would: the first
// choice listed, or the one whose notation the example matches; a few wrong
// inputs at the start.
type player struct {
	mu      sync.Mutex
	out     bytes.Buffer
	answers *io.PipeWriter
	prompts []string
	wrong   []string
	turns   int
	// pause, when set, is the header of the terminal's pause for optional
	// actions: the first time it shows, the player takes the first optional
	// action (choice 2; choice 1 is "continue").
	pause    string
	optional bool
	asked    int // the length of the output at the last prompt
	// example, when set, picks the choice whose notation (in brackets)
	// it matches, when there is one.
	example *regexp.Regexp
	// answer, when set, answers instead (the screen since the last prompt).
	answer func(screen string) string
	// end is the prompt after the end of the game; it is answered with
	// afterEnd, one answer at a time, then quit.
	end      string
	afterEnd []string
}

// choiceRE finds the numbered choices of a redraw: "12. Queen 7 [play Q7]".
var choiceRE = regexp.MustCompile(`(\d+)\. [^\n\[]*\[([^\]]*)\]`)

// choices lists the numbers and notations of the choices in a redraw.
func choices(screen string) (nums []string, notes []string) {
	for _, m := range choiceRE.FindAllStringSubmatch(screen, -1) {
		nums, notes = append(nums, m[1]), append(notes, m[2])
	}
	return nums, notes
}

// prompted reports whether the output ends with one of the prompts.
func (p *player) prompted() bool {
	for _, pr := range p.prompts {
		if bytes.HasSuffix(p.out.Bytes(), []byte(pr)) {
			return true
		}
	}
	return false
}

func (p *player) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Write(b)
	if !p.prompted() {
		return len(b), nil
	}
	text := p.out.String()
	screen := text[p.asked:]
	answer := "1"
	switch {
	case p.end != "" && strings.HasSuffix(text, p.end):
		answer = "quit"
		if len(p.afterEnd) > 0 {
			answer, p.afterEnd = p.afterEnd[0], p.afterEnd[1:]
		}
	case len(p.wrong) > 0:
		answer, p.wrong = p.wrong[0], p.wrong[1:]
	case p.answer != nil:
		answer = p.answer(screen)
	case p.pause != "" && !p.optional && strings.Contains(screen, p.pause):
		answer, p.optional = "2", true
	case p.example != nil:
		nums, notes := choices(screen)
		for i, n := range notes {
			if p.example.MatchString(n) {
				answer = nums[i]
			}
		}
	}
	p.asked = len(text)
	p.turns++
	go fmt.Fprintln(p.answers, answer)
	return len(b), nil
}

func (p *player) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func playGame(t *testing.T, lang string, args ...string) (string, int) {
	t.Helper()
	return playGameAs(t, lang, nil, args...)
}

// playGameAs is playGame with a player set up by setup (when not nil).
func playGameAs(t *testing.T, lang string, setup func(*player), args ...string) (string, int) {
	t.Helper()
	return terminalGame(t, "princesses", lang, nil, []string{"xyzzy", "99", "play Z1", "help"}, setup, args...)
}

// terminalGame plays a whole game of game in the terminal as a person
// would, answering with the first choice listed or the one example
// matches, after the wrong inputs given; setup, when not nil, adjusts the
// player.
func terminalGame(t *testing.T, game, lang string, example *regexp.Regexp, wrong []string, setup func(*player), args ...string) (string, int) {
	t.Helper()
	return playArgs(t, lang, example, wrong, setup, append([]string{game, "--lang", lang}, args...)...)
}

// playArgs runs stolik play with args, answered by a player who reads lang.
func playArgs(t *testing.T, lang string, example *regexp.Regexp, wrong []string, setup func(*player), args ...string) (string, int) {
	t.Helper()
	l := locales.MustLoad().Lang(lang)
	in, answers := io.Pipe()
	p := &player{answers: answers, prompts: []string{l.T("term.prompt", nil), l.T("term.prompt_step", nil), l.T("term.prompt_end", nil)},
		wrong: wrong, example: example, end: l.T("term.prompt_end", nil)}
	if setup != nil {
		setup(p)
	}
	done := make(chan int)
	go func() {
		done <- run(context.Background(), append([]string{"play"}, args...), in, p, p)
	}()
	select {
	case code := <-done:
		return p.text(), code
	case <-time.After(90 * time.Second):
		t.Fatalf("the game did not end; output so far:\n%s", p.text())
	}
	return "", 0
}

// unwrapped is the terminal's output with the lines it wrapped at 80
// columns joined again.
func unwrapped(out string) string { return strings.ReplaceAll(out, "\n  ", " ") }

// tableID finds the id of the table a terminal game stored.
var tableID = regexp.MustCompile(`--table ([a-z0-9]+)`)

func TestPlayWholeGameInEveryLanguage(t *testing.T) {
	t.Parallel()
	b, _ := locales.Load()
	for _, lang := range []string{"en", "pl", "uk"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			out, code := playGame(t, lang, "--seats", "4", "--seed", "7", "--option", "rounds=3")
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			l := b.Lang(lang)
			checkGameOutput(t, l, out,
				l.T("ui.final_header", nil),
				l.T("error.unknown_action", map[string]any{"Text": "xyzzy"}),
				l.T("ui.bad_number", map[string]any{"N": 99}),
				l.T("error.princesses.unknown_card", map[string]any{"Card": "Z1"}),
				l.T("term.help.princesses", nil),
				l.T("princesses.screen.hand", nil),
			)
		})
	}
}

func TestPlayQuitAndBadOptions(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	code := run(context.Background(), []string{"play", "princesses", "--option", "edition=gold"}, strings.NewReader(""), &out, &out)
	if code == 0 || !strings.Contains(out.String(), "edition=gold") {
		t.Fatalf("bad option: exit %d, %q", code, out.String())
	}
	out.Reset()
	code = run(context.Background(), []string{"play", "princesses", "--seed", "3"}, strings.NewReader("quit\n"), &out, &out)
	if code != 0 || !strings.Contains(out.String(), "Goodbye") {
		t.Fatalf("quit: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"play", "chess"}, nil, &out, &out); code != 2 {
		t.Fatalf("unknown game: exit %d", code)
	}
}

func TestScenarioCommand(t *testing.T) {
	t.Parallel()
	files := runScenarios(t, "princesses")
	var out bytes.Buffer
	bad := filepath.Join(t.TempDir(), "bad.scenario")
	os.WriteFile(bad, []byte("game princesses\nseats 4\noption powers=off\nexpect turn 2\n"), 0o644)
	out.Reset()
	if code := run(context.Background(), []string{"scenario", files[0], bad}, nil, &out, &out); code == 0 {
		t.Fatal("a failing scenario exited 0")
	}
	if !strings.Contains(out.String(), "FAIL bad: line 4: expected turn [2]") || !strings.Contains(out.String(), "\n1 passed, 1 failed\n") {
		t.Fatalf("unexpected report:\n%s", out.String())
	}
}

func TestSimCommand(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	code := run(context.Background(), []string{"sim", "princesses", "-n", "40", "--seats", "5", "--option", "edition=classic"}, nil, &out, &out)
	if code != 0 || !strings.Contains(out.String(), "errors: 0") || !strings.Contains(out.String(), "40 games") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"sim", "princesses", "-n", "1", "--bots", "genius"}, nil, &out, &out); code != 2 {
		t.Fatalf("unknown bot: exit %d", code)
	}
}

// A finished game stored with --db replays with every move's notation,
// its seats named without "you", and the same result as the game.
func TestReplayOfAStoredGame(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "stolik.db")
	out, code := playGame(t, "en", "--seats", "3", "--seed", "11", "--option", "rounds=a", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	m := tableID.FindStringSubmatch(unwrapped(out))
	if m == nil {
		t.Fatalf("no table id in output:\n%s", out)
	}
	var rep bytes.Buffer
	if code := run(context.Background(), []string{"replay", "--db", db, "--table", m[1]}, nil, &rep, &rep); code != 0 {
		t.Fatalf("replay exit %d:\n%s", code, rep.String())
	}
	text := rep.String()
	for _, want := range []string{"History of table " + m[1], "every card shown", ". Player 0: [choose ", "Final state:", "wins with"} {
		if !strings.Contains(text, want) {
			t.Errorf("replay lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "(you)") {
		t.Errorf("the replay calls a seat \"you\":\n%s", text)
	}
	// The result printed by play and by replay agree, names apart.
	rec, log := loadTable(t, db, m[1])
	g, _ := engine.Lookup("princesses")
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	_, res := st.Result()
	for s, score := range res.Scores {
		want := fmt.Sprintf("Bot %d: %d proposal", s, score)
		if s == 0 {
			want = fmt.Sprintf("Player 0: %d proposal", score)
			if !strings.Contains(out, fmt.Sprintf("You: %d proposal", score)) {
				t.Errorf("play does not show the human's %d proposals", score)
			}
		} else if !strings.Contains(out, fmt.Sprintf("Bot %d: %d proposal", s, score)) {
			t.Errorf("play does not show seat %d's %d proposals", s, score)
		}
		if !strings.Contains(text, want) {
			t.Errorf("replay lacks %q", want)
		}
	}
}

// checkGameOutput fails t when the output of a whole terminal game lacks
// one of want, shows a missing message or announces no winner.
func checkGameOutput(t *testing.T, l *locales.Localizer, out string, want ...string) {
	t.Helper()
	// Lines the terminal wrapped at 80 columns, joined again.
	joined := unwrapped(out)
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	if strings.Contains(out, locales.MissingOpen) {
		t.Errorf("output has a missing message:\n%s", out)
	}
	// The player's own name ("Player 0 (you)") ends in brackets: it is
	// never put in brackets or followed by more ("(Player 0 (you))").
	you := l.T("ui.you", nil)
	for _, line := range strings.Split(joined, "\n") {
		if strings.Contains(line, you+")") || strings.Contains(line, you+" (") {
			t.Errorf("brackets in brackets: %q", line)
			break
		}
	}
	if !announced(l, out) {
		t.Errorf("no winner announced:\n%s", out[max(0, len(out)-2000):])
	}
}

// runScenarios runs every scenario file of game through the scenario
// command and fails t unless all of them pass; it returns the files.
func runScenarios(t *testing.T, game string) []string {
	t.Helper()
	files, _ := filepath.Glob("../../engine/" + game + "/testdata/*.scenario")
	if len(files) == 0 {
		t.Fatalf("no scenarios for %s", game)
	}
	var out bytes.Buffer
	if code := run(context.Background(), append([]string{"scenario"}, files...), nil, &out, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if want := fmt.Sprintf("%d passed, 0 failed\n", len(files)); !strings.HasSuffix(out.String(), want) {
		t.Fatalf("want closing line %q, got:\n%s", want, out.String())
	}
	return files
}

// loadTable reads a table and its log from the database file at path.
func loadTable(t *testing.T, path, id string) (table.Record, []table.Entry) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, log, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return rec, log
}

// princessesSetup loads the locale files and the Rebel Princess game, for
// the tests that drive the terminal through its rules.
func princessesSetup(t *testing.T) (*locales.Bundle, engine.Game) {
	t.Helper()
	b, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Lookup("princesses")
	if err != nil {
		t.Fatal(err)
	}
	return b, g
}

// announced reports whether out names the winners with one of the end's
// headlines (every fixed part of its text).
func announced(l *locales.Localizer, out string) bool {
	joined := unwrapped(out)
	for _, key := range []string{"ui.end.wins", "ui.end.shared", "ui.end.you_win", "ui.end.you_share"} {
		text := l.T(key, map[string]any{"Name": "\x00", "Names": "\x00", "Score": "\x00"})
		all := true
		for _, part := range strings.Split(text, "\x00") {
			if part = strings.TrimSpace(part); len(part) > 3 && !strings.Contains(joined, part) {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}
