package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// plainRenderer is a renderer that does not lay its choices out (no
// render.Controller): the terminal walks its actions a token at a time
// when there are too many.
type plainRenderer struct{}

func (plainRenderer) Public(*locales.Localizer, engine.View, render.Names) []string  { return nil }
func (plainRenderer) Private(*locales.Localizer, engine.View, render.Names) []string { return nil }
func (plainRenderer) Action(_ *locales.Localizer, a engine.Action) string            { return "do " + a.String() }
func (plainRenderer) Event(*locales.Localizer, engine.Event, render.Names) string    { return "" }
func (plainRenderer) Hint(*locales.Localizer, engine.View) string                    { return "" }

type textAction string

func (a textAction) String() string { return string(a) }

func parseText(s string) (engine.Action, error) { return textAction(s), nil }

type textGame struct{ engine.Game }

func (textGame) ParseAction(s string) (engine.Action, error) { return parseText(s) }

func TestChooserSteps(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("en")
	var legal []engine.Action
	for _, v := range []string{"a", "b", "c"} {
		for n := range 10 {
			legal = append(legal, textAction(fmt.Sprintf("put %s %d", v, n)))
		}
	}
	legal = append(legal, textAction("pass"))
	cases := []struct {
		name    string
		legal   []engine.Action
		answers [][]int
		want    []string // the notes listed before each answer, then the action
	}{
		{"few actions: one choice each", legal[:3], [][]int{{2}}, []string{"put a 0|put a 1|put a 2", "put a 1"}},
		{"many: a token at a time", legal, [][]int{{1}, {1}, {3}}, []string{"put|pass", "a|b|c", "0|1|2|3|4|5|6|7|8|9", "put a 2"}},
		{"several numbers: one step each", legal, [][]int{{1, 2, 10}}, []string{"put|pass", "put b 9"}},
		{"a whole action at once", legal, [][]int{{2}}, []string{"put|pass", "pass"}},
	}
	for _, tc := range cases {
		c := newChooser(textGame{}, plainRenderer{}, l, nil, nil, tc.legal, false)
		var got []string
		for _, nums := range tc.answers {
			var notes []string
			for _, it := range c.items() {
				notes = append(notes, it.note)
			}
			got = append(got, strings.Join(notes, "|"))
			out, action, why := c.choose(nums)
			if why != "" {
				t.Fatalf("%s: %v refused: %s", tc.name, nums, why)
			}
			if out == decided {
				got = append(got, action)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// 0 goes back one choice at a time, then refuses.
	c := newChooser(textGame{}, plainRenderer{}, l, nil, nil, legal, false)
	c.choose([]int{1})
	c.choose([]int{2})
	if !slices.Equal(c.pre, []string{"put", "b"}) || !c.back() || !slices.Equal(c.pre, []string{"put"}) || !c.back() || len(c.pre) != 0 || c.back() {
		t.Errorf("back: %q", c.pre)
	}
	if _, _, why := c.choose([]int{7}); why == "" {
		t.Error("a number not listed is taken")
	}
}
