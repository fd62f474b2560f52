package princesses_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// ---------------------------------------------------------------- Rebel Princess

var pcsNotation = regexp.MustCompile(`\b[QFAP](1[0-2]|[1-9])\b`)

// princessesScreens: the heuristic at even seats, the random player at odd
// ones; no princess or round card id, no card notation in any text.
func princessesScreens() rendertest.Screens {
	var ids []string
	for _, ed := range []princesses.Edition{princesses.Deluxe, princesses.Classic} {
		ids = append(ids, princesses.PrincessIDs(ed, true)...)
		ids = append(ids, princesses.RoundCardIDs(ed)...)
	}
	slices.Sort(ids)
	return rendertest.Screens{
		Game: princesses.Game{}, AI: []engine.Player{princesses.Heuristic{}, engine.Random{}},
		IDs: slices.Compact(ids), Notation: pcsNotation, Never: []string{"†"},
		You: "princesses.screen.you", Rounds: true, DownWords: true,
		Hand: func(ev engine.View) []string { return rendertest.Codes(ev.(*princesses.View).Hand) },
		Marks: func(st engine.State, viewer engine.Seat) (hand, chosen []string) {
			v := st.View(viewer).(*princesses.View)
			for _, ea := range st.Legal(viewer) {
				a := ea.(princesses.Action)
				switch {
				case a.Kind == princesses.KindChoose:
					chosen = append(chosen, a.Princess.String())
				case v.Phase == "play" && a.Kind == princesses.KindPlay && a.Pow == 0,
					a.Kind == princesses.KindAside, a.Kind == princesses.KindGift, a.Kind == princesses.KindGive,
					a.Kind == princesses.KindOffer, a.Kind == princesses.KindSwap:
					hand = append(hand, a.Cards[0].String())
				case a.Kind == princesses.KindPass, a.Kind == princesses.KindSplit:
					hand = append(hand, rendertest.Codes(a.CardList())...)
				}
			}
			return hand, chosen
		},
		Check: princessesScreenCheck,
	}
}

func princessesScreenCheck(t *testing.T, s rendertest.Shown) {
	t.Helper()
	v, sc, l, at := s.View.(*princesses.View), s.Screen, s.L, s.Where
	if v.Phase == "over" {
		if sc.Rule != nil {
			t.Errorf("%s: a rule once over", at)
		}
		// One line per seat after the winners.
		if len(sc.Result) < 1+v.Seats {
			t.Errorf("%s: Result %q", at, sc.Result)
		}
	} else {
		switch r := sc.Rule; {
		case r == nil:
			t.Errorf("%s: no Rule", at)
		case r.Name == "" || r.Short == "" || strings.Contains(r.Short, "\n") || len(r.Short) >= len(r.Full) || !strings.Contains(r.Full, l.T("princesses.round."+v.RoundCard+".text"+map[bool]string{true: "_classic"}[v.Edition == princesses.Classic], nil)):
			t.Errorf("%s: Rule %+v", at, *r)
		}
	}
	// The chart: the totals after every completed round, the last one the
	// view's totals.
	switch {
	case len(v.Scores) == 0 && sc.Chart != nil:
		t.Errorf("%s: a chart before the first score", at)
	case len(v.Scores) > 0 && (sc.Chart == nil || len(sc.Chart.Rounds) != len(v.Scores) || len(sc.Chart.Names) != v.Seats):
		t.Errorf("%s: Chart %+v for %d rounds", at, sc.Chart, len(v.Scores))
	case len(v.Scores) > 0 && !slices.Equal(sc.Chart.Rounds[len(v.Scores)-1], v.Totals):
		t.Errorf("%s: the chart ends on %v, the totals are %v", at, sc.Chart.Rounds[len(v.Scores)-1], v.Totals)
	}
	// The trick in play order, each card naming who played it.
	if len(v.Trick) > 0 {
		if len(sc.Center) == 0 || len(sc.Center[0].Cards) < len(v.Trick) {
			t.Fatalf("%s: the trick %v is not in the center %+v", at, v.Trick, sc.Center)
		}
		for i, p := range v.Trick {
			c := sc.Center[0].Cards[i]
			want := s.Names.Of(p.Seat)
			if p.Seat == v.Seat {
				want = l.T("princesses.screen.you", nil)
			}
			if c.Code != p.Card.String() || c.Note != want {
				t.Errorf("%s: trick card %d: %+v, played %v by %q", at, i, c, p, want)
			}
		}
	}
	// Your princess and her power, once you have one.
	if v.Seat >= 0 && v.Princess[v.Seat] != "" {
		id := v.Princess[v.Seat]
		found := slices.ContainsFunc(sc.Secret, func(p render.Pile) bool {
			return len(p.Cards) > 0 && p.Cards[0].Name == l.T("princesses.princess."+id+".name", nil) && p.Cards[0].Note == l.T("princesses.princess."+id+".power", nil)
		})
		if !found {
			t.Errorf("%s: your princess %s is not among the secrets %+v", at, id, sc.Secret)
		}
	}
	// Revealed princesses lie before their seats.
	if v.Phase != "choose" {
		for seat, id := range v.Princess {
			if id == "" {
				continue
			}
			name := l.T("princesses.princess."+id+".name", nil)
			if !slices.ContainsFunc(sc.Seats[seat].Piles, func(p render.Pile) bool { return len(p.Cards) == 1 && p.Cards[0].Name == name }) {
				t.Errorf("%s: seat %d's princess %s is not before the seat", at, seat, id)
			}
		}
	}
}

