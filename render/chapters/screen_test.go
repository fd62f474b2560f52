package chapters_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	present "github.com/stolik-bot/stolik/render/chapters"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// Notation in running text: an action with a card number.
var pcsChaptersNotation = regexp.MustCompile(`\bpick \d+ ghost \d+\b|\bplay \d+\b`)

// chaptersScreens: the heuristic at even seats, the random player at odd
// ones; no card key, no action notation, no provisional mark in any text.
func chaptersScreens() rendertest.Screens {
	var ids []string
	for c := chapters.Card(1); c <= chapters.NumCards; c++ {
		ids = append(ids, chapters.DefaultCards.Card(c).Key)
	}
	slices.Sort(ids)
	return rendertest.Screens{
		Game: chapters.Game{}, AI: []engine.Player{chapters.Heuristic{}, engine.Random{}},
		IDs: slices.Compact(ids), Notation: pcsChaptersNotation, Never: []string{"†"},
		Latin: []string{"I", "II", "III"}, // the chapters' numbers
		You:   "chapters.screen.you",
		Hand:  func(ev engine.View) []string { return rendertest.Codes(ev.(*chapters.View).Hand) },
		Marks: func(st engine.State, viewer engine.Seat) (hand, _ []string) {
			for _, ea := range st.Legal(viewer) {
				a := ea.(chapters.Action)
				hand = append(hand, a.Card.String())
				if a.Ghost != 0 {
					hand = append(hand, a.Ghost.String())
				}
			}
			return hand, nil
		},
		Check: chaptersScreenCheck,
	}
}

