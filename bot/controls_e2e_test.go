package bot_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/enginetest"
	"github.com/stolik-bot/stolik/engine/table"
)

// handControl is a game control of a hand message: a button or a select
// menu whose custom_id is t/<table>/<version>/<action>.
type handControl struct {
	discordtest.Component
	action string
}

// handControls lists the game controls of a message, wherever they are
// (action rows at the top, or inside a Components V2 layout).
func handControls(m *discordtest.Message) []handControl {
	var out []handControl
	var walk func(cs []discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			if rest, ok := strings.CutPrefix(c.CustomID, "t/"); ok && (c.Type == discordtest.ComponentButton || c.IsSelect()) {
				if parts := strings.SplitN(rest, "/", 3); len(parts) == 3 {
					out = append(out, handControl{c, parts[2]})
				}
			}
			walk(c.Components)
			if c.Accessory != nil {
				walk([]discordtest.Component{*c.Accessory})
			}
		}
	}
	walk(m.Components)
	return out
}

// handStep is one click or choice on a hand: a button, or values of a
// select menu.
type handStep struct {
	customID string
	values   []string
}

// controlRun plays a game through the fake Discord by its controls,
// walking them at some states.
type controlRun struct {
	w       *world
	t       *testing.T
	id      string
	game    string
	rng     *rand.Rand
	walked  int            // states whose controls were walked
	reached int            // actions reached by the walks
	langs   map[string]int // hands seen per language
}

var (
	letterRE    = regexp.MustCompile(`[A-Za-z]`)
	internalIDs = regexp.MustCompile(`[-:@]|^[QFAPWB][0-9]{1,2}$`)
)

// checkHand checks the controls of a hand message drawn for the legal
// actions given: no two controls (nor two options of a select) show the
// same text, no text is cut or over its limit, and nothing a player reads
// shows the notation (in Polish and Ukrainian no token of it but Lynx's X;
// in English no internal id or card code).
func (r *controlRun) checkHand(where, lang string, m *discordtest.Message, legal []engine.Action) {
	t := r.t
	t.Helper()
	r.langs[lang]++
	var tokens []*regexp.Regexp
	seen := map[string]bool{}
	for _, a := range legal {
		for _, tok := range strings.Fields(a.String()) {
			if seen[tok] || !letterRE.MatchString(tok) || r.game == "lynx" && tok == "X" || lang == "en" && !internalIDs.MatchString(tok) {
				continue
			}
			seen[tok] = true
			tokens = append(tokens, regexp.MustCompile(`(^|[^\p{L}\p{N}_-])`+regexp.QuoteMeta(tok)+`($|[^\p{L}\p{N}_-])`))
		}
	}
	faces := map[string]int{}
	var texts []string
	for _, c := range handControls(m) {
		if c.Disabled {
			continue
		}
		if !c.IsSelect() {
			faces[c.Label]++
			texts = append(texts, c.Label)
			if n := utf8.RuneCountInString(c.Label); n == 0 || n > 80 || strings.HasSuffix(c.Label, "…") {
				t.Errorf("%s: button label %q", where, c.Label)
			}
			continue
		}
		faces[c.Placeholder]++
		texts = append(texts, c.Placeholder)
		opts := map[string]int{}
		for _, o := range c.Options {
			opts[o.Label+" — "+o.Description]++
			texts = append(texts, o.Label, o.Description)
			for _, s := range []string{o.Label, o.Description} {
				if utf8.RuneCountInString(s) > 100 || strings.HasSuffix(s, "…") {
					t.Errorf("%s: option text %q", where, s)
				}
			}
		}
		for f, n := range opts {
			if n > 1 {
				t.Errorf("%s: %d options of %q show %q", where, n, c.Placeholder, f)
			}
		}
	}
	for f, n := range faces {
		if n > 1 {
			t.Errorf("%s: %d controls show %q", where, n, f)
		}
	}
	for _, text := range texts {
		for _, re := range tokens {
			if re.MatchString(text) {
				t.Errorf("%s (%s): %q shows the notation (%s)", where, lang, text, re)
			}
		}
	}
}

// navigate brings the hand message m of user to the step at path: Back to
// the hand first when it shows a later step, then the steps of path.
func (r *controlRun) navigate(user string, m *discordtest.Message, path []handStep) *discordtest.Message {
	w := r.w
	for _, c := range handControls(m) {
		if c.action == "~hand" {
			m = w.do(w.fake.Click(user, m, c.CustomID))
			break
		}
	}
	for _, s := range path {
		m = r.apply(user, m, s)
	}
	return m
}

func (r *controlRun) apply(user string, m *discordtest.Message, s handStep) *discordtest.Message {
	w := r.w
	if s.values == nil {
		return w.do(w.fake.Click(user, m, s.customID))
	}
	return w.do(w.fake.Select(user, m, s.customID, s.values...))
}

