package courtiers_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	present "github.com/stolik-bot/stolik/render/courtiers"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// courtiersMissionIDs are the ids of every mission.
func courtiersMissionIDs() []string {
	var out []string
	for _, white := range []bool{true, false} {
		for _, m := range courtiers.Missions(white) {
			out = append(out, m.String())
		}
	}
	return out
}

var courtiersScreens = rendertest.Screens{
	Game: courtiers.Game{}, // the heuristic at every seat
	English: append([]string{
		"butterfly", "toad", "nightingale", "hare", "stag", "carp", "noble", "guard", "assassin", "spy",
		"plain", "up", "down", "own", "opp", "esteemed", "disgraced", "neutral", "play", "over", "place",
		"kill", "face_down", "queen", "domain",
	}, courtiersMissionIDs()...),
	SecondPerson: true,
	IDs:          append([]string{"face_down"}, courtiersMissionIDs()...),
	Hand:         func(v engine.View) []string { return rendertest.Codes(v.(*courtiers.View).Hand) },
	Marks: func(st engine.State, viewer engine.Seat) (hand, _ []string) {
		for _, a := range st.Legal(viewer) {
			hand = append(hand, a.(courtiers.Action).Card.String())
		}
		return hand, nil
	},
	Check: func(t *testing.T, s rendertest.Shown) {
		t.Helper()
		v, sc, l, viewer := s.View.(*courtiers.View), s.Screen, s.L, s.Viewer
		over := v.Final != nil

		// No spy shows face up before the end but in the viewer's hand,
		// by card or by name; no other seat's mission is named.
		rendertest.Cards(sc, func(part, where string, c render.Card) {
			if !over && part != "hand" && !c.Down && strings.HasSuffix(c.Code, "-spy") {
				s.Fatalf(t, "a spy face up in the %s: %+v", where, c)
			}
		})
		if !over {
			var spies []string
			for f := courtiers.Family(0); f < courtiers.NumFamilies; f++ {
				spies = append(spies, present.CourtierCard(l, courtiers.NewCard(f, courtiers.Spy)))
			}
			words := rendertest.Texts(sc)
			if sc.Hand != nil {
				words = slices.DeleteFunc(words, func(w string) bool { return w == sc.Hand.Text })
			}
			for _, w := range words {
				for _, spy := range spies {
					if strings.Contains(w, spy) {
						s.Fatalf(t, "a spy named outside the viewer's hand: %q", w)
					}
				}
			}
			for other := 0; other < v.Seats; other++ {
				if engine.Seat(other) == viewer {
					continue
				}
				for _, m := range s.State.View(engine.Seat(other)).(*courtiers.View).Missions {
					name, _ := present.CourtierMission(l, m)
					if slices.Contains(v.Missions[:], m) {
						continue
					}
					for _, w := range words {
						if strings.Contains(w, name) {
							s.Fatalf(t, "seat %d's mission %s named: %q", other, m, w)
						}
					}
				}
			}
		}

		// The missions are the viewer's, name only.
		var missions []string
		for _, m := range v.Missions {
			if m != courtiers.NoMission {
				name, _ := present.CourtierMission(l, m)
				missions = append(missions, name)
			}
		}
		if len(sc.Secret) != len(missions) {
			s.Fatalf(t, "%d secret piles for %d missions", len(sc.Secret), len(missions))
		}
		for i, p := range sc.Secret {
			if len(p.Cards) != 1 || p.Cards[0] != (render.Card{Name: missions[i]}) {
				s.Fatalf(t, "secret pile %d: %+v", i, p.Cards)
			}
		}

		// The Queen's table: a pile above and one below the table per
		// family, and the Queen's column of face-down spies while the
		// game lasts; the face-down cards are exactly the spies the view
		// counts.
		columns := int(courtiers.NumFamilies)
		if !over {
			columns++
		}
		groups := map[string]int{}
		down := 0
		for _, p := range sc.Center {
			groups[p.Group]++
			for _, c := range p.Cards {
				if c.Down {
					down++
				}
			}
		}
		if groups["up"] != columns || groups["down"] != columns || groups["aside"] != 2 {
			s.Fatalf(t, "center groups %v", groups)
		}
		if want := v.QueenUp + v.QueenDown + v.Ghosts; down != want {
			s.Fatalf(t, "%d face-down cards in the center, the view has %d", down, want)
		}
		if sc.Center[len(sc.Center)-1].Count != v.Deck {
			s.Fatalf(t, "the draw pile counts %d, the view %d", sc.Center[len(sc.Center)-1].Count, v.Deck)
		}
		for i, p := range sc.Seats {
			n, hidden := 0, 0
			for _, pile := range p.Piles {
				for _, c := range pile.Cards {
					n++
					if c.Down {
						hidden++
					}
				}
			}
			d := v.Domains[i]
			if n != len(d.Cards)+d.Hidden || hidden != d.Hidden {
				s.Fatalf(t, "seat %d shows %d cards, %d face down; the view %d and %d", i, n, hidden, len(d.Cards)+d.Hidden, d.Hidden)
			}
		}
		if over && (len(sc.Result) < 1+v.Seats || !rendertest.Ranked(sc.Result[len(sc.Result)-v.Seats:])) {
			s.Fatalf(t, "the result has %d lines", len(sc.Result))
		}
	},
	Seen: func(s rendertest.Shown) string {
		v := s.View.(*courtiers.View)
		switch {
		case s.Screen.Prompt != "":
			return "open " + strconv.Itoa(rendertest.Btoi(v.QueenOpen)+rendertest.Btoi(v.OwnOpen)+rendertest.Btoi(v.OppOpen))
		case v.Final != nil && len(v.Final.Winners) > 1:
			return "shared"
		case v.Final != nil:
			return "won"
		}
		return ""
	},
}

