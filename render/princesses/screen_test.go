package princesses_test

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// This file and chapters_screen_test.go test the screens of Rebel Princess
// and 3 Chapters (render.Screen) on whole games played by the engine's AI
// players: at many points the screen of every seat and of a spectator is
// built in every language and checked against the state (pcs* helpers).

// pcsGame describes what the shared checks need to know of a game.
type pcsGame struct {
	id    string
	names render.Names
	// ids are the game's internal ids (princesses, round cards, card
	// keys): no text may show them.
	ids []string
	// notation matches a card's notation in running text.
	notation *regexp.Regexp
	// hand lists the notation of the view's own hand, in order.
	hand func(v engine.View) []string
	// legal lists the hand cards (notation) that the legal actions of the
	// acting viewer choose, for the marks; ok false when the step chooses
	// no hand card.
	legal func(v engine.View, legal []engine.Action) (cards []string, ok bool)
	// extra are the game's own checks.
	extra func(t *testing.T, where string, l *locales.Localizer, st engine.State, v engine.View, sc render.Screen)
}

// pcsTexts lists every text of a screen.
func pcsTexts(sc render.Screen) []string {
	out := []string{sc.Title, sc.Prompt}
	out = append(out, sc.Result...)
	out = append(out, sc.StatusLines()...)
	pile := func(p render.Pile) {
		out = append(out, p.Label, p.Text)
		for _, c := range p.Cards {
			out = append(out, c.Name, c.Note)
		}
	}
	if sc.Hand != nil {
		pile(*sc.Hand)
	}
	for _, p := range sc.Secret {
		pile(p)
	}
	for _, p := range sc.Center {
		pile(p)
	}
	for _, s := range sc.Seats {
		out = append(out, s.Name, s.Line)
		out = append(out, s.Counts...)
		for _, p := range s.Piles {
			pile(p)
		}
	}
	if sc.Rule != nil {
		out = append(out, sc.Rule.Name, sc.Rule.Short, sc.Rule.Full)
	}
	if sc.Chart != nil {
		out = append(out, sc.Chart.Title)
		out = append(out, sc.Chart.Names...)
	}
	return out
}

// pcsCards calls f with every card of a screen and where it is.
func pcsCards(sc render.Screen, f func(where string, c render.Card)) {
	pile := func(where string, p render.Pile) {
		for i, c := range p.Cards {
			f(fmt.Sprintf("%s.Cards[%d]", where, i), c)
		}
	}
	if sc.Hand != nil {
		pile("Hand", *sc.Hand)
	}
	for i, p := range sc.Secret {
		pile(fmt.Sprintf("Secret[%d]", i), p)
	}
	for i, p := range sc.Center {
		pile(fmt.Sprintf("Center[%d]", i), p)
	}
	for i, s := range sc.Seats {
		for j, p := range s.Piles {
			pile(fmt.Sprintf("Seats[%d].Piles[%d]", i, j), p)
		}
	}
}

func pcsDump(sc render.Screen) string { return fmt.Sprintf("%+v", sc) }

// pcsCheck builds the screen of every seat and a spectator in every
// language and checks it against the state.
func pcsCheck(t *testing.T, b *locales.Bundle, g pcsGame, st engine.State, where string, shuffleSeed uint64) {
	t.Helper()
	done, _ := st.Result()
	seats := len(g.names)
	acting := st.Acting()
	for viewer := engine.Seat(-1); int(viewer) < seats; viewer++ {
		v := st.View(viewer)
		for li, lang := range locales.Languages() {
			l := b.Lang(lang)
			at := fmt.Sprintf("%s seat %d %s", where, viewer, lang)
			sc, ok := render.ScreenOf(g.id, l, v, g.names)
			if !ok {
				t.Fatalf("%s: no screen builder", g.id)
			}
			pcsCheckOne(t, g, at, l, st, v, sc, acting, done)
			checkPrivateParts(t, at, g.id, l, v, g.names, sc)
			// The screen depends only on what the viewer may know: with
			// everything hidden from them re-dealt, it stays the same.
			if li == int(shuffleSeed%3) {
				hs, ok := st.(engine.HiddenShuffler)
				if !ok {
					t.Fatalf("%s has no HiddenShuffler", g.id)
				}
				other := hs.ShuffleHidden(viewer, engine.NewRand(shuffleSeed, int(viewer)))
				again, _ := render.ScreenOf(g.id, l, other.View(viewer), g.names)
				if !reflect.DeepEqual(sc, again) {
					t.Fatalf("%s: the screen depends on what is hidden from the viewer:\n%s\n--- after re-dealing the hidden cards ---\n%s", at, pcsDump(sc), pcsDump(again))
				}
			}
			if t.Failed() {
				t.Fatalf("%s: screen:\n%s", at, pcsDump(sc))
			}
		}
	}
}

