package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// terminal is a whole game in the terminal: the player at one seat (0 in a
// new game), AI players in the others. Every time the player is asked,
// the terminal redraws what fits 80×24: what happened since the player's
// last move, the table, the hand, the prompt and the numbered choices.
type terminal struct {
	game    engine.Game
	r       render.Game
	l       *locales.Localizer
	d       driver
	in      *lineReader
	out     *lineCounter
	names   render.Names
	su      engine.Setup
	level   string // the AI players' level (engine/ai)
	human   engine.Seat
	pics    *pictureWriter // nil without --pictures
	saved   string         // where the game is stored, with --db
	resumed bool           // a stored game continued

	recent   []shown  // what the player may know of what happened since their last move
	notes    []string // messages for the next redraw
	pictured int      // the log length last drawn as pictures
	cut      bool     // the input ended, or Ctrl-C, at a prompt
	paged    bool     // a person types the answers (a terminal): long answers come a page at a time
}

// lineCounter counts the lines written since the player's last answer, so
// that a redraw knows how much of the screen is left.
type lineCounter struct {
	w io.Writer
	n int
}

func (c *lineCounter) Write(b []byte) (int, error) {
	for _, x := range b {
		if x == '\n' {
			c.n++
		}
	}
	return c.w.Write(b)
}

func newTerminal(g engine.Game, r render.Game, l *locales.Localizer, d driver, stdin io.Reader, out io.Writer, su engine.Setup, human engine.Seat, level string) *terminal {
	t := &terminal{game: g, r: r, l: l, d: d, in: newLineReader(stdin), out: &lineCounter{w: out}, su: su, human: human, pictured: -1, level: level}
	t.names = make(render.Names, su.Seats)
	for s := range su.Seats {
		if engine.Seat(s) == human {
			t.names[s] = l.T("ui.you", nil)
		} else {
			t.names[s] = render.BotName(l, s, level)
		}
	}
	return t
}

func (t *terminal) say(lines ...string) {
	for _, line := range lines {
		fmt.Fprintln(t.out, line)
	}
}

// result is how a decision ended.
type result int

const (
	acted   result = iota // an action was chosen
	carryOn               // the player let the game go on (no optional action)
	quit                  // the player left, or the input ended (EOF, Ctrl-C)
)

// lineReader reads the player's answers in the background, so that a
// prompt can stop waiting when the context ends (Ctrl-C).
type lineReader struct {
	src   io.Reader
	lines chan string // closed at the end of the input
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{src: r} }

// next is the next line, false at the end of the input or when ctx ends
// first.
func (r *lineReader) next(ctx context.Context) (string, bool) {
	if r.lines == nil {
		r.lines = make(chan string)
		go func() {
			defer close(r.lines)
			sc := bufio.NewScanner(r.src)
			for sc.Scan() {
				r.lines <- sc.Text()
			}
		}()
	}
	select {
	case <-ctx.Done():
		return "", false
	case line, ok := <-r.lines:
		return line, ok
	}
}

// bye ends the game in the terminal: after Ctrl-C or the end of the input
// at a prompt, on a line of its own and with where the game is stored (it
// goes on with play --table); then goodbye.
func (t *terminal) bye(ctx context.Context) {
	if ctx.Err() != nil || t.cut {
		t.say("")
		if t.saved != "" {
			t.say(wrap(t.saved, termWidth, "  ")...)
		}
	}
	t.say(t.l.T("ui.bye", nil))
}