func chaptersScreenCheck(t *testing.T, s rendertest.Shown) {
	t.Helper()
	v, sc, l, at := s.View.(*chapters.View), s.Screen, s.L, s.Where
	if v.Phase == "over" && len(sc.Result) < 1+v.Seats {
		t.Errorf("%s: Result %q", at, sc.Result)
	}
	// The provisional cards are not listed.
	if p := present.ChaptersProvisional(l, v.Cards); slices.Contains(sc.Status, p) {
		t.Errorf("%s: the provisional cards are listed", at)
	}
	// The round's cards in play order, each naming who played it.
	if v.Phase == "play" && len(v.Table) > 0 {
		if len(sc.Center) == 0 || len(sc.Center[0].Cards) != len(v.Table) {
			t.Fatalf("%s: the round %v is not in the center %+v", at, v.Table, sc.Center)
		}
		for i, p := range v.Table {
			c := sc.Center[0].Cards[i]
			if c.Code != p.Card.String() || c.Note == "" || c.Down {
				t.Errorf("%s: round card %d: %+v, played %+v", at, i, c, p)
			}
		}
	}
	// Every seat's played cards lie before it, face up.
	for s, cs := range v.Played {
		var got []string
		for _, p := range sc.Seats[s].Piles {
			for _, c := range p.Cards {
				got = append(got, c.Code)
			}
		}
		var want []string
		for _, c := range cs {
			want = append(want, c.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: seat %d shows %v, played %v", at, s, got, want)
		}
	}
	// Your kept cards and your pick, during the draft.
	if v.Seat >= 0 && v.Phase == "draft" {
		var got []string
		for _, p := range sc.Secret {
			for _, c := range p.Cards {
				got = append(got, c.Code)
			}
		}
		for _, c := range v.Kept {
			if !slices.Contains(got, c.String()) {
				t.Errorf("%s: your kept card %s is not among the secrets %v", at, c, got)
			}
		}
		if v.MyPick.Kind != 0 && !slices.Contains(got, v.MyPick.Card.String()) {
			t.Errorf("%s: your pick %s is not among the secrets %v", at, v.MyPick.Card, got)
		}
	}
}

// Whole games of every seat count (2 players: with the ghosts), at every
// step the screens of every seat and a spectator.
func TestChaptersScreen(t *testing.T) {
	b := rendertest.Bundle(t)
	var cases []rendertest.Case
	for seats := 2; seats <= 6; seats++ {
		cases = append(cases, rendertest.Case{Name: strconv.Itoa(seats), Seats: seats, Options: engine.Options{},
			Seeds: rendertest.Seeds(uint64(300*seats), 4), Every: rendertest.Every(2)})
	}
	chaptersScreens().Play(t, b, cases)
}

// The prompt is in the second person; cards are named without the
// provisional mark; the round's winner is "you" on your own screen.
func TestChaptersScreenWords(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"Ala", "Olena", "Bob"}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		v := &chapters.View{
			Seat: 1, Seats: 3, Phase: "play", Acting: []engine.Seat{1}, Round: 3, Rounds: 8,
			Hand: []chapters.Card{9, 50}, HandSizes: []int{6, 6, 6}, Table: []chapters.Play{{Seat: 0, Ghost: -1, Card: 5}},
			Played: [][]chapters.Card{{1}, {2}, {3}}, Wins: []int{1, 1, 0}, Tokens: make([]chapters.Tokens, 3), Points: make([]int, 3),
			Last: &chapters.RoundResult{Round: 2, Plays: []chapters.Play{{Seat: 1, Ghost: -1, Card: 2}, {Seat: 2, Ghost: -1, Card: 3}}, Winner: 0, Gains: make([]chapters.Tokens, 2)},
		}
		var legal []engine.Action // what the engine lists: play either card
		for _, text := range []string{"play 9", "play 50"} {
			a, err := chapters.ParseAction(text)
			if err != nil {
				t.Fatal(err)
			}
			legal = append(legal, a)
		}
		sc, _ := render.ScreenOf("chapters", l, v, names, legal)
		if sc.Prompt != l.T("chapters.screen.prompt.play", nil) {
			t.Errorf("%s: prompt %q", lang, sc.Prompt)
		}
		if len(sc.Center) != 1 || sc.Center[0].Cards[0].Note != "Ala" || sc.Center[0].Cards[0].Name != l.T("chapters.card.goldilocks", nil) {
			t.Errorf("%s: center %+v", lang, sc.Center)
		}
		if !slices.ContainsFunc(sc.Hand.Cards, func(c render.Card) bool { return c.Code == "50" && c.Mark && c.Value == "50" }) {
			t.Errorf("%s: hand %+v", lang, sc.Hand)
		}
		for _, text := range rendertest.Texts(sc) {
			if strings.Contains(text, "†") {
				t.Errorf("%s: %q", lang, text)
			}
		}
		// Between rounds: the last round, won by you.
		v.Table = nil
		sc, _ = render.ScreenOf("chapters", l, v, names, nil)
		if len(sc.Center) != 1 || sc.Center[0].Label != l.T("chapters.screen.last_you", map[string]any{"Round": 2}) {
			t.Errorf("%s: center %+v", lang, sc.Center)
		}
		// A spectator: no hand, no prompt, the winner named.
		v.Seat = engine.Spectator
		sc, _ = render.ScreenOf("chapters", l, v, names, nil)
		if sc.Hand != nil || sc.Prompt != "" || len(sc.Center) != 1 || !strings.Contains(sc.Center[0].Label, "Olena") {
			t.Errorf("%s: spectator: %+v", lang, sc)
		}
		// The tokens a round gave: each player's name, a colon, the tokens.
		v.Last.Gains = []chapters.Tokens{{Hearts: 2}, {Stars: 1}}
		sc, _ = render.ScreenOf("chapters", l, v, names, nil)
		want := l.T("chapters.ui.gains", map[string]any{"List": "Olena: " + l.N("chapters.hearts", 2, nil) + "; Bob: " + l.N("chapters.stars", 1, nil)})
		if !slices.ContainsFunc(sc.Status, func(s string) bool { return strings.HasSuffix(s, " "+want) }) {
			t.Errorf("%s: no %q in %q", lang, want, sc.Status)
		}
	}
}
