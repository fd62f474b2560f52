package render_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/render/rendertest"
)

// Every rule error code has a message in every language.
func TestErrorCodesAreLocalized(t *testing.T) {
	codes := []string{
		engine.CodeUnknownAction, engine.CodeNotYourTurn, engine.CodeIllegal, engine.CodeGameOver,
		engine.CodeBadOption, engine.CodeBadSeats, engine.CodeBadStack, engine.CodeStale, engine.CodeUnknownGame,
		table.CodeNotPlaying,
		princesses.CodeUnknownCard, princesses.CodeUnknownPrincess, princesses.CodeNotInHand, princesses.CodeMustFollow,
		princesses.CodePrincesLocked, princesses.CodeNotOffered, princesses.CodePassCount, princesses.CodeWrongPhase,
		princesses.CodeDuplicateCard, princesses.CodeUnknownSuit, princesses.CodeSplitCount, princesses.CodeSuitNotHeld,
		princesses.CodeNotInTrick, princesses.CodeOwnTrickCard, princesses.CodeMustMatchParity, princesses.CodeHighOrLow,
		princesses.CodeAlreadySwapped, princesses.CodePrincesUnplayed, princesses.CodeNothingToTake, princesses.CodeMustLead, princesses.CodeMustPlayFrozen, princesses.CodeAboveFive, princesses.CodeNotSelf, princesses.CodeBadForm, princesses.CodeNotAChoice, princesses.CodeWithPlay, princesses.CodeNoPower, princesses.CodePowerUsed, princesses.CodePowerNotNow,
		princesses.CodePowerCancelled, princesses.CodePowerArg, princesses.CodeNothingDeclared,
	}
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, code := range codes {
			if !l.Has("error." + code) {
				t.Errorf("%s: no message for error code %s", lang, code)
			}
		}
	}
}

// Errors the engine really returns render without a missing key or field.
func TestRuleErrorsRender(t *testing.T) {
	st, err := princesses.Game{}.New(engine.Options{"powers": "off"}, 4, engine.NewRand(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	try := func(s engine.Seat, text string) {
		a, err := princesses.Game{}.ParseAction(text)
		if err != nil {
			errs = append(errs, err)
			return
		}
		if _, err := st.Apply(s, a, engine.NewRand(3, 1)); err != nil {
			errs = append(errs, err)
		}
	}
	hand := st.View(0).(*princesses.View).Hand
	try(0, "dance")
	try(0, "play Z1")
	try(0, "choose nobody")
	try(0, "pass "+hand[0].String())
	try(0, "pass "+hand[0].String()+" "+hand[0].String()+" "+hand[1].String())
	try(0, "play "+hand[0].String())
	try(-1, "play Q1")
	_, err = princesses.Game{}.New(engine.Options{"edition": "gold"}, 4, engine.NewRand(3, 0))
	errs = append(errs, err, engine.Errorf(engine.CodeBadSeats, "seats", 9, "min", 3, "max", 6))
	b := rendertest.Bundle(t)
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, e := range errs {
			if e == nil {
				t.Fatal("an expected error did not happen")
			}
			if msg := render.Error(l, e); strings.Contains(msg, locales.MissingOpen) || msg == "" {
				t.Errorf("%s: %v renders as %q", lang, e, msg)
			}
		}
	}
}

// A rule error names its card, suit and power in the reader's language, not
// in notation.
func TestRuleErrorParamsAreNamed(t *testing.T) {
	b := rendertest.Bundle(t)
	tests := []struct {
		lang string
		err  error
		want []string
	}{
		{"pl", engine.Errorf(princesses.CodeMustFollow, "card", "A3", "suit", "queens"), []string{"Królowe"}},
		{"en", engine.Errorf(princesses.CodeMustLead, "card", "Q2", "suit", "fairies"), []string{"Fairies", "Queen 2"}},
		{"uk", engine.Errorf(princesses.CodeMustPlayFrozen, "card", "P4"), []string{"4"}},
		{"pl", engine.Errorf(princesses.CodeNoPower, "power", "ice-princess"), []string{"Księżniczka Lodu"}},
		{"en", engine.Errorf(princesses.CodeUnknownCard, "card", "Z9"), []string{"Z9"}},
		{"pl", engine.Errorf(princesses.CodeBadForm, "text", "play", "form", "play <card> [<power>]"), []string{"play <karta> [<moc>]"}},
		{"uk", engine.Errorf(princesses.CodeBadForm, "text", "swap", "form", "swap <hand-card> <trick-card>"), []string{"swap <карта з руки> <карта зі взятки>"}},
		{"pl", engine.Errorf(princesses.CodeNotAChoice, "action", "freeze Q1", "cards", []string{"F1", "A8"}), []string{"Wróżka 1, Żaba"}},
		{"pl", newErr(princesses.Game{}.New(engine.Options{"edition": "classic", "rounds": "magic-beans"}, 4, engine.NewRand(1, 0))), []string{"magic-beans", "edition=classic", "wybranej edycji"}},
		{"uk", newErr(princesses.Game{}.New(engine.Options{"rounds": "a,b,c,d,e,f"}, 4, engine.NewRand(1, 0))), []string{"5"}},
	}
	for _, tc := range tests {
		msg := render.Error(b.Lang(tc.lang), tc.err)
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s %v: %q does not name %q", tc.lang, tc.err, msg, w)
			}
		}
		for _, raw := range []string{"queens", "fairies", "ice-princess", "A3 ", "Q2", "P4"} {
			if strings.Contains(msg, raw) {
				t.Errorf("%s %v: %q shows the notation %q", tc.lang, tc.err, msg, raw)
			}
		}
	}
}