func (t *terminal) loop(ctx context.Context) error {
	var bot engine.Player = engine.Random{}
	if p, err := ai.Player(t.game, t.level, t.su.Seats, 0); err == nil {
		bot = p
	}
	t.say(wrapAll([]string{t.l.T("term.welcome", map[string]any{
		"Game": t.l.T("game."+t.game.ID()+".name", nil), "Players": t.l.N("common.players", t.su.Seats, nil),
	})})...)
	if t.saved != "" {
		t.say(wrap(t.saved, termWidth, "  ")...)
	}
	if t.resumed {
		t.say(wrapAll([]string{t.l.N("term.resumed", t.d.steps(), nil)})...)
	}
	paused := -1 // the step at which the player last passed on optional actions
	// The moves are stored whole even when Ctrl-C comes meanwhile: the game
	// stops between two moves.
	actx := context.WithoutCancel(ctx)
	for {
		if ctx.Err() != nil {
			t.bye(ctx)
			return nil
		}
		st := t.d.state()
		if done, _ := st.Result(); done {
			t.final(st)
			t.afterward(ctx, st)
			t.bye(ctx)
			return nil
		}
		acting := st.Acting()
		if other := slices.DeleteFunc(slices.Clone(acting), func(s engine.Seat) bool { return s == t.human }); len(other) > 0 {
			// Before an AI continues at a moment where it matters, the
			// player may take an optional action (announce a power).
			if opt := t.optional(st, acting); len(opt) > 0 && paused != t.d.steps() {
				paused = t.d.steps()
				a, res := t.decide(ctx, st, opt, true)
				switch res {
				case quit:
					t.bye(ctx)
					return nil
				case carryOn:
					t.recent = nil
				case acted:
					if !t.act(actx, a) {
						paused = -1 // ask again
					}
				}
				continue
			}
			s := other[0]
			a := engine.Decide(bot, st, s, engine.NewRand(t.su.Seed^0x5eed, t.d.steps()))
			ev, err := t.d.act(actx, s, a)
			if err != nil {
				return errors.New(render.Error(t.l, err))
			}
			t.events(ev)
			continue
		}
		a, res := t.decide(ctx, st, st.Legal(t.human), false)
		if res != acted {
			t.bye(ctx)
			return nil
		}
		t.act(actx, a)
	}
}

// act plays the player's action; a refusal is told at the next redraw.
func (t *terminal) act(ctx context.Context, text string) bool {
	a, err := t.game.ParseAction(text)
	var ev []engine.Event
	if err == nil {
		ev, err = t.d.act(ctx, t.human, a)
	}
	if err != nil {
		t.notes = append(t.notes, render.Error(t.l, err))
		return false
	}
	t.recent = nil
	t.events(ev)
	return true
}

// optional lists what the player may do although an AI seat is about to
// act: the player's optional actions (engine.Optional) when the player is
// not acting. They are offered only at a moment where they matter: in
// Rebel Princess, before a trick is led, when an announced power would
// resolve at once. Nil when there is nothing to offer.
func (t *terminal) optional(st engine.State, acting []engine.Seat) []engine.Action {
	if slices.Contains(acting, t.human) {
		return nil // the player is asked in turn, with all of its actions
	}
	opt := engine.AnyLegal(st, t.human)
	if len(opt) == 0 {
		return nil
	}
	if !t.r.OfferOptional(st.View(t.human)) {
		return nil
	}
	return opt
}

// events keeps what the player may see of what happened, for the next
// redraw.
func (t *terminal) events(ev []engine.Event) {
	for _, e := range ev {
		if !e.VisibleTo(t.human) {
			continue
		}
		if e.Type == "game_over" {
			continue // the last screen's result says it, by place
		}
		if text := t.r.Event(t.l, e, t.names); text != "" {
			t.recent = append(t.recent, shown{text, where(t.r, e)})
		}
	}
}

// where says how much an event matters to a reader who was away: as the
// game places it on Discord (render.Words.Where); an event for the reader
// alone is a result.
func where(r render.Game, e engine.Event) render.Where {
	if e.Audience == engine.Everyone {
		return r.Where(e)
	}
	return render.Posted
}

// read prints the prompt and reads one answer.
func (t *terminal) read(ctx context.Context, prompt string) (string, bool) {
	fmt.Fprint(t.out, prompt)
	line, ok := t.in.next(ctx)
	if !ok {
		t.cut = true
		return "", false
	}
	t.out.n = 0
	return strings.TrimSpace(line), true
}

