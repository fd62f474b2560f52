package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// item is one numbered choice of a step.
type item struct {
	num   int
	label string
	desc  string // a second line: what the card does
	// menu groups choices under their placeholder, which says what
	// choosing one of them does ("Play a card"), as Discord's select menus
	// do; "" for a choice of its own (a button).
	menu, placeholder string
	note              string   // its notation, in brackets
	toks              []string // the action (whole) or the beginning chosen
	whole             bool
	cont              bool // "continue": take no optional action
	opt               int  // in a pick, the option's index; -1 otherwise
}

// A chooser walks one decision of the human seat as the Discord front end
// does: the legal actions' tree (render.Tree: grouped by their next choice,
// at the game's stops), each choice named by the game's control (else
// render.StepLabel), under the words of the menu it belongs to; several
// cards at once through the game's Pick. Numbers choose, 0 goes up a step.
type chooser struct {
	game  engine.Game
	r     render.Game
	l     *locales.Localizer
	v     engine.View
	names render.Names
	tree  *render.Tree
	acts  []render.Act
	cont  bool // offer "continue" first (the pause for optional actions)

	pre  []string   // the tokens chosen so far
	hist [][]string // the beginnings chosen before, for 0

	pick   *render.Pick // a choice of several cards, when the game offers one
	inPick bool
	picked []int // the options taken, in order
}

func newChooser(g engine.Game, r render.Game, l *locales.Localizer, v engine.View, names render.Names, legal []engine.Action, cont bool) *chooser {
	c := &chooser{game: g, r: r, l: l, v: v, names: names, cont: cont}
	verb := ""
	if pk, ok := r.Pick(l, v, legal); ok && len(pk.Parts) > 0 {
		c.pick, verb = &pk, pk.Prefix
	}
	c.tree = render.NewTree(r, legal, nil, verb)
	c.acts = c.tree.Acts()
	return c
}

// isPick reports whether toks is the beginning that opens the pick.
func (c *chooser) isPick(toks []string) bool {
	return c.pick != nil && len(toks) == 1 && toks[0] == c.pick.Prefix
}

// items lists the choices of the current step. A step with a single choice
// that is not a whole action is taken at once.
func (c *chooser) items() []item {
	if c.inPick {
		return c.pickItems()
	}
	pre, order, groups := c.tree.Descend(c.pre, nil, func(pre []string) bool {
		return (c.cont && len(pre) == 0) || c.isPick(pre)
	})
	c.pre = pre
	if c.isPick(pre) {
		c.inPick = true
		return c.pickItems()
	}
	var out []item
	if c.cont && len(c.pre) == 0 {
		out = append(out, item{num: 1, label: c.l.T("ui.optional.continue", nil), note: "continue", cont: true, opt: -1})
	}
	for _, key := range order {
		g := groups[key]
		it := item{toks: strings.Fields(key), whole: len(g) == 1, opt: -1}
		if it.whole {
			it.toks = g[0].Tokens
		}
		if c.isPick(it.toks) && !it.whole {
			it.label = c.pick.Parts[0].Placeholder
			it.note = c.pick.Prefix + " …"
		} else {
			c.name(&it)
		}
		it.num = len(out) + 1
		out = append(out, it)
	}
	return out
}

// name names a choice as the Discord front end does: the game's control,
// else render.StepLabel.
func (c *chooser) name(it *item) {
	s := render.Step{Tokens: it.toks, Chosen: len(c.pre), Whole: it.whole}
	it.note = strings.Join(it.toks[len(c.pre):], " ")
	if ctr := c.r.Control(c.l, c.v, c.names, s); ctr.Label != "" {
		it.label, it.desc, it.menu, it.placeholder = ctr.Label, ctr.Description, ctr.Menu, ctr.Placeholder
		if ctr.Detail != "" {
			it.desc = ctr.Detail // a terminal line has room for the whole
		}
		return
	}
	it.label = render.StepLabel(c.r, c.l, c.v, c.names, s, c.game.ParseAction)
}

// pickItems are the options not taken yet, numbered from 1.
func (c *chooser) pickItems() []item {
	var out []item
	for i, o := range c.pick.Options {
		if slices.Contains(c.picked, i) {
			continue
		}
		out = append(out, item{num: len(out) + 1, label: o.Label, note: o.Value, opt: i, menu: "pick"})
	}
	return out
}

// pickNeed is how many options the pick takes in all.
func (c *chooser) pickNeed() int {
	n := 0
	for _, p := range c.pick.Parts {
		n += p.N
	}
	return n
}

// pickPart is the part the next option goes to.
func (c *chooser) pickPart() int {
	n := len(c.picked)
	for i, p := range c.pick.Parts {
		if n < p.N {
			return i
		}
		n -= p.N
	}
	return len(c.pick.Parts) - 1
}

