package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/engine/courtiers"
	"github.com/stolik-bot/stolik/engine/lynx"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// Step is one choice of an action built token by token: a front end that
// cannot list every legal action at once (Discord: 25 options in a select
// menu) offers the next token of the notation instead.
type Step struct {
	// Tokens is the notation so far: what was chosen before, then this
	// choice's token(s).
	Tokens []string
	// Chosen is how many of Tokens were chosen (or implied) before this
	// choice; 0 at the first step.
	Chosen int
	// Whole reports whether Tokens is a whole legal action (else it is the
	// beginning of several).
	Whole bool
}

// Prefixer is implemented by renderers that name the steps of an action
// chosen token by token, where the plain notation would be unclear. It
// names the choice Tokens[Chosen:] makes for the view's seat, or returns ""
// to leave it to Action (a whole action) or to the notation (a beginning).
type Prefixer interface {
	Prefix(l *locales.Localizer, v engine.View, names Names, s Step) string
}

// Describer is implemented by renderers whose choices need a second line
// (a select menu option's description), e.g. what a card does. "" for none.
type Describer interface {
	Describe(l *locales.Localizer, v engine.View, s Step) string
}

// A Pick is a choice of several cards at once, which a front end offers as
// one multi-select per part instead of a card at a time: part i takes
// exactly Parts[i].N of Options, none taken by an earlier part, and the
// action is Prefix followed by every value taken, in part order.
type Pick struct {
	Prefix  string
	Options []PickOption
	Parts   []PickPart
	// Taken says what the earlier parts took (their options' labels), above
	// the next part's menu; nil when there is a single part.
	Taken func(labels []string) string
}

// PickOption is one card of a pick: its notation and its name.
type PickOption struct{ Value, Label string }

// PickPart is one multi-select of a pick.
type PickPart struct {
	N           int
	Placeholder string
}

// Picker is implemented by renderers of games where some steps choose
// several cards at once (Rebel Princess: the pass, the split).
type Picker interface {
	Pick(l *locales.Localizer, v engine.View) (Pick, bool)
}

// Discord's limits on the texts of a control. Control's texts keep to
// them by construction: a label is a name, not a sentence, and a
// description is built to fit.
const (
	MaxLabel       = 80  // a button's label
	MaxOptionText  = 100 // a select option's label or description
	MaxPlaceholder = 150 // a select menu's placeholder
)

// Length is a text's length as Discord counts it (code points).
func Length(s string) int { return utf8.RuneCountInString(s) }

// Control is how a front end shows one choice of a step (Controller).
type Control struct {
	// Label names what is chosen, shortly: a card, a place, a player, a
	// set. The verb is in the menu's placeholder or in the prompt above.
	Label string
	// Description is the second line of a select option: what the card
	// does. At most MaxOptionText characters, never cut.
	Description string
	// Menu is the select menu the choice goes in, "" for a button. The
	// choices of one menu share its Placeholder, which says what choosing
	// one of them does.
	Menu, Placeholder string
}

// Controller is implemented by renderers that lay out the choice of an
// action themselves: where the choice stops for the next step (the card,
// then where it goes), what each choice is called and whether it is a
// button or an option of a select menu, and the prompt of a step.
type Controller interface {
	// Stops are the token counts of an action (its notation's tokens) at
	// which a choice ends, ascending; the last is len(tokens). "place
	// carp-assassin up kill carp" stops at 2 (the card), 3 (where) and 5.
	Stops(tokens []string) []int
	// Control shows the choice Tokens[Chosen:] of a step for the view's
	// seat. Tokens is a whole action or (not Whole) the beginning of
	// several, ending at one of their stops.
	Control(l *locales.Localizer, v engine.View, names Names, s Step) Control
	// Prompt is the line above a step's controls: once tokens are chosen,
	// it names the choice so far and asks for the next ("Queen 7: with
	// your power?"); at the first step it is "" unless the buttons need
	// it. It also carries whatever a description had to leave out.
	Prompt(l *locales.Localizer, v engine.View, names Names, chosen []string) string
}

// firstFitting is the first of texts that holds at most n characters, and
// whether there was one: a description built to fit tries its whole form,
// then forms without the clauses it may drop.
func firstFitting(n int, texts ...string) (string, bool) {
	for _, t := range texts {
		if t != "" && Length(t) <= n {
			return t, true
		}
	}
	return "", false
}

