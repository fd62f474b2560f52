package bot_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// longNames are display names of Discord's greatest length (32
// characters), in the scripts the languages use.
var longNames = map[string]string{
	ala:   "Żółtobrzuchy Ślimak Grzegorz 33ą",
	olena: "Олександра-Марія Шевченко-Петрук",
	bob:   "Bartholomew Fitzgerald-Wellingtn",
	zosia: "Zofia Źdźbło-Chrząszczykiewiczów",
	eve:   "Evangeline Montgomery-Ashworth 1",
}

// newLongWorld is newWorld with the users' names 32 characters long and
// the fake's strict text checks on: a text cut at a limit, two controls of
// one message that read the same, or a pinging mention fails the test.
func newLongWorld(t *testing.T) *world {
	t.Helper()
	t.Parallel()
	fake := discordtest.New(t, discordtest.WithStrictText())
	fake.AddGuild(guildID, "Gry", "pl")
	fake.AddChannel(guildID, channelID)
	for _, u := range []struct{ id, locale string }{{ala, "pl"}, {olena, "uk"}, {bob, "en-US"}, {zosia, "pl"}, {eve, "en-GB"}} {
		if n := utf8.RuneCountInString(longNames[u.id]); n != 32 {
			t.Fatalf("%q has %d characters", longNames[u.id], n)
		}
		fake.AddUser(u.id, longNames[u.id], u.locale)
	}
	w := &world{t: t, fake: fake, dbPath: filepath.Join(t.TempDir(), "stolik.db"), loc: locales.MustLoad(), seen: map[string]string{}, seenAt: map[string]int{}, logs: &logBuffer{}}
	w.start()
	t.Cleanup(w.stop)
	return w
}

// TestWholeGamesOnTheScreen plays whole games of every game at its largest
// seat count, in every language, two players with 32-character names and
// AI players in the other seats, the fake's strict text checks on. Every
// table message is a Components V2 message with the table's picture and
// its description; it mentions each player who must act exactly once, in
// its first line, and shows the result at the end. No hand repeats the
// public table as a whole item (a line, a pile's words): another seat's
// line, the centre, the table's header.
// lookMovesEnv, set to N, stops TestWholeGamesOnTheScreen's games after N
// moves, so that a capture (STOLIK_CAPTURE) shows tables being played:
//
//	STOLIK_LOOK_MOVES=12 STOLIK_CAPTURE=/tmp/c.jsonl go test -run WholeGamesOnTheScreen ./bot/
const lookMovesEnv = "STOLIK_LOOK_MOVES"

func TestWholeGamesOnTheScreen(t *testing.T) {
	t.Parallel()
	type gameCase struct {
		game  string
		seats int
		opts  []discordtest.Arg
	}
	games := []gameCase{
		{"princesses", 6, []discordtest.Arg{discordtest.Opt("rounds", "a"), discordtest.Opt("powers", "on")}},
		{"lynx", 5, []discordtest.Arg{discordtest.Opt("mode", "expert")}},
		{"chapters", 6, nil},
		{"courtiers", 5, nil},
	}
	for _, m := range bot.MissingGames("princesses", "lynx", "chapters", "courtiers") {
		games = append(games, gameCase{m.Game, m.Seats, nil})
	}
	humans := map[string][]string{"en": {bob, ala}, "pl": {ala, olena}, "uk": {olena, bob}}
	stopAt, _ := strconv.Atoi(os.Getenv(lookMovesEnv))
	for k, c := range games {
		for j, lang := range locales.Languages() {
			if raceEnabled && j != k%len(locales.Languages()) {
				// Under the race detector (pictures are drawn some ten
				// times slower) each game is played in one language, in
				// turn; the texts do not depend on the detector.
				continue
			}
			t.Run(c.game+"-"+lang, func(t *testing.T) {
				w := newLongWorld(t)
				defer gameDeadline(t)()
				g := w.openGame(c.game, c.seats, append([]discordtest.Arg{discordtest.Opt("language", lang)}, c.opts...), humans[lang]...)
				s := &screenCheck{g: g, lang: lang}
				for moves := 0; ; moves++ {
					if moves == 600 {
						t.Fatal("no end after 600 moves")
					}
					tm := s.checkTable()
					if moves == stopAt && stopAt > 0 {
						t.Logf("stopped after %d moves (%s), to look at a game being played", moves, lookMovesEnv)
						return
					}
					if !playing(tm) {
						break
					}
					acting := toAct(tm)
					if len(acting) == 0 {
						t.Fatalf("nobody to act: %q", shownText(tm))
					}
					g.move(acting[g.rng.IntN(len(acting))])
					s.checkHands()
				}
				g.finish()
				s.checkEnd()
				s.checkEveryEdit()
				if len(s.several) == 0 && (c.game == "princesses" || c.game == "chapters") {
					t.Error("no table message mentioned both players at once")
				}
				t.Logf("%d table messages and %d hands checked", s.tables, s.hands)
			})
		}
	}
}