// stepLines say what was chosen so far and what to choose now.
func (c *chooser) stepLines(items []item) []string {
	l := c.l
	if c.inPick {
		var out []string
		part := c.pickPart()
		if len(c.pick.Parts) > 1 {
			out = append(out, c.pick.Parts[part].Placeholder)
		}
		if len(c.picked) > 0 {
			var labels []string
			for _, i := range c.picked {
				labels = append(labels, c.pick.Options[i].Label+" ["+c.pick.Options[i].Value+"]")
			}
			out = append(out, l.T("term.pick.chosen", map[string]any{"List": strings.Join(labels, ", ")}))
		}
		left := c.pickNeed() - len(c.picked)
		var ex []string
		for _, it := range items {
			if len(ex) == left {
				break
			}
			ex = append(ex, strconv.Itoa(it.num))
		}
		out = append(out, l.N("term.pick.how", left, map[string]any{"Example": strings.Join(ex, " ")}))
		return out
	}
	var out []string
	if c.cont && len(c.pre) == 0 {
		out = append(out, l.T("ui.optional.header", nil))
	}
	if text := c.r.Prompt(l, c.v, c.names, c.pre); text != "" {
		return append(out, strings.Split(text, "\n")...)
	}
	if len(c.pre) == 0 {
		return out
	}
	choice := render.StepLabel(c.r, l, c.v, c.names, render.Step{Tokens: c.pre}, c.game.ParseAction)
	return []string{l.T("term.step.chosen", map[string]any{"Choice": choice})}
}

// outcome is what one answer to a step does.
type outcome int

const (
	stay    outcome = iota // the step goes on (a beginning chosen, a card picked, a step back)
	decided                // an action was chosen
	goOn                   // "continue" was chosen
)

// choose takes the choices numbered nums: in a pick, several cards of the
// list shown ("1 4 7"); otherwise one step after the other (a card, then
// where it goes). It returns the action once one is whole, or a message
// when a number is not on the list.
func (c *chooser) choose(nums []int) (outcome, string, string) {
	if c.inPick {
		return c.choosePick(nums)
	}
	// A refused line changes nothing: the steps it took are taken back.
	hist, pre, inPick := slices.Clone(c.hist), c.pre, c.inPick
	refuse := func(why string) (outcome, string, string) {
		c.hist, c.pre, c.inPick = hist, pre, inPick
		return stay, "", why
	}
	for k, n := range nums {
		items := c.items()
		if c.inPick {
			out, action, why := c.choosePick(nums[k:])
			if out == stay && why != "" {
				return refuse(why)
			}
			return out, action, why
		}
		i := slices.IndexFunc(items, func(it item) bool { return it.num == n })
		if i < 0 {
			return refuse(c.l.T("ui.bad_number", map[string]any{"N": n}))
		}
		it := items[i]
		if (it.cont || it.whole) && k < len(nums)-1 {
			// "1 1 1 1" where 1 is a whole move: not taken silently.
			return refuse(c.l.T("ui.extra_numbers", map[string]any{"N": n}))
		}
		switch {
		case it.cont:
			return goOn, "", ""
		case it.whole:
			return decided, strings.Join(it.toks, " "), ""
		default:
			c.hist = append(c.hist, c.pre)
			c.pre = it.toks
			c.inPick = c.isPick(it.toks)
		}
	}
	return stay, "", ""
}

// choosePick takes the cards numbered nums in the list shown, in order;
// the action once every part of the pick is full.
func (c *chooser) choosePick(nums []int) (outcome, string, string) {
	items := c.pickItems()
	var take []int
	for _, n := range nums {
		if n < 1 || n > len(items) || slices.Contains(take, items[n-1].opt) {
			return stay, "", c.l.T("ui.bad_number", map[string]any{"N": n})
		}
		take = append(take, items[n-1].opt)
	}
	if len(c.picked)+len(take) > c.pickNeed() {
		return stay, "", c.l.N("term.pick.too_many", c.pickNeed()-len(c.picked), nil)
	}
	c.picked = append(c.picked, take...)
	if len(c.picked) < c.pickNeed() {
		return stay, "", ""
	}
	values := []string{c.pick.Prefix}
	for _, o := range c.picked {
		values = append(values, c.pick.Options[o].Value)
	}
	return decided, strings.Join(values, " "), ""
}

// back goes up a step: the last card of a pick taken back, or the
// beginning chosen before; false when there is nothing to go back to.
func (c *chooser) back() bool {
	switch {
	case c.inPick && len(c.picked) > 0:
		c.picked = c.picked[:len(c.picked)-1]
		return true
	case len(c.hist) > 0:
		c.pre = c.hist[len(c.hist)-1]
		c.hist = c.hist[:len(c.hist)-1]
		c.inPick = c.isPick(c.pre)
		c.picked = nil
		return true
	}
	return false
}