// Discreet is implemented by renderers of games where an action can name
// a card that is on its way to where others may not see it (a card passed
// or given): once done, the front end does not repeat it.
type Discreet interface {
	Secret(a engine.Action) bool
}

// StepLabel names a step: the renderer's Prefixer when it has one and says
// something, else the action in words (a whole action) or the notation
// followed by an ellipsis (a beginning).
func StepLabel(g Game, l *locales.Localizer, v engine.View, names Names, s Step, parse func(string) (engine.Action, error)) string {
	if p, ok := g.(Prefixer); ok {
		if t := p.Prefix(l, v, names, s); t != "" {
			return t
		}
	}
	text := strings.Join(s.Tokens, " ")
	if s.Whole {
		if a, err := parse(text); err == nil {
			return g.Action(l, a)
		}
		return text
	}
	return text + "…"
}

// StepDescription is the second line of a step ("" when the game has none).
func StepDescription(g Game, l *locales.Localizer, v engine.View, s Step) string {
	if d, ok := g.(Describer); ok {
		return d.Describe(l, v, s)
	}
	return ""
}

// ---------------------------------------------------------------- courtiers

// courtierStepArea names an area token for the acting seat, opponents by
// name.
func courtierStepArea(l *locales.Localizer, v *courtiers.View, names Names, tok string) string {
	switch tok {
	case "up", "down", "own":
		return l.T("courtiers.area."+tok, nil)
	}
	if a, err := courtiers.ParseAction("place carp " + tok); err == nil && a.Area == courtiers.AreaOpp {
		if a.Opp == v.Seat {
			return l.T("courtiers.area.own", nil)
		}
		return l.T("courtiers.event.area_opp", map[string]any{"Owner": names.Of(a.Opp)})
	}
	return tok
}

// Prefix names a whole placement as its player reads it, an opponent's
// domain by the opponent's name (Action can only number the seat): what
// the bot says was done.
func (courtiersRenderer) Prefix(l *locales.Localizer, ev engine.View, names Names, s Step) string {
	v, ok := ev.(*courtiers.View)
	if !ok || !s.Whole {
		return ""
	}
	a, err := courtiers.ParseAction(strings.Join(s.Tokens, " "))
	if err != nil {
		return ""
	}
	text := l.T("courtiers.action.place", map[string]any{"Card": CourtierCard(l, a.Card), "Area": courtierStepArea(l, v, names, a.AreaString())})
	if a.Kill {
		text = l.T("courtiers.action.kill", map[string]any{"Place": text, "Target": courtierTarget(l, a.Target, a.Side.String())})
	}
	return text
}

// ================================================================ controllers

// ---------------------------------------------------------------- princesses

// Stops: a card to play and then, when a power may go with it, the power;
// the hand card of a haggle, then the trick's card; a power to announce,
// then its suit or player; the card Sleeping Beauty hands on, then to whom.
// Every other action is one choice.
func (princessesRenderer) Stops(t []string) []int {
	if len(t) == 3 {
		switch t[0] {
		case "play", "swap", "declare", "assign":
			return []int{2, 3}
		}
	}
	return []int{len(t)}
}

// princessMasked reports whether the view's seat plays face down
// (Masquerade, after the lead).
func princessMasked(v *princesses.View) bool {
	return v != nil && len(v.Masked) > 0 && v.Seat != v.Leader
}

func princessPower(l *locales.Localizer, id string) string {
	return l.T("princesses.princess."+id+".power", nil)
}

func princessSeat(names Names, tok string) string {
	n, err := strconv.Atoi(tok)
	if err != nil {
		return "?"
	}
	return names.Of(engine.Seat(n))
}

// princessMenu is a card in the select menu of a verb.
func princessMenu(l *locales.Localizer, verb, label string) Control {
	return Control{Label: label, Menu: verb, Placeholder: l.T("princesses.control.menu."+verb, nil)}
}

