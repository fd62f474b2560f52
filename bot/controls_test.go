package bot

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// control is a button or a select menu of a hand, as a player sees it.
type control struct {
	select_     bool
	action      string // the custom_id's action: an action, ">prefix", "~sel0", "pass *", "~pick", "~hand"
	label       string // a button's
	placeholder string // a select's
	options     []discordgo.SelectMenuOption
	n           int // values a select takes
}

func controlsOf(cs []discordgo.MessageComponent) []control {
	var out []control
	for _, row := range cs {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			switch c := c.(type) {
			case discordgo.Button:
				p, _ := parseGameID(c.CustomID)
				out = append(out, control{action: p.action, label: c.Label})
			case discordgo.SelectMenu:
				p, _ := parseGameID(c.CustomID)
				out = append(out, control{select_: true, action: p.action, placeholder: c.Placeholder, options: c.Options, n: c.MaxValues})
			}
		}
	}
	return out
}

// combinations counts the ways of choosing k of n.
func combinations(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// reachProblems walks every step of a seat's controls, from the hand down
// through each next step, and reports what is wrong: a legal action no
// control reaches, a control that does something not legal, two controls
// (or two options of a select) showing the same text, a text cut or over
// its limit, a step after the first without its prompt, and, for Polish
// and Ukrainian, a token of the actions' notation in what a player reads.
func reachProblems(b *Bot, l *locales.Localizer, snap *table.Snapshot, seat engine.Seat, legal []engine.Action) []string {
	r, _ := render.For(snap.Record.Setup.Game)
	v := snap.State.View(seat)
	want := map[string]bool{}
	for _, a := range legal {
		want[a.String()] = true
	}
	var problems []string
	bad := func(stage, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("stage %q: ", stage)+fmt.Sprintf(format, args...))
	}
	notation := notationTokens(snap.Record.Setup.Game, legal, l.Tag() == "en")
	got := map[string]bool{}
	seen := map[string]bool{}
	queue := []string{""}
	for k := 0; k < len(queue); k++ {
		stage := queue[k]
		if seen[stage] {
			continue
		}
		seen[stage] = true
		comps, extra := b.controls(l, r, snap, seat, v, legal, stage)
		if stage != "" && strings.TrimSpace(extra) == "" {
			bad(stage, "no prompt above the next step")
		}
		if len(comps) == 0 {
			bad(stage, "no controls")
		}
		texts := []string{extra}
		faces := map[string]int{}
		for _, c := range controlsOf(comps) {
			if !c.select_ {
				faces[c.label]++
				texts = append(texts, c.label)
				if n := utf8.RuneCountInString(c.label); n == 0 || n > maxButtonLabel || strings.HasSuffix(c.label, "…") {
					bad(stage, "button label %q", c.label)
				}
				switch {
				case c.action == "~hand":
				case strings.HasPrefix(c.action, prefixMark):
					queue = append(queue, c.action[1:])
				default:
					got[c.action] = true
				}
				continue
			}
			faces[c.placeholder]++
			texts = append(texts, c.placeholder)
			if n := utf8.RuneCountInString(c.placeholder); n == 0 || n > maxPlaceholder {
				bad(stage, "placeholder %q", c.placeholder)
			}
			if len(c.options) == 0 || len(c.options) > maxSelectItems {
				bad(stage, "a select of %d options", len(c.options))
			}
			opts := map[string]int{}
			var values []string
			for _, o := range c.options {
				opts[o.Label+" — "+o.Description]++
				texts = append(texts, o.Label, o.Description)
				values = append(values, o.Value)
				for _, s := range []string{o.Label, o.Description} {
					if n := utf8.RuneCountInString(s); n > maxOptionText || strings.HasSuffix(s, "…") {
						bad(stage, "option text %q", s)
					}
				}
				if o.Label == "" {
					bad(stage, "an option without a label")
				}
			}
			for f, n := range opts {
				if n > 1 {
					bad(stage, "%d options of a select show %q", n, f)
				}
			}
			switch {
			case strings.HasPrefix(c.action, "~sel"):
				for _, o := range c.options {
					if p, ok := strings.CutPrefix(o.Value, prefixMark); ok {
						queue = append(queue, p)
					} else {
						got[o.Value] = true
					}
				}
			case c.action == pickFirst:
				// The first part of a two-part pick: each choice of it is a
				// stage of the second.
				if c.n != 1 {
					bad(stage, "a first part of %d cards", c.n)
				}
				for _, v := range values {
					queue = append(queue, v)
				}
			case strings.HasSuffix(c.action, " *"):
				head := strings.Fields(strings.TrimSuffix(c.action, " *"))
				count := 0
				for a := range want {
					f := strings.Fields(a)
					if len(f) != len(head)+c.n || !slices.Equal(f[:len(head)], head) {
						continue
					}
					count++
					if !slices.ContainsFunc(f[len(head):], func(t string) bool { return !slices.Contains(values, t) }) {
						got[a] = true
					}
				}
				if n := combinations(len(values), c.n); n != count {
					bad(stage, "the pick %q offers %d combinations for %d legal actions", c.action, n, count)
				}
			default:
				bad(stage, "a select doing %q", c.action)
			}
		}
		for f, n := range faces {
			if n > 1 {
				bad(stage, "%d controls show %q", n, f)
			}
		}
		for _, text := range texts {
			for _, tok := range notation {
				if tok.MatchString(text) {
					bad(stage, "notation %s in %q", tok, text)
				}
			}
		}
	}
	for a := range want {
		if !got[a] {
			problems = append(problems, "not reachable: "+a)
		}
	}
	for a := range got {
		if !want[a] {
			problems = append(problems, "offered but not legal: "+a)
		}
	}
	slices.Sort(problems)
	return problems
}