// screenCheck checks the messages of one game as it goes.
type screenCheck struct {
	g    *gameRun
	lang string
	// seatLines are every seat's line of the public screen so far, per
	// seat, and the centre's lines: what the table message shows and no
	// hand may repeat.
	seatLines map[engine.Seat][]string
	center    []string
	seenHands map[string]string // message id -> text checked
	several   []string          // first lines that mentioned several players
	tables    int
	hands     int
}

// screen is the public screen of the table as its log leaves it.
func (s *screenCheck) screen() (table.Record, render.Screen) {
	w := s.g.world
	rec, _, err := w.db.Load(context.Background(), s.g.id)
	if err != nil {
		w.t.Fatal(err)
	}
	return rec, replayScreen(w.t, w.db, w.loc, s.g.id)
}

// checkTable checks the table message as it stands and returns it.
func (s *screenCheck) checkTable() *discordtest.Message {
	w := s.g.world
	t := w.t
	t.Helper()
	rec, sc := s.screen()
	tm := w.tableMessage(s.g.id)
	s.tables++
	if tm.Content != "" || tm.Flags&discordtest.FlagComponentsV2 == 0 {
		t.Fatalf("the table message is not a Components V2 message: %s", tm)
	}
	if !hasPicture(tm, "table.png") {
		t.Fatalf("the table message has no picture: %s", tm)
	}
	// Two pictures, the centre and the seats (one when there are no seats
	// or nothing above them but the title), each described.
	alts := mediaDescriptions(w.fake, tm)
	wantAlts := 1
	if len(sc.Seats) > 0 && (len(sc.Center) > 0 || len(sc.Result) > 0 || sc.Rule != nil) {
		wantAlts = 2
	}
	if len(alts) != wantAlts || len(tm.Attachments) != wantAlts {
		t.Fatalf("the table's pictures have the descriptions %q and the files %d, want %d", alts, len(tm.Attachments), wantAlts)
	}
	for _, alt := range alts {
		if strings.TrimSpace(alt) == "" || utf8.RuneCountInString(alt) > 1024 {
			t.Fatalf("the table's pictures have the descriptions %q", alts)
		}
	}
	text := shownText(tm)
	first, _, _ := strings.Cut(text, "\n")
	// Each player who must act is mentioned once, in the first line; an AI
	// seat is named, never mentioned.
	var want []string
	if rec.Status == table.StatusPlaying {
		for _, seat := range sc.Acting {
			for _, si := range rec.Seats {
				if si.Seat == seat && si.Kind == table.Human {
					want = append(want, si.UserID)
				}
			}
		}
	}
	for _, u := range want {
		if m := "<@" + u + ">"; strings.Count(text, m) != 1 || !strings.Contains(first, m) {
			t.Fatalf("%s must act: mentioned %d times, first line %q", u, strings.Count(text, m), first)
		}
	}
	if got := toAct(tm); len(got) != len(want) {
		t.Fatalf("the table message mentions %v, the table waits for %v: %q", got, want, text)
	}
	if len(want) > 1 {
		s.several = append(s.several, first)
	}
	if sc.Title != "" && !strings.Contains(text, sc.Title) {
		t.Fatalf("the table message lacks the title %q: %q", sc.Title, text)
	}
	// What no hand may repeat.
	if s.seatLines == nil {
		s.seatLines = map[engine.Seat][]string{}
	}
	for _, sp := range sc.Seats {
		if sp.Line != "" && !slices.Contains(s.seatLines[sp.Seat], sp.Line) {
			s.seatLines[sp.Seat] = append(s.seatLines[sp.Seat], sp.Line)
		}
	}
	for _, p := range sc.Center {
		for _, c := range []string{p.Text, p.Line()} {
			if c != "" && !slices.Contains(s.center, c) {
				s.center = append(s.center, c)
			}
		}
	}
	return tm
}