// Control: cards are options of a menu whose placeholder says what
// choosing one does (play, set aside, give Sleeping Beauty…); powers,
// suits and players are buttons.
func (princessesRenderer) Control(l *locales.Localizer, ev engine.View, names Names, s Step) Control {
	v, _ := ev.(*princesses.View)
	t := s.Tokens
	if len(t) == 0 {
		return Control{}
	}
	card := func(i int) string { return cardToken(l, t[i]) }
	whole := func() string {
		a, err := princesses.ParseAction(strings.Join(t, " "))
		if err != nil {
			return "?"
		}
		return princessAction(l, a, names)
	}
	if s.Chosen >= 2 {
		switch t[0] {
		case "play":
			if len(t) == 2 {
				return Control{Label: l.T("princesses.control.no_power", nil)}
			}
			return Control{Label: princessPower(l, t[2])}
		case "swap":
			return princessMenu(l, "take", card(2))
		case "declare":
			if su, ok := princesses.ParseSuit(t[2]); ok && len(t[2]) > 1 {
				return Control{Label: l.T("princesses.suit."+su.Letter(), nil)}
			}
			return Control{Label: princessSeat(names, t[2])}
		case "assign":
			return Control{Label: princessSeat(names, t[2])}
		}
		return Control{Label: whole()}
	}
	switch verb := t[0]; verb {
	case "choose":
		return Control{Label: l.T("princesses.control.princess", map[string]any{"Name": princessName(l, t[1]), "Power": princessPower(l, t[1])})}
	case "play":
		c := princessMenu(l, "play", card(1))
		if princessMasked(v) {
			c.Placeholder = l.T("princesses.control.menu.play_masked", nil)
		}
		switch {
		case len(t) == 3:
			c.Label = l.T("princesses.control.with_power", map[string]any{"Card": card(1), "Power": princessPower(l, t[2])})
		case !s.Whole:
			c.Description = l.T("princesses.control.power_next", nil)
		}
		return c
	case "aside", "gift", "give", "offer", "retain", "freeze":
		return princessMenu(l, verb, card(1))
	case "trade":
		if t[1] == "none" {
			return Control{Label: whole()}
		}
		return princessMenu(l, verb, card(1))
	case "mulan":
		if len(t) < 3 {
			return Control{Label: whole()}
		}
		return princessMenu(l, verb, l.T("princesses.control.swap", map[string]any{"Card": card(1), "Take": card(2)}))
	case "swap":
		c := princessMenu(l, verb, card(1))
		if len(t) == 3 {
			c.Label = l.T("princesses.control.swap", map[string]any{"Card": card(1), "Take": card(2)})
		}
		return c
	case "assign":
		c := princessMenu(l, verb, card(1))
		if len(t) == 3 {
			c.Label = l.T("princesses.control.to", map[string]any{"Card": card(1), "Name": princessSeat(names, t[2])})
		}
		return c
	case "reveal", "sing":
		if su, ok := princesses.ParseSuit(t[1]); ok {
			return Control{Label: l.T("princesses.suit."+su.Letter(), nil)}
		}
	case "declare":
		if !s.Whole {
			return Control{Label: l.T("princesses.power.action.declare", map[string]any{"Power": princessPower(l, t[1])})}
		}
	case "pocahontas":
		if t[1] != "none" {
			return Control{Label: princessSeat(names, t[1])}
		}
	}
	return Control{Label: whole()}
}

// Prompt names the card or power chosen and asks for the rest; at the
// first step it asks the question suit and player buttons answer.
func (princessesRenderer) Prompt(l *locales.Localizer, ev engine.View, names Names, chosen []string) string {
	v, _ := ev.(*princesses.View)
	if len(chosen) == 0 {
		switch {
		case v == nil:
		case v.Phase == "reveal":
			return l.T("princesses.control.prompt.reveal", nil)
		case v.PowerStep == "sing":
			return l.T("princesses.control.prompt.sing", map[string]any{"Power": princessPower(l, "mermaid")})
		case v.PowerStep == "pocahontas":
			return l.T("princesses.control.prompt.guide", map[string]any{"Power": princessPower(l, "pocahontas")})
		}
		return ""
	}
	if len(chosen) < 2 {
		return ""
	}
	card := cardToken(l, chosen[1])
	switch chosen[0] {
	case "play":
		key := "princesses.control.prompt.play"
		if princessMasked(v) {
			key = "princesses.control.prompt.play_masked"
		}
		return l.T(key, map[string]any{"Card": card})
	case "swap":
		return l.T("princesses.control.prompt.swap", map[string]any{"Card": card})
	case "assign":
		return l.T("princesses.control.prompt.assign", map[string]any{"Card": card})
	case "declare":
		key := "princesses.control.prompt.declare_seat"
		if chosen[1] == "mermaid" {
			key = "princesses.control.prompt.declare_suit"
		}
		return l.T(key, map[string]any{"Power": princessPower(l, chosen[1])})
	}
	return ""
}