func newErr(_ engine.State, err error) error { return err }

// The end of a game names the winner with the score, ranks every seat
// from the best (a shared place shown twice), and a tie on the score names
// the tie-break with the tied players' values, as the edition counts it.
func TestGameOverStandingsAndTie(t *testing.T) {
	names := render.Names{"Ala", "Bolek", "Celina", "Darek"}
	princessOver := engine.Public("game_over", map[string]any{
		"winners": []engine.Seat{1}, "totals": []int{5, 3, 3, 9}, "note": "tiebreak",
		"tied": []engine.Seat{1, 2}, "good": []int{0, 2, 1, 0}, "places": []int{3, 1, 2, 4}, "tiebreak": []int{0, 2, 1, 0}, "edition": "deluxe",
	})
	classic := engine.Public("game_over", map[string]any{
		"winners": []engine.Seat{1, 2}, "totals": []int{5, 3, 3, 9}, "note": "shared",
		"tied": []engine.Seat{1, 2}, "good": []int{0, 2, 2, 0}, "places": []int{3, 1, 1, 4}, "tiebreak": []int{0, 2, 2, 0}, "edition": "classic",
	})
	lynxOver := engine.Public("game_over", map[string]any{
		"winners": []engine.Seat{2}, "scores": []int{4, -1, 4}, "note": "tiebreak", "reason": "cards_out",
		"places": []int{2, 3, 1}, "tiebreak": []int{3, 5, 1},
	})
	chaptersOver := engine.Public("game_over", map[string]any{
		"winners": []engine.Seat{0}, "scores": []int{12, 12}, "note": "tiebreak", "places": []int{1, 2}, "tiebreak": []int{47, 31},
	})
	courtiersOver := engine.Public("game_over", map[string]any{
		"winners": []engine.Seat{0, 1}, "totals": []int{6, 6, 2}, "places": []int{1, 1, 3},
	})
	tests := []struct {
		game, lang string
		e          engine.Event
		want       []string
	}{
		{"princesses", "en", princessOver, []string{"🏆 Bolek wins with 3 proposals\n",
			"Tied on 3 proposals: more rounds that count (0 or fewer proposals, or the table's lowest) decide (Bolek: 2 rounds · Celina: 1 round).",
			"Standings: 1st Bolek: 3 proposals · 2nd Celina: 3 proposals · 3rd Ala: 5 proposals · 4th Darek: 9 proposals."}},
		{"princesses", "pl", princessOver, []string{"🏆 Wygrywa Bolek – wynik: 3 oświadczyn", "(Bolek: 2 rundy · Celina: 1 runda)",
			"Klasyfikacja: 1. Bolek: 3 oświadczyn · 2. Celina: 3 oświadczyn · 3. Ala: 5 oświadczyn · 4. Darek: 9 oświadczyn."}},
		{"princesses", "uk", princessOver, []string{"(Bolek: 2 раунди · Celina: 1 раунд)", "Підсумки: 1. Bolek"}},
		{"princesses", "en", classic, []string{"🏆 A shared win: Bolek, Celina, with 3 proposals each",
			"more rounds with 0 or fewer proposals decide; still tied, the place is shared (Bolek: 2 rounds · Celina: 2 rounds)",
			"1st Bolek: 3 proposals · 1st Celina: 3 proposals · 3rd Ala"}},
		{"lynx", "en", lynxOver, []string{"The deck is empty", "🏆 Celina wins with 4 points",
			"Tied on 4 points: fewer cards in hand decide (Celina: 1 card in hand · Ala: 3 cards in hand).",
			"Standings: 1st Celina: 4 points · 2nd Ala: 4 points · 3rd Bolek: −1 point."}},
		{"chapters", "uk", chaptersOver, []string{"🏆 Перемагає Ala — результат: 12 балів",
			"Нічия (12 балів): вирішує найстарша зіграна карта (Ala: карта «47» · Bolek: карта «31»).", "Підсумки: 1. Ala: 12 балів · 2. Bolek: 12 балів."}},
		{"courtiers", "pl", courtiersOver, []string{"🏆 Wspólne zwycięstwo: Ala, Bolek – wynik: 6 punktów",
			"Remis (6 punktów: Ala, Bolek): zasady nie przewidują rozstrzygnięcia remisu, więc miejsce jest wspólne.",
			"Klasyfikacja: 1. Ala: 6 punktów · 1. Bolek: 6 punktów · 3. Celina: 2 punkty."}},
	}
	b := rendertest.Bundle(t)
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.lang, func(t *testing.T) {
			r, _ := render.For(tc.game)
			text := r.Event(b.Lang(tc.lang), tc.e, names)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q does not contain %q", text, w)
				}
			}
		})
	}
}