// prefix moves the chooser to the beginning typed in notation ("place
// carp-assassin"), in any case, when legal actions begin with it: cut back
// to where a choice ends (the renderer's stops), so that "place" alone is
// the first step again. false when no legal action begins so.
func (c *chooser) prefix(typed []string) bool {
	var match *render.Act
	for i, a := range c.acts {
		if len(a.Tokens) >= len(typed) && slices.EqualFunc(a.Tokens[:len(typed)], typed, strings.EqualFold) {
			match = &c.acts[i]
			break
		}
	}
	if len(typed) == 0 || match == nil {
		return false
	}
	n := 0
	for _, s := range c.r.Stops(match.Tokens) {
		if s <= len(typed) {
			n = max(n, s)
		}
	}
	toks := match.Tokens[:n]
	if slices.Equal(toks, c.pre) {
		return true
	}
	c.hist = append(c.hist, c.pre)
	c.pre = toks
	c.inPick = c.isPick(toks)
	c.picked = nil
	return true
}

// menuForms are the choices, numbered, grouped under what choosing them
// does: with the second line of each (what a card does), one a line; side
// by side in columns; and in columns without their notation (for a redraw
// short of room). A choice's notation is left out where its label says it
// already ("7 7 X").
func menuForms(items []item) [][]string {
	if len(items) == 0 {
		return [][]string{nil}
	}
	numW := len(strconv.Itoa(slices.MaxFunc(items, func(a, b item) int { return a.num - b.num }).num))
	text := func(it item, notes bool) string {
		s := fmt.Sprintf("%*d. %s", numW, it.num, it.label)
		if notes && it.note != "" && !says(it.label, it.note) {
			s += " [" + it.note + "]"
		}
		return s
	}
	hang := strings.Repeat(" ", numW+2)
	var full, one, cols, bare []string
	var group, bareGroup []string // the texts of the current menu, for columns
	flush := func() {
		cols = append(cols, indentAll(columns(group))...)
		bare = append(bare, indentAll(columns(bareGroup))...)
		group, bareGroup = nil, nil
	}
	for i, it := range items {
		if i == 0 || it.menu != items[i-1].menu || it.menu == "" {
			flush()
			if it.menu != "" && it.placeholder != "" {
				head := wrap(heading(it.placeholder), termWidth, "  ")
				full, one = append(full, head...), append(one, head...)
				cols, bare = append(cols, head...), append(bare, head...)
			}
		}
		t := text(it, true)
		lines := indentAll(wrap(t, termWidth-2, hang))
		one = append(one, lines...)
		full = append(full, lines...)
		if it.desc != "" {
			full = append(full, indentAll(wrap(hang+it.desc, termWidth-2, hang))...)
		}
		group = append(group, t)
		bareGroup = append(bareGroup, text(it, false))
	}
	flush()
	return [][]string{full, one, cols, bare}
}

// says reports whether a label ends with the notation it would be shown
// with ("7 7 X" for "X"), word for word.
func says(label, note string) bool {
	l, n := strings.Fields(strings.ToLower(label)), strings.Fields(strings.ToLower(note))
	return len(n) <= len(l) && slices.Equal(l[len(l)-len(n):], n)
}

// heading is a placeholder as the line above its choices: with a colon,
// unless it ends with a sign of its own.
func heading(s string) string {
	if strings.HasSuffix(s, ":") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "…") {
		return s
	}
	return s + ":"
}

func indentAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, s := range lines {
		out[i] = "  " + s
	}
	return out
}

// columns lays texts out in as many columns as fit 78 columns (at most 3),
// read down then across; texts too wide for two columns stay one a line.
func columns(texts []string) []string {
	w := 0
	for _, t := range texts {
		w = max(w, width(t))
	}
	const room = termWidth - 2
	ncol := min(3, room/(w+2))
	if ncol < 2 || len(texts) < 4 {
		var out []string
		for _, t := range texts {
			out = append(out, wrap(t, room, "    ")...)
		}
		return out
	}
	rows := (len(texts) + ncol - 1) / ncol
	out := make([]string, rows)
	for r := range rows {
		var b strings.Builder
		for col := range ncol {
			i := col*rows + r
			if i >= len(texts) {
				break
			}
			t := texts[i]
			b.WriteString(t)
			if col < ncol-1 && (col+1)*rows+r < len(texts) {
				b.WriteString(strings.Repeat(" ", w+2-width(t)))
			}
		}
		out[r] = b.String()
	}
	return out
}