// ---------------------------------------------------------------- lynx

// Stops: a set's value, then the set.
func (lynxRenderer) Stops(t []string) []int {
	if len(t) > 2 && t[0] == "play" {
		return []int{2, len(t)}
	}
	return []int{len(t)}
}

func lynxGroupOf(v *lynx.View, c lynx.Card) lynx.Group {
	if v != nil {
		for _, g := range v.Groups {
			if g.Card == c {
				return g
			}
		}
	}
	return lynx.Group{Card: c}
}

// Control: the value of a set from a menu of the hand grouped by value
// ("7×3"), then the set itself as a button ("7 7 X"); stealing, taking,
// leaving and drawing as buttons naming the cards and the player.
func (lynxRenderer) Control(l *locales.Localizer, ev engine.View, names Names, s Step) Control {
	v, _ := ev.(*lynx.View)
	t := s.Tokens
	text := strings.Join(t, " ")
	if len(t) >= 2 && t[0] == "play" {
		value, ok := lynx.ParseCard(t[1])
		if !ok {
			return Control{Label: text}
		}
		if s.Chosen >= 2 {
			return Control{Label: strings.Join(t[1:], " ")}
		}
		g := lynxGroupOf(v, value)
		c := Control{Label: LynxGroup(l, g), Menu: "play", Placeholder: l.T("lynx.control.menu.play", nil)}
		jokers := lynxGroupOf(v, lynx.Joker).Count
		if value == lynx.Joker {
			c.Label = l.T("lynx.control.jokers", map[string]any{"List": LynxGroup(l, g)})
			jokers = 0
		}
		if !s.Whole {
			c.Description = l.N("lynx.control.up_to", g.Count+jokers, nil)
		}
		return c
	}
	a, err := lynx.ParseAction(text)
	if err != nil || v == nil {
		return Control{Label: text}
	}
	stolen := LynxSet(v.Stolen)
	switch a.Kind {
	case lynx.KindStealVirtual:
		set := a.Value.String()
		for _, g := range v.Virtual {
			if g.Card == a.Value {
				set = LynxSet(repeat(g))
			}
		}
		return Control{Label: l.T("lynx.control.steal_virtual", map[string]any{"Set": set})}
	case lynx.KindTake:
		return Control{Label: l.T("lynx.control.take", map[string]any{"Set": stolen})}
	case lynx.KindLeave:
		return Control{Label: l.T("lynx.control.leave", map[string]any{"Set": stolen, "Name": names.Of(v.Victim)})}
	case lynx.KindBack:
		return Control{Label: l.T("lynx.control.back", map[string]any{"Set": stolen})}
	case lynx.KindDiscard:
		return Control{Label: l.N("lynx.control.discard", len(v.Stolen), map[string]any{"Set": stolen})}
	case lynx.KindDrawDeck:
		return Control{Label: l.T("lynx.control.deck", map[string]any{"Cards": l.N("lynx.cards", v.DeckSize, nil)})}
	case lynx.KindDrawPool:
		place := a.Value.String()
		if a.Under != 0 {
			place = lynxPlace([]lynx.Card{a.Under, a.Value})
		} else {
			for _, p := range v.Pool {
				if len(p) > 0 && p[len(p)-1] == a.Value {
					place = lynxPlace(p)
					break
				}
			}
		}
		return Control{Label: l.T("lynx.control.pool", map[string]any{"Set": place})}
	}
	return Control{Label: lynxRenderer{}.Action(l, a)}
}

// Prompt: once a value is chosen, which set of it, with what the hand
// holds of it and of jokers.
func (lynxRenderer) Prompt(l *locales.Localizer, ev engine.View, _ Names, chosen []string) string {
	v, _ := ev.(*lynx.View)
	if len(chosen) != 2 || chosen[0] != "play" {
		return ""
	}
	value, ok := lynx.ParseCard(chosen[1])
	if !ok {
		return ""
	}
	list := []string{LynxGroup(l, lynxGroupOf(v, value))}
	if j := lynxGroupOf(v, lynx.Joker); value != lynx.Joker && j.Count > 0 {
		list = append(list, LynxGroup(l, j))
	}
	return l.T("lynx.control.prompt.set", map[string]any{"Card": value.String(), "List": strings.Join(list, ", ")})
}

