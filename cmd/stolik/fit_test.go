package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// fit never leaves a line empty while a part is shortened that would fit
// in it, keeps the parts a decision needs while they fit, and keeps to its
// room whenever the parts can be made short enough.
func TestFitFillsTheRoom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	lines := func(n int) []string { return make([]string, n) }
	for i := range 2000 {
		blocks := make([]block, 6)
		least := 0
		for b := range blocks {
			n := rng.IntN(10)
			forms := [][]string{lines(n)}
			for n > 0 && rng.IntN(3) > 0 {
				n -= 1 + rng.IntN(n)
				forms = append(forms, lines(n))
			}
			blocks[b].forms = forms
			least += len(forms[len(forms)-1])
		}
		var steps []step
		for range 8 {
			b := rng.IntN(len(blocks))
			steps = append(steps, step{b, 1 + rng.IntN(len(blocks[b].forms))})
		}
		for b := range blocks { // every block may reach its shortest form
			steps = append(steps, step{b, len(blocks[b].forms) - 1})
		}
		need := map[int]int{rng.IntN(len(blocks)): 0}
		room := rng.IntN(40)
		out := fit(blocks, room, steps, need)
		if len(out) > room && len(out) > least {
			t.Fatalf("case %d: %d lines in a room of %d, %d at the shortest", i, len(out), room, least)
		}
		free := room - len(out)
		for b := range blocks {
			if c := blocks[b].cur; c > 0 && len(blocks[b].forms[c-1])-len(blocks[b].forms[c]) <= free {
				t.Fatalf("case %d: block %d shortened to form %d with %d lines free that its form %d would fill", i, b, c, free, c-1)
			}
		}
		for b, most := range need {
			if blocks[b].cur > most {
				rest := 0
				for o := range blocks {
					if o != b {
						rest += len(blocks[o].forms[len(blocks[o].forms)-1])
					}
				}
				if rest+len(blocks[b].forms[most]) <= room {
					t.Fatalf("case %d: the needed block %d dropped although it fits", i, b)
				}
			}
		}
	}
}

// On every decision of whole games at the largest tables, the redraw at
// 80×24 keeps what the decision needs: every seat's cards in front of it
// (Lynx's displays with their top layers, Courtisans' domains) and the
// table between the seats (the trick, the queen's table, the pool); when
// they do not fit whole, their short forms where the game has them (the
// queen's table's weights, the domains' families).
func TestRedrawKeepsWhatTheDecisionNeeds(t *testing.T) {
	t.Parallel()
	for gi, game := range render.Games() {
		g, _ := engine.Lookup(game)
		r, _ := render.For(game)
		_, hi := g.Seats()
		for li, lang := range locales.Languages() {
			t.Run(game+"/"+lang, func(t *testing.T) {
				t.Parallel()
				l := locales.MustLoad().Lang(lang)
				seed := uint64(100*gi + li + 3)
				su := engine.Setup{Game: game, Seats: hi, Seed: seed}
				st, err := engine.Start(g, su, nil)
				if err != nil {
					t.Fatal(err)
				}
				names := make(render.Names, hi)
				for s := range hi {
					names[s] = l.T("ui.bot", map[string]any{"N": s})
				}
				names[0] = l.T("ui.you", nil)
				pick := engine.NewRand(seed, -1)
				screens, missing, fitting, shortened := 0, 0, 0, 0
				for step := 0; ; step++ {
					if done, _ := st.Result(); done {
						break
					}
					acting := st.Acting()
					s := acting[pick.IntN(len(acting))]
					legal := st.Legal(s)
					if s == 0 {
						screens++
						v := st.View(0)
						sc, _ := render.ScreenOf(game, l, v, names, engine.AnyLegal(st, 0))
						c := newChooser(g, r, l, v, names, legal, false)
						items := c.items()
						room := termHeight - 1 - step%4
						f := frame{l: l, sc: sc, ok: true, step: c.stepLines(items), menu: menuForms(items), room: room}
						out := f.render()
						joined := strings.ReplaceAll(strings.Join(out, "\n"), "\n    ", " ")
						joined = strings.ReplaceAll(joined, "\n  ", " ")
						// What the decision needs, and the fewest lines it
						// takes with the hand, the prompt and the choices.
						// Each part that must show, in the forms that will do.
						var want [][]string
						var texts, seats []string
						for _, p := range sc.Center {
							if !emptyPile(p) {
								want, texts = append(want, []string{pileText(p)}), append(texts, pileText(p))
							}
						}
						for _, sp := range sc.Seats {
							if bare, ok := strings.CutSuffix(sp.Line, " · "+strings.Join(sp.Counts, " · ")); ok && len(sp.Counts) > 0 && hasCards(sp) {
								want = append(want, []string{bare})
								seats = append(seats, wrap("  "+bare, termWidth, "    ")...)
							} else {
								seats = append(seats, "")
							}
						}
						menu := f.menu[0]
						for _, m := range f.menu {
							if len(m) > 0 {
								menu = m
							}
						}
						// In short: the piles' short forms (Courtisans' weights
						// and families), when the game gives them.
						var short [][]string
						var shorts, brief []string
						for _, p := range sc.Center {
							if !emptyPile(p) && p.Short != "" {
								short, shorts = append(short, []string{pileText(p), p.Short}), append(shorts, p.Short)
							}
						}
						for _, sp := range sc.Seats {
							if ps := pilesShort(sp.Piles); ps != "" {
								bare, _ := strings.CutSuffix(sp.Line, " · "+strings.Join(sp.Counts, " · "))
								short = append(short, []string{bare, sp.Name + ": " + ps})
								brief = append(brief, wrap("  "+sp.Name+": "+ps, termWidth, "    ")...)
							} else {
								brief = append(brief, "")
							}
						}
						rest := len(handLines(l, sc.Hand, true)) + len(wrap(sc.Prompt, termWidth, "  ")) + len(wrapAll(f.step)) + len(menu)
						least := len(pack(texts, "  ·  ")) + len(seats) + rest
						if least > room {
							if len(shorts) == 0 || len(pack(shorts, " · "))+len(brief)+rest > room {
								goto next
							}
							want = short
							shortened++
						}
						fitting++
						for _, w := range want {
							if !slices.ContainsFunc(w, func(form string) bool { return strings.Contains(joined, form) }) {
								missing++
								if missing <= 3 {
									t.Errorf("step %d (room %d): %q is missing:\n%s", step, room, w, strings.Join(out, "\n"))
								}
							}
						}
						if len(out) > room {
							t.Errorf("step %d: %d lines in a room of %d", step, len(out), room)
						}
					}
				next:
					mv := engine.Move{Seat: s, Action: legal[pick.IntN(len(legal))].String()}
					if _, err := engine.Step(g, st, seed, step, mv, nil); err != nil {
						t.Fatal(err)
					}
				}
				t.Logf("%d screens, %d where the parts needed fit, %d of them in short", screens, fitting, shortened)
				if game == "courtiers" && shortened == 0 {
					t.Error("no Courtisans screen kept the queen's table and the domains in short")
				}
			})
		}
	}
}
