package picture

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stolik-bot/stolik/engine"
)

// The alt text names each centre pile once: a line that starts with the
// pile's label does not name it again, in another form, in the head of its
// text ("Eliminated:
// Eliminated: …", "Played this turn: Bot 3 has played 10 this turn").
func TestAltNamesPileOnce(t *testing.T) {
	for i := range realGames {
		for k, sc := range playedScreens(t, i, engine.Seat(0)) {
			for _, p := range append(sc.Center, sc.Secret...) {
				line := pileLine(p)
				rest, ok := strings.CutPrefix(line, p.Label+": ")
				if p.Label == "" || !ok {
					continue
				}
				stem := []rune(strings.ToLower(strings.Fields(p.Label)[0]))
				if len(stem) < 4 {
					continue
				}
				stem = stem[:min(len(stem), 5)]
				head, _, _ := strings.Cut(rest, ":")
				for _, w := range strings.FieldsFunc(strings.ToLower(head), func(r rune) bool { return !unicode.IsLetter(r) }) {
					if strings.HasPrefix(w, string(stem)) {
						t.Errorf("%s/%d: %q names its pile twice", realGames[i].game, k, line)
						break
					}
				}
			}
		}
	}
}