// ---------------------------------------------------------------- chapters

// Stops: with 2 players, the card to keep, then the ghost's.
func (chaptersRenderer) Stops(t []string) []int {
	if len(t) == 4 && t[0] == "pick" {
		return []int{2, 4}
	}
	return []int{len(t)}
}

func chaptersTable(v *chapters.View) *chapters.Table {
	if v == nil || v.Cards == nil {
		return &chapters.DefaultCards
	}
	return v.Cards
}

// chaptersDesc is what a card is and does in at most MaxOptionText
// characters: its traits and abilities; the abilities alone when both do
// not fit (the traits are the clause it may drop); else its traits and a
// pointer to the full text, which the prompt then carries (full is false).
func chaptersDesc(l *locales.Localizer, t *chapters.Table, c chapters.Card) (desc string, full bool) {
	traits, text := ChaptersTraits(l, t.Card(c).Traits), ChaptersAbilities(l, t, c)
	if d, ok := firstFitting(MaxOptionText, l.T("chapters.step.desc", map[string]any{"List": traits, "Text": text}), text); ok {
		return d, true
	}
	d, _ := firstFitting(MaxOptionText, l.T("chapters.control.desc_above", map[string]any{"List": traits}), l.T("chapters.control.desc_above", map[string]any{"List": "…"}))
	return d, false
}

// Control: a card of the hand in a menu, with what it does.
func (chaptersRenderer) Control(l *locales.Localizer, ev engine.View, _ Names, s Step) Control {
	v, _ := ev.(*chapters.View)
	tb := chaptersTable(v)
	t := s.Tokens
	if len(t) < 2 {
		return Control{Label: strings.Join(t, " ")}
	}
	i := 1
	menu, place := t[0], "chapters.control.menu."+t[0]
	if s.Chosen >= 2 && len(t) == 4 {
		i, menu, place = 3, "ghost", "chapters.control.menu.ghost"
	} else if t[0] == "pick" && v != nil && v.Ghosts {
		place = "chapters.control.menu.pick_ghost"
	}
	c, ok := chapters.ParseCard(t[i])
	if !ok {
		return Control{Label: strings.Join(t, " ")}
	}
	out := Control{Label: ChaptersCard(l, tb, c), Menu: menu, Placeholder: l.T(place, nil)}
	out.Description, _ = chaptersDesc(l, tb, c)
	if i == 1 && len(t) == 4 {
		// The last two cards of a 2-player pick: one choice.
		g, _ := chapters.ParseCard(t[3])
		out.Label = l.T("chapters.control.keep_ghost", map[string]any{"Card": ChaptersCard(l, tb, c), "Text": ChaptersCard(l, tb, g)})
		out.Description = ""
	}
	return out
}

// Prompt: once the card to keep is chosen, the question of the ghost's;
// and the full text of every card whose description had to leave it out.
func (chaptersRenderer) Prompt(l *locales.Localizer, ev engine.View, _ Names, chosen []string) string {
	v, _ := ev.(*chapters.View)
	if v == nil {
		return ""
	}
	tb := chaptersTable(v)
	var lines []string
	var keep chapters.Card
	if len(chosen) == 2 && chosen[0] == "pick" {
		keep, _ = chapters.ParseCard(chosen[1])
		lines = append(lines, l.T("chapters.control.prompt.ghost", map[string]any{"Card": ChaptersCard(l, tb, keep)}))
	}
	for _, c := range v.Hand {
		if _, full := chaptersDesc(l, tb, c); !full && c != keep {
			lines = append(lines, ChaptersCardLine(l, tb, c))
		}
	}
	return strings.Join(lines, "\n")
}

// ---------------------------------------------------------------- courtiers

// Stops: the card, where it goes, and for an assassin what it eliminates.
func (courtiersRenderer) Stops(t []string) []int {
	if len(t) > 3 && t[0] == "place" {
		return []int{2, 3, len(t)}
	}
	if len(t) == 3 && t[0] == "place" {
		return []int{2, 3}
	}
	return []int{len(t)}
}

