package bot_test

import (
	"strings"
	"testing"
)

// TestActedNoteInSecondPerson: the answer to a move says what the player
// did, told to them ("✓ Wybierasz Księżniczkę."), not the control's
// imperative label.
func TestActedNoteInSecondPerson(t *testing.T) {
	w := newWorld(t)
	id := w.openTable(ala, olena, bob, zosia)
	for _, tt := range []struct {
		user, lang string
	}{{ala, "pl"}, {olena, "uk"}, {bob, "en"}} {
		l := w.loc.Lang(tt.lang)
		hand := w.do(w.fake.Click(tt.user, w.tableMessage(id), w.tableMessage(id).Control("hand/"+id)))
		if len(hand.CustomIDs()) == 0 {
			t.Fatalf("%s has no princess to choose: %s", tt.user, hand)
		}
		m := w.do(w.fake.Click(tt.user, hand, hand.CustomIDs()[0]))
		want := l.T("bot.acted", map[string]any{"Action": l.T("princesses.event.princess_chosen_you", nil)})
		if !strings.HasPrefix(shownText(m), want) {
			t.Errorf("%s's answer after choosing: %.80q, want it to start with %q", tt.user, shownText(m), want)
		}
	}
}
