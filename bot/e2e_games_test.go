package bot_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	chaptersview "github.com/stolik-bot/stolik/render/chapters"
	courtiersview "github.com/stolik-bot/stolik/render/courtiers"
	"github.com/stolik-bot/stolik/render/rendertest"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// gameRun is one game played through the fake Discord by reading the bot's
// components only.
type gameRun struct {
	*world
	id      string
	rng     *rand.Rand
	steps   int // clicks that offered a next step instead of acting
	stale   int // clicks on a hand drawn before that no longer stood
	checked map[string]string
	changes *discordtest.Changes            // the messages new or changed since the last check
	last    map[string]*discordtest.Message // each user's last answer with controls

	secretsAt int                 // the log length the secrets were worked out for
	secrets   map[string][]secret // per user
}

// secret is something only one seat may know, as some message could show it.
type secret struct {
	text string
	re   *regexp.Regexp // whole words only, when not nil
	of   engine.Seat
}

// openGame opens a table of a game in the channel with more options, seats
// the users (the first opens it) and starts it, AI players taking the
// empty seats.
func (w *world) openGame(game string, seats int, extra []discordtest.Arg, users ...string) *gameRun {
	w.t.Helper()
	args := append([]discordtest.Arg{discordtest.Opt("game", game), discordtest.Opt("seats", seats)}, extra...)
	w.slash(users[0], "open", args...)
	id := w.tableID()
	for _, u := range users[1:] {
		w.do(w.fake.Click(u, w.tableMessage(id), "lobby/"+id+"/join"))
	}
	m := w.do(w.fake.Click(users[0], w.tableMessage(id), "lobby/"+id+"/start"))
	if len(users) < seats {
		w.do(w.fake.Click(users[0], m, "lobby/"+id+"/startai"))
	}
	if rec, _, err := w.db.Load(context.Background(), id); err != nil || rec.Status != table.StatusPlaying {
		w.t.Fatalf("the %s table did not start: %s, %v", game, rec.Status, err)
	}
	g := &gameRun{world: w, id: id, rng: rand.New(rand.NewPCG(uint64(seats), uint64(len(game)))), checked: map[string]string{}, changes: w.fake.Changes(), last: map[string]*discordtest.Message{}, secretsAt: -1}
	g.checkSecrets()
	return g
}

