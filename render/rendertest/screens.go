package rendertest

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// Screens checks the screens (render.Screen) of whole AI games of one game:
// at sampled steps and at the end, the screen of every seat and of a
// spectator, in every language, against the state (Play). Every game's
// screen test fills one in with what the shared checks need to know of the
// game and its own checks.
type Screens struct {
	Game engine.Game
	// Names are the seats' names; the suite's when nil.
	Names render.Names
	// AI are the players of the games: seat s plays AI[s%len(AI)]; the
	// game's heuristic bot at every seat when empty.
	AI []engine.Player

	// English are notation words and internal ids of the game that a
	// Polish or Ukrainian reader must never see as a word of a screen.
	English []string
	// Latin are the words in Latin script that a Ukrainian screen may show
	// as they are (Lynx's joker, X); the seats' names always may.
	Latin []string
	// IDs are the game's internal ids (princesses, round cards, card
	// keys): no reader may see one in brackets, nor one with a hyphen or
	// an underscore anywhere.
	IDs []string
	// Notation matches a card's notation in running text, in any language.
	Notation *regexp.Regexp
	// Never are marks no text of a screen may hold (3 Chapters'
	// provisional mark †).
	Never []string

	// You is the key of the word that opens the viewer's own seat line,
	// and no other ("You: …"), where the game's lines call the viewer so;
	// "" where they name every seat alike.
	You string
	// SecondPerson: the screen speaks to the viewer in the second person,
	// naming it only on its seat and in the table of final scores.
	SecondPerson bool
	// Rounds: the game is played in rounds under round cards, so a
	// screen may show a Rule and a Chart (the game's checks say when);
	// never otherwise.
	Rounds bool
	// DownWords: a face-down card bears words, a name ("a face-down
	// card") and maybe a note (who played it); otherwise it shows nothing
	// but its back. It never shows a suit, a value, a code or a mark.
	DownWords bool

	// Hand lists the codes of the view's own hand, in order.
	Hand func(v engine.View) []string
	// Marks lists the codes of the cards that the legal actions of the
	// viewer take, when the viewer must act: its hand's (a hand card is
	// marked exactly when its code is listed, and every code listed is in
	// the hand) and the others it may choose, in the center or among its
	// secrets (such a card may be marked only when its code is listed).
	// Nothing is marked when the viewer need not act, and nothing before a
	// seat ever.
	Marks func(st engine.State, viewer engine.Seat) (hand, chosen []string)
	// Check is the game's own checks of one screen.
	Check func(t *testing.T, s Shown)
	// Seen names what a screen shows ("" for nothing worth naming), so
	// the test can tell that the games reached every situation: Play
	// returns the names seen.
	Seen func(s Shown) string
}

// Shown is one screen under check and what it was built from.
type Shown struct {
	Where  string // the game, seed, step, language and viewer
	L      *locales.Localizer
	State  engine.State
	View   engine.View
	Viewer engine.Seat
	Names  render.Names
	Screen render.Screen
}

// Fatalf fails the test at once, saying where and showing the screen.
func (s Shown) Fatalf(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s: %s\n%s", s.Where, fmt.Sprintf(format, args...), Dump(s.Screen))
}

// A Case is games to play: at Seats seats with Options, one from each of
// Seeds, their screens checked every Every steps and at the end.
type Case struct {
	Name    string // the subtest's
	Seats   int
	Options engine.Options
	Seeds   []uint64
	Every   int
}

// Play plays the games of every case, the cases in parallel subtests of a
// subtest "games", and returns, once they are all over, what each case's
// screens showed (Seen).
func (g Screens) Play(t *testing.T, b *locales.Bundle, cases []Case) []map[string]bool {
	t.Helper()
	seen := make([]map[string]bool, len(cases))
	t.Run("games", func(t *testing.T) {
		for i, c := range cases {
			seen[i] = map[string]bool{}
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				for _, seed := range c.Seeds {
					g.game(t, b, c.Seats, c.Options, seed, c.Every, seen[i])
				}
			})
		}
	})
	return seen
}

