package lynx_test

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// screenAudit checks the screens of whole AI games of one game: at sampled
// steps and at the end, for every seat and a spectator, in every language.
type screenAudit struct {
	game engine.Game
	ai   engine.Player
	// english are notation words and internal ids of the game that a
	// Polish or Ukrainian reader must never see in the screen's words.
	english []string
	// marks lists the codes of the cards the viewer may play now (a hand
	// card is marked exactly when its code is listed) and of the center's
	// cards it may choose (a center card may be marked only when listed).
	marks func(st engine.State, viewer engine.Seat) (hand, center map[string]bool)
	// check is the game's own checks of one screen.
	check func(t *testing.T, st engine.State, viewer engine.Seat, sc render.Screen, l *locales.Localizer)
	// seen records what the screens showed (the prompts by phase), so the
	// test can tell that the games reached every situation.
	seen func(st engine.State, viewer engine.Seat, sc render.Screen) string
}

var auditNames = render.Names{"Ala", "Bolek", "Celina", "Darek", "Ewa"}

// play runs one AI game and audits its screens every `every` steps and at
// the end; it returns what the screens showed.
func (a screenAudit) play(t *testing.T, b *locales.Bundle, seats int, opts engine.Options, seed uint64, every int) map[string]bool {
	t.Helper()
	st, err := a.game.New(opts, seats, engine.NewRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	names := auditNames[:seats]
	seen := map[string]bool{}
	for step := 0; ; step++ {
		done, _ := st.Result()
		if step%every == 0 || done {
			for viewer := engine.Seat(-1); int(viewer) < seats; viewer++ {
				for _, lang := range locales.Languages() {
					sc := a.audit(t, b.Lang(lang), st, viewer, names, seed, step)
					if k := a.seen(st, viewer, sc); k != "" {
						seen[k] = true
					}
				}
			}
		}
		if done {
			return seen
		}
		if step > 20000 {
			t.Fatalf("seed %d: the game is not over after %d steps", seed, step)
		}
		s := st.Acting()[0]
		legal := st.Legal(s)
		move := a.ai.Choose(st.View(s), legal, engine.NewRand(seed, -step-1))
		if _, err := st.Apply(s, move, engine.NewRand(seed, step+1)); err != nil {
			t.Fatalf("seed %d step %d: %s: %v", seed, step, move, err)
		}
	}
}

// audit builds the screen of one view and checks it; it returns the screen.
func (a screenAudit) audit(t *testing.T, l *locales.Localizer, st engine.State, viewer engine.Seat, names render.Names, seed uint64, step int) render.Screen {
	t.Helper()
	id := a.game.ID()
	where := fmt.Sprintf("%s seed %d step %d %s viewer %d", id, seed, step, l.Tag(), viewer)
	sc, ok := render.ScreenOf(id, l, st.View(viewer), names)
	if !ok {
		t.Fatalf("%s: no screen builder", id)
	}
	checkPrivateParts(t, where, id, l, st.View(viewer), names, sc)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s\n%s", where, fmt.Sprintf(format, args...), auditDump(sc))
	}
	done, _ := st.Result()
	acting := viewer >= 0 && engine.IsActing(st, viewer)

	if sc.Game != id || sc.Viewer != viewer {
		fail("game %q viewer %d", sc.Game, sc.Viewer)
	}
	if !slices.Equal(sc.Acting, st.Acting()) {
		fail("Acting %v, the state says %v", sc.Acting, st.Acting())
	}
	if (sc.Prompt != "") != acting {
		fail("prompt %q while the viewer must act: %v", sc.Prompt, acting)
	}
	if (len(sc.Result) > 0) != done {
		fail("result %q while the game is over: %v", sc.Result, done)
	}
	if (sc.Hand == nil) != (viewer < 0) {
		fail("hand %v for viewer %d", sc.Hand, viewer)
	}
	if viewer < 0 && len(sc.Secret) > 0 {
		fail("a spectator is shown secrets")
	}
	if sc.Title == "" || sc.Rule != nil || sc.Chart != nil || len(sc.Center) == 0 {
		fail("title %q, rule %v, chart %v, %d center piles", sc.Title, sc.Rule, sc.Chart, len(sc.Center))
	}
	if len(sc.Seats) != len(names) {
		fail("%d seats, want %d", len(sc.Seats), len(names))
	}
	for i, p := range sc.Seats {
		s := engine.Seat(i)
		if p.Seat != s || p.Name != names.Of(s) || p.You != (s == viewer) || p.Acting != engine.IsActing(st, s) || p.Line == "" || len(p.Counts) == 0 {
			fail("seat %d is %+v", i, p)
		}
	}

	// The words: every key resolves, nothing is empty, and a Polish or
	// Ukrainian reader sees none of the game's English ids.
	words := auditWords(sc)
	for _, w := range words {
		if w == "" || strings.Contains(w, locales.MissingOpen) {
			fail("a missing or empty text: %q", w)
		}
	}
	if l.Tag() != "en" {
		english := map[string]bool{}
		for _, w := range a.english {
			english[strings.ToLower(w)] = true
		}
		for _, w := range words {
			for _, tok := range auditTokens(w) {
				if english[strings.ToLower(tok)] {
					fail("the English id %q in %q", tok, w)
				}
				if l.Tag() == "uk" && tok != "X" && !slices.Contains(names, tok) && strings.IndexFunc(tok, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
					fail("a Latin-script word %q in the Ukrainian %q", tok, w)
				}
			}
		}
	}

	// The screen speaks to the viewer in the second person: its name is
	// only on its seat and in the table of final scores.
	if viewer >= 0 {
		spoken := []string{sc.Title, sc.Prompt}
		spoken = append(spoken, sc.StatusLines()...)
		if len(sc.Result) > 0 {
			spoken = append(spoken, sc.Result[0])
		}
		var piles []render.Pile
		if sc.Hand != nil {
			piles = append(piles, *sc.Hand)
		}
		for _, p := range append(append(piles, sc.Secret...), sc.Center...) {
			spoken = append(spoken, p.Label, p.Text)
		}
		for _, w := range spoken {
			if slices.Contains(auditTokens(w), names.Of(viewer)) {
				fail("the viewer is named in the third person: %q", w)
			}
		}
	}

	// The cards: face up with a name, or face down with nothing but the
	// back; marked only where the viewer may play or choose them now.
	hand, center := a.marks(st, viewer)
	auditCards(sc, func(part string, c render.Card) {
		switch {
		case c.Down && (c.Name != "" || c.Suit != "" || c.Value != "" || c.Code != "" || c.Note != "" || c.Mark):
			fail("a face-down card shows %+v (%s)", c, part)
		case !c.Down && c.Name == "":
			fail("a face-up card without a name: %+v (%s)", c, part)
		case part == "hand" && c.Mark != hand[c.Code]:
			fail("hand card %s marked %v; playable now: %v", c.Code, c.Mark, hand)
		case part == "center" && c.Mark && !center[c.Code]:
			fail("center card %s marked; choosable now: %v", c.Code, center)
		case part != "hand" && part != "center" && c.Mark:
			fail("a %s card is marked: %+v", part, c)
		}
	})

	// Nothing hidden: re-dealing everything the viewer may not know
	// changes nothing on its screen.
	if hs, ok := st.(engine.HiddenShuffler); ok {
		other := hs.ShuffleHidden(viewer, engine.NewRand(seed, 1000000+step))
		again, _ := render.ScreenOf(id, l, other.View(viewer), names)
		if !reflect.DeepEqual(sc, again) {
			t.Fatalf("%s: the screen depends on what is hidden from the viewer:\n%s\n--- after re-dealing the hidden cards ---\n%s", where, auditDump(sc), auditDump(again))
		}
	}
	if a.check != nil {
		a.check(t, st, viewer, sc, l)
	}
	return sc
}