// shownItems are the whole items of a message's text that a repeated line
// of the table would be: each line, without the Markdown around it, and
// what follows a line's label ("Trick: Queen 7 · Fairy 3").
func shownItems(text string) []string {
	var items []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"-# ", "> ", "### ", "## ", "# ", "- ", "• "} {
			l = strings.TrimPrefix(l, p)
		}
		l = strings.TrimSpace(strings.Trim(l, "*_"))
		if l == "" {
			continue
		}
		items = append(items, l)
		if _, after, ok := strings.Cut(l, ": "); ok {
			items = append(items, strings.TrimSpace(strings.Trim(after, "*_")))
		}
		if head, after, ok := strings.Cut(l, ":** "); ok && head != "" {
			items = append(items, strings.TrimSpace(after))
		}
	}
	return items
}

// checkHands checks every ephemeral message the players got since the
// last check: no line of another seat, no pile of the centre, no header
// of the table.
func (s *screenCheck) checkHands() {
	w := s.g.world
	t := w.t
	t.Helper()
	if s.seenHands == nil {
		s.seenHands = map[string]string{}
	}
	rec, _, err := w.db.Load(context.Background(), s.g.id)
	if err != nil {
		t.Fatal(err)
	}
	head := w.loc.Lang(rec.Lang).T("bot.table_header", map[string]any{"Game": w.loc.Lang(rec.Lang).T("game."+rec.Setup.Game+".name", nil), "ID": rec.ID})
	for _, si := range rec.Seats {
		if si.Kind != table.Human {
			continue
		}
		for _, m := range w.fake.Ephemeral(si.UserID) {
			if m.Flags&discordtest.FlagComponentsV2 == 0 {
				continue // not a hand: "You have taken a seat"
			}
			text := shownText(m)
			if s.seenHands[m.ID] == text {
				continue
			}
			s.seenHands[m.ID] = text
			s.hands++
			if strings.Contains(text, head) || strings.Contains(text, rec.ID) {
				t.Errorf("%s's hand shows the table's header: %q", si.UserID, text)
			}
			// Whole items only: a pile's text ("6 карт") may well be a
			// part of a sentence the hand rightly shows (a trick's result).
			items := shownItems(text)
			for seat, lines := range s.seatLines {
				if seat == si.Seat {
					continue
				}
				for _, l := range lines {
					if slices.Contains(items, l) {
						t.Errorf("%s's hand repeats seat %d's line %q: %q", si.UserID, seat, l, text)
					}
				}
			}
			for _, c := range s.center {
				if slices.Contains(items, c) {
					t.Errorf("%s's hand repeats the centre %q: %q", si.UserID, c, text)
				}
			}
		}
	}
}

// checkEnd: the finished table message shows the result lines, the
// standings in its picture's description too.
func (s *screenCheck) checkEnd() {
	w := s.g.world
	t := w.t
	t.Helper()
	_, sc := s.screen()
	tm := w.tableMessage(s.g.id)
	if len(sc.Result) == 0 {
		t.Fatal("the finished game has no result")
	}
	text := readText(tm)
	for _, r := range sc.Result {
		if !strings.Contains(text, r) {
			t.Errorf("the final table message lacks the result line %q: %q", r, text)
		}
	}
	if alts := mediaDescriptions(w.fake, tm); len(alts) == 0 || !strings.Contains(alts[0], sc.Result[0]) {
		t.Errorf("the final picture's description lacks the result: %q", alts)
	}
}