// Whole games of every edition, every seat count and every round card, at
// every step the screens of every seat and a spectator.
func TestPrincessesScreen(t *testing.T) {
	t.Parallel()
	b := rendertest.Bundle(t)
	type game struct {
		ed     string
		rounds []string
	}
	var games []game
	for _, ed := range []princesses.Edition{princesses.Deluxe, princesses.Classic} {
		ids := princesses.RoundCardIDs(ed)
		for i := 0; i < len(ids); i += 5 {
			rounds := ids[i:min(i+5, len(ids))]
			for len(rounds) < 5 {
				rounds = append(slices.Clone(rounds), ids[len(rounds)])
			}
			games = append(games, game{ed.String(), rounds})
		}
	}
	var cases []rendertest.Case
	for seats := 3; seats <= 6; seats++ {
		for k, gm := range games {
			if (testing.Short() || rendertest.RaceEnabled) && (k+seats)%3 != 0 {
				continue
			}
			opts := engine.Options{"edition": gm.ed, "rounds": strings.Join(gm.rounds, ","), "powers": "on"}
			if gm.ed == "classic" {
				opts["promo"] = "on"
			}
			cases = append(cases, rendertest.Case{Name: strconv.Itoa(seats) + "/" + strconv.Itoa(k), Seats: seats, Options: opts,
				Seeds: []uint64{uint64(100*seats + k + 1)}, Every: rendertest.Every(seats + 1)})
		}
	}
	princessesScreens().Play(t, b, cases)
}