func pcsCheckOne(t *testing.T, g pcsGame, at string, l *locales.Localizer, st engine.State, v engine.View, sc render.Screen, acting []engine.Seat, done bool) {
	t.Helper()
	viewer := v.ViewerSeat()
	if sc.Game != g.id || sc.Viewer != viewer {
		t.Errorf("%s: Game %q Viewer %d", at, sc.Game, sc.Viewer)
	}
	// Acting, Result, Prompt.
	if !slices.Equal(sc.Acting, acting) && !(len(sc.Acting) == 0 && len(acting) == 0) {
		t.Errorf("%s: Acting %v, the state's %v", at, sc.Acting, acting)
	}
	if done != (len(sc.Result) > 0) {
		t.Errorf("%s: over %v, Result %q", at, done, sc.Result)
	}
	for _, r := range sc.Result {
		if strings.TrimSpace(r) == "" {
			t.Errorf("%s: an empty Result line", at)
		}
	}
	mustAct := viewer >= 0 && slices.Contains(acting, viewer)
	if mustAct != (sc.Prompt != "") {
		t.Errorf("%s: must act %v, Prompt %q", at, mustAct, sc.Prompt)
	}
	if sc.Title == "" {
		t.Errorf("%s: no Title", at)
	}
	// Texts: every key found, no ids, no notation, no provisional marks.
	you := l.T(g.id+".screen.you", nil)
	for _, text := range pcsTexts(sc) {
		switch {
		case text == "":
		case strings.Contains(text, locales.MissingOpen):
			t.Errorf("%s: a missing key or template data: %q", at, text)
		case strings.Contains(text, "†"):
			t.Errorf("%s: a provisional mark: %q", at, text)
		case g.notation != nil && g.notation.MatchString(text):
			t.Errorf("%s: notation: %q", at, text)
		case strings.ContainsAny(text, "[-"):
			// An id in brackets, or a hyphenated id.
			for _, id := range g.ids {
				if strings.Contains(text, "["+id+"]") || (strings.Contains(id, "-") && strings.Contains(text, id)) {
					t.Errorf("%s: the id %q: %q", at, id, text)
				}
			}
		}
	}
	// Every card has a name.
	pcsCards(sc, func(w string, c render.Card) {
		if c.Name == "" {
			t.Errorf("%s: %s has no Name: %+v", at, w, c)
		}
		if !c.Down && c.Suit == "" && c.Value == "" && g.id == "princesses" && !strings.HasPrefix(w, "Secret") && !strings.Contains(w, "Piles") {
			t.Errorf("%s: %s: a face-up card without suit and value: %+v", at, w, c)
		}
	})
	// The hand is the view's own hand, marked as the legal actions allow.
	if (viewer < 0) != (sc.Hand == nil) {
		t.Fatalf("%s: viewer %d, Hand %v", at, viewer, sc.Hand)
	}
	if sc.Hand != nil {
		var codes, marked []string
		for _, c := range sc.Hand.Cards {
			codes = append(codes, c.Code)
			if c.Mark {
				marked = append(marked, c.Code)
			}
		}
		if want := g.hand(v); !slices.Equal(codes, want) {
			t.Errorf("%s: Hand %v, the view's %v", at, codes, want)
		}
		var want []string
		if mustAct {
			if cs, ok := g.legal(v, st.Legal(viewer)); ok {
				want = cs
			}
		}
		slices.Sort(marked)
		want = slices.Compact(slices.Sorted(slices.Values(want)))
		if !slices.Equal(marked, want) {
			t.Errorf("%s: marked %v, the legal actions choose %v", at, marked, want)
		}
	}
	if viewer < 0 && len(sc.Secret) > 0 {
		t.Errorf("%s: a spectator has secrets: %+v", at, sc.Secret)
	}
	// Seats.
	if len(sc.Seats) != len(g.names) {
		t.Fatalf("%s: %d seats", at, len(sc.Seats))
	}
	for i, s := range sc.Seats {
		seat := engine.Seat(i)
		if s.Seat != seat || s.Name != g.names[i] || s.You != (seat == viewer) || s.Acting != slices.Contains(acting, seat) {
			t.Errorf("%s: seat %d: %+v", at, i, s)
		}
		if len(s.Counts) == 0 || s.Line == "" {
			t.Errorf("%s: seat %d without counts or line: %+v", at, i, s)
		}
		if startsYou := strings.HasPrefix(s.Line, you+":"); startsYou != (seat == viewer) {
			t.Errorf("%s: seat %d (viewer %d): line %q", at, i, viewer, s.Line)
		}
	}
	if g.extra != nil {
		g.extra(t, at, l, st, v, sc)
	}
}