// checkEveryEdit: every edit of the table message once the game started
// attached the table's picture, with a description, and no request of the
// game failed or was cut (the strict checks report those as they come).
func (s *screenCheck) checkEveryEdit() {
	w := s.g.world
	t := w.t
	t.Helper()
	rec, _, err := w.db.Load(context.Background(), s.g.id)
	if err != nil {
		t.Fatal(err)
	}
	edits := 0
	for _, c := range w.fake.Calls() {
		if c.Method != "PATCH" || c.MessageID != rec.MessageID || c.Status/100 != 2 {
			continue
		}
		var p struct {
			Flags      int              `json:"flags"`
			Components []mediaComponent `json:"components"`
		}
		if err := json.Unmarshal(c.Body, &p); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if p.Flags&discordtest.FlagComponentsV2 == 0 {
			continue // the lobby
		}
		edits++
		var alts []string
		var shown string
		var walk func(cs []mediaComponent)
		walk = func(cs []mediaComponent) {
			for _, mc := range cs {
				for _, it := range mc.Items {
					if file, ok := strings.CutPrefix(it.Media.URL, "attachment://"); ok && pictureFile(file, "table.png") {
						alts = append(alts, it.Description)
						shown = file
					}
				}
				walk(mc.Components)
			}
		}
		walk(p.Components)
		if len(alts) != 1 || strings.TrimSpace(alts[0]) == "" || !slices.Contains(c.Files, shown) {
			t.Errorf("an edit of the table message without its picture (%q, files %v): %s", alts, c.Files, c)
		}
	}
	if edits == 0 {
		t.Error("no edit of the table message")
	}
	if vs := w.fake.TextViolations(); len(vs) > 0 {
		t.Errorf("text violations: %s", strings.Join(vs, "\n"))
	}
	w.fake.AssertNoErrors(t)
}

// TestStatusRoundCardAndWords: /stolik status answers with the table as
// everyone sees it, in the reader's language, with its picture; "Round
// card" answers with the round card's whole text; the table message says
// the seats in words (their lines) with pictures or without; with pictures
// off, the hand names its cards, and nothing is attached.
func TestStatusRoundCardAndWords(t *testing.T) {
	t.Parallel()
	for _, pictures := range []bool{true, false} {
		t.Run(map[bool]string{true: "pictures", false: "words"}[pictures], func(t *testing.T) {
			w := newWorld(t)
			if !pictures {
				w.config = func(c *bot.Config) { c.Pictures = false }
				w.stop()
				w.start()
			}
			id := w.openTable(ala, olena, bob) // Polish, with powers, one round
			en := w.loc.Lang("en")
			tm := w.tableMessage(id)
			sc := replayScreen(t, w.db, w.loc, id)
			if sc.Rule == nil {
				t.Fatal("no round card")
			}
			if hasPicture(tm, "table.png") != pictures || (len(tm.Attachments) > 0) != pictures {
				t.Errorf("pictures %v: the table message %s has attachments %v", pictures, tm, tm.Attachments)
			}
			// The seats' lines are in the text with a picture too: the
			// picture shows a seat's name and counts only.
			for _, s := range sc.Seats {
				if !strings.Contains(shownText(tm), s.Line) {
					t.Errorf("pictures %v: seat %d's line %q not in the text: %q", pictures, s.Seat, s.Line, shownText(tm))
				}
			}

			// The status, in eve's language (English), from the spectator's view.
			st := w.slash(eve, "status")
			enScreen, _ := render.ScreenOf("princesses", en, replayView(t, w, id), seatNames(en, mustRecord(t, w, id)), nil)
			if !st.Ephemeral() || st.Flags&discordtest.FlagComponentsV2 == 0 || hasPicture(st, "table.png") != pictures {
				t.Errorf("the status: %s", st)
			}
			if text := shownText(st); !strings.Contains(text, enScreen.Title) || !strings.Contains(text, enScreen.Rule.Name) || !strings.Contains(text, "table "+id) {
				t.Errorf("the status lacks the title %q or the round card %q: %q", enScreen.Title, enScreen.Rule.Name, text)
			}

			// The round card's whole text, in bob's language.
			rc := w.do(w.fake.Click(bob, tm, "rule/"+id))
			if !rc.Ephemeral() || !strings.Contains(shownText(rc), enScreen.Rule.Full) || !strings.Contains(shownText(rc), enScreen.Rule.Name) {
				t.Errorf("the round card: %q, want %q", shownText(rc), enScreen.Rule.Full)
			}

			// History (the button the table message shows when its last
			// moves gave way): the table's history, in bob's language.
			p := w.fake.InteractionPayload(discordtest.InteractionComponent, bob, w.gameChannel(id),
				map[string]any{"custom_id": "hist/" + id, "component_type": discordtest.ComponentButton}, tm)
			in, err := w.fake.DispatchInteraction(p)
			if err != nil {
				t.Fatal(err)
			}
			if h := w.do(in); !h.Ephemeral() || !strings.Contains(shownText(h), en.T("async.history_status.playing", nil)) {
				t.Errorf("the history: %q", shownText(h))
			}

			// The hand: the cards in words without a picture.
			hand := w.do(w.fake.Click(bob, tm, tm.Control("hand/"+id)))
			hs, _ := render.ScreenOf("princesses", en, replaySeatView(t, w, id, 2), seatNames(en, mustRecord(t, w, id)), nil)
			if hasPicture(hand, "hand.png") != pictures || strings.Contains(shownText(hand), hs.Hand.Text) == pictures {
				t.Errorf("pictures %v: the hand %q (cards %q)", pictures, shownText(hand), hs.Hand.Text)
			}
			w.fake.AssertNoErrors(t)
		})
	}
}