// The prompt says what to do in the second person, naming whom the cards
// go to; the hand marks the cards that follow suit.
func TestPrincessesScreenWords(t *testing.T) {
	b := rendertest.Bundle(t)
	names := render.Names{"Ala", "Olena", "Bob", "Zosia"}
	card := func(s string) princesses.Card {
		c, ok := princesses.ParseCard(s)
		if !ok {
			t.Fatalf("bad card %q", s)
		}
		return c
	}
	base := princesses.View{
		Seat: 0, Seats: 4, Phase: "pass", Round: 1, Rounds: 5, RoundCard: "magic-beans", PassLeft: 3,
		Hand:      []princesses.Card{card("Q2"), card("Q5"), card("Q9"), card("F3"), card("P4")},
		HandSizes: []int{5, 5, 5, 5}, Princess: []string{"mulan", "", "", ""}, Acting: []engine.Seat{0, 1, 2, 3},
		Tricks: make([]int, 4), Totals: make([]int, 4), Used: make([]bool, 4), Revealed: make([][]princesses.Card, 4), SetAside: make([]int, 4),
		LastWin: -1, Pea: -1, Thumb: -1, FrozenSeat: -1, PowerSeat: -1, PowerTarget: -1,
	}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		v := base
		sc, _ := render.ScreenOf("princesses", l, &v, names, nil)
		if want := l.N("princesses.screen.prompt.pass", 3, map[string]any{"Name": "Olena"}); sc.Prompt != want {
			t.Errorf("%s: pass prompt %q, want %q", lang, sc.Prompt, want)
		}
		if !strings.Contains(sc.Prompt, "Olena") || strings.Contains(sc.Prompt, "Zosia") {
			t.Errorf("%s: the left neighbour is seat 1: %q", lang, sc.Prompt)
		}
		v.PassLeft, v.PassRight = 0, 2
		sc, _ = render.ScreenOf("princesses", l, &v, names, nil)
		if !strings.Contains(sc.Prompt, "Zosia") {
			t.Errorf("%s: the right neighbour is seat 3: %q", lang, sc.Prompt)
		}
		// Magic Beans, Queens led: only the highest or the lowest Queen.
		v = base
		v.Phase, v.Acting, v.Leader = "play", []engine.Seat{0}, 3
		v.Trick = []princesses.Play{{Seat: 3, Card: card("Q7")}}
		// The engine's legal actions say what may be played (Magic Beans:
		// the highest or the lowest Queen); the screen marks exactly those.
		legal := []engine.Action{}
		for _, text := range []string{"play Q2", "play Q9"} {
			a, err := princesses.ParseAction(text)
			if err != nil {
				t.Fatal(err)
			}
			legal = append(legal, a)
		}
		sc, _ = render.ScreenOf("princesses", l, &v, names, legal)
		var marked []string
		for _, c := range sc.Hand.Cards {
			if c.Mark {
				marked = append(marked, c.Code)
			}
		}
		if !slices.Equal(marked, []string{"Q2", "Q9"}) {
			t.Errorf("%s: marked %v, want Q2 and Q9", lang, marked)
		}
		if sc.Prompt != l.T("princesses.screen.prompt.play", nil) || sc.Center[0].Cards[0].Note != "Zosia" {
			t.Errorf("%s: prompt %q, center %+v", lang, sc.Prompt, sc.Center)
		}
		if line := sc.Seats[0].Line; !strings.HasPrefix(line, l.T("princesses.screen.you", nil)+": ") || strings.Contains(line, "Ala") {
			t.Errorf("%s: your seat's line %q", lang, line)
		}
		if sc.Rule == nil || sc.Rule.Short != l.T("princesses.round.magic-beans.short", nil) {
			t.Errorf("%s: rule %+v", lang, sc.Rule)
		}
		// Not your turn: nothing to do, nothing marked.
		v.Acting = []engine.Seat{1}
		sc, _ = render.ScreenOf("princesses", l, &v, names, nil)
		if sc.Prompt != "" || slices.ContainsFunc(sc.Hand.Cards, func(c render.Card) bool { return c.Mark }) {
			t.Errorf("%s: not acting: prompt %q, hand %+v", lang, sc.Prompt, sc.Hand)
		}
	}
}

// Every message the screens use exists in every language (a key missing in
// one language would fall back to English silently).
func TestScreenKeysInEveryLanguage(t *testing.T) {
	var want []string
	for _, lang := range locales.Languages() {
		keys, err := locales.Keys(lang)
		if err != nil {
			t.Fatal(err)
		}
		var mine []string
		for _, k := range keys {
			if strings.HasPrefix(k, "princesses.screen.") || strings.HasPrefix(k, "chapters.screen.") ||
				(strings.HasPrefix(k, "princesses.round.") && strings.Contains(k, ".short")) {
				mine = append(mine, k)
			}
		}
		if want == nil {
			want = mine
			continue
		}
		if !slices.Equal(mine, want) {
			t.Errorf("%s: the screen keys differ from %s's:\n%v\n%v", lang, locales.Languages()[0], mine, want)
		}
	}
	for _, ed := range []princesses.Edition{princesses.Deluxe, princesses.Classic} {
		for _, id := range princesses.RoundCardIDs(ed) {
			if !slices.Contains(want, "princesses.round."+id+".short") {
				t.Errorf("round card %s has no short text", id)
			}
		}
	}
}