// game plays one game with the AI players from seed and checks its screens
// every `every` steps and at the end, adding what they showed to seen.
func (g Screens) game(t *testing.T, b *locales.Bundle, seats int, opts engine.Options, seed uint64, every int, seen map[string]bool) {
	t.Helper()
	id := g.Game.ID()
	nm := g.Names
	if nm == nil {
		nm = names
	}
	if seats > len(nm) {
		t.Fatalf("%s: %d seats, %d names", id, seats, len(nm))
	}
	nm = nm[:seats]
	ai := g.AI
	if len(ai) == 0 {
		bots, ok := g.Game.(engine.Bots)
		if !ok {
			t.Fatalf("%s has no AI players", id)
		}
		h, err := bots.Bot("heuristic")
		if err != nil {
			t.Fatal(err)
		}
		ai = []engine.Player{h}
	}
	st, err := engine.Start(g.Game, engine.Setup{Game: id, Seats: seats, Seed: seed, Options: opts}, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", id, opts, err)
	}
	for step := 0; step <= 20000; step++ {
		done, _ := st.Result()
		if done || step%every == 0 {
			g.check(t, b, st, nm, fmt.Sprintf("%s %v seed %d step %d", id, opts, seed, step), seed+uint64(step), seen)
		}
		if done {
			return
		}
		r := engine.NewRand(seed, -step-1)
		acting := st.Acting()
		s := acting[0]
		if len(acting) > 1 {
			s = acting[r.IntN(len(acting))]
		}
		a := ai[int(s)%len(ai)].Choose(st.View(s), st.Legal(s), r)
		if _, err := engine.Step(g.Game, st, seed, step, engine.Move{Seat: s, Action: a.String()}, nil); err != nil {
			t.Fatalf("%s seed %d step %d: %s: %v", id, seed, step, a, err)
		}
	}
	t.Fatalf("%s seed %d: the game is not over after 20000 steps", id, seed)
}

// check builds the screen of every seat and a spectator in every language
// and checks it against the state; shuffle seeds the re-dealing of what is
// hidden.
func (g Screens) check(t *testing.T, b *locales.Bundle, st engine.State, nm render.Names, where string, shuffle uint64, seen map[string]bool) {
	t.Helper()
	id := g.Game.ID()
	hs, ok := st.(engine.HiddenShuffler)
	if !ok {
		t.Fatalf("%s has no HiddenShuffler", id)
	}
	for viewer := engine.Spectator; int(viewer) < len(nm); viewer++ {
		v, legal := st.View(viewer), LegalOf(st, viewer)
		// Everything hidden from the viewer re-dealt.
		other := hs.ShuffleHidden(viewer, engine.NewRand(shuffle, int(viewer)))
		for _, lang := range locales.Languages() {
			l := b.Lang(lang)
			sc, ok := render.ScreenOf(id, l, v, nm, legal)
			if !ok {
				t.Fatalf("%s: no screen builder", id)
			}
			s := Shown{Where: fmt.Sprintf("%s %s viewer %d", where, lang, viewer), L: l, State: st, View: v, Viewer: viewer, Names: nm, Screen: sc}
			g.checkOne(t, s)
			CheckPrivateParts(t, s.Where, id, l, v, nm, legal)
			// The screen depends only on what the viewer may know.
			if again, _ := render.ScreenOf(id, l, other.View(viewer), nm, LegalOf(other, viewer)); !reflect.DeepEqual(sc, again) {
				t.Fatalf("%s: the screen depends on what is hidden from the viewer:\n%s\n--- after re-dealing the hidden cards ---\n%s", s.Where, Dump(sc), Dump(again))
			}
			if g.Check != nil {
				g.Check(t, s)
			}
			if t.Failed() {
				s.Fatalf(t, "the screen")
			}
			if g.Seen != nil {
				if k := g.Seen(s); k != "" {
					seen[k] = true
				}
			}
		}
	}
}