// numbers reads an answer made of numbers only ("1 4 7", "2,5").
func numbers(fields []string) ([]int, bool) {
	if len(fields) == 0 {
		return nil, false
	}
	out := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// decide asks the player for one action among legal, step by step, and
// answers the commands typed meanwhile. With cont the first choice is to
// take none and let the game go on.
func (t *terminal) decide(ctx context.Context, st engine.State, legal []engine.Action, cont bool) (string, result) {
	l := t.l
	v := st.View(t.human)
	c := newChooser(t.game, t.r, l, v, t.names, legal, cont)
	draw := true
	var msg []string
	for {
		items := c.items()
		if draw {
			t.draw(st, v, c, items, msg)
			msg, draw = nil, false
		}
		prompt := l.T("term.prompt", nil)
		if len(c.hist) > 0 || len(c.picked) > 0 {
			prompt = l.T("term.prompt_step", nil)
		}
		text, ok := t.read(ctx, prompt)
		if !ok {
			return "", quit
		}
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
		if text == "" {
			draw = true
			continue
		}
		if nums, ok := numbers(fields); ok {
			draw = true
			if len(nums) == 1 && nums[0] == 0 {
				if !c.back() {
					msg = []string{l.T("term.nothing_back", nil)}
				}
				continue
			}
			out, action, why := c.choose(nums)
			switch out {
			case decided:
				return action, acted
			case goOn:
				return "", carryOn
			}
			if why != "" {
				msg = []string{why}
			}
			continue
		}
		// A legal action typed whole.
		for _, a := range c.acts {
			if strings.EqualFold(a.Text, strings.Join(fields, " ")) {
				return a.Text, acted
			}
		}
		word, arg, _ := strings.Cut(strings.ToLower(text), " ")
		arg = strings.TrimSpace(arg)
		switch word {
		case "quit", "exit", "q":
			return "", quit
		case "help", "?", "h":
			t.info(ctx, t.help(v, legal))
			continue
		case "rules":
			t.info(ctx, t.rules(v))
			continue
		case "card", "cards":
			t.info(ctx, t.card(v, arg))
			continue
		case "power", "powers":
			t.info(ctx, t.powers(v))
			continue
		case "missions", "mission":
			t.info(ctx, t.missions(v))
			continue
		case "table":
			sc, _ := render.ScreenOf(t.game.ID(), l, v, t.names, engine.AnyLegal(st, t.human))
			t.info(ctx, tableLines(l, sc))
			continue
		case "log":
			t.info(ctx, t.log())
			continue
		case "back":
			draw = true
			if !c.back() {
				msg = []string{l.T("term.nothing_back", nil)}
			}
			continue
		case "continue", "c":
			if cont && arg == "" {
				return "", carryOn
			}
		}
		a, err := t.game.ParseAction(text)
		if err == nil {
			return a.String(), acted
		}
		if c.prefix(fields) {
			draw = true
			continue
		}
		t.say(wrap(render.Error(l, err), termWidth, "  ")...)
	}
}

// draw redraws the screen: what fits the lines left of 24.
func (t *terminal) draw(st engine.State, v engine.View, c *chooser, items []item, msg []string) {
	sc, ok := render.ScreenOf(t.game.ID(), t.l, v, t.names, engine.AnyLegal(st, t.human))
	f := frame{
		l: t.l, events: t.recent, sc: sc, ok: ok,
		step: c.stepLines(items), menu: menuForms(items),
		msg:  append(t.notes, msg...),
		room: termHeight - t.out.n - 1,
	}
	t.notes = nil
	t.say(f.render()...)
	if t.pictured != t.d.steps() {
		t.pictured = t.d.steps()
		t.pictures(st)
	}
}

// final draws the end of the game: what happened last, the result, the
// chart and the seats.
func (t *terminal) final(st engine.State) {
	v := st.View(t.human)
	sc, ok := render.ScreenOf(t.game.ID(), t.l, v, t.names, nil)
	sc.Result = append([]string{t.l.T("ui.final_header", nil)}, sc.Result...)
	f := frame{l: t.l, events: t.recent, sc: sc, ok: ok, msg: t.notes, final: true, room: termHeight - t.out.n - 1}
	t.say(f.render()...)
	t.pictures(st)
}

// afterward keeps the end of the game on screen until the player quits
// (quit, the end of the input, Ctrl-C): table, log, rules and card still
// answer.
func (t *terminal) afterward(ctx context.Context, st engine.State) {
	v := st.View(t.human)
	for {
		text, ok := t.read(ctx, t.l.T("term.prompt_end", nil))
		if !ok {
			return
		}
		word, arg, _ := strings.Cut(strings.ToLower(text), " ")
		arg = strings.TrimSpace(arg)
		switch word {
		case "quit", "exit", "q":
			return
		case "table":
			sc, _ := render.ScreenOf(t.game.ID(), t.l, v, t.names, nil)
			t.say(tableLines(t.l, sc)...)
		case "log":
			t.say(wrapAll(t.log())...)
		case "rules":
			t.say(wrapAll(t.rules(v))...)
		case "card", "cards":
			t.say(wrapAll(t.card(v, arg))...)
		case "":
			t.final(st)
		default:
			t.say(wrapAll([]string{t.l.T("term.end_help", nil)})...)
		}
	}
}

// info prints the answer to a command, then how to see the table again.
// An answer taller than the screen is shown a page at a time when a person
// types the answers: Enter shows the next page, anything else goes back to
// the game. Answers read from a file or a pipe come whole.
func (t *terminal) info(ctx context.Context, lines []string) {
	all := wrapAll(lines)
	page := termHeight - 1
	for t.paged && len(all) > page {
		t.say(all[:page]...)
		all = all[page:]
		more, ok := t.read(ctx, t.l.N("term.more", len(all), nil))
		if !ok || more != "" {
			return
		}
	}
	t.say(all...)
	t.say(t.l.T("term.enter", nil))
}

// help says how to answer, for this game: the commands, how its cards and
// actions are written, examples of its notation and one action possible
// now.
func (t *terminal) help(v engine.View, legal []engine.Action) []string {
	l := t.l
	// The commands this game answers: power and missions only where
	// there is something to show.
	cmds := []string{"table", "log", "rules", "card"}
	if len(t.r.Powers(l, v, t.names)) > 0 {
		cmds = append(cmds, "power")
	}
	if len(t.r.Secrets(l, v)) > 0 {
		cmds = append(cmds, "missions")
	}
	cmds = append(cmds, "help", "quit")
	for i, c := range cmds {
		cmds[i] = l.T("term.help.cmd."+c, nil)
	}
	out := []string{l.T("term.help.how", nil), l.T("term.help.commands", map[string]any{"List": strings.Join(cmds, ", ")}), l.T("term.help."+t.game.ID(), nil)}
	if ex, _ := t.r.Examples(); len(ex) > 0 {
		out = append(out, l.T("term.help.examples", map[string]any{"List": strings.Join(ex, " · ")}))
	}
	if len(legal) > 0 {
		out = append(out, l.T("term.help.now", map[string]any{"Action": legal[0].String()}))
	}
	return out
}

// rules is the game's rules in short, and the round card's whole rule.
func (t *terminal) rules(v engine.View) []string {
	out := strings.Split(plainText(render.Rules(t.l, t.game.ID())), "\n")
	if sc, ok := render.ScreenOf(t.game.ID(), t.l, v, t.names, nil); ok && sc.Rule != nil {
		out = append(out, "", t.l.T("term.rules.round", map[string]any{"Name": sc.Rule.Name, "Text": sc.Rule.Full}))
	}
	return out
}

// card explains a card, a round card or a power named by the player.
func (t *terminal) card(v engine.View, query string) []string {
	if query == "" {
		_, example := t.r.Examples()
		return []string{t.l.T("term.card.usage", map[string]any{"Example": example})}
	}
	text, ok := cardInfo(t.l, t.game.ID(), query, v)
	if !ok {
		none := t.l.T("term.card.none", map[string]any{"Name": query, "Game": t.l.T("game."+t.game.ID()+".name", nil)})
		return []string{strings.TrimSpace(none + " " + text)}
	}
	return strings.Split(text, "\n")
}

// powers explains what the players' powers do (render.Rulebook.Powers).
func (t *terminal) powers(v engine.View) []string {
	lines := t.r.Powers(t.l, v, t.names)
	if len(lines) == 0 {
		return []string{t.l.T("term.power.none", map[string]any{"Game": t.l.T("game."+t.game.ID()+".name", nil)})}
	}
	for i, line := range lines {
		lines[i] = plainText(line)
	}
	return lines
}

// missions shows the player's secret missions in full
// (render.Rulebook.Secrets).
func (t *terminal) missions(v engine.View) []string {
	if lines := t.r.Secrets(t.l, v); len(lines) > 0 {
		return lines
	}
	return []string{t.l.T("term.missions.none", map[string]any{"Game": t.l.T("game."+t.game.ID()+".name", nil)})}
}

// log is everything the player may know that happened since their last
// move (the redraw keeps only the last events when short of room).
func (t *terminal) log() []string {
	if len(t.recent) == 0 {
		return []string{t.l.T("term.log.none", nil)}
	}
	out := []string{t.l.T("term.log.header", nil)}
	for _, e := range t.recent {
		out = append(out, "» "+e.text)
	}
	return out
}
