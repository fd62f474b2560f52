package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// stolik rules prints a topic whole (every round card of the edition, by
// the engine's list) or one card; a topic or card that does not exist is
// a usage error.
func TestRulesCommand(t *testing.T) {
	b := locales.MustLoad()
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"rules", "princesses", "--lang", "pl", "--topic", "cards-deluxe"}, 0, roundNames(b.Lang("pl"), princesses.Deluxe)},
		{[]string{"rules", "princesses", "--lang", "uk", "--topic", "cards-classic"}, 0, roundNames(b.Lang("uk"), princesses.Classic)},
		{[]string{"rules", "princesses", "--card", "mulan"}, 0, []string{b.Lang("en").T("princesses.princess.mulan.power", nil)}},
		{[]string{"rules", "lynx", "--lang", "pl"}, 0, []string{b.Lang("pl").T("game.lynx.name", nil)}},
		{[]string{"rules", "lynx", "--topic", "cards-deluxe"}, 2, []string{"no topic"}},
		{[]string{"rules", "princesses", "--card", "zzz"}, 2, []string{"no card"}},
		{[]string{"rules"}, 2, []string{"which game"}},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		if code := run(context.Background(), tc.args, nil, &out, &out); code != tc.code {
			t.Errorf("%v: exit %d, want %d:\n%s", tc.args, code, tc.code, out.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: output lacks %q", tc.args, w)
			}
		}
	}
}

func roundNames(l *locales.Localizer, ed princesses.Edition) []string {
	var out []string
	for _, id := range princesses.RoundCardIDs(ed) {
		out = append(out, l.T("princesses.round."+id+".name", nil))
	}
	return out
}