// checkOne is the shared checks of one screen.
func (g Screens) checkOne(t *testing.T, s Shown) {
	t.Helper()
	sc, st, l, viewer, at := s.Screen, s.State, s.L, s.Viewer, s.Where
	done, res := st.Result()
	acting := st.Acting()
	mustAct := viewer >= 0 && slices.Contains(acting, viewer)

	// Who, who acts, what to do, how it ended.
	if sc.Game != g.Game.ID() || sc.Viewer != viewer {
		t.Errorf("%s: Game %q Viewer %d", at, sc.Game, sc.Viewer)
	}
	if !slices.Equal(sc.Acting, acting) {
		t.Errorf("%s: Acting %v, the state's %v", at, sc.Acting, acting)
	}
	if mustAct != (sc.Prompt != "") {
		t.Errorf("%s: must act %v, Prompt %q", at, mustAct, sc.Prompt)
	}
	if done != (len(sc.Result) > 0) {
		t.Errorf("%s: over %v, Result %q", at, done, sc.Result)
	}
	// The end: a headline naming the winners, then (last) every seat by
	// its place; a seat's own screen says its place in words.
	if n := len(res.Places); done && (sc.Result[0] == "" || Ranked(sc.Result[:1]) || len(sc.Result) < 1+n || !Ranked(sc.Result[len(sc.Result)-n:])) {
		t.Errorf("%s: the end reads %q", at, sc.Result)
	}
	if done && viewer >= 0 && len(sc.Result) < 2+len(res.Places) {
		t.Errorf("%s: the end names no place of the viewer's: %q", at, sc.Result)
	}
	if sc.Title == "" {
		t.Errorf("%s: no Title", at)
	}
	if !g.Rounds && (sc.Rule != nil || sc.Chart != nil) {
		t.Errorf("%s: a game without rounds shows Rule %+v, Chart %+v", at, sc.Rule, sc.Chart)
	}
	if (viewer < 0) != (sc.Hand == nil) {
		t.Fatalf("%s: viewer %d, Hand %+v", at, viewer, sc.Hand)
	}
	if viewer < 0 && len(sc.Secret) > 0 {
		t.Errorf("%s: a spectator has secrets: %+v", at, sc.Secret)
	}

	// The seats, in order, the viewer's its own.
	if len(sc.Seats) != len(s.Names) {
		t.Fatalf("%s: %d seats, %d names", at, len(sc.Seats), len(s.Names))
	}
	you := ""
	if g.You != "" {
		you = l.T(g.You, nil) + ":"
	}
	for i, p := range sc.Seats {
		seat := engine.Seat(i)
		if p.Seat != seat || p.Name != s.Names.Of(seat) || p.You != (seat == viewer) || p.Acting != slices.Contains(acting, seat) {
			t.Errorf("%s: seat %d: %+v", at, i, p)
		}
		if len(p.Counts) == 0 || p.Line == "" {
			t.Errorf("%s: seat %d without counts or line: %+v", at, i, p)
		}
		if you != "" && strings.HasPrefix(p.Line, you) != (seat == viewer) {
			t.Errorf("%s: seat %d (viewer %d): line %q", at, i, viewer, p.Line)
		}
	}

	// The words: every text found and not empty; no mark, no notation and
	// no id; for a Polish or Ukrainian reader no English word, for a
	// Ukrainian one no Latin script but the names.
	english := map[string]bool{}
	if l.Tag() != "en" {
		for _, w := range g.English {
			english[strings.ToLower(w)] = true
		}
	}
	for _, text := range Texts(sc) {
		switch {
		case strings.TrimSpace(text) == "" || strings.Contains(text, locales.MissingOpen):
			t.Errorf("%s: an empty text, a missing key or template data: %q", at, text)
		case g.Notation != nil && g.Notation.MatchString(text):
			t.Errorf("%s: notation: %q", at, text)
		}
		for _, m := range g.Never {
			if strings.Contains(text, m) {
				t.Errorf("%s: %q in %q", at, m, text)
			}
		}
		for _, id := range g.IDs {
			if strings.Contains(text, "["+id+"]") || (strings.ContainsAny(id, "-_") && strings.Contains(text, id)) {
				t.Errorf("%s: the id %q: %q", at, id, text)
			}
		}
		for _, tok := range Tokens(text) {
			if english[strings.ToLower(tok)] {
				t.Errorf("%s: the English word %q in %q", at, tok, text)
			}
			if l.Tag() == "uk" && !slices.Contains(g.Latin, tok) && !slices.Contains(s.Names, tok) &&
				strings.IndexFunc(tok, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
				t.Errorf("%s: a Latin-script word %q in the Ukrainian %q", at, tok, text)
			}
		}
	}

	// The screen speaks to the viewer in the second person: its name is
	// only on its seat and in the table of final scores.
	if g.SecondPerson && viewer >= 0 {
		spoken := append([]string{sc.Title, sc.Prompt}, sc.StatusLines()...)
		if len(sc.Result) > 0 {
			spoken = append(spoken, sc.Result[0])
		}
		piles := append(slices.Clone(sc.Secret), sc.Center...)
		if sc.Hand != nil {
			piles = append(piles, *sc.Hand)
		}
		for _, p := range piles {
			spoken = append(spoken, p.Label, p.Text)
		}
		for _, w := range spoken {
			if slices.Contains(Tokens(w), s.Names.Of(viewer)) {
				t.Errorf("%s: the viewer is named in the third person: %q", at, w)
			}
		}
	}

	// The cards: face up with a name (and in the hand and the center with
	// a suit or a value), face down with its back only; the hand the
	// view's, marked exactly as the legal actions take its cards.
	var hand, chosen []string
	if mustAct && g.Marks != nil {
		hand, chosen = g.Marks(st, viewer)
	}
	Cards(sc, func(part, where string, c render.Card) {
		switch {
		case c.Down && (c.Suit != "" || c.Value != "" || c.Code != "" || c.Mark || !g.DownWords && (c.Name != "" || c.Note != "")):
			t.Errorf("%s: %s: a face-down card shows %+v", at, where, c)
		case c.Down && g.DownWords && c.Name == "":
			t.Errorf("%s: %s: a face-down card without a name: %+v", at, where, c)
		case !c.Down && c.Name == "":
			t.Errorf("%s: %s: a face-up card without a name: %+v", at, where, c)
		case !c.Down && (part == "hand" || part == "center") && c.Suit == "" && c.Value == "":
			t.Errorf("%s: %s: a face-up card without suit and value: %+v", at, where, c)
		case part == "hand" && c.Mark != slices.Contains(hand, c.Code):
			t.Errorf("%s: %s: marked %v, the legal actions take %v", at, where, c.Mark, hand)
		case (part == "center" || part == "secret") && c.Mark && !slices.Contains(chosen, c.Code):
			t.Errorf("%s: %s: marked, the legal actions choose %v", at, where, chosen)
		case part == "seat" && c.Mark:
			t.Errorf("%s: %s: marked: %+v", at, where, c)
		}
	})
	if sc.Hand != nil {
		var codes []string
		for _, c := range sc.Hand.Cards {
			codes = append(codes, c.Code)
		}
		if g.Hand != nil {
			if want := g.Hand(s.View); !slices.Equal(codes, want) {
				t.Errorf("%s: Hand %v, the view's %v", at, codes, want)
			}
		}
		for _, c := range hand {
			if !slices.Contains(codes, c) {
				t.Errorf("%s: the legal actions take %s, not in the hand %v", at, c, codes)
			}
		}
	}
}