func mustRecord(t *testing.T, w *world, id string) table.Record {
	t.Helper()
	rec, _, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// replaySeatView is a seat's view of a table as its log leaves it.
func replaySeatView(t *testing.T, w *world, id string, seat engine.Seat) engine.View {
	t.Helper()
	rec, log, err := w.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := engine.Lookup(rec.Setup.Game)
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	st, err := engine.Replay(g, rec.Setup, moves)
	if err != nil {
		t.Fatal(err)
	}
	return st.View(seat)
}

// replayView is the spectator's view of a table as its log leaves it.
func replayView(t *testing.T, w *world, id string) engine.View {
	return replaySeatView(t, w, id, engine.Spectator)
}

// TestHandPictureComesAfterTheWords: a hand is answered at once in words
// with its controls, and its picture is edited in after (never on the
// acknowledgement's path); a picture still being drawn when the player has
// had a newer answer is never edited over it; a hand is drawn only when
// its owner asks for it.
func TestHandPictureComesAfterTheWords(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob)
	tm := w.tableMessage(id)
	release := w.bot.HoldPictures()

	in := w.fake.Click(bob, tm, tm.Control("hand/"+id))
	first := in.WaitAnswer(context.Background())
	if first == nil || hasPicture(first, "hand.png") || len(first.CustomIDs()) == 0 {
		t.Fatalf("the first answer should be the hand in words with its controls: %v", first)
	}
	// A newer answer to bob (his hand asked for again) before the picture.
	in2 := w.fake.Click(bob, tm, tm.Control("hand/"+id))
	in2.WaitAnswer(context.Background())
	release()
	waitIdle(t, w.bot, idleWait())

	old, newer := in.Answer(), in2.Answer()
	if old != nil {
		// One hand in front of the player: the older is deleted, and is
		// never drawn over either.
		t.Errorf("the older answer is still there after a newer one: %v", old)
	}
	if !hasPicture(newer, "hand.png") {
		t.Errorf("the newest answer has no picture: %v", newer)
	}
	if !slices.Equal(newer.CustomIDs(), first.CustomIDs()) {
		t.Errorf("the picture changed the controls: %v, then %v", first.CustomIDs(), newer.CustomIDs())
	}
	if alt := strings.Join(mediaDescriptions(w.fake, newer), "\n"); alt == "" {
		t.Errorf("the hand's picture has no description")
	}

	// Asked for again, the same hand comes with its picture at once (drawn
	// before).
	in3 := w.fake.Click(bob, tm, tm.Control("hand/"+id))
	third := in3.WaitAnswer(context.Background())
	if !hasPicture(third, "hand.png") {
		t.Errorf("a hand drawn before should come with its picture at once: %v", third)
	}
	waitIdle(t, w.bot, idleWait())

	// After a move the hand is answered in words: a hand's picture is
	// drawn only when its owner asks for the hand.
	after := w.do(w.fake.Click(bob, third, third.CustomIDs()[0]))
	if hasPicture(after, "hand.png") {
		t.Errorf("a hand's picture was drawn after a move, not asked for: %v", after)
	}
	w.fake.AssertNoErrors(t)
}