// pcsPlay plays a game with AI players (the game's heuristic at even
// seats, the random player at odd ones), checking the screens every
// `every` steps and at the end.
func pcsPlay(t *testing.T, b *locales.Bundle, g pcsGame, opts engine.Options, seed uint64, every int) {
	t.Helper()
	eg, err := engine.Lookup(g.id)
	if err != nil {
		t.Fatal(err)
	}
	su := engine.Setup{Game: g.id, Seats: len(g.names), Seed: seed, Options: opts}
	st, err := engine.Start(eg, su, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", g.id, opts, err)
	}
	heuristic, err := eg.(engine.Bots).Bot("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	players := []engine.Player{heuristic, engine.Random{}}
	r := engine.NewRand(seed, 99)
	for step := 0; step < 20000; step++ {
		done, _ := st.Result()
		if done || step%every == 0 {
			pcsCheck(t, b, g, st, fmt.Sprintf("%s %v seed %d step %d", g.id, opts, seed, step), seed+uint64(step))
		}
		if done {
			return
		}
		acting := st.Acting()
		s := acting[r.IntN(len(acting))]
		legal := st.Legal(s)
		a := players[int(s)%2].Choose(st.View(s), legal, r)
		if _, err := engine.Step(eg, st, seed, step, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
			t.Fatalf("%s seed %d step %d: %s: %v", g.id, seed, step, a, err)
		}
	}
	t.Fatalf("%s seed %d: the game did not end", g.id, seed)
}

// pcsEvery is how often the screens are checked: less often under -race
// and -short.
func pcsEvery(n int) int {
	if testing.Short() || raceEnabled {
		return 4 * n
	}
	return n
}

// ---------------------------------------------------------------- Rebel Princess

var pcsNotation = regexp.MustCompile(`\b[QFAP](1[0-2]|[1-9])\b`)

func princessesScreenGame(seats int) pcsGame {
	var ids []string
	for _, ed := range []princesses.Edition{princesses.Deluxe, princesses.Classic} {
		ids = append(ids, princesses.PrincessIDs(ed, true)...)
		ids = append(ids, princesses.RoundCardIDs(ed)...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return pcsGame{
		id: "princesses", names: render.Names{"Ala", "Olena", "Bob", "Zosia", "Marek", "Iryna"}[:seats], ids: ids, notation: pcsNotation,
		hand: func(ev engine.View) []string {
			var out []string
			for _, c := range ev.(*princesses.View).Hand {
				out = append(out, c.String())
			}
			return out
		},
		legal: func(ev engine.View, legal []engine.Action) ([]string, bool) {
			v := ev.(*princesses.View)
			var out []string
			for _, ea := range legal {
				a := ea.(princesses.Action)
				switch {
				case v.Phase == "play" && a.Kind == princesses.KindPlay && a.Pow == 0,
					a.Kind == princesses.KindAside, a.Kind == princesses.KindGift, a.Kind == princesses.KindGive,
					a.Kind == princesses.KindOffer, a.Kind == princesses.KindSwap:
					out = append(out, a.Cards[0].String())
				case a.Kind == princesses.KindPass, a.Kind == princesses.KindSplit:
					for _, c := range a.CardList() {
						out = append(out, c.String())
					}
				}
			}
			return out, true
		},
		extra: princessesScreenExtra,
	}
}

func princessesScreenExtra(t *testing.T, at string, l *locales.Localizer, st engine.State, ev engine.View, sc render.Screen) {
	t.Helper()
	v := ev.(*princesses.View)
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
			want := render.Names{"Ala", "Olena", "Bob", "Zosia", "Marek", "Iryna"}.Of(p.Seat)
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
		for s, id := range v.Princess {
			if id == "" {
				continue
			}
			name := l.T("princesses.princess."+id+".name", nil)
			if !slices.ContainsFunc(sc.Seats[s].Piles, func(p render.Pile) bool { return len(p.Cards) == 1 && p.Cards[0].Name == name }) {
				t.Errorf("%s: seat %d's princess %s is not before the seat", at, s, id)
			}
		}
	}
}

// Whole games of every edition, every seat count and every round card, at
// every step the screens of every seat and a spectator.
func TestPrincessesScreen(t *testing.T) {
	t.Parallel()
	b := bundle(t)
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
	for seats := 3; seats <= 6; seats++ {
		t.Run(strconv.Itoa(seats), func(t *testing.T) {
			t.Parallel()
			g := princessesScreenGame(seats)
			for k, gm := range games {
				if (testing.Short() || raceEnabled) && (k+seats)%3 != 0 {
					continue
				}
				opts := engine.Options{"edition": gm.ed, "rounds": strings.Join(gm.rounds, ","), "powers": "on"}
				if gm.ed == "classic" {
					opts["promo"] = "on"
				}
				pcsPlay(t, b, g, opts, uint64(100*seats+k+1), pcsEvery(seats+1))
			}
		})
	}
}

// The prompt says what to do in the second person, naming whom the cards
// go to; the hand marks the cards that follow suit.
func TestPrincessesScreenWords(t *testing.T) {
	b := bundle(t)
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
		sc, _ := render.ScreenOf("princesses", l, &v, names)
		if want := l.N("princesses.screen.prompt.pass", 3, map[string]any{"Name": "Olena"}); sc.Prompt != want {
			t.Errorf("%s: pass prompt %q, want %q", lang, sc.Prompt, want)
		}
		if !strings.Contains(sc.Prompt, "Olena") || strings.Contains(sc.Prompt, "Zosia") {
			t.Errorf("%s: the left neighbour is seat 1: %q", lang, sc.Prompt)
		}
		v.PassLeft, v.PassRight = 0, 2
		sc, _ = render.ScreenOf("princesses", l, &v, names)
		if !strings.Contains(sc.Prompt, "Zosia") {
			t.Errorf("%s: the right neighbour is seat 3: %q", lang, sc.Prompt)
		}
		// Magic Beans, Queens led: only the highest or the lowest Queen.
		v = base
		v.Phase, v.Acting, v.Leader = "play", []engine.Seat{0}, 3
		v.Trick = []princesses.Play{{Seat: 3, Card: card("Q7")}}
		sc, _ = render.ScreenOf("princesses", l, &v, names)
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
		// Thumbelina plays freely (not a Prince); a frozen card must be
		// played.
		marks := func(v *princesses.View) []string {
			sc, _ := render.ScreenOf("princesses", l, v, names)
			var out []string
			for _, c := range sc.Hand.Cards {
				if c.Mark {
					out = append(out, c.Code)
				}
			}
			return out
		}
		thumb := v
		thumb.RoundCard, thumb.Thumb = "once-upon-a-time", 0
		if got := marks(&thumb); !slices.Equal(got, []string{"Q2", "Q5", "Q9", "F3"}) {
			t.Errorf("%s: Thumbelina: marked %v", lang, got)
		}
		frozen := v
		frozen.RoundCard, frozen.FrozenSeat, frozen.MyFrozen = "once-upon-a-time", 0, card("F3")
		if got := marks(&frozen); !slices.Equal(got, []string{"F3"}) {
			t.Errorf("%s: frozen: marked %v", lang, got)
		}
		// Not your turn: nothing to do, nothing marked.
		v.Acting = []engine.Seat{1}
		sc, _ = render.ScreenOf("princesses", l, &v, names)
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