// courtierPlace names an area as a button: the Queen's table above or
// below the mat, your domain, or the opponent's name.
func courtierPlace(l *locales.Localizer, v *courtiers.View, names Names, tok string) string {
	switch tok {
	case "up", "down", "own":
		return l.T("courtiers.control."+tok, nil)
	}
	if a, err := courtiers.ParseAction("place carp " + tok); err == nil && a.Area == courtiers.AreaOpp {
		if v != nil && a.Opp == v.Seat {
			return l.T("courtiers.control.own", nil)
		}
		return names.Of(a.Opp)
	}
	return tok
}

// courtierKill names an assassin's target and where it lies.
func courtierKill(l *locales.Localizer, v *courtiers.View, names Names, a courtiers.Action) (label, menu, placeholder string) {
	card := capitalize(CourtierCard(l, a.Target))
	switch {
	case a.Side == courtiers.SideUp || a.Side == courtiers.SideDown:
		side := a.Side.String()
		return l.T("courtiers.target."+side, map[string]any{"Card": card}), "kill-" + side, l.T("courtiers.control.menu.kill_"+side, nil)
	case a.Area == courtiers.AreaOpp && (v == nil || a.Opp != v.Seat):
		name := names.Of(a.Opp)
		return l.T("courtiers.target.domain", map[string]any{"Card": card, "Owner": name}), "kill",
			l.T("courtiers.control.menu.kill_opp", map[string]any{"Name": name})
	}
	return l.T("courtiers.control.target_own", map[string]any{"Card": card}), "kill", l.T("courtiers.control.menu.kill_own", nil)
}

// Control: the card from a menu of the hand, with what its role does;
// then where it goes, as buttons; then, for an assassin, what it
// eliminates, from menus whose options each name the card and where it
// lies, or a button to eliminate nothing.
func (courtiersRenderer) Control(l *locales.Localizer, ev engine.View, names Names, s Step) Control {
	v, _ := ev.(*courtiers.View)
	t := s.Tokens
	if len(t) < 2 || t[0] != "place" {
		return Control{Label: strings.Join(t, " ")}
	}
	card, ok := courtiers.ParseCard(t[1])
	if !ok {
		return Control{Label: strings.Join(t, " ")}
	}
	var kill courtiers.Action
	if len(t) == 5 {
		kill, _ = courtiers.ParseAction(strings.Join(t, " "))
	}
	switch {
	case s.Chosen < 2:
		c := Control{Label: CourtierCard(l, card), Menu: "card", Placeholder: l.T("courtiers.control.menu.card", nil)}
		if r := card.Role(); r != courtiers.Plain {
			c.Description = l.T("courtiers.control.role."+r.String(), nil)
		}
		if len(t) >= 3 {
			c.Label = l.T("courtiers.control.card_at", map[string]any{"Card": c.Label, "Area": courtierPlace(l, v, names, t[2])})
		}
		if len(t) == 5 {
			target, _, _ := courtierKill(l, v, names, kill)
			c.Description = l.T("courtiers.control.eliminating", map[string]any{"Target": target})
		}
		return c
	case s.Chosen == 2:
		c := Control{Label: courtierPlace(l, v, names, t[2])}
		if len(t) == 5 {
			target, _, _ := courtierKill(l, v, names, kill)
			c.Label = l.T("courtiers.control.card_at", map[string]any{"Card": c.Label, "Area": target})
		}
		return c
	case len(t) == 3:
		return Control{Label: l.T("courtiers.control.no_kill", nil)}
	}
	label, menu, placeholder := courtierKill(l, v, names, kill)
	return Control{Label: label, Menu: menu, Placeholder: placeholder}
}

// Prompt names the card chosen and asks where it goes, then (an
// assassin) what it eliminates there.
func (courtiersRenderer) Prompt(l *locales.Localizer, ev engine.View, names Names, chosen []string) string {
	v, ok := ev.(*courtiers.View)
	if !ok || len(chosen) < 2 || chosen[0] != "place" {
		return ""
	}
	card, ok := courtiers.ParseCard(chosen[1])
	if !ok {
		return ""
	}
	if len(chosen) == 2 {
		return l.T("courtiers.control.prompt.where", map[string]any{"Card": CourtierCard(l, card)})
	}
	area := courtierStepArea(l, v, names, chosen[2])
	return l.T("courtiers.control.prompt.kill", map[string]any{"Card": CourtierCard(l, card), "Area": area})
}
