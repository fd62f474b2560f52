package bot

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// checkLimits fails when a message breaks Discord's limits: a Components
// V2 message's text displays (well under 4000 characters in all), its 40
// components and media descriptions; another's content; the rows of
// either.
func checkLimits(t *testing.T, where string, m message) {
	t.Helper()
	if m.v2 {
		if m.content != "" {
			t.Errorf("%s: a Components V2 message with content %q", where, m.content)
		}
		text := v2Text(m.components)
		if n := utf8.RuneCountInString(text); n > v2TextBudget {
			t.Errorf("%s: text displays of %d characters", where, n)
		}
		if strings.Contains(text, locales.MissingOpen) {
			t.Errorf("%s: missing text in %q", where, text)
		}
		if n := countComponents(m.components); n > maxV2Components {
			t.Errorf("%s: %d components", where, n)
		}
		var rows []discordgo.MessageComponent
		for _, c := range m.components {
			switch c := c.(type) {
			case discordgo.TextDisplay:
				if strings.TrimSpace(c.Content) == "" {
					t.Errorf("%s: an empty text display", where)
				}
			case discordgo.MediaGallery:
				for _, it := range c.Items {
					if it.Description == nil || *it.Description == "" || utf8.RuneCountInString(*it.Description) > maxMediaDescription {
						t.Errorf("%s: media description %v", where, it.Description)
					}
					if m.pic == nil || !slices.ContainsFunc(m.pic.files, func(f pictureFile) bool { return it.Media.URL == "attachment://"+f.name }) {
						t.Errorf("%s: media %q without its picture", where, it.Media.URL)
					}
				}
			case discordgo.ActionsRow:
				rows = append(rows, c)
			default:
				t.Errorf("%s: top-level component %T", where, c)
			}
		}
		checkRows(t, where, rows)
		if m.plain != nil {
			checkLimits(t, where+" (without its picture)", m.plain())
		}
		return
	}
	if n := utf8.RuneCountInString(m.text()); n > maxContent {
		t.Errorf("%s: content of %d characters", where, n)
	}
	if strings.Contains(m.content, locales.MissingOpen) {
		t.Errorf("%s: missing text in %q", where, m.content)
	}
	if len(m.components) > maxRows {
		t.Errorf("%s: %d rows", where, len(m.components))
	}
	checkRows(t, where, m.components)
}

// checkRows checks action rows and their controls.
func checkRows(t *testing.T, where string, rows []discordgo.MessageComponent) {
	t.Helper()
	ids := map[string]bool{}
	for _, row := range rows {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			t.Fatalf("%s: top-level component %T", where, row)
		}
		if len(ar.Components) == 0 || len(ar.Components) > maxRowButtons {
			t.Errorf("%s: row of %d components", where, len(ar.Components))
		}
		for _, c := range ar.Components {
			var id string
			switch c := c.(type) {
			case discordgo.Button:
				id = c.CustomID
				if n := utf8.RuneCountInString(c.Label); n == 0 || n > maxButtonLabel {
					t.Errorf("%s: button label %q", where, c.Label)
				}
			case discordgo.SelectMenu:
				id = c.CustomID
				if len(ar.Components) != 1 {
					t.Errorf("%s: a select shares its row", where)
				}
				if len(c.Options) == 0 || len(c.Options) > maxSelectItems || c.MaxValues > len(c.Options) || *c.MinValues > c.MaxValues {
					t.Errorf("%s: select with %d options, %d..%d values", where, len(c.Options), *c.MinValues, c.MaxValues)
				}
			default:
				t.Errorf("%s: component %T", where, c)
			}
			if id == "" || len(id) > maxCustomID || ids[id] {
				t.Errorf("%s: custom_id %q empty, too long or repeated", where, id)
			}
			ids[id] = true
		}
	}
}

func testBot(t *testing.T) *Bot {
	t.Helper()
	return &Bot{loc: locales.MustLoad(), log: slog.New(slog.DiscardHandler), cfg: Defaults()}
}

// limitCases are whole games of every game and seat count.
// limitCase is a game at a seat count and options.
type limitCase struct {
	game  string
	seats int
	opts  engine.Options
}

// limitCases are the games the walks play: these, and every other
// registered game at its default options (MissingGames).
var limitCases = withMissing([]limitCase{
	{"princesses", 3, engine.Options{"rounds": "a"}},
	{"princesses", 4, engine.Options{"rounds": "a", "powers": "off"}},
	{"princesses", 6, engine.Options{"rounds": "invitation", "edition": "classic", "promo": "on"}},
	{"lynx", 2, nil},
	{"lynx", 3, engine.Options{"mode": "advanced"}},
	{"lynx", 4, nil},
	{"lynx", 5, engine.Options{"mode": "expert"}},
	{"chapters", 2, nil},
	{"chapters", 3, nil},
	{"chapters", 4, nil},
	{"chapters", 5, nil},
	{"chapters", 6, nil},
	{"courtiers", 2, nil},
	{"courtiers", 3, nil},
	{"courtiers", 4, nil},
	{"courtiers", 5, nil},
})