// Texts lists every text of a screen a reader may read: all but an empty
// prompt, an empty note and the name of a card face down without one.
func Texts(sc render.Screen) []string {
	out := append([]string{sc.Title}, sc.Result...)
	if sc.Prompt != "" {
		out = append(out, sc.Prompt)
	}
	out = append(out, sc.StatusLines()...)
	piles := func(ps []render.Pile) {
		for _, p := range ps {
			out = append(out, p.Label, p.Text)
			for _, c := range p.Cards {
				if !c.Down || c.Name != "" {
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
	if sc.Rule != nil {
		out = append(out, sc.Rule.Name, sc.Rule.Short, sc.Rule.Full)
	}
	if sc.Chart != nil {
		out = append(out, sc.Chart.Title)
		out = append(out, sc.Chart.Names...)
	}
	return out
}

// Tokens splits words into tokens of letters, digits, '_' and '-'.
func Tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	})
}

// Cards calls f with every card of a screen, the part it is in (hand,
// secret, center or seat) and where exactly ("Center[1].Cards[2]").
func Cards(sc render.Screen, f func(part, where string, c render.Card)) {
	each := func(part, where string, p render.Pile) {
		for i, c := range p.Cards {
			f(part, fmt.Sprintf("%s.Cards[%d]", where, i), c)
		}
	}
	if sc.Hand != nil {
		each("hand", "Hand", *sc.Hand)
	}
	for i, p := range sc.Secret {
		each("secret", fmt.Sprintf("Secret[%d]", i), p)
	}
	for i, p := range sc.Center {
		each("center", fmt.Sprintf("Center[%d]", i), p)
	}
	for i, s := range sc.Seats {
		for j, p := range s.Piles {
			each("seat", fmt.Sprintf("Seats[%d].Piles[%d]", i, j), p)
		}
	}
}

// Codes are the codes (notation) of cards.
func Codes[C fmt.Stringer](cs []C) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Dump writes a screen for a failure message.
func Dump(sc render.Screen) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s viewer %d acting %v title %q prompt %q result %q\n doing %q status %q recent %q\n",
		sc.Game, sc.Viewer, sc.Acting, sc.Title, sc.Prompt, sc.Result, sc.Doing, sc.Status, sc.Recent)
	if sc.Rule != nil {
		fmt.Fprintf(&b, " rule %+v\n", *sc.Rule)
	}
	if sc.Chart != nil {
		fmt.Fprintf(&b, " chart %+v\n", *sc.Chart)
	}
	pile := func(part string, p render.Pile) {
		fmt.Fprintf(&b, "  %s [%s|%s] %q count %d:", part, p.Group, p.Label, p.Text, p.Count)
		for _, c := range p.Cards {
			fmt.Fprintf(&b, " %+v", c)
		}
		b.WriteByte('\n')
	}
	if sc.Hand != nil {
		pile("hand", *sc.Hand)
	}
	for _, p := range sc.Secret {
		pile("secret", p)
	}
	for _, p := range sc.Center {
		pile("center", p)
	}
	for _, s := range sc.Seats {
		fmt.Fprintf(&b, " seat %d %q you %v acting %v counts %q line %q\n", s.Seat, s.Name, s.You, s.Acting, s.Counts, s.Line)
		for _, p := range s.Piles {
			pile("seat", p)
		}
	}
	return b.String()
}

// Every is how often the screens are checked: every n steps, less often
// under -race and -short.
func Every(n int) int {
	if testing.Short() || RaceEnabled {
		return 4 * n
	}
	return n
}

// Seeds are the seeds of a case's n games, from base+1: one only under
// -race and -short.
func Seeds(base uint64, n int) []uint64 {
	out := make([]uint64, games(n, ""))
	for k := range out {
		out[k] = base + uint64(k) + 1
	}
	return out
}

// Ranked reports whether every line starts with a place ("1st", "2."), as
// the end of a game ranks the seats.
func Ranked(lines []string) bool {
	for _, l := range lines {
		if l == "" || l[0] < '1' || l[0] > '9' {
			return false
		}
	}
	return len(lines) > 0
}

// Btoi is 1 for true, 0 for false.
func Btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CenterTexts are the texts of the center's piles.
func CenterTexts(sc render.Screen) []string {
	var out []string
	for _, p := range sc.Center {
		out = append(out, p.Text)
	}
	return out
}

// Prompt is the prompt, as a list.
func Prompt(sc render.Screen) []string { return []string{sc.Prompt} }