// move makes user act through "My hand" and the controls of the answer,
// following next steps (never Back) until the table's log grows.
func (g *gameRun) move(user string) {
	w := g.world
	w.t.Helper()
	v := w.version(g.id)
	// The answer to the user's last move serves when it was drawn for the
	// table as it stands (the same player acting again); else "My hand".
	hand := g.last[user]
	if hand != nil {
		// As the player sees it now: brought up to date when the turn came
		// back (openHands), or as it was.
		if live := w.fake.Message(hand.ID); live != nil {
			hand = live
		}
	}
	// A player taps what is in front of them: the hand message's controls,
	// even when drawn at an earlier version (other seats moved since);
	// the bot takes such a click when the seat has not moved since
	// (table.Service.Stands), or answers it with the hand as it stands.
	current := "t/" + g.id + "/" + strconv.Itoa(v) + "/"
	if hand == nil || len(moveControls(hand)) == 0 {
		hand = w.do(w.fake.Click(user, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
		if !hand.Ephemeral() {
			w.t.Fatalf("the hand is not ephemeral: %s", hand)
		}
		g.checkSecrets()
	}
	for step := 0; step < 8; step++ {
		controls := moveControls(hand)
		if len(controls) == 0 {
			w.t.Fatalf("%s is to act but has no controls: %s", user, hand)
		}
		c := controls[g.rng.IntN(len(controls))]
		var in *discordtest.Interaction
		next := false
		if c.IsSelect() {
			// A multi-select takes exactly its number of values (a pass of
			// three cards); its first part is a next step (~pick).
			n := 1
			if c.MinValues != nil && *c.MinValues > 1 {
				n = *c.MinValues
			}
			var vals []string
			for _, k := range g.rng.Perm(len(c.Options))[:n] {
				vals = append(vals, c.Options[k].Value)
			}
			next = strings.HasPrefix(vals[0], ">") || strings.Contains(c.CustomID, "/~pick")
			in = w.fake.Select(user, hand, c.CustomID, vals...)
		} else {
			next = strings.Contains(c.CustomID, "/>")
			in = w.fake.Click(user, hand, c.CustomID)
		}
		hand = w.do(in)
		g.checkSecrets()
		if w.version(g.id) != v {
			if next {
				w.t.Fatalf("a next step acted: %s", c.CustomID)
			}
			g.last[user] = hand
			return
		}
		if !next && !strings.HasPrefix(c.CustomID, current) && slices.ContainsFunc(moveControls(hand), func(c discordtest.Component) bool {
			return strings.HasPrefix(c.CustomID, current)
		}) {
			// Drawn before, and no longer standing: answered with the
			// hand as it stands.
			g.stale++
			continue
		}
		if !next {
			w.t.Fatalf("%s's click %s changed nothing: %s", user, c.CustomID, hand)
		}
		g.steps++
	}
	w.t.Fatalf("%s could not finish an action in 8 steps", user)
}

// playOut plays until the game is over.
func (g *gameRun) playOut(maxMoves int) int {
	w := g.world
	w.t.Helper()
	for moves := 0; moves < maxMoves; moves++ {
		m := w.tableMessage(g.id)
		if !playing(m) {
			return moves
		}
		acting := toAct(m)
		if len(acting) == 0 {
			w.t.Fatalf("nobody to act: %q", shownText(m))
		}
		g.move(acting[g.rng.IntN(len(acting))])
	}
	w.t.Fatalf("no end after %d moves", maxMoves)
	return 0
}

// names are the seat names as the bot writes them.
func seatNames(l *locales.Localizer, rec table.Record) render.Names {
	n := make(render.Names, rec.Setup.Seats)
	for i := range n {
		n[i] = l.T("ui.bot", map[string]any{"N": i + 1})
	}
	for _, si := range rec.Seats {
		if si.Kind == table.Human {
			n[si.Seat] = si.Name
		}
	}
	return n
}

// secretWords are single things of a seat's view that only it may know and
// that name exactly one component: a 3 Chapters card in its hand, kept or
// picked, a Courtisans mission while the game lasts.
func secretWords(l *locales.Localizer, v engine.View) []string {
	var out []string
	switch v := v.(type) {
	case *chapters.View:
		cs := append(slices.Clone(v.Hand), v.Kept...)
		if v.MyPick.Kind != 0 {
			cs = append(cs, v.MyPick.Card)
		}
		for _, c := range cs {
			out = append(out, chaptersview.ChaptersCard(l, v.Cards, c))
		}
	case *courtiers.View:
		if v.Final == nil {
			for _, m := range v.Missions {
				name, text := courtiersview.CourtierMission(l, m)
				out = append(out, name, text)
			}
		}
	}
	return out
}

var (
	wordsMu sync.Mutex
	words   = map[string]*regexp.Regexp{}
)

// wordPattern matches a name as a whole word ("Wolf 2" is not in "Wolf 20").
func wordPattern(word string) *regexp.Regexp {
	wordsMu.Lock()
	defer wordsMu.Unlock()
	re, ok := words[word]
	if !ok {
		re = regexp.MustCompile(`(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(word) + `($|[^\p{N}])`)
		words[word] = re
	}
	return re
}

// checkSecrets is the hidden-information oracle for any game: what a seat
// alone may know is rendered from the other seats' views with the same
// renderer in every language (the lines of their private part, and single
// cards or missions that only they hold); no message a user can see that
// is new or changed since the last check may hold any of it, unless the
// user may know it too (it is in their own view or the public one).
func (g *gameRun) checkSecrets() {
	w := g.world
	w.t.Helper()
	ctx := context.Background()
	// The messages first, then the log: every message read was made from
	// the log as read or an earlier one, never from a later one (the AI
	// seats may move meanwhile, and a later trick's result shows cards
	// that the earlier log still has in a hand).
	users := append(slices.Clone(players), eve)
	visible := map[string][]*discordtest.Message{}
	for _, u := range users {
		visible[u] = g.changes.VisibleTo(u)
	}
	rec, log, err := w.db.Load(ctx, g.id)
	if err != nil {
		w.t.Fatal(err)
	}

	if g.secretsAt != len(log) {
		g.workOutSecrets(rec, log)
	}
	changed := map[string]string{}
	for _, u := range users {
		seat := engine.Spectator
		for _, si := range rec.Seats {
			if si.UserID == u && si.Kind == table.Human {
				seat = si.Seat
			}
		}
		secrets := g.secrets[u]
		for _, m := range visible[u] {
			text := m.Text()
			if g.checked[m.ID] == text {
				continue
			}
			changed[m.ID] = text
			for _, s := range secrets {
				if strings.Contains(text, s.text) && (s.re == nil || s.re.MatchString(text)) {
					w.t.Errorf("LEAK: %s (seat %d) sees %q of seat %d in %s", u, seat, s.text, s.of, m)
				}
			}
		}
	}
	for k, v := range changed {
		g.checked[k] = v
	}
	g.changes.Mark()
}

// workOutSecrets works out, for the table as log leaves it, what each
// user may not see (checkSecrets).
func (g *gameRun) workOutSecrets(rec table.Record, log []table.Entry) {
	w := g.world
	gm, _ := engine.Lookup(rec.Setup.Game)
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	// What each seat has held on the way (a 3 Chapters draft passes hands
	// round: a seat knows the cards it passed on), per language.
	held := map[string][][]string{}
	hold := func(st engine.State) {
		for _, lang := range locales.Languages() {
			l := w.loc.Lang(lang)
			if held[lang] == nil {
				held[lang] = make([][]string, rec.Setup.Seats)
			}
			for s := range rec.Setup.Seats {
				v := st.View(engine.Seat(s))
				held[lang][s] = append(held[lang][s], secretWords(l, v)...)
				if cv, ok := v.(*chapters.View); ok {
					// A card's abilities may name another card ("With
					// Giant 47: 5 gems"): the hand says so.
					for _, c := range append(slices.Clone(cv.Hand), cv.Kept...) {
						held[lang][s] = append(held[lang][s], chaptersview.ChaptersCardLine(l, cv.Cards, c))
					}
				}
			}
		}
	}
	st, err := engine.Start(gm, rec.Setup, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	hold(st)
	for i, m := range moves {
		if _, err := engine.Step(gm, st, rec.Setup.Seed, i, m, nil); err != nil {
			w.t.Fatal(err)
		}
		hold(st)
	}
	// What each seat's view (and the spectator's, last) shows, per language.
	type shown struct{ public, private []string }
	views := map[string][]shown{}
	for _, lang := range locales.Languages() {
		l := w.loc.Lang(lang)
		nm := seatNames(l, rec)
		for s := 0; s <= rec.Setup.Seats; s++ {
			seat := engine.Seat(s)
			if s == rec.Setup.Seats {
				seat = engine.Spectator
			}
			v := st.View(seat)
			sc, _ := render.ScreenOf(rec.Setup.Game, l, v, nm, rendertest.LegalOf(st, seat))
			sh := shown{rendertest.Texts(sc), secretWords(l, v)}
			if seat >= 0 {
				sh.private = append(sh.private, held[lang][s]...)
			}
			views[lang] = append(views[lang], sh)
		}
	}
	g.secrets = map[string][]secret{}
	for _, u := range append(slices.Clone(players), eve) {
		seat := rec.Setup.Seats // the spectator's
		for _, si := range rec.Seats {
			if si.UserID == u && si.Kind == table.Human {
				seat = int(si.Seat)
			}
		}
		var legit strings.Builder
		for _, lang := range locales.Languages() {
			for _, k := range []int{seat, rec.Setup.Seats} {
				for _, line := range append(slices.Clone(views[lang][k].public), views[lang][k].private...) {
					legit.WriteString(line + "\n")
				}
			}
		}
		known := legit.String()
		var secrets []secret
		for _, lang := range locales.Languages() {
			l := w.loc.Lang(lang)
			for o := 0; o < rec.Setup.Seats; o++ {
				if o == seat {
					continue
				}
				for _, line := range privateCards(l, rec, st, engine.Seat(o)) {
					if !strings.Contains(known, line) {
						// A whole item: "Prince 1" is not in "Prince 10".
						secrets = append(secrets, secret{text: line, re: wordPattern(line), of: engine.Seat(o)})
					}
				}
				for _, word := range secretWords(l, st.View(engine.Seat(o))) {
					if !strings.Contains(known, word) {
						secrets = append(secrets, secret{text: word, re: wordPattern(word), of: engine.Seat(o)})
					}
				}
			}
		}
		g.secrets[u] = secrets
	}
	g.secretsAt = len(log)
}

// finish checks a finished game's table message and the fake's log.
func (g *gameRun) finish(want ...string) {
	w := g.world
	w.t.Helper()
	rec, _, err := w.db.Load(context.Background(), g.id)
	if err != nil {
		w.t.Fatal(err)
	}
	if rec.Status != table.StatusFinished {
		w.t.Fatalf("status %s", rec.Status)
	}
	final := w.tableMessage(g.id)
	if ids := final.CustomIDs(); !slices.Equal(ids, []string{"again/" + g.id}) {
		w.t.Errorf("the final table message has controls other than Rematch: %q", ids)
	}
	sc := replayScreen(w.t, w.db, w.loc, g.id)
	if len(sc.Result) == 0 {
		w.t.Errorf("the finished game has no result")
	}
	want = append(want, sc.Result...)
	for _, s := range want {
		if !strings.Contains(readText(final), s) {
			w.t.Errorf("the final table message lacks %q: %s", s, final)
		}
	}
	w.fake.AssertNoErrors(w.t)
}

func gameDeadline(t *testing.T) func() {
	start := time.Now()
	return func() {
		// Alone, under -race, each game takes well under 20 s; with every
		// test of the package in parallel it may take longer.
		if d := time.Since(start); d > 20*time.Second {
			t.Logf("the game took %s", d)
		}
	}
}

func TestLynxFourSeatsThroughDiscord(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	g := w.openGame("lynx", 4, []discordtest.Arg{discordtest.Opt("mode", "advanced"), discordtest.Opt("language", "en")}, ala, bob)
	en := w.loc.Lang("en")
	tm := w.tableMessage(g.id)
	if !strings.Contains(shownText(tm), en.T("lynx.mode.advanced", nil)) {
		t.Errorf("the table message does not show the mode: %s", tm)
	}
	// Every player's display and the pool are public: the table's picture
	// shows them, and its description says them.
	alt := strings.Join(mediaDescriptions(w.fake, tm), "\n")
	if !hasPicture(tm, "table.png") || alt == "" {
		t.Fatalf("the table message has no picture: %s", tm)
	}
	for s := 1; s <= 2; s++ {
		if !strings.Contains(alt, en.T("ui.bot", map[string]any{"N": s + 2})) {
			t.Errorf("the table's picture does not show seat %d: %s", s+2, alt)
		}
	}
	if !strings.Contains(alt, en.T("lynx.screen.pool", nil)) {
		t.Errorf("no pool: %s", alt)
	}
	moves := g.playOut(400)
	if moves < 5 {
		t.Errorf("only %d moves", moves)
	}
	g.finish()
}

func TestLynxDuelThroughDiscord(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	g := w.openGame("lynx", 2, []discordtest.Arg{discordtest.Opt("language", "uk")}, olena, ala)
	uk := w.loc.Lang("uk")
	if tm := w.tableMessage(g.id); !strings.Contains(shownText(tm), uk.T("lynx.mode.duel", nil)) {
		t.Errorf("not a duel: %s", tm)
	}
	hand := w.do(w.fake.Click(ala, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	if alt := strings.Join(mediaDescriptions(w.fake, hand), "\n"); !hasPicture(hand, "hand.png") || !strings.Contains(alt, "×") && !strings.Contains(alt, "·") {
		t.Errorf("the hand is not grouped by value: %s %q", hand, alt)
	}
	g.playOut(400)
	g.finish()
}

func TestChaptersFourSeatsThroughDiscord(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	g := w.openGame("chapters", 4, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, olena, bob)
	hand := w.do(w.fake.Click(bob, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	// The draft: one tap on a card's button; what each card does is
	// written above the buttons, whole ("Alicja 8 — z Krainy Czarów: …").
	cards := gameControls(hand)
	if len(cards) != 8 {
		t.Fatalf("the draft is not 8 cards: %s", hand)
	}
	text := shownText(hand)
	for _, c := range cards {
		if c.IsSelect() || !strings.Contains(text, "\n"+c.Label+" — ") {
			t.Errorf("the draft's card %q is not a button with its abilities above: %s", c.Label, hand)
		}
	}
	g.playOut(300)
	g.finish()
}

func TestChaptersTwoSeatsThroughDiscord(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	g := w.openGame("chapters", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, bob, zosia)
	// 56 "pick X ghost Y": first the card to keep, then the ghost's.
	hand := w.do(w.fake.Click(zosia, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	first := gameControls(hand)
	if len(first) != 8 || first[0].IsSelect() || !strings.Contains(first[0].CustomID, "/>pick ") {
		t.Fatalf("the first step: %s", hand)
	}
	second := w.do(w.fake.Click(zosia, hand, first[2].CustomID))
	keep := first[2].CustomID[strings.Index(first[2].CustomID, ">pick ")+len(">pick "):]
	var ghosts []discordtest.Component
	for _, c := range gameControls(second) {
		if !strings.HasSuffix(c.CustomID, "/~hand") {
			ghosts = append(ghosts, c)
		}
	}
	if len(ghosts) != 7 || !strings.Contains(ghosts[0].CustomID, "/pick "+keep+" ghost ") {
		t.Fatalf("the second step: %s", second)
	}
	if !strings.Contains(shownText(second), first[2].Label) {
		t.Errorf("the second step does not name the card chosen (%s): %s", first[2].Label, second)
	}
	v := w.version(g.id)
	w.do(w.fake.Click(zosia, second, ghosts[0].CustomID))
	if w.version(g.id) != v+1 {
		t.Fatal("the two-step pick was not taken")
	}
	g.checkSecrets()
	g.playOut(300)
	if g.steps == 0 {
		t.Error("no pick took two steps")
	}
	g.finish()
}

func TestCourtiersFourPlayersThroughDiscord(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	g := w.openGame("courtiers", 4, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, olena, bob, zosia)
	pl := w.loc.Lang("pl")
	hand := w.do(w.fake.Click(ala, w.tableMessage(g.id), w.tableMessage(g.id).Control("hand/"+g.id)))
	if !strings.Contains(shownText(hand), strings.SplitN(pl.T("courtiers.ui.mission_white", map[string]any{"Name": "", "Text": ""}), ":", 2)[0]) {
		t.Errorf("the hand shows no mission: %s", hand)
	}
	g.playOut(400)
	g.finish()
}

// TestOpenOptionsFromTheGames: /stolik open offers every game's options
// with localized choices, and the engine rejects an option its game does
// not have.
func TestOpenOptionsFromTheGames(t *testing.T) {
	w := newWorld(t)
	open := w.fake.Commands(guildID)[0].Option("open")
	mode := open.Option("mode")
	if mode == nil || len(mode.Choices) != 3 || mode.NameLocalizations["pl"] != "tryb" || mode.Choices[2].NameLocalizations["uk"] == "" {
		t.Fatalf("mode option: %+v", mode)
	}
	if len(open.Options) > 25 {
		t.Errorf("%d options", len(open.Options))
	}
	m := w.slash(bob, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("mode", "expert"))
	if want := render.Error(w.loc.Lang("en"), engine.Errorf(engine.CodeBadOption, "key", "mode", "value", "expert", "why", "unknown_key")); shownText(m) != want || !strings.Contains(want, "no such option") {
		t.Errorf("mode for princesses: %q, want %q", shownText(m), want)
	}
	w.slash(bob, "open", discordtest.Opt("game", "lynx"), discordtest.Opt("mode", "expert"), discordtest.Opt("seats", 2))
	id := w.tableID()
	if lobby := w.tableMessage(id); !strings.Contains(shownText(lobby), w.loc.Lang("pl").T("cmd.choice.mode.expert", nil)) {
		t.Errorf("the lobby does not show the mode: %s", lobby)
	}
	w.fake.AssertNoErrors(t)
}

// moveControls lists the controls of a hand message that make or begin a
// move (not its Back button).
func moveControls(hand *discordtest.Message) []discordtest.Component {
	var out []discordtest.Component
	for _, row := range hand.Components {
		for _, c := range row.Components {
			if strings.HasPrefix(c.CustomID, "t/") && !strings.HasSuffix(c.CustomID, "/~hand") {
				out = append(out, c)
			}
		}
	}
	return out
}

// privateCards are the lines only seat o may read: its hand and each of
// its secret piles, whole lines with their labels, as its screen says them
// ("Your hand: Prince 6"; a card alone would be found in an earlier
// round's trick, the same card dealt again).
func privateCards(l *locales.Localizer, rec table.Record, st engine.State, o engine.Seat) []string {
	sc, _ := render.ScreenParts(rec.Setup.Game, render.PrivateParts, l, st.View(o), seatNames(l, rec), rendertest.LegalOf(st, o))
	piles := sc.Secret
	if sc.Hand != nil {
		piles = append(piles, *sc.Hand)
	}
	var out []string
	for _, p := range piles {
		if p.Text != "" && len(p.Cards) > 0 { // an empty hand tells nothing
			out = append(out, p.Line())
		}
	}
	return out
}
