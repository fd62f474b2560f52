package lynx_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

var lynxScreens = rendertest.Screens{
	Game: lynx.Game{}, // the heuristic at every seat
	English: []string{
		"basic", "advanced", "expert", "duel", "play", "steal-virtual", "take", "leave", "back", "discard",
		"draw", "bonus", "over", "pass", "pool", "deck", "hand_empty", "cards_out", "tiebreak", "shared",
		"joker", "paw", "empty", "layer", "virtual",
	},
	SecondPerson: true,
	Latin:        []string{"X"},
	IDs:          []string{"steal-virtual", "hand_empty", "cards_out"},
	Hand:         func(v engine.View) []string { return rendertest.Codes(v.(*lynx.View).Hand) },
	Marks: func(st engine.State, viewer engine.Seat) (hand, chosen []string) {
		for _, ea := range st.Legal(viewer) {
			a := ea.(lynx.Action)
			switch a.Kind {
			case lynx.KindPlay:
				hand = append(hand, rendertest.Codes(a.Set().Cards())...)
			case lynx.KindStealVirtual:
				chosen = append(chosen, a.Value.String())
			}
		}
		return hand, chosen
	},
	Check: func(t *testing.T, s rendertest.Shown) {
		t.Helper()
		v, sc, l := s.View.(*lynx.View), s.Screen, s.L
		if sc.Secret != nil {
			s.Fatalf(t, "lynx has no secrets")
		}
		byGroup := map[string][]render.Pile{}
		for _, p := range sc.Center {
			byGroup[p.Group] = append(byGroup[p.Group], p)
		}
		pool := 0
		for _, place := range v.Pool {
			pool += len(place)
		}
		if len(byGroup["pool"]) != 1 || len(byGroup["pool"][0].Cards) != pool {
			s.Fatalf(t, "the pool holds %d cards", pool)
		}
		if deck := byGroup["deck"]; len(deck) != 2 || deck[0].Count != v.DeckSize || deck[1].Count != len(v.Discard) {
			s.Fatalf(t, "deck %d, discard pile %d", v.DeckSize, len(v.Discard))
		}
		if (len(byGroup["virtual"]) == 1) != v.Duel || v.Duel && len(byGroup["virtual"][0].Cards) != v.VirtualN {
			s.Fatalf(t, "the virtual row holds %d cards", v.VirtualN)
		}
		for i, p := range sc.Seats {
			d := v.Displays[i]
			if len(p.Piles) != len(d) {
				s.Fatalf(t, "seat %d shows %d layers of %d", i, len(p.Piles), len(d))
			}
			if len(d) > 0 && p.Piles[len(d)-1].Label != l.T("lynx.screen.top", nil) {
				s.Fatalf(t, "seat %d: the last pile is not the top layer", i)
			}
			for k, layer := range d {
				if got := len(p.Piles[k].Cards); got != layer.Size() {
					s.Fatalf(t, "seat %d layer %d: %d cards of %d", i, k, got, layer.Size())
				}
			}
			if want := l.N("common.points", v.Scores[i], nil); !slices.Contains(p.Counts, want) {
				s.Fatalf(t, "seat %d: no %q in %q", i, want, p.Counts)
			}
		}
		if v.Phase == "over" && (len(sc.Result) < 1+v.Seats || !rendertest.Ranked(sc.Result[len(sc.Result)-v.Seats:])) {
			s.Fatalf(t, "the result has %d lines", len(sc.Result))
		}
	},
	Seen: func(s rendertest.Shown) string {
		if s.Screen.Prompt == "" {
			return ""
		}
		return s.View.(*lynx.View).Phase
	},
}

// Over whole AI games of every seat count (two is the duel) and every mode,
// the screen of every seat and of a spectator, in every language, holds
// only what the view holds (re-dealing the hidden cards changes nothing),
// agrees with the state on who acts and whether the game is over, prompts
// exactly the seat that must act, names every face-up card, marks exactly
// the cards the viewer may play, and shows a Polish or Ukrainian reader no
// English id. Every situation that asks for a decision is reached.
func TestLynxScreen(t *testing.T) {
	t.Parallel()
	b := rendertest.Bundle(t)
	var cases []rendertest.Case
	for seats := 2; seats <= 5; seats++ {
		for _, mode := range []string{"basic", "advanced", "expert"} {
			seed := uint64(100*seats + 10*len(cases))
			cases = append(cases, rendertest.Case{Name: mode + "/" + strconv.Itoa(seats), Seats: seats,
				Options: engine.Options{"mode": mode}, Seeds: rendertest.Seeds(seed, 2), Every: 3})
		}
	}
	seen := lynxScreens.Play(t, b, cases)
	all := map[string]bool{}
	for i, c := range cases {
		for phase := range seen[i] {
			all[phase] = true
			all[c.Options["mode"]+" "+phase] = true
			if c.Seats == 2 {
				all["duel "+phase] = true
			}
		}
	}
	for _, want := range []string{"play", "take", "back", "draw", "basic bonus", "duel steal-virtual"} {
		if !all[want] && !t.Failed() {
			t.Errorf("no game asked a seat to decide: %s (seen %v)", want, all)
		}
	}
}