// Over whole AI games of every seat count, the screen of every seat and of
// a spectator, in every language, holds only what the view holds
// (re-dealing the other hands, the deck, the other missions and the
// identity of every face-down spy changes nothing), shows a spy face up or
// by name only in the viewer's own hand while the game lasts, names no
// other seat's mission, agrees with the state on who acts and whether the
// game is over, prompts exactly the seat whose turn it is, marks exactly
// the cards it may place, and shows a Polish or Ukrainian reader no English
// id. Turns with three, two and one areas left to fill are all reached.
func TestCourtiersScreen(t *testing.T) {
	t.Parallel()
	b := rendertest.Bundle(t)
	var cases []rendertest.Case
	for seats := 2; seats <= 5; seats++ {
		cases = append(cases, rendertest.Case{Name: strconv.Itoa(seats), Seats: seats, Seeds: rendertest.Seeds(uint64(100*seats), 2), Every: 2})
	}
	for i, got := range courtiersScreens.Play(t, b, cases) {
		for _, want := range []string{"open 3", "open 2", "open 1"} {
			if !got[want] && !t.Failed() {
				t.Errorf("%d seats: no screen asked to place a card with %s (seen %v)", cases[i].Seats, want, got)
			}
		}
	}
}

// The words of the screen's parts for views made by hand: the prompt lists
// the areas still open in the second person, placements by or into the
// viewer's domain speak to the viewer, empty columns and piles read as
// words, and a face-down spy is a card back.
func TestCourtiersScreenWords(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"Ala", "Bolek", "Celina"}
	carp := courtiers.NewCard(courtiers.Carp, courtiers.Plain)
	hareNoble := courtiers.NewCard(courtiers.Hare, courtiers.Noble)
	toadSpy := courtiers.NewCard(courtiers.Toad, courtiers.Spy)
	base := func() *courtiers.View {
		return &courtiers.View{
			Seat: 0, Seats: 3, Phase: "play", Turn: 0, Acting: []engine.Seat{0},
			QueenOpen: true, OwnOpen: true, OppOpen: true, LastSeat: -1,
			Hand: []courtiers.Card{carp, hareNoble, toadSpy}, Missions: [2]courtiers.Mission{1, 11},
			HandSizes: []int{3, 3, 3}, Domains: make([]courtiers.Domain, 3), QueenUp: 1,
		}
	}
	tests := []struct {
		name string
		lang string
		view func() *courtiers.View
		part func(render.Screen) []string
		want []string
	}{
		{"three areas", "en", base, rendertest.Prompt, []string{"Place one card each at the Queen's table, in your domain and in an opponent's domain."}},
		{"three areas", "pl", base, rendertest.Prompt, []string{"Zagraj po jednej karcie przy stole Królowej, w swojej domenie i w domenie przeciwnika."}},
		{"three areas", "uk", base, rendertest.Prompt, []string{"Розмістіть по одній карті за столом Королеви, у своїх володіннях та у володіннях суперника."}},
		{"one area", "pl", func() *courtiers.View {
			v := base()
			v.QueenOpen, v.OwnOpen = false, false
			v.Moves = []courtiers.Placement{{Card: courtiers.NoCard, Area: courtiers.AreaUp}, {Card: carp, Area: courtiers.AreaOwn}}
			return v
		}, func(sc render.Screen) []string { return append(rendertest.Prompt(sc), sc.Recent...) },
			[]string{"Zagraj kartę w domenie przeciwnika.", "W tej turze: Zagrywasz nad stołem Królowej: zakryty szpieg. Zagrywasz w swojej domenie: Karp."}},
		{"into the viewer's domain", "uk", func() *courtiers.View {
			v := base()
			v.Turn, v.Acting, v.OppOpen = 1, []engine.Seat{1}, false
			v.Moves = []courtiers.Placement{{Card: hareNoble, Area: courtiers.AreaOpp, Opp: 0}}
			return v
		}, func(sc render.Screen) []string { return append(append([]string{sc.Title}, sc.Doing...), sc.Recent...) },
			[]string{"Хід: Bolek", "Зараз грає Bolek — ще лишилося: стіл Королеви, власні володіння", "Цього ходу: Bolek розміщує у ваші володіння: Заєць (вельможа)."}},
		{"empty table", "pl", base, rendertest.CenterTexts, []string{"Karpie nad stołem: brak", "Kolumna Królowej nad stołem: 1 zakryty szpieg", "Wyeliminowane: brak", "Talia: pusta"}},
		{"hand and missions", "pl", base, func(sc render.Screen) []string {
			out := []string{sc.Hand.Text, sc.Title}
			for _, p := range sc.Secret {
				out = append(out, p.Label, p.Cards[0].Name)
			}
			return out
		}, []string{"Twoja ręka: Karp, Zając (szlachcic), Ropucha (szpieg)", "Twoja tura", "Biała misja", "Mniej Motyli", "Niebieska misja", "Motyle w niełasce"}},
		{"won", "en", func() *courtiers.View {
			v := base()
			v.Phase, v.Acting, v.Hand, v.QueenUp = "over", nil, nil, 0
			v.Final = &courtiers.Final{
				Points: []int{-2, 4, 0}, Totals: []int{1, 4, 0}, Winners: []engine.Seat{1}, Places: []int{2, 1, 3},
				Missions: [][2]courtiers.MissionResult{{{Mission: 1, Done: true}, {Mission: 11}}, {{Mission: 2}, {Mission: 12}}, {{Mission: 3}, {Mission: 13}}},
				Status:   [courtiers.NumFamilies]courtiers.Status{courtiers.Disgraced, courtiers.Esteemed, courtiers.Neutral, courtiers.Esteemed, courtiers.Neutral, courtiers.Disgraced},
			}
			return v
		}, func(sc render.Screen) []string { return append(sc.Result, sc.Title, sc.Hand.Text) },
			[]string{"Bolek wins with 4 points", "You finished 2nd.", "Esteemed: Toads, Hares · disgraced: Butterflies, Carp · neutral: Nightingales, Stags", "2nd Ala: 1 point (domain −2; missions: Fewer Butterflies ✓ +3, Butterflies disgraced ✗)", "The game is over", "Your hand is empty"}},
		{"shared", "pl", func() *courtiers.View {
			v := base()
			v.Phase, v.Acting, v.Hand, v.QueenUp = "over", nil, nil, 0
			v.Final = &courtiers.Final{
				Points: []int{1, 4, 1}, Totals: []int{4, 4, 1}, Winners: []engine.Seat{0, 1}, Places: []int{1, 1, 3},
				Missions: [][2]courtiers.MissionResult{{{Mission: 1, Done: true}, {Mission: 11}}, {{Mission: 2}, {Mission: 12}}, {{Mission: 3}, {Mission: 13}}},
			}
			return v
		}, func(sc render.Screen) []string { return sc.Result[:3] },
			[]string{"Wspólne zwycięstwo: ty i Bolek – wynik: 4 punkty", "Dzielisz pierwsze miejsce (także: Bolek).",
				"Remis (4 punkty: Ala, Bolek): zasady nie przewidują rozstrzygnięcia remisu, więc miejsce jest wspólne."}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.lang, func(t *testing.T) {
			sc, _ := render.ScreenOf("courtiers", b.Lang(tt.lang), tt.view(), names, nil)
			got := tt.part(sc)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q in %q", w, got)
				}
			}
			spies := 0
			for _, p := range sc.Center {
				for _, c := range p.Cards {
					if c.Down {
						spies++
					}
				}
			}
			if want := tt.view().QueenUp; spies != want {
				t.Errorf("%d face-down cards in the center, want %d", spies, want)
			}
		})
	}
}