// auditWords are all the words of a screen a reader may read.
func auditWords(sc render.Screen) []string {
	out := []string{sc.Title}
	out = append(out, sc.Result...)
	if sc.Prompt != "" {
		out = append(out, sc.Prompt)
	}
	out = append(out, sc.StatusLines()...)
	piles := func(ps []render.Pile) {
		for _, p := range ps {
			out = append(out, p.Label, p.Text)
			for _, c := range p.Cards {
				if !c.Down {
					out = append(out, c.Name)
				}
				if c.Note != "" {
					out = append(out, c.Note)
				}
			}
		}
	}
	if sc.Hand != nil {
		piles([]render.Pile{*sc.Hand})
	}
	piles(sc.Secret)
	piles(sc.Center)
	for _, p := range sc.Seats {
		out = append(out, p.Name, p.Line)
		out = append(out, p.Counts...)
		piles(p.Piles)
	}
	return out
}

// auditTokens splits words into tokens of letters, digits, '_' and '-'.
func auditTokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	})
}

// auditCards calls f with every card of a screen and the part it is in:
// hand, secret, center or seat.
func auditCards(sc render.Screen, f func(part string, c render.Card)) {
	each := func(part string, ps []render.Pile) {
		for _, p := range ps {
			for _, c := range p.Cards {
				f(part, c)
			}
		}
	}
	if sc.Hand != nil {
		each("hand", []render.Pile{*sc.Hand})
	}
	each("secret", sc.Secret)
	each("center", sc.Center)
	for _, p := range sc.Seats {
		each("seat", p.Piles)
	}
}