// withMissing adds a case for every registered game cases lack.
func withMissing(cases []limitCase) []limitCase {
	var ids []string
	for _, c := range cases {
		ids = append(ids, c.game)
	}
	for _, m := range MissingGames(ids...) {
		cases = append(cases, limitCase{m.Game, m.Seats, nil})
	}
	return cases
}

// walkGame plays a whole game, choosing actions by a fixed rule, and calls
// f with the table at every step.
func walkGame(t *testing.T, game string, seats int, opts engine.Options, seed uint64, f func(snap *table.Snapshot)) {
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
	for n := 0; n < 20000; n++ {
		snap := &table.Snapshot{Record: rec, Game: g, State: st, Version: n}
		done, _ := st.Result()
		if done {
			snap.Record.Status = table.StatusFinished
		}
		f(snap)
		if done {
			return
		}
		s := st.Acting()[0]
		legal := st.Legal(s)
		if _, err := engine.Step(g, st, su.Seed, n, engine.Move{Seat: s, Action: legal[(n*7+len(legal)/2)%len(legal)].String()}, nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s with %d seats: no end", game, seats)
}

// prefixes are the next steps a hand message offers (values and
// custom_ids starting with prefixMark).
func prefixes(m message) []string {
	var out []string
	for _, row := range m.components {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue // a text display, a picture
		}
		for _, c := range ar.Components {
			switch c := c.(type) {
			case discordgo.Button:
				if p, ok := parseGameID(c.CustomID); ok && strings.HasPrefix(p.action, prefixMark) {
					out = append(out, p.action[1:])
				}
			case discordgo.SelectMenu:
				for _, o := range c.Options {
					if strings.HasPrefix(o.Value, prefixMark) {
						out = append(out, o.Value[1:])
					}
				}
			}
		}
	}
	return out
}

// TestHandMessagesWithinLimits plays whole games of every game and seat
// count and checks every seat's hand message, every step of choosing an
// action part by part, and the public message at every step, in every
// language.
func TestHandMessagesWithinLimits(t *testing.T) {
	t.Parallel()
	b := testBot(t)
	for i, c := range limitCases {
		t.Run(fmt.Sprintf("%s-%d", c.game, c.seats), func(t *testing.T) {
			sampleWalk(t, i, 1) // chapters-2 (its two-step draft) among those under -race
			t.Parallel()
			steps := 0
			walkGame(t, c.game, c.seats, c.opts, 7, func(snap *table.Snapshot) {
				checkLimits(t, "public", b.publicMessage(snap, nil))
				for _, lang := range locales.Languages() {
					l := b.loc.Lang(lang)
					for s := 0; s < c.seats; s++ {
						m := b.handMessage(l, snap, engine.Seat(s), strings.Repeat("x", 200), "")
						checkLimits(t, "hand", m)
						queue := prefixes(m)
						for k := 0; k < len(queue) && k < 200; k++ {
							m := b.handMessage(l, snap, engine.Seat(s), "", queue[k])
							checkLimits(t, "hand at "+queue[k], m)
							queue = append(queue, prefixes(m)...)
							steps++
						}
					}
				}
			})
			if c.game == "chapters" && c.seats == 2 && steps == 0 {
				t.Error("the 2-player draft never took two steps")
			}
		})
	}
}

// TestMessagesShowOnlyWhatTheSeatMayKnow re-deals everything a seat may not
// know (engine.HiddenShuffler) at every step of whole games: the seat's hand
// message (text and controls, every step of a choice included) and the
// public message must not change.
func TestMessagesShowOnlyWhatTheSeatMayKnow(t *testing.T) {
	t.Parallel()
	b := testBot(t)
	for i, c := range limitCases {
		t.Run(fmt.Sprintf("%s-%d", c.game, c.seats), func(t *testing.T) {
			sampleWalk(t, i, 0)
			t.Parallel()
			l := b.loc.Lang("uk")
			walkGame(t, c.game, c.seats, c.opts, 11, func(snap *table.Snapshot) {
				hs, ok := snap.State.(engine.HiddenShuffler)
				if !ok {
					t.Skipf("%s has no ShuffleHidden", c.game)
				}
				// The key holds the text, the components (with the pictures'
				// descriptions) and the screens the pictures are drawn from.
				key := func(m message) string { return m.key() }
				for s := -1; s < c.seats; s++ {
					seat := engine.Seat(s)
					other := *snap
					other.State = hs.ShuffleHidden(seat, engine.NewRand(uint64(snap.Version)+99, 0))
					if seat == engine.Spectator {
						if a, b := key(b.publicMessage(snap, nil)), key(b.publicMessage(&other, nil)); a != b {
							t.Fatalf("step %d: the public message changed on a re-deal:\n%s\n%s", snap.Version, a, b)
						}
						continue
					}
					stages := []string{""}
					for k := 0; k < len(stages) && k < 50; k++ {
						m1 := b.handMessage(l, snap, seat, "", stages[k])
						m2 := b.handMessage(l, &other, seat, "", stages[k])
						if a, b := key(m1), key(m2); a != b {
							t.Fatalf("step %d, seat %d, stage %q: the hand message changed on a re-deal:\n%s\n%s", snap.Version, s, stages[k], a, b)
						}
						stages = append(stages, prefixes(m1)...)
					}
				}
			})
		})
	}
}

// Rebel Princess's pass both ways is two multi-selects, the second over the
// cards the first left; a pass one way and the split of After Party are one
// multi-select of exactly the cards to take.
func TestPicksAreMultiSelects(t *testing.T) {
	l := locales.MustLoad().Lang("uk")
	rg, _ := render.For("princesses")
	view := func(phase string, left, right int) *princesses.View {
		v := &princesses.View{Phase: phase, PassLeft: left, PassRight: right}
		for _, c := range []string{"Q2", "Q5", "F3", "A8", "P10", "P1"} {
			card, _ := princesses.ParseCard(c)
			v.Hand = append(v.Hand, card)
		}
		return v
	}
	snap := &table.Snapshot{Record: table.Record{ID: "t1"}, Version: 9}
	menu := func(v *princesses.View, stage string) (discordgo.SelectMenu, string) {
		t.Helper()
		// What the engine would list: actions of the phase's verb taking
		// every card of the hand (the pick offers the cards they take).
		var legal []engine.Action
		for i := 0; i+1 < len(v.Hand); i += 2 {
			a, err := princesses.ParseAction(v.Phase + " " + v.Hand[i].String() + " " + v.Hand[i+1].String())
			if err != nil {
				t.Fatal(err)
			}
			legal = append(legal, a)
		}
		p, ok := rg.Pick(l, v, legal)
		if !ok {
			t.Fatalf("no pick for %+v", v)
		}
		rows, extra := pickControls(l, snap, p, stage)
		return rows[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu), extra
	}
	sel, _ := menu(view("pass", 1, 1), "")
	if sel.CustomID != "t/t1/9/"+pickFirst || len(sel.Options) != 6 || sel.MaxValues != 1 || *sel.MinValues != 1 {
		t.Errorf("left step: %+v", sel)
	}
	sel, extra := menu(view("pass", 1, 1), "F3")
	if sel.CustomID != "t/t1/9/pass F3 *" || len(sel.Options) != 5 || !strings.Contains(extra, "«3» фей") {
		t.Errorf("right step: %+v, %q", sel, extra)
	}
	for _, o := range sel.Options {
		if o.Value == "F3" {
			t.Error("the left card is offered again")
		}
	}
	sel, _ = menu(view("pass", 0, 3), "")
	if sel.CustomID != "t/t1/9/pass *" || sel.MaxValues != 3 || *sel.MinValues != 3 {
		t.Errorf("pass of 3: %+v", sel)
	}
	sel, _ = menu(view("split", 0, 0), "")
	if sel.CustomID != "t/t1/9/split *" || sel.MaxValues != 3 || *sel.MinValues != 3 || len(sel.Options) != 6 {
		t.Errorf("split: %+v", sel)
	}
	if _, ok := rg.Pick(l, view("play", 0, 0), nil); ok {
		t.Error("a pick offered for playing a card")
	}
}

// TestOptionsText: the table's options in one line, each switch written
// alike ("on" / "off", not a menu's capitalised entry beside a lowercase
// one), and a value that names its option ("Deluxe edition") said once.
func TestOptionsText(t *testing.T) {
	t.Parallel()
	loc := locales.MustLoad()
	rec := table.Record{Lang: "pl", Setup: engine.Setup{Game: "princesses", Seats: 4, Options: engine.Options{"edition": "deluxe", "powers": "on", "promo": "off"}}}
	for _, c := range []struct {
		lang       string
		want, lack []string
	}{
		// A switch agrees with its option ("Księżniczka promocyjna:
		// wyłączona"); the table's language, in the reader's own, is
		// written as a line writes it ("język: polski"), else by its own
		// name ("language: Polski").
		{"pl", []string{"gracze: 4", "Edycja deluxe", "moce Księżniczek: włączone", "Księżniczka promocyjna: wyłączona", "język: polski"}, []string{"edycja: Edycja", "Włączone", "wyłączone", "Polski"}},
		{"en", []string{"players: 4", "Deluxe edition", "princess powers: on", "promo princess: off", "language: Polski"}, []string{"edition: Deluxe", "On"}},
		{"uk", []string{"гравці: 4", "Видання делюкс", "властивості принцес: увімкнено", "промопринцеса: вимкнена", "мова: Polski"}, []string{"видання: Видання", "Увімкнено"}},
	} {
		got := optionsText(loc.Lang(c.lang), rec)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.lang, got, w)
			}
		}
		for _, w := range c.lack {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q has %q", c.lang, got, w)
			}
		}
	}
}
