package render_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

var (
	hasLetter = regexp.MustCompile(`[A-Za-z]`)
	// An id or a card code that English text may not show either.
	internalID = regexp.MustCompile(`[-:@]|^[QFAPWB][0-9]{1,2}$`)
)

// notation is the tokens of the actions' notation a player's text must
// not show, as whole words: any token with a letter in Polish and
// Ukrainian (but Lynx's X, which is what the joker shows), ids and card
// codes in English.
func notation(game, lang string, legal []engine.Action) []*regexp.Regexp {
	seen := map[string]bool{}
	var out []*regexp.Regexp
	for _, a := range legal {
		for _, tok := range strings.Fields(a.String()) {
			if seen[tok] || !hasLetter.MatchString(tok) || game == "lynx" && tok == "X" || lang == "en" && !internalID.MatchString(tok) {
				continue
			}
			seen[tok] = true
			out = append(out, regexp.MustCompile(`(^|[^\p{L}\p{N}_-])`+regexp.QuoteMeta(tok)+`($|[^\p{L}\p{N}_-])`))
		}
	}
	return out
}

// notationIn is the first of the tokens a text shows, "" for none.
func notationIn(text string, tokens []*regexp.Regexp) string {
	for _, re := range tokens {
		if re.MatchString(text) {
			return re.String()
		}
	}
	return ""
}

// TestControlsFitAndNameThings plays a random game of every game and seat
// count and, at every step, shows every choice of every legal action of
// the seats that act, as the Controller lays it out, in every language:
// every stop list ends with the whole action; every label names something
// and fits a button (an option, in a menu); descriptions fit an option and
// placeholders a menu; every later step has a prompt; nothing is missing
// and, in Polish and Ukrainian, nothing shows the notation.
func TestControlsFitAndNameThings(t *testing.T) {
	b := locales.MustLoad()
	names := render.Names{"Ala", "Olena", "Bob", "Zosia", "Marek", "Iryna"}
	for _, id := range engine.Games() {
		g, _ := engine.Lookup(id)
		r, _ := render.For(id)
		ctl, ok := r.(render.Controller)
		if !ok {
			t.Errorf("%s: the renderer lays out no controls", id)
			continue
		}
		lo, hi := g.Seats()
		for seats := lo; seats <= hi; seats++ {
			t.Run(id+"/"+strconv.Itoa(seats), func(t *testing.T) {
				t.Parallel()
				seed := uint64(7*seats + 1)
				st, err := engine.Start(g, engine.Setup{Game: id, Seats: seats, Seed: seed, Options: engine.Options{}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				pick := engine.NewRand(seed, 5)
				checked := 0
				bad := map[string]bool{}
				fail := func(format string, args ...any) {
					if msg := fmt.Sprintf(format, args...); !bad[msg] && len(bad) < 30 {
						bad[msg] = true
						t.Error(msg)
					}
				}
				for step := 0; step < 5000; step++ {
					if done, _ := st.Result(); done {
						break
					}
					for _, seat := range st.Acting() {
						if raceEnabled && step%5 != 0 {
							break // a sample is enough under the race detector
						}
						legal := st.Legal(seat)
						v := st.View(seat)
						for _, lang := range locales.Languages() {
							l := b.Lang(lang)
							tokens := notation(id, lang, legal)
							for _, a := range legal {
								toks := strings.Fields(a.String())
								stops := ctl.Stops(toks)
								if len(stops) == 0 || stops[len(stops)-1] != len(toks) || stops[0] < 1 {
									fail("%s: stops %v of %q", id, stops, a)
									continue
								}
								from := 0
								for i, stop := range stops {
									if i > 0 && stop <= stops[i-1] {
										fail("%s: stops %v of %q do not ascend", id, stops, a)
									}
									for _, chosen := range []int{from, 0} {
										c := ctl.Control(l, v, names, render.Step{Tokens: toks[:stop], Chosen: chosen, Whole: stop == len(toks)})
										checked++
										limit := render.MaxLabel
										if c.Menu != "" {
											limit = render.MaxOptionText
											if c.Placeholder == "" || render.Length(c.Placeholder) > render.MaxPlaceholder {
												fail("%s %s: %q: placeholder %q", id, lang, a, c.Placeholder)
											}
										}
										if c.Label == "" || render.Length(c.Label) > limit || render.Length(c.Description) > render.MaxOptionText {
											fail("%s %s: %q from %d: label %q, description %q", id, lang, toks[:stop], chosen, c.Label, c.Description)
										}
										for _, text := range []string{c.Label, c.Description, c.Placeholder} {
											if strings.Contains(text, locales.MissingOpen) {
												fail("%s %s: %q: missing text %q", id, lang, a, text)
											}
											if tok := notationIn(text, tokens); tok != "" {
												fail("%s %s: %q: %q shows the notation (%s)", id, lang, a, text, tok)
											}
										}
									}
									if i < len(stops)-1 {
										p := ctl.Prompt(l, v, names, toks[:stop])
										if strings.TrimSpace(p) == "" || strings.Contains(p, locales.MissingOpen) {
											fail("%s %s: no prompt after %q", id, lang, toks[:stop])
										}
										if tok := notationIn(p, tokens); tok != "" {
											fail("%s %s: the prompt %q shows the notation (%s)", id, lang, p, tok)
										}
									}
									from = stop
								}
							}
						}
					}
					acting := st.Acting()
					s := acting[pick.IntN(len(acting))]
					legal := st.Legal(s)
					if _, err := engine.Step(g, st, seed, step, engine.Move{Seat: s, Action: legal[pick.IntN(len(legal))].String()}, nil); err != nil {
						t.Fatalf("%s step %d: %v", id, step, err)
					}
				}
				if checked == 0 {
					t.Error("no control checked")
				}
			})
		}
	}
}

// TestChaptersDescriptionsKeepEveryCondition: the description of every
// card in every language fits an option and is never cut: it holds the
// card's whole abilities (with every condition, "chapter II only"
// included), or, when they cannot fit, says the full text is above, and
// the prompt above the menu then carries the card's full line.
func TestChaptersDescriptionsKeepEveryCondition(t *testing.T) {
	b := locales.MustLoad()
	r, _ := render.For("chapters")
	ctl := r.(render.Controller)
	moved := 0
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for c := chapters.Card(1); c <= chapters.NumCards; c++ {
			v := &chapters.View{Seat: 0, Seats: 3, Phase: "draft", Hand: []chapters.Card{c}}
			ctrl := ctl.Control(l, v, nil, render.Step{Tokens: []string{"pick", c.String()}, Whole: true})
			text := render.ChaptersAbilities(l, &chapters.DefaultCards, c)
			if render.Length(ctrl.Description) > render.MaxOptionText || strings.HasSuffix(ctrl.Description, "…") || ctrl.Description == "" {
				t.Errorf("%s: card %d: description %q", lang, c, ctrl.Description)
			}
			if strings.Contains(ctrl.Description, text) {
				continue
			}
			moved++
			line := render.ChaptersCardLine(l, &chapters.DefaultCards, c)
			if p := ctl.Prompt(l, v, nil, nil); !strings.Contains(p, line) {
				t.Errorf("%s: card %d: the description %q leaves out %q, and the prompt %q does not carry it", lang, c, ctrl.Description, text, p)
			}
		}
	}
	if moved == 0 {
		t.Log("every card's abilities fit its description")
	}
}