// walk follows every step of user's controls from the hand m and returns
// the actions they reach with the path to each, and the hand as the walk
// left it. A multi-select (a pass, a split) reaches each legal action made
// of its options; the first part of a two-way pass is followed with each
// of its cards.
func (r *controlRun) walk(user, lang string, m *discordtest.Message, legal []engine.Action) (map[string][]handStep, *discordtest.Message) {
	t := r.t
	t.Helper()
	reach := map[string][]handStep{}
	type node struct{ path []handStep }
	queue := []node{{}}
	for k := 0; k < len(queue) && k < 200; k++ {
		n := queue[k]
		if k > 0 {
			m = r.navigate(user, m, n.path)
			r.checkHand(fmt.Sprintf("step %v", n.path), lang, m, legal)
			if len(handControls(m)) == 0 {
				t.Fatalf("%s: the step %v has no controls: %s", user, n.path, m)
			}
		}
		add := func(action string, s handStep) {
			if _, ok := reach[action]; !ok {
				reach[action] = append(slices.Clone(n.path), s)
			}
		}
		for _, c := range handControls(m) {
			switch {
			case c.action == "~hand":
			case !c.IsSelect() && strings.HasPrefix(c.action, ">"):
				queue = append(queue, node{append(slices.Clone(n.path), handStep{customID: c.CustomID})})
			case !c.IsSelect():
				add(c.action, handStep{customID: c.CustomID})
			case strings.HasPrefix(c.action, "~sel"):
				for _, o := range c.Options {
					s := handStep{customID: c.CustomID, values: []string{o.Value}}
					if strings.HasPrefix(o.Value, ">") {
						queue = append(queue, node{append(slices.Clone(n.path), s)})
					} else {
						add(o.Value, s)
					}
				}
			case strings.HasPrefix(c.action, "~"):
				// The first part of a two-part pick (a card each way): each
				// card of it leads to the second part.
				for _, o := range c.Options {
					queue = append(queue, node{append(slices.Clone(n.path), handStep{customID: c.CustomID, values: []string{o.Value}})})
				}
			case strings.HasSuffix(c.action, " *"):
				head := strings.Fields(strings.TrimSuffix(c.action, " *"))
				values := make([]string, len(c.Options))
				for i, o := range c.Options {
					values[i] = o.Value
				}
				want := len(values)
				if c.MaxValues != nil {
					want = *c.MaxValues
				}
				for _, a := range legal {
					f := strings.Fields(a.String())
					if len(f) == len(head)+want && slices.Equal(f[:len(head)], head) &&
						!slices.ContainsFunc(f[len(head):], func(v string) bool { return !slices.Contains(values, v) }) {
						add(a.String(), handStep{customID: c.CustomID, values: f[len(head):]})
					}
				}
			default:
				t.Errorf("%s: a control doing %q", user, c.action)
			}
		}
	}
	return reach, m
}

// turn has user act once through the controls of their hand: at some
// states after walking every step of them (checking that they reach
// exactly the legal actions), else by choosing at random, step by step.
func (r *controlRun) turn(user, lang string, seat engine.Seat, legal []engine.Action, walk bool) {
	t, w := r.t, r.w
	t.Helper()
	v := w.version(r.id)
	hand := w.do(w.fake.Click(user, w.tableMessage(r.id), w.tableMessage(r.id).Control("hand/"+r.id)))
	r.checkHand("hand", lang, hand, legal)
	if walk {
		reach, m := r.walk(user, lang, hand, legal)
		r.walked++
		r.reached += len(reach)
		var missing, extra []string
		for _, a := range legal {
			if _, ok := reach[a.String()]; !ok {
				missing = append(missing, a.String())
			}
		}
		for a := range reach {
			if !slices.ContainsFunc(legal, func(l engine.Action) bool { return l.String() == a }) {
				extra = append(extra, a)
			}
		}
		if len(missing) > 0 || len(extra) > 0 {
			t.Fatalf("%s (seat %d), step %d: not reachable %q; offered but not legal %q", user, seat, v, missing, extra)
		}
		a := legal[r.rng.IntN(len(legal))].String()
		m = r.navigate(user, m, reach[a][:len(reach[a])-1])
		r.apply(user, m, reach[a][len(reach[a])-1])
	} else {
		m := hand
		for step := 0; ; step++ {
			if step == 6 {
				t.Fatalf("%s: no action after %d steps", user, step)
			}
			var cs []handControl
			for _, c := range handControls(m) {
				if c.action != "~hand" {
					cs = append(cs, c)
				}
			}
			if len(cs) == 0 {
				t.Fatalf("%s has no controls: %s", user, m)
			}
			c := cs[r.rng.IntN(len(cs))]
			s := handStep{customID: c.CustomID}
			if c.IsSelect() {
				n := 1
				if c.MaxValues != nil {
					n = *c.MaxValues
				}
				for _, k := range r.rng.Perm(len(c.Options))[:n] {
					s.values = append(s.values, c.Options[k].Value)
				}
			}
			next := strings.HasPrefix(c.action, ">") || strings.HasPrefix(c.action, "~") && !strings.HasPrefix(c.action, "~sel") ||
				len(s.values) == 1 && strings.HasPrefix(s.values[0], ">")
			m = r.apply(user, m, s)
			if !next {
				break
			}
			r.checkHand(fmt.Sprintf("step %d", step+1), lang, m, legal)
		}
	}
	if w.version(r.id) == v {
		t.Fatalf("%s (seat %d): the action was not taken", user, seat)
	}
}