var (
	notationMu    sync.Mutex
	notationCache = map[string]*regexp.Regexp{}
	// englishIDRE: the tokens of the notation that English text may not
	// hold either: ids with a hyphen, a colon or an @, and card codes.
	englishIDRE = regexp.MustCompile(`[-:@]|^[QFAPWB][0-9]{1,2}$`)
)

// notationTokens are the tokens of the actions' notation that a player's
// text must not show, as whole words: every token with a letter in Polish
// and Ukrainian (but Lynx's X, which is what the joker shows), internal
// ids and card codes in English.
func notationTokens(game string, legal []engine.Action, english bool) []*regexp.Regexp {
	set := map[string]bool{}
	for _, a := range legal {
		for _, t := range strings.Fields(a.String()) {
			set[t] = true
		}
	}
	var out []*regexp.Regexp
	for t := range set {
		switch {
		case !strings.ContainsFunc(t, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }):
			continue
		case game == "lynx" && t == "X":
			continue
		case english && !englishIDRE.MatchString(t):
			continue
		}
		notationMu.Lock()
		re, ok := notationCache[t]
		if !ok {
			re = regexp.MustCompile(`(^|[^\p{L}\p{N}_-])` + regexp.QuoteMeta(t) + `($|[^\p{L}\p{N}_-])`)
			notationCache[t] = re
		}
		notationMu.Unlock()
		out = append(out, re)
	}
	return out
}

// playGame plays a whole game, every seat choosing at random (but never
// taking an announcement back), and calls f with the table at every step;
// the players have the same long name.
func playGame(t *testing.T, game string, seats int, opts engine.Options, seed uint64, f func(snap *table.Snapshot)) {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	su := engine.Setup{Game: game, Options: opts, Seats: seats, Seed: seed}
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := table.Record{ID: "abcdefgh", Setup: su, Status: table.StatusPlaying, Lang: "pl"}
	for s := 0; s < seats; s++ {
		rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.Human, UserID: "u" + string(rune('0'+s)), Name: strings.Repeat("Ż", 32)})
	}
	rng := rand.New(rand.NewPCG(seed, uint64(seats)))
	for n := 0; n < 5000; n++ {
		snap := &table.Snapshot{Record: rec, Game: g, State: st, Version: n}
		if done, _ := st.Result(); done {
			return
		}
		f(snap)
		acting := st.Acting()
		s := acting[rng.IntN(len(acting))]
		legal := slices.DeleteFunc(st.Legal(s), func(a engine.Action) bool { return a.String() == "withdraw" })
		if _, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: legal[rng.IntN(len(legal))].String()}, nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s with %d seats: no end", game, seats)
}

