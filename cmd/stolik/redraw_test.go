package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// randomPlayer answers a redraw with one of its numbered choices at
// random, and now and then 0 (a step back).
func randomPlayer(seed uint64) func(*player) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	return func(p *player) {
		p.answer = func(screen string) string {
			nums, _ := choices(screen)
			if len(nums) == 0 {
				return "1"
			}
			if rnd.IntN(8) == 0 {
				return "0"
			}
			return nums[rnd.IntN(len(nums))]
		}
	}
}

// redraws splits a terminal game's output into what it printed between two
// answers, each ending with its prompt (the last one with the end of the
// game).
func redraws(out string, prompts []string) []string {
	alt := make([]string, len(prompts))
	for i, p := range prompts {
		alt[i] = regexp.QuoteMeta(p)
	}
	re := regexp.MustCompile(strings.Join(alt, "|"))
	var parts []string
	from := 0
	for _, m := range re.FindAllStringIndex(out, -1) {
		parts = append(parts, out[from:m[1]])
		from = m[1]
	}
	return append(parts, out[from:])
}

// TestRedrawFits80x24 plays whole games of every game at its largest
// table, in every language, choosing at random among the numbered choices
// (and stepping back now and then): no redraw (what is printed between two
// answers, the prompt included) is taller than 24 lines or wider than 80
// columns, and every one but the last ends with numbered choices.
func TestRedrawFits80x24(t *testing.T) {
	t.Parallel()
	for gi, game := range render.Games() {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		_, hi := g.Seats()
		for li, lang := range locales.Languages() {
			t.Run(fmt.Sprintf("%s/%d/%s", game, hi, lang), func(t *testing.T) {
				t.Parallel()
				l := locales.MustLoad().Lang(lang)
				seed := uint64(10*gi + li + 1)
				args := []string{"--seats", fmt.Sprint(hi), "--seed", fmt.Sprint(seed)}
				if game == "princesses" {
					args = append(args, "--option", "rounds=masquerade,haggle,wedding-gift,rings-twice,crystal-clear")
				}
				out, code := terminalGame(t, game, lang, nil, nil, randomPlayer(seed), args...)
				if code != 0 {
					t.Fatalf("exit %d:\n%s", code, out)
				}
				checkGameOutput(t, l, out, l.T("ui.final_header", nil))
				prompts := []string{l.T("term.prompt", nil), l.T("term.prompt_step", nil)}
				parts := redraws(out, prompts)
				if len(parts) < 5 {
					t.Fatalf("only %d redraws:\n%s", len(parts), out)
				}
				tallest := 0
				for i, part := range parts {
					lines := strings.Split(part, "\n")
					if i == len(parts)-1 {
						lines = lines[:len(lines)-1] // the end: the last line is complete
					}
					tallest = max(tallest, len(lines))
					if len(lines) > termHeight {
						t.Errorf("redraw %d has %d lines:\n%s", i, len(lines), part)
					}
					for _, line := range lines {
						if width(line) > termWidth {
							t.Errorf("redraw %d: a line of %d columns: %q", i, width(line), line)
						}
					}
					if i < len(parts)-1 {
						if nums, _ := choices(part); len(nums) == 0 && !strings.Contains(part, "\n") {
							t.Errorf("redraw %d offers no numbered choice:\n%s", i, part)
						}
					}
				}
				t.Logf("%d redraws, the tallest %d lines", len(parts), tallest)
			})
		}
	}
}

// The layout keeps to its room, drops parts in the order of their
// priority and never breaks a text in the middle of a word.
func TestFrameLayout(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("en")
	long := strings.Repeat("word ", 30)
	sc := render.Screen{
		Title:  "Round 1 of 5",
		Rule:   &render.Rule{Name: "Masquerade", Short: "Face down after the lead.", Full: long},
		Prompt: "Play a card",
		Hand: &render.Pile{Label: "Your hand", Cards: []render.Card{
			{Name: "Queen 7", Code: "Q7", Mark: true}, {Name: "Fairy 3", Code: "F3"}, {Name: "4", Code: "4"}, {Name: "4", Code: "4"},
		}},
		Center: []render.Pile{{Label: "Trick", Text: "Bot 1: Queen 3"}, {Label: "Pool", Text: "Pool: 4 · 5"}, {Label: "Empty"}},
		Status: []string{"status line"},
	}
	for s := range 6 {
		sc.Seats = append(sc.Seats, render.SeatPart{Name: fmt.Sprint("Bot ", s), Counts: []string{"3 tricks", "8 cards"}, Line: fmt.Sprint("Bot ", s, ": ", long)})
	}
	items := []item{{num: 1, label: "Queen 7", note: "play Q7", menu: "play", placeholder: "Play a card"}, {num: 2, label: "Announce", note: "declare cinderella"}}
	var events []shown
	for i := range 12 {
		events = append(events, shown{fmt.Sprint("event ", i, " ", long), render.Recent})
	}
	events[3].where = render.Posted
	for room := 6; room <= 60; room += 3 {
		f := frame{l: l, sc: sc, ok: true, events: events, menu: menuForms(items), room: room}
		lines := f.render()
		if len(lines) > room && room >= 8 {
			t.Errorf("room %d: %d lines:\n%s", room, len(lines), strings.Join(lines, "\n"))
		}
		text := strings.Join(lines, "\n")
		for _, w := range []string{"Play a card", "1. Queen 7 [play Q7]", "2. Announce [declare cinderella]"} {
			if !strings.Contains(text, w) {
				t.Errorf("room %d: the prompt or a choice is dropped (%q):\n%s", room, w, text)
			}
		}
		for _, line := range lines {
			if width(line) > termWidth {
				t.Errorf("room %d: %q is wider than 80", room, line)
			}
			if strings.Contains(line, "wor ") || strings.HasSuffix(line, "wor") {
				t.Errorf("room %d: a word broken: %q", room, line)
			}
		}
		if room >= 20 && !strings.Contains(text, "Your hand (* you may play it): Queen 7 [Q7]*, Fairy 3 [F3], 4×2") {
			t.Errorf("room %d: the hand is not shown with its codes:\n%s", room, text)
		}
		if room >= 40 && !strings.Contains(text, "event 3") {
			t.Errorf("room %d: a result is dropped before the other events:\n%s", room, text)
		}
		if strings.Contains(text, "Empty") {
			t.Errorf("room %d: an empty pile is shown", room)
		}
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		w    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"one two three four", 9, []string{"one two", "  three", "  four"}},
		{"abcdefghijkl", 5, []string{"abcde", "  fgh", "  ijk", "  l"}},
		{"ąęść żółw źdźbło", 8, []string{"ąęść", "  żółw", "  źdźbło"}},
		{"a\nb c", 3, []string{"a", "  b", "  c"}},
		{"  lead kept here", 10, []string{"  lead", "  kept", "  here"}},
	}
	for _, c := range cases {
		got := wrap(c.in, c.w, "  ")
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		for _, line := range got {
			if width(line) > c.w {
				t.Errorf("wrap(%q, %d): %q is too wide", c.in, c.w, line)
			}
		}
	}
}
