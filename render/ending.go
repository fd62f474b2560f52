package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// An Ending is a finished game as its screen and its end post say it, the
// same for every game: a headline naming the winners and their score, the
// reader's own place, the tie-break where seats tied on the score, and
// every seat by its place. The ranking is the engine's (engine.Result's
// Places and TieBreak, carried by the views and the game_over event); the
// game says only how a score, a seat's line and a tie-break value read.
type Ending struct {
	Game   string
	Viewer engine.Seat // engine.Spectator for the table
	Names  Names
	Scores []int // per seat, in the game's unit
	Places []int // per seat, 1 the first; seats sharing a place tie
	// TieBreak is each seat's value in the game's tie-break; nil for a
	// game without one.
	TieBreak []int
	// Score is a score in words ("12 points", "3 proposals").
	Score func(n int) string
	// Rule names the tie-break for seats tied on the score ("fewer cards
	// in hand decides"; Courtisans: there is none, the place is shared).
	Rule string
	// Break is a seat's tie-break value in words ("1 card in hand"); nil
	// when the rule needs no values.
	Break func(s engine.Seat) string
	// Line is a seat's line after its place ("Ala: 12 points · 2 cards in
	// hand"); nil for its name and score.
	Line func(s engine.Seat) string
}

// Done reports whether the ending has a ranking to say.
func (e Ending) Done() bool {
	return len(e.Places) > 0 && len(e.Places) == len(e.Scores)
}

// winners are the seats placed first.
func (e Ending) winners() []engine.Seat {
	var out []engine.Seat
	for s, p := range e.Places {
		if p == 1 {
			out = append(out, engine.Seat(s))
		}
	}
	return out
}

// own reports whether the reader holds a seat of the game.
func (e Ending) own() bool { return e.Viewer >= 0 && int(e.Viewer) < len(e.Places) }

// Headline names the winners and their score: "Ala wins with 12 points",
// a shared win as such, and the reader's own win in the second person. A
// presenter marks it its own way (Discord: "🏆 " and bold).
func (e Ending) Headline(l *locales.Localizer) string {
	w := e.winners()
	if len(w) == 0 {
		return ""
	}
	score := e.Score(e.Scores[w[0]])
	if e.own() && slices.Contains(w, e.Viewer) {
		if len(w) == 1 {
			return l.T("ui.end.you_win", map[string]any{"Score": score})
		}
		others := slices.DeleteFunc(slices.Clone(w), func(s engine.Seat) bool { return s == e.Viewer })
		return l.T("ui.end.you_share", map[string]any{"Names": e.Names.List(others), "Score": score})
	}
	if len(w) == 1 {
		return l.T("ui.end.wins", map[string]any{"Name": e.Names.Of(w[0]), "Score": score})
	}
	return l.T("ui.end.shared", map[string]any{"Names": e.Names.List(w), "Score": score})
}

// Trophy marks a winner headline in a message (the end post; the bot's
// table message). Pictures leave it out: their fonts have no emoji.
const Trophy = "🏆 "

// Place is a place as a list shows it: "1st", "1.".
func Place(l *locales.Localizer, p int) string {
	key := "ui.end.place." + strconv.Itoa(p)
	if !l.Has(key) {
		return strconv.Itoa(p) + "."
	}
	return l.T(key, nil)
}

// YourPlace tells the reader their place: "You finished 2nd.", "You share
// 1st place with Ala."; "" for a spectator.
func (e Ending) YourPlace(l *locales.Localizer) string {
	if !e.own() {
		return ""
	}
	p := e.Places[e.Viewer]
	var with []engine.Seat
	for s, q := range e.Places {
		if q == p && engine.Seat(s) != e.Viewer {
			with = append(with, engine.Seat(s))
		}
	}
	place := l.T("ui.end.place_you."+strconv.Itoa(p), nil)
	if len(with) > 0 {
		return l.T("ui.end.you_place_shared", map[string]any{"Place": place, "Names": e.Names.List(with)})
	}
	return l.T("ui.end.you_place", map[string]any{"Place": place})
}

// Ties name the tie-break for every group of seats tied on the score:
// "Tied on 12 points: fewer cards in hand decides (Ala: 1 card in hand ·
// Olek: 3 cards in hand)." None when no two seats tie.
func (e Ending) Ties(l *locales.Localizer) []string {
	var out []string
	done := map[int]bool{}
	for _, s := range engine.Ranked(e.Places) {
		v := e.Scores[s]
		if done[v] {
			continue
		}
		done[v] = true
		var tied []engine.Seat
		for _, t := range engine.Ranked(e.Places) {
			if e.Scores[t] == v {
				tied = append(tied, t)
			}
		}
		if len(tied) < 2 {
			continue
		}
		data := map[string]any{"Score": e.Score(v), "Names": e.Names.List(tied), "Rule": e.Rule}
		if e.Break == nil {
			out = append(out, l.T("ui.end.tie", data))
			continue
		}
		parts := make([]string, len(tied))
		for i, t := range tied {
			parts[i] = e.Names.Of(t) + ": " + e.Break(t)
		}
		data["List"] = strings.Join(parts, " · ")
		out = append(out, l.T("ui.end.tie_values", data))
	}
	return out
}

// Ranked is every seat's line by its place, the place first: "1st Ala:
// 12 points"; seats sharing a place show the same place. short keeps to
// the name and the score.
func (e Ending) Ranked(l *locales.Localizer, short bool) []string {
	var out []string
	for _, s := range engine.Ranked(e.Places) {
		line := e.Names.Of(s) + ": " + e.Score(e.Scores[s])
		if e.Line != nil && !short {
			line = e.Line(s)
		}
		out = append(out, l.T("ui.end.ranked", map[string]any{"Place": Place(l, e.Places[s]), "Line": line}))
	}
	return out
}

// Lines are a screen's Result: the headline, the reader's place, the
// tie-breaks, then the ranking; before extra lines (a game's own, such as
// who got the gem bonus) that go after the ties.
func (e Ending) Lines(l *locales.Localizer, extra ...string) []string {
	if !e.Done() {
		return nil
	}
	out := []string{e.Headline(l)}
	if p := e.YourPlace(l); p != "" {
		out = append(out, p)
	}
	out = append(out, e.Ties(l)...)
	out = append(out, extra...)
	return append(out, e.Ranked(l, false)...)
}

// Post is the end of a game as posted in the channel: the headline, the
// tie-breaks and the ranking on one line.
func (e Ending) Post(l *locales.Localizer, extra ...string) string {
	if !e.Done() {
		return ""
	}
	lines := append([]string{Trophy + e.Headline(l)}, e.Ties(l)...)
	lines = append(lines, extra...)
	lines = append(lines, l.T("ui.end.standings", map[string]any{"List": strings.Join(e.Ranked(l, true), " · ")}))
	return strings.Join(lines, "\n")
}