// A power name ending in "!" is not followed by a full stop.
func TestNoStutteringPunctuation(t *testing.T) {
	r, _ := render.For("princesses")
	b := rendertest.Bundle(t)
	e := engine.Public("power_declared", map[string]any{"seat": engine.Seat(0), "power": "pea-princess"})
	for _, lang := range locales.Languages() {
		if text := r.Event(b.Lang(lang), e, render.Names{"Ala"}); strings.Contains(text, "!.") || !strings.Contains(text, "!") {
			t.Errorf("%s: %q", lang, text)
		}
	}
}

func TestPileLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p    render.Pile
		want string
	}{
		{render.Pile{Label: "Pool", Text: "4 · 6"}, "Pool: 4 · 6"},
		{render.Pile{Label: "Pool", Text: "Pool: 4 · 6"}, "Pool: 4 · 6"},
		{render.Pile{Label: "Your hand", Text: "Your hand (14 cards): Q1 · Q2"}, "Your hand (14 cards): Q1 · Q2"},
		{render.Pile{Label: "Pula", Text: ""}, "Pula"},
		{render.Pile{Text: "Q7 · F3"}, "Q7 · F3"},
		{render.Pile{Label: "Trick", Text: "Queen 7: led"}, "Trick: Queen 7: led"},
	} {
		if got := tc.p.Line(); got != tc.want {
			t.Errorf("%+v.Line() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

// A rule error that repeats what a client sent mentions nobody.
func TestErrorEchoMentionsNobody(t *testing.T) {
	t.Parallel()
	l := locales.MustLoad().Lang("pl")
	err := &engine.RuleError{Code: engine.CodeUnknownAction, Params: map[string]any{"text": "@everyone <@&1> <@301>"}}
	got := render.Error(l, err)
	for _, bad := range []string{"@everyone", "<@&1>", "<@301>"} {
		if strings.Contains(got, bad) {
			t.Errorf("Error() = %q: holds the mention %q", got, bad)
		}
	}
	if !strings.Contains(got, "everyone") {
		t.Errorf("Error() = %q: the text sent is not shown", got)
	}
}
