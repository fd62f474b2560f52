package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// hardRounds are the round cards with the most steps: Masquerade (face-down
// plays turned up together), Wedding Gift (a gift pile before every trick)
// and The Prince Always Rings Twice (two cards each per trick).
const hardRounds = "rounds=masquerade,wedding-gift,rings-twice"

// hardPowers are the powers with the most steps, and the log action that
// shows each one used.
var hardPowers = map[string]func(action string) bool{
	"sleeping-beauty": func(a string) bool { return a == "declare sleeping-beauty" },
	"ice-princess":    func(a string) bool { return strings.HasPrefix(a, "declare ice-princess") },
	"mulan":           func(a string) bool { return strings.HasPrefix(a, "mulan ") && a != "mulan none" },
	"alice":           func(a string) bool { return a == "alice" },
}

// swapAsMulan makes the terminal player, when it is asked for Mulan's
// decision, take the last swap listed instead of the first choice ("keep
// your card"), so that the human's Mulan is used too.
func swapAsMulan(p *player) {
	p.example = regexp.MustCompile(`^mulan [QFAP][0-9]+ [QFAP][0-9]+$`)
}

// fragments are the parts of a message that do not depend on the
// parameters left out of known: the text around each unknown value.
func fragments(l *locales.Localizer, key string, known map[string]any, unknown ...string) []string {
	args := map[string]any{}
	for k, v := range known {
		args[k] = v
	}
	for _, k := range unknown {
		args[k] = "\x00"
	}
	var out []string
	for _, f := range strings.Split(l.T(key, args), "\x00") {
		if strings.TrimSpace(f) != "" {
			out = append(out, f)
		}
	}
	return out
}

// TestPlayHardestRoundsAndPowers plays whole Rebel Princess games through
// the terminal's play command with the hardest round cards, seed after seed,
// until Sleeping Beauty, the Ice Princess, Mulan and Alice have each been
// chosen and used (the terminal cannot stack princesses, so the seeds decide
// who gets them). For every game it checks that it ends with the final
// scores and a winner, that every round's totals are shown and agree with a
// replay of the stored log, that the round cards' steps are visible, and
// that every power used shows its effect in the player's language.
func TestPlayHardestRoundsAndPowers(t *testing.T) {
	t.Parallel()
	b, g := princessesSetup(t)
	for _, lang := range []string{"en", "pl"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			l := b.Lang(lang)
			name := func(s engine.Seat) string {
				if s == 0 {
					return l.T("ui.you", nil)
				}
				return l.T("ui.bot", map[string]any{"N": int(s)})
			}
			used := map[string]int{}
			games := 0
			for seed := 1; seed <= 40 && len(used) < len(hardPowers); seed++ {
				db := filepath.Join(t.TempDir(), "stolik.db")
				out, code := playGameAs(t, lang, swapAsMulan, "--seats", "5", "--seed", strconv.Itoa(seed),
					"--option", "edition=deluxe", "--option", hardRounds, "--db", db)
				if code != 0 {
					t.Fatalf("seed %d: exit %d:\n%s", seed, code, out)
				}
				out = unwrapped(out) // the lines the terminal wrapped at 80 columns, joined
				games++
				checkGameOutput(t, l, out, l.T("ui.final_header", nil),
					// The round cards' own steps, in this language.
					l.T("princesses.roundcard.event.gifts_placed", nil),
					fragments(l, "princesses.roundcard.event.cards_unmasked", nil, "Plays")[0],
				)
				m := tableID.FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("seed %d: no table id in the output:\n%s", seed, out)
				}
				rec, log := loadTable(t, db, m[1])
				moves := make([]engine.Move, len(log))
				chosen := map[engine.Seat]string{}
				for i, e := range log {
					moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
					if p, ok := strings.CutPrefix(e.Action, "choose "); ok {
						chosen[e.Seat] = p
					}
				}
				st, err := engine.Replay(g, rec.Setup, moves)
				if err != nil {
					t.Fatalf("seed %d: replay: %v", seed, err)
				}
				if done, _ := st.Result(); !done {
					t.Fatalf("seed %d: the stored game is not over", seed)
				}
				// Every round's totals are announced, the last ones equal to
				// the replay's.
				v := st.View(engine.Spectator).(*princesses.View)
				for seat, total := range v.Totals {
					want := fragments(l, "princesses.event.score_part",
						map[string]any{"Name": name(engine.Seat(seat)), "Total": total}, "Proposals")
					for _, w := range want {
						if !strings.Contains(out, w) {
							t.Errorf("seed %d: no total %d shown for seat %d (%q)", seed, total, seat, w)
						}
					}
				}
				rounds := 3
				if strings.Contains(out, l.T("princesses.event.tiebreak_round", nil)) {
					rounds = 4 // the deluxe tie-break round
				}
				for r := 1; r <= rounds; r++ {
					if w := fragments(l, "princesses.event.round_scored", map[string]any{"Round": r}, "List")[0]; !strings.Contains(out, w) {
						t.Errorf("seed %d: the result of round %d is not shown (%q)", seed, r, w)
					}
				}
				// Each hard power used shows its effect.
				for _, e := range log {
					p := chosen[e.Seat]
					usedNow, ok := hardPowers[p]
					if !ok || !usedNow(e.Action) {
						continue
					}
					used[p]++
					// The human's own moves, and the powers used on them,
					// are told in the second person.
					you := func(key string) string {
						switch {
						case e.Seat == 0:
							return key + "_you"
						case p == "ice-princess" && strings.HasSuffix(e.Action, " 0"):
							return key + "_target_you"
						}
						return key
					}
					var want []string
					switch p {
					case "sleeping-beauty":
						want = []string{l.T(you("princesses.power.more.event.beauty_kept"), map[string]any{"Name": name(e.Seat)})}
					case "ice-princess":
						want = fragments(l, you("princesses.power.more.event.cards_drawn"), map[string]any{"Name": name(e.Seat)}, "Target")
					case "mulan":
						want = fragments(l, you("princesses.power.event.mulan_swapped"), map[string]any{"Name": name(e.Seat)}, "Card", "Take")
					case "alice":
						want = fragments(l, you("princesses.power.event.alice_redealt"), map[string]any{"Name": name(e.Seat)}, "Cards")
					}
					for _, w := range want {
						if !strings.Contains(out, w) {
							t.Errorf("seed %d: %s used by seat %d (%s) but the output lacks %q", seed, p, e.Seat, e.Action, w)
						}
					}
				}
			}
			t.Logf("%s: %d games; powers used: %v", lang, games, used)
			for p := range hardPowers {
				if used[p] == 0 {
					t.Errorf("%s: %s was never used in %d games", lang, p, games)
				}
			}
		})
	}
}