// auditDump writes a screen for a failure message.
func auditDump(sc render.Screen) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title %q acting %v viewer %d prompt %q result %q status %q\n", sc.Title, sc.Acting, sc.Viewer, sc.Prompt, sc.Result, sc.StatusLines())
	pile := func(p render.Pile) {
		fmt.Fprintf(&b, "  [%s|%s] %q count %d:", p.Group, p.Label, p.Text, p.Count)
		for _, c := range p.Cards {
			fmt.Fprintf(&b, " %+v", c)
		}
		b.WriteByte('\n')
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
		fmt.Fprintf(&b, " seat %d %q you %v acting %v %q\n", s.Seat, s.Name, s.You, s.Acting, s.Line)
		for _, p := range s.Piles {
			pile(p)
		}
	}
	return b.String()
}

// auditGames is how many games each case plays: fewer under -race and
// -short.
func auditGames() int {
	if testing.Short() || raceEnabled {
		return 1
	}
	return 2
}

var lynxScreenAudit = screenAudit{
	game: lynx.Game{},
	ai:   lynx.Heuristic{},
	english: []string{
		"basic", "advanced", "expert", "duel", "play", "steal-virtual", "take", "leave", "back", "discard",
		"draw", "bonus", "over", "pass", "pool", "deck", "hand_empty", "cards_out", "tiebreak", "shared",
		"joker", "paw", "empty", "layer", "virtual",
	},
	marks: func(st engine.State, viewer engine.Seat) (hand, center map[string]bool) {
		hand, center = map[string]bool{}, map[string]bool{}
		if viewer < 0 {
			return
		}
		for _, ea := range st.Legal(viewer) {
			a := ea.(lynx.Action)
			switch a.Kind {
			case lynx.KindPlay:
				for _, c := range a.Set().Cards() {
					hand[c.String()] = true
				}
			case lynx.KindStealVirtual:
				center[a.Value.String()] = true
			}
		}
		return
	},
	check: func(t *testing.T, st engine.State, viewer engine.Seat, sc render.Screen, l *locales.Localizer) {
		t.Helper()
		v := st.View(viewer).(*lynx.View)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("lynx %s viewer %d: %s\n%s", l.Tag(), viewer, fmt.Sprintf(format, args...), auditDump(sc))
		}
		if sc.Hand != nil && len(sc.Hand.Cards) != len(v.Hand) {
			fail("a hand of %d cards for %d", len(sc.Hand.Cards), len(v.Hand))
		}
		if sc.Secret != nil {
			fail("lynx has no secrets")
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
			fail("the pool holds %d cards", pool)
		}
		if deck := byGroup["deck"]; len(deck) != 2 || deck[0].Count != v.DeckSize || deck[1].Count != len(v.Discard) {
			fail("deck %d, discard pile %d", v.DeckSize, len(v.Discard))
		}
		if (len(byGroup["virtual"]) == 1) != v.Duel || v.Duel && len(byGroup["virtual"][0].Cards) != v.VirtualN {
			fail("the virtual row holds %d cards", v.VirtualN)
		}
		for s, p := range sc.Seats {
			d := v.Displays[s]
			if len(p.Piles) != len(d) {
				fail("seat %d shows %d layers of %d", s, len(p.Piles), len(d))
			}
			if len(d) > 0 && p.Piles[len(d)-1].Label != l.T("lynx.screen.top", nil) {
				fail("seat %d: the last pile is not the top layer", s)
			}
			for k, layer := range d {
				if got := len(p.Piles[k].Cards); got != layer.Size() {
					fail("seat %d layer %d: %d cards of %d", s, k, got, layer.Size())
				}
			}
			if want := l.N("common.points", v.Scores[s], nil); !slices.Contains(p.Counts, want) {
				fail("seat %d: no %q in %q", s, want, p.Counts)
			}
		}
		if v.Phase == "over" && len(sc.Result) != 1+v.Seats+auditBtoi(v.Note == "tiebreak") {
			fail("the result has %d lines", len(sc.Result))
		}
	},
	seen: func(st engine.State, viewer engine.Seat, sc render.Screen) string {
		if sc.Prompt == "" {
			return ""
		}
		return st.View(viewer).(*lynx.View).Phase
	},
}

