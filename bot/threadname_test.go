package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// A table's thread is titled with the game and its players, as many as fit
// Discord's 100 characters, then how many more: never cut in a name.
func TestThreadName(t *testing.T) {
	l := locales.MustLoad().Lang("pl")
	long := strings.Repeat("Brzęczyszczykiewicz", 2)
	for _, tc := range []struct {
		name  string
		seats []string
		want  string
	}{
		{"every player", []string{"Ala", "Bob"}, "Ryś · Ala, Bob, Bot 3"},
		{"names that do not all fit", []string{long, long, long}, "Ryś · " + long + ", " + long + " +1"},
	} {
		rec := table.Record{Setup: engine.Setup{Game: "lynx", Seats: 3}}
		for i, n := range tc.seats {
			rec.Seats = append(rec.Seats, table.SeatInfo{Seat: engine.Seat(i), Kind: table.Human, Name: n})
		}
		got := threadName(l, l.T("game.lynx.name", nil), rec)
		if got != tc.want || utf8.RuneCountInString(got) > maxThreadName {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