// The words of the screen's parts, as a reader sees them, for views made
// by hand: empty piles read as words in the pile's grammatical gender, the
// prompt speaks to the viewer, and a shared win names the viewer "you".
func TestLynxScreenWords(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"Ala", "Bolek", "Celina"}
	base := func() *lynx.View {
		return &lynx.View{
			Seat: 0, Seats: 3, Mode: lynx.Basic, Phase: "play", Active: 0, Acting: []engine.Seat{0}, Victim: -1,
			Hand: []lynx.Card{4, 4, lynx.Joker}, Groups: []lynx.Group{{Card: 4, Count: 2}, {Card: lynx.Joker, Count: 1}},
			HandSizes: []int{3, 5, 6}, Displays: make([][]lynx.Layer, 3), Scores: []int{-3, -5, -6},
		}
	}
	tests := []struct {
		name string
		lang string
		view func() *lynx.View
		part func(render.Screen) []string
		want []string
	}{
		{"empty pool and piles", "pl", base, rendertest.CenterTexts, []string{"Pula: pusta", "Talia: pusta", "Stos kart odrzuconych: pusty"}},
		{"empty pool and piles", "uk", base, rendertest.CenterTexts, []string{"Викладка: порожня", "Колода: порожня", "Скид: порожній"}},
		{"empty pool and piles", "en", base, rendertest.CenterTexts, []string{"Pool: empty", "Deck: empty", "Discard pile: empty"}},
		{"pool, deck, discard", "pl", func() *lynx.View {
			v := base()
			v.Pool, v.DeckSize, v.Discard = [][]lynx.Card{{7}, {2, 13}}, 22, []lynx.Card{5, 9}
			return v
		}, rendertest.CenterTexts, []string{"Pula: 7 · 2+13", "Talia: 22 karty", "Stos kart odrzuconych: 2 karty, na wierzchu leży „9”"}},
		{"play", "en", base, rendertest.Prompt, []string{"Play a set: cards of one value (jokers may join)."}},
		{"take", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Played, v.Victim, v.Stolen = "take", []lynx.Card{5, 5}, 2, []lynx.Card{2, 2}
			return v
		}, rendertest.Prompt, []string{"Weź na rękę karty ukradzione graczowi Celina (2 2) albo ich nie bierz."}},
		{"back", "uk", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Stolen = "back", 1, 0, []lynx.Card{2, 2}
			return v
		}, rendertest.Prompt, []string{"Bolek не бере ваших карт (2 2): заберіть їх назад на руку або скиньте їх і доберіть стільки ж."}},
		{"draw 5", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Owed, v.DeckSize = "draw", 1, 0, 5, 30
			return v
		}, rendertest.Prompt, []string{"Dobierz jeszcze 5 kart, po jednej, z talii albo z puli."}},
		{"draw 2 from the pool", "uk", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Owed = "draw", 1, 0, 2
			return v
		}, rendertest.Prompt, []string{"Візьміть ще 2 карти з викладки, по одній."}},
		{"robbed, seen by the robbed", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Acting, v.Victim, v.Played, v.Stolen = "take", 1, []engine.Seat{1}, 0, []lynx.Card{6, 6}, []lynx.Card{2, 2}
			return v
		}, func(sc render.Screen) []string { return append(slices.Clone(sc.Doing), rendertest.CenterTexts(sc)...) },
			[]string{"Bolek kradnie ci 2 2 i decyduje: wziąć te karty na rękę czy zostawić je tobie.", "Twoje ukradzione karty: 2 2", "Bolek zagrywa w tej turze: 6 6"}},
		{"shared win", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Acting, v.Winners, v.Note, v.Reason, v.Scores = "over", nil, []engine.Seat{0, 2}, "shared", "cards_out", []int{4, 1, 4}
			v.HandSizes, v.Places, v.TieBreak = []int{3, 5, 3}, []int{1, 3, 1}, []int{3, 5, 3}
			return v
		}, func(sc render.Screen) []string { return sc.Result },
			[]string{"Wspólne zwycięstwo: ty i Celina – wynik: 4 punkty", "Dzielisz pierwsze miejsce (także: Celina).",
				"Remis (4 punkty): decyduje mniejsza liczba kart na ręce (Ala: 3 karty na ręce · Celina: 3 karty na ręce).",
				"1. Ala: 4 punkty (3 karty na ręce)", "3. Bolek: 1 punkt (5 kart na ręce)", "1. Celina: 4 punkty (3 karty na ręce)"}},
		{"won by the hands", "en", func() *lynx.View {
			v := base()
			v.Phase, v.Acting, v.Winners, v.Note, v.Reason, v.Scores = "over", nil, []engine.Seat{1}, "tiebreak", "hand_empty", []int{3, 3, 1}
			v.HandSizes, v.Places, v.TieBreak = []int{4, 2, 5}, []int{2, 1, 3}, []int{4, 2, 5}
			return v
		}, func(sc render.Screen) []string { return sc.Result },
			[]string{"Bolek wins with 3 points", "You finished 2nd.",
				"Tied on 3 points: fewer cards in hand decide (Bolek: 2 cards in hand · Ala: 4 cards in hand).",
				"1st Bolek: 3 points (2 cards in hand)", "2nd Ala: 3 points (4 cards in hand)", "3rd Celina: 1 point (5 cards in hand)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.lang, func(t *testing.T) {
			sc, _ := render.ScreenOf("lynx", b.Lang(tt.lang), tt.view(), names, nil)
			got := tt.part(sc)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q in %q", w, got)
				}
			}
		})
	}
}