func auditBtoi(b bool) int {
	if b {
		return 1
	}
	return 0
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
	b := bundle(t)
	type tc struct {
		seats int
		mode  string
	}
	var cases []tc
	for seats := 2; seats <= 5; seats++ {
		for _, mode := range []string{"basic", "advanced", "expert"} {
			cases = append(cases, tc{seats, mode})
		}
	}
	seen := make([]map[string]bool, len(cases))
	t.Run("games", func(t *testing.T) {
		for i, c := range cases {
			t.Run(c.mode+"/"+strconv.Itoa(c.seats), func(t *testing.T) {
				t.Parallel()
				seen[i] = map[string]bool{}
				for k := range auditGames() {
					seed := uint64(100*c.seats + 10*i + k + 1)
					for phase := range lynxScreenAudit.play(t, b, c.seats, engine.Options{"mode": c.mode}, seed, 3) {
						seen[i][phase] = true
					}
				}
			})
		}
	})
	all := map[string]bool{}
	for i, c := range cases {
		for phase := range seen[i] {
			all[phase] = true
			all[c.mode+" "+phase] = true
			if c.seats == 2 {
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
	b := bundle(t)
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
		{"empty pool and piles", "pl", base, auditCenterTexts, []string{"Pula: pusta", "Talia: pusta", "Stos kart odrzuconych: pusty"}},
		{"empty pool and piles", "uk", base, auditCenterTexts, []string{"Викладка: порожня", "Колода: порожня", "Скид: порожній"}},
		{"empty pool and piles", "en", base, auditCenterTexts, []string{"Pool: empty", "Deck: empty", "Discard pile: empty"}},
		{"pool, deck, discard", "pl", func() *lynx.View {
			v := base()
			v.Pool, v.DeckSize, v.Discard = [][]lynx.Card{{7}, {2, 13}}, 22, []lynx.Card{5, 9}
			return v
		}, auditCenterTexts, []string{"Pula: 7 · 2+13", "Talia: 22 karty", "Stos kart odrzuconych: 2 karty, na wierzchu leży „9”"}},
		{"play", "en", base, auditPrompt, []string{"Play a set: cards of one value (jokers may join)."}},
		{"take", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Played, v.Victim, v.Stolen = "take", []lynx.Card{5, 5}, 2, []lynx.Card{2, 2}
			return v
		}, auditPrompt, []string{"Weź na rękę karty ukradzione graczowi Celina (2 2) albo ich nie bierz."}},
		{"back", "uk", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Stolen = "back", 1, 0, []lynx.Card{2, 2}
			return v
		}, auditPrompt, []string{"Bolek не бере ваших карт (2 2): заберіть їх назад на руку або скиньте їх і доберіть стільки ж."}},
		{"draw 5", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Owed, v.DeckSize = "draw", 1, 0, 5, 30
			return v
		}, auditPrompt, []string{"Dobierz jeszcze 5 kart, po jednej, z talii albo z puli."}},
		{"draw 2 from the pool", "uk", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Victim, v.Owed = "draw", 1, 0, 2
			return v
		}, auditPrompt, []string{"Візьміть ще 2 карти з викладки, по одній."}},
		{"robbed, seen by the robbed", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Active, v.Acting, v.Victim, v.Played, v.Stolen = "take", 1, []engine.Seat{1}, 0, []lynx.Card{6, 6}, []lynx.Card{2, 2}
			return v
		}, func(sc render.Screen) []string { return append(slices.Clone(sc.Doing), auditCenterTexts(sc)...) },
			[]string{"Bolek kradnie ci 2 2 i decyduje: wziąć te karty na rękę czy zostawić je tobie.", "Twoje ukradzione karty: 2 2", "Bolek zagrywa w tej turze: 6 6"}},
		{"shared win", "pl", func() *lynx.View {
			v := base()
			v.Phase, v.Acting, v.Winners, v.Note, v.Reason, v.Scores = "over", nil, []engine.Seat{0, 2}, "shared", "cards_out", []int{4, 1, 4}
			return v
		}, func(sc render.Screen) []string { return sc.Result },
			[]string{"Zwycięstwo ex aequo: ty i Celina!", "Ala: 4 punkty (3 karty na ręce)", "Bolek: 1 punkt (5 kart na ręce)", "Celina: 4 punkty (6 kart na ręce)"}},
		{"won by the hands", "en", func() *lynx.View {
			v := base()
			v.Phase, v.Acting, v.Winners, v.Note, v.Reason = "over", nil, []engine.Seat{1}, "tiebreak", "hand_empty"
			return v
		}, func(sc render.Screen) []string { return sc.Result[:2] },
			[]string{"The winner: Bolek!", "A tie on points: fewer cards in hand decides."}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.lang, func(t *testing.T) {
			sc, _ := render.ScreenOf("lynx", b.Lang(tt.lang), tt.view(), names)
			got := tt.part(sc)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q in %q", w, got)
				}
			}
		})
	}
}

func auditCenterTexts(sc render.Screen) []string {
	var out []string
	for _, p := range sc.Center {
		out = append(out, p.Text)
	}
	return out
}

func auditPrompt(sc render.Screen) []string { return []string{sc.Prompt} }