// TestControlsThroughDiscord plays a whole game of every game at its
// largest seat count through the fake Discord, with its strict text checks
// on: ala (Polish), olena (Ukrainian) and bob (English) act only through
// the controls of their hands, AI players take the other seats. Every
// hand and every step of it is checked (no two controls alike, nothing
// cut, no notation); at a third of the turns every step of the controls is
// walked, and the actions they reach must be exactly the legal ones.
//
// scripts/race.sh's `go test -race ./...` (under -race without STOLIK_SOAK=1)
// plays the games marked race, one of Rebel Princess and 3 Chapters;
// .ci/run's soak step plays all five under -race.
func TestControlsThroughDiscord(t *testing.T) {
	t.Parallel()
	type walkCase struct {
		game  string
		seats int
		extra []discordtest.Arg
		// contentCut: the hand's text may still be cut at Discord's 2000
		// characters (5 players of Courtisans, in Polish and Ukrainian,
		// late in the game): only the controls are held to the strict
		// checks then, and what the text loses is logged.
		contentCut bool
		race       bool // played in the sample under -race
	}
	cases := []walkCase{
		{"princesses", 6, []discordtest.Arg{discordtest.Opt("rounds", "random"), discordtest.Opt("powers", "on")}, false, true},
		{"princesses", 5, []discordtest.Arg{discordtest.Opt("rounds", "masquerade,haggle,wedding-gift,crystal-clear,late-to-the-ball"), discordtest.Opt("powers", "on")}, false, false},
		{"lynx", 5, []discordtest.Arg{discordtest.Opt("mode", "expert")}, false, false},
		{"chapters", 6, nil, false, true},
		{"courtiers", 5, nil, true, false},
	}
	for _, m := range bot.MissingGames("princesses", "lynx", "chapters", "courtiers") {
		cases = append(cases, walkCase{m.Game, m.Seats, nil, false, true})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%d", c.game, c.seats), func(t *testing.T) {
			if !c.race && enginetest.Sampled() {
				t.Skip("sampled out under -race; STOLIK_SOAK=1 plays it (.ci/run's soak step)")
			}
			w := newWorld(t)
			if !c.contentCut {
				w.fake.StrictText()
			}
			g := w.openGame(c.game, c.seats, append([]discordtest.Arg{discordtest.Opt("language", "en")}, c.extra...), ala, olena, bob)
			r := &controlRun{w: w, t: t, id: g.id, game: c.game, rng: rand.New(rand.NewPCG(uint64(c.seats), 7)), langs: map[string]int{}}
			lang := map[string]string{ala: "pl", olena: "uk", bob: "en"}
			for turn := 0; ; turn++ {
				if turn == 3000 {
					t.Fatalf("no end after %d turns", turn)
				}
				rec, st, _ := w.current(g.id)
				if rec.Status != table.StatusPlaying {
					if rec.Status != table.StatusFinished {
						t.Fatalf("status %s", rec.Status)
					}
					break
				}
				var users []string
				seats := map[string]engine.Seat{}
				for _, si := range rec.Seats {
					if si.Kind == table.Human && engine.IsActing(st, si.Seat) {
						users = append(users, si.UserID)
						seats[si.UserID] = si.Seat
					}
				}
				if len(users) == 0 {
					t.Fatalf("turn %d: no human acts, and the game goes on", turn)
				}
				slices.Sort(users)
				u := users[r.rng.IntN(len(users))]
				r.turn(u, lang[u], seats[u], st.Legal(seats[u]), turn%3 == 0)
			}
			if r.walked == 0 || r.reached == 0 || r.langs["pl"] == 0 || r.langs["uk"] == 0 || r.langs["en"] == 0 {
				t.Errorf("walked %d states, %d actions reached; hands per language %v", r.walked, r.reached, r.langs)
			}
			for _, v := range w.fake.TextViolations() {
				if c.contentCut && strings.Contains(v, ": content of ") {
					t.Logf("the hand's text: %s", v)
					continue
				}
				t.Errorf("text: %s", v)
			}
			w.fake.AssertNoErrors(t)
		})
	}
}