// TestControlsReachEveryLegalAction plays whole games of every game and
// seat count, and of Rebel Princess with every round card in both
// editions (all players of the same long name), and walks every step of
// the controls of each seat that may act, in every language: the actions
// the controls reach are exactly the legal ones, no two controls show the
// same text, nothing is cut or over its limit, every later step has its
// prompt, and nothing shows the notation.
func TestControlsReachEveryLegalAction(t *testing.T) {
	t.Parallel()
	b := testBot(t)
	cases := slices.Clone(limitCases)
	// Every round card of Rebel Princess, with powers, in both editions.
	for i, rounds := range []string{"a,b,c,d,e", "f,g,h,i,j", "k,l,m,n,o", "p,q,r,s,t", "u,v,w,x,y", "z", "5", "invitation", "random"} {
		ed := "deluxe"
		if i >= 6 {
			ed = "classic"
		}
		cases = append(cases, struct {
			game  string
			seats int
			opts  engine.Options
		}{"princesses", 3 + i%4, engine.Options{"rounds": rounds, "edition": ed}})
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s-%d-%s", c.game, c.seats, c.opts["rounds"]), func(t *testing.T) {
			sampleWalk(t, i, 2)
			t.Parallel()
			states, failures := 0, 0
			playGame(t, c.game, c.seats, c.opts, 5, func(snap *table.Snapshot) {
				states++
				for s := 0; s < c.seats; s++ {
					seat := engine.Seat(s)
					legal := engine.AnyLegal(snap.State, seat)
					if len(legal) == 0 || snap.Record.Status != table.StatusPlaying {
						continue
					}
					for _, lang := range locales.Languages() {
						for _, p := range reachProblems(b, b.loc.Lang(lang), snap, seat, legal) {
							if failures++; failures <= 20 {
								t.Errorf("step %d, seat %d, %s: %s", snap.Version, s, lang, p)
							}
						}
					}
				}
			})
			if failures > 20 {
				t.Errorf("… %d problems in all", failures)
			}
			if states == 0 {
				t.Error("no state walked")
			}
		})
	}
}

// Two controls that would show the same text are told apart: players of
// the same name by their seat, and what is still alike by a number.
func TestControlsTellAlikeApart(t *testing.T) {
	n := distinctNames(render.Names{"Ala", "Bob", "Ala", "Ala (3)"})
	if n[0] == n[2] || n[2] == n[3] || n[0] == n[3] || n[1] != "Bob" || !strings.HasPrefix(n[0], "Ala") {
		t.Errorf("names %q are not told apart", n)
	}
	l := locales.MustLoad().Lang("en")
	cs := []stepChoice{
		{Control: render.Control{Label: "Carp"}, value: "a", alt: "Place Carp above"},
		{Control: render.Control{Label: "Carp"}, value: "b", alt: "Place Carp below"},
		{Control: render.Control{Label: "Hare"}, value: "c"},
		{Control: render.Control{Label: "Hare"}, value: "d"},
		{Control: render.Control{Label: "Toad", Menu: "m", Placeholder: "Hare"}, value: "e"},
		{Control: render.Control{Label: "Toad", Menu: "m"}, value: "f"},
		{Control: render.Control{Label: strings.Repeat("word ", 30), Menu: "m"}, value: "g"},
		{Control: render.Control{Label: "Back"}, value: "h"},
	}
	extra := ""
	comps := layout(l, "t1", 3, cs, true, &extra, func() string { return "more" })
	faces := map[string]bool{}
	for _, c := range controlsOf(comps) {
		face := c.label
		if c.select_ {
			face = c.placeholder
			opts := map[string]bool{}
			for _, o := range c.options {
				if opts[o.Label+o.Description] || utf8.RuneCountInString(o.Label) > maxOptionText {
					t.Errorf("option %q repeated or too long", o.Label)
				}
				opts[o.Label+o.Description] = true
			}
		}
		if faces[face] {
			t.Errorf("%q shown twice: %+v", face, controlsOf(comps))
		}
		faces[face] = true
	}
	for _, want := range []string{"Place Carp above", "Place Carp below", "Hare", "Hare (2)", "Back", "Back (2)"} {
		if !faces[want] {
			t.Errorf("no control shows %q: %v", want, faces)
		}
	}
}
