package render

import (
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// A Screen is what one reader may see of a table at one moment, in named
// parts, each with its data and its words (already in the reader's
// language). A game's screen builder makes it from a view only, so no
// presenter can show more than the view holds; three presenters draw it:
// the Discord composer (bot), the terminal (cmd/stolik) and the picture
// drawer (package picture).
//
// The parts are listed in the order of their priority for a reader: a
// presenter short of room drops from the end of this list first, and never
// drops Acting, Result or Prompt.
type Screen struct {
	Game string // the game's id

	// Acting are the seats that must act now; none once the game is over.
	// Presenters say who acts (a Discord message mentions them).
	Acting []engine.Seat
	// Viewer is the seat the screen was built for; engine.Spectator for
	// the public table.
	Viewer engine.Seat

	// Result is the end of the game: the winners and the final scores,
	// one line each. Never dropped. Empty while the game goes on.
	Result []string
	// Prompt says what the viewer must do now ("Choose 3 cards to pass
	// to Bot 1"). Empty for spectators and for seats that need not act.
	Prompt string

	// Hand is the viewer's hand; nil for a spectator.
	Hand *Pile
	// Secret are the viewer's other secret cards: a princess, missions,
	// cards chosen but not yet revealed.
	Secret []Pile

	// Title is one short line: the round or chapter and the phase
	// ("Round 2 of 5 · trick 4").
	Title string
	// Rule is the round's rule (a round card): one line always shown, the
	// full text on demand.
	Rule *Rule
	// Center is what lies on the table between the seats: the trick, the
	// pool, the queen's table, the discard pile.
	Center []Pile
	// Seats are the seats around the table, in seat order.
	Seats []SeatPart
	// Doing says in words what the seats that act are doing ("Bob steals
	// 2 2 from Ala and decides…"), for presenters without a turn line of
	// their own (a picture, the terminal): a Discord message says it in its
	// first line and its last moves.
	Doing []string
	// Status are short lines that do not fit a part above (the deck's
	// size, the draft's direction, a power declared); dropped before the
	// seats.
	Status []string
	// Recent are the latest plays in words (a Courtisans turn's
	// placements), for presenters that list no last moves.
	Recent []string
	// Chart is the score after every round, for games of several rounds;
	// nil otherwise.
	Chart *Chart
}

// A Pile is a group of cards shown together: a hand, a trick, a pool place,
// a domain's family, a column of the queen's table.
type Pile struct {
	// Label names the pile in the reader's language ("Trick", "Pool").
	Label string
	// Text is the pile as one line of words, for presenters without
	// pictures ("Queen 7 · Fairy 3").
	Text string
	// Cards are the cards face up or face down, in the order shown.
	Cards []Card
	// Count is the number of cards when they are not listed (a draw pile,
	// a hand seen from outside); 0 when Cards says it all.
	Count int
	// Short is the pile in a few words for a narrow room, what a decision
	// weighs of it ("Butterflies ▲2" for one side of a family's column,
	// "Hares ×3" for a domain's family); empty: the pile has no short form
	// and a narrow room leaves it out.
	Short string
	// Group lays out center piles: piles with the same group form one row
	// of the picture ("up", "down" around the queen's table).
	Group string
}

// Line is the pile in words, named once: its text when the text names the
// pile already ("Your hand (14 cards): …" under the label "Your hand"),
// else the label and the text; the label alone for a pile without text.
func (p Pile) Line() string {
	head, _, _ := strings.Cut(p.Text, ":")
	switch {
	case p.Text == "":
		return p.Label
	case p.Label == "" || strings.Contains(strings.ToLower(head), strings.ToLower(p.Label)):
		return p.Text
	}
	return p.Label + ": " + p.Text
}

// A Card is one card as presenters draw it, in Stolik's own design: a
// colour and symbol from its suit or family, a value in the corners, a name.
type Card struct {
	// Suit picks the colour and symbol: the game's suit or family id
	// ("Q", "carp", "7").
	Suit string
	// Value is the corner value ("7", "X", "13"); "" for cards without one.
	Value string
	// Name is the card's name in the reader's language.
	Name string
	// Note is a short second line on the card (a trait, "spy", "noble").
	Note string
	// Code is the card's notation code ("Q7"), which the terminal shows.
	Code string
	// Down marks a card face down: presenters draw its back only.
	Down bool
	// Mark highlights a card: in a hand, one the viewer may play now.
	Mark bool
}

// A SeatPart is one seat as everyone at the table sees it.
type SeatPart struct {
	Seat   engine.Seat
	Name   string
	You    bool // the viewer's own seat
	Acting bool // must act now
	// Counts are the seat's public counts in words ("3 tricks",
	// "5 cards in hand", "12 points").
	Counts []string
	// Piles are the seat's cards in front of it, face up (a Lynx display,
	// a Courtisans domain) or face down.
	Piles []Pile
	// Line is the whole seat in one line of words, for text presenters.
	Line string
	// Score is the seat's score so far when the game keeps one during
	// play (nil when not): a front end's one-line scoreboard.
	Score *int
}

// A Rule is a round card's rule: Name, a one-line Short form shown on every
// message, and the Full text shown on demand.
type Rule struct {
	Name, Short, Full string
}

// A Chart is the score of every seat after every round.
type Chart struct {
	Title  string
	Names  []string // one per seat
	Rounds [][]int  // Rounds[r][seat]: the total after round r
}

// Parts says which parts of a screen to build.
type Parts uint8

const (
	// AllParts is the whole screen.
	AllParts Parts = iota
	// PrivateParts are what a hand message shows: Acting, Result, Prompt,
	// Hand and Secret; the table's parts (Title, Rule, Center, Seats,
	// Status, Chart) stay empty and cost nothing to build.
	PrivateParts
)

// Screener builds the parts of the screen of a view for a reader.
type Screener interface {
	// Screen builds the parts of the screen of view v; legal are the
	// actions the view's seat may take now (engine.AnyLegal; nil for a
	// spectator), the only source of which cards are marked playable.
	Screen(l *locales.Localizer, v engine.View, names Names, parts Parts, legal []engine.Action) Screen
}

// ScreenOf builds the screen of a view with the game's presentation; false
// for a game not registered.
func ScreenOf(gameID string, l *locales.Localizer, v engine.View, names Names, legal []engine.Action) (Screen, bool) {
	return ScreenParts(gameID, AllParts, l, v, names, legal)
}

// ScreenParts builds the given parts of the screen of a view (ScreenOf
// builds them all).
func ScreenParts(gameID string, parts Parts, l *locales.Localizer, v engine.View, names Names, legal []engine.Action) (Screen, bool) {
	s, ok := games[gameID]
	if !ok {
		return Screen{}, false
	}
	sc := s.Screen(l, v, names, parts, legal)
	sc.Game = gameID
	return sc, true
}

// StatusLines are Doing, Status and Recent, in that order: the status of a
// presenter that shows neither a turn line nor the last moves.
func (sc Screen) StatusLines() []string {
	if len(sc.Doing) == 0 && len(sc.Recent) == 0 {
		return sc.Status
	}
	out := make([]string, 0, len(sc.Doing)+len(sc.Status)+len(sc.Recent))
	out = append(append(append(out, sc.Doing...), sc.Status...), sc.Recent...)
	return out
}

// A Builder builds the parts of one screen from one view, each part by a
// method of its own: every game's screen builder has this shape, and Build
// assembles its parts in the order of the Screen's fields.
type Builder interface {
	// Acting are the seats that must act now; none once the game is over.
	Acting() []engine.Seat
	Result() []string
	Prompt() string
	Hand() *Pile
	Secret() []Pile
	Title() string
	Rule() *Rule
	Center() []Pile
	Seats() []SeatPart
	Doing() []string
	Status() []string
	Recent() []string
	Chart() *Chart
}

// Build assembles the screen of game for viewer from b: the private parts
// always, the table's parts (from Title on) only for AllParts, so that a
// hand message costs nothing of the table.
func Build(game string, viewer engine.Seat, parts Parts, b Builder) Screen {
	sc := Screen{Game: game, Viewer: viewer, Acting: b.Acting(), Result: b.Result(), Prompt: b.Prompt(), Hand: b.Hand(), Secret: b.Secret()}
	if parts == PrivateParts {
		return sc
	}
	sc.Title, sc.Rule, sc.Center, sc.Seats = b.Title(), b.Rule(), b.Center(), b.Seats()
	sc.Doing, sc.Status, sc.Recent, sc.Chart = b.Doing(), b.Status(), b.Recent(), b.Chart()
	return sc
}