// TestOneTurnPingAtATime: a post that only says whose move it is ("Your
// move: @…") carries the My hand button, and is deleted when a newer one
// pings whoever must act now, so that a channel holds one such post per
// table, not one per turn; posts holding anything else stay.
func TestOneTurnPingAtATime(t *testing.T) {
	w := newWorld(t) // ping_quiet 0: a mention at every turn
	g := w.openGame("chapters", 3, []discordtest.Arg{discordtest.Opt("language", "pl")}, ala, zosia, bob)
	l := w.loc.Lang("pl")
	prefix, _, _ := strings.Cut(l.T("bot.turn_ping", map[string]any{"Names": "\x00"}), "\x00")
	prefixAll, _, _ := strings.Cut(l.T("bot.turn_you_all", map[string]any{"Names": "\x00"}), "\x00")
	onlyPing := func(m *discordtest.Message) bool {
		text := strings.TrimSpace(m.Content)
		if text == "" {
			return false
		}
		for _, line := range strings.Split(text, "\n") {
			if !strings.HasPrefix(line, prefix) && !strings.HasPrefix(line, prefixAll) {
				return false
			}
		}
		return true
	}
	pinged := 0
	for moves := 0; moves < 30; moves++ {
		tm := w.tableMessage(g.id)
		acting := toAct(tm)
		if !playing(tm) || len(acting) == 0 {
			break
		}
		g.move(acting[g.rng.IntN(len(acting))])
		waitIdle(t, w.bot, idleWait())
		var pings []string
		for _, m := range w.fake.Messages(w.gameChannel(g.id)) {
			if onlyPing(m) {
				pings = append(pings, m.Content)
				// A turn ping opens the hand in one tap: My hand, nothing else.
				if ids := m.CustomIDs(); !slices.Equal(ids, []string{"hand/" + g.id}) {
					t.Errorf("a turn ping carries %q, not the My hand button", ids)
				}
			}
		}
		if len(pings) > 1 {
			t.Fatalf("after move %d the channel holds %d turn pings: %q", moves, len(pings), pings)
		}
		pinged += len(pings)
	}
	if pinged == 0 {
		t.Fatal("no turn ping seen: the check checked nothing")
	}
	w.fake.AssertNoErrors(t)
}

// TestHistoryMidGameShowsNothingHidden: /stolik history asked in the middle
// of a game, by each player and by a spectator, names no card that reader
// may not know: a card in another seat's hand counts as known only once it
// has lain face up on the table (played, then perhaps taken back by a
// power such as Mulan's, which everyone sees), or when the reader froze it.
func TestHistoryMidGameShowsNothingHidden(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob) // seat 4 is an AI player
	rng := rand.New(rand.NewPCG(7, 8))
	asked, named := 0, 0
	for round := 0; round < 8; round++ {
		if w.play(id, rng, 8) == 0 {
			break
		}
		rec, st, log := w.current(id)
		g, _ := engine.Lookup(rec.Setup.Game)
		seen := map[princesses.Card]bool{} // every card that has lain face up
		for _, mv := range log {
			if c, ok := strings.CutPrefix(mv.Action, "play "); ok {
				if c, ok := princesses.ParseCard(c); ok {
					seen[c] = true // played (face down only in Masquerade, turned up later)
				}
			}
		}
		for k := 0; k <= len(log); k++ {
			s, err := engine.Replay(g, rec.Setup, log[:k])
			if err != nil {
				t.Fatal(err)
			}
			v := s.View(engine.Spectator).(*princesses.View)
			for _, p := range append(slices.Clone(v.Trick), v.LastTrick...) {
				seen[p.Card] = true
			}
		}
		for _, u := range []string{ala, olena, bob, eve} {
			h := w.do(w.fake.SlashCommand(u, guildID, w.gameChannel(id), "stolik", discordtest.Sub("history")))
			text := shownText(h)
			if !h.Ephemeral() || !strings.Contains(text, id) {
				t.Fatalf("%s's history: %s %q", u, h, text)
			}
			asked++
			// Read here, with what was public when it was written; the
			// leak checks of the moves that follow need not read it again
			// once a new deal has put its cards in hands.
			w.seen[h.ID] = h.Text()
			reader := engine.Spectator
			for _, si := range rec.Seats {
				if si.UserID == u {
					reader = si.Seat
				}
			}
			var frozen princesses.Card
			if reader != engine.Spectator {
				frozen = st.View(reader).(*princesses.View).MyFrozen
			}
			for s := range rec.Setup.Seats {
				if engine.Seat(s) == reader {
					continue
				}
				for _, c := range st.View(engine.Seat(s)).(*princesses.View).Hand {
					for _, re := range w.cardPatterns(c) {
						if !re.MatchString(text) {
							continue
						}
						named++
						if !seen[c] && c != frozen {
							t.Errorf("LEAK: %s (seat %d) reads %s, in seat %d's hand and never face up, in the history: %q", u, reader, c, s, text)
						}
					}
				}
			}
		}
	}
	if asked == 0 {
		t.Fatal("no history asked for")
	}
	t.Logf("%d histories read; %d mentions of a card now in another's hand, each once face up", asked, named)
	w.fake.AssertNoErrors(t)
}
