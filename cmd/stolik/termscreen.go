package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// The terminal's screen: 80 columns by 24 lines. A redraw (everything
// printed between two answers of the player) fits it.
const (
	termWidth  = 80
	termHeight = 24
)

// width is a text's display width: its runes (the locale files hold no
// double-width or combining characters).
func width(s string) int { return utf8.RuneCountInString(s) }

// wrap breaks a text into lines of at most w runes at word boundaries,
// indenting every line but the first with indent. A word longer than a line
// is broken where it must be; line breaks in the text are kept.
func wrap(s string, w int, indent string) []string {
	var out []string
	for i, para := range strings.Split(s, "\n") {
		if i > 0 && para != "" {
			para = indent + para
		}
		out = append(out, wrapLine(para, w, indent)...)
	}
	return out
}

func wrapLine(s string, w int, indent string) []string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if width(s) <= w {
		return []string{s}
	}
	// Keep the text's own leading spaces on the first line.
	lead := s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))]
	words := strings.Fields(s)
	var out []string
	cur, curW := lead, width(lead)
	start := true // cur holds no word yet
	flush := func() {
		out = append(out, cur)
		cur, curW, start = indent, width(indent), true
	}
	for _, word := range words {
		ww := width(word)
		sep := 1
		if start {
			sep = 0
		}
		if curW+sep+ww <= w {
			if !start {
				cur += " "
			}
			cur += word
			curW += sep + ww
			start = false
			continue
		}
		if !start {
			flush()
		}
		// A word longer than a whole line: break it.
		for width(cur)+ww > w {
			room := max(w-width(cur), 1)
			r := []rune(word)
			out = append(out, cur+string(r[:room]))
			word = string(r[room:])
			ww = width(word)
			cur, curW = indent, width(indent)
		}
		cur += word
		curW += ww
		start = false
	}
	if !start || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// cardText is a card as the terminal shows it: its name, its note, and its
// notation code in brackets when the name is not the code itself
// ("Queen 7 [Q7]", "Carp (guard) [carp-guard]", "4").
func cardText(c render.Card, n int) string {
	if c.Down {
		name := c.Name
		if name == "" {
			name = "?"
		}
		if n > 1 {
			name += fmt.Sprintf("×%d", n)
		}
		return name
	}
	name := c.Name
	if c.Note != "" {
		name += " (" + c.Note + ")"
	}
	if n > 1 {
		name += fmt.Sprintf("×%d", n)
	}
	if c.Code != "" && !strings.EqualFold(c.Code, c.Name) {
		name += " [" + c.Code + "]"
	}
	if c.Mark {
		name += "*"
	}
	return name
}

// cardsText lists cards, copies side by side counted ("5×3"); marks show
// the cards the reader may play only when some may not be played.
func cardsText(cs []render.Card, sep string, codes bool) string {
	marked := 0
	for _, c := range cs {
		if c.Mark {
			marked++
		}
	}
	var parts []string
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && cs[j] == cs[i] {
			j++
		}
		c := cs[i]
		if marked == len(cs) {
			c.Mark = false
		}
		if !codes {
			c.Code = ""
		}
		parts = append(parts, cardText(c, j-i))
		i = j
	}
	return strings.Join(parts, sep)
}

// handLines is the reader's hand with every card's code: "Your hand: Queen
// 7 [Q7], …"; with codes false, the codes only when they are shorter.
func handLines(l *locales.Localizer, h *render.Pile, short bool) []string {
	if h == nil {
		return nil
	}
	marks := 0
	for _, c := range h.Cards {
		if c.Mark {
			marks++
		}
	}
	label := h.Label
	if marks > 0 && marks < len(h.Cards) {
		label = l.T("term.hand_marked", map[string]any{"Name": label})
	}
	var text string
	switch {
	case len(h.Cards) == 0 && h.Text != "":
		text = h.Text
	case len(h.Cards) == 0:
		text = l.T("term.no_cards", nil)
	case short:
		cs := make([]render.Card, len(h.Cards))
		for i, c := range h.Cards {
			if c.Code != "" {
				c.Name, c.Note = c.Code, ""
			}
			cs[i] = c
		}
		text = cardsText(cs, " ", false)
	default:
		text = cardsText(h.Cards, ", ", true)
	}
	return wrap(label+": "+text, termWidth, "  ")
}

// named reports whether a pile's text names the pile already ("Pool: 4 ·
// 5", "Your white mission: …"), so that its label need not be put before
// it: a word of the label (of 4 letters or more; its first 5 letters, for
// inflected forms) in the text's own heading, before its first colon.
func named(label, text string) bool {
	head, _, ok := strings.Cut(strings.ToLower(text), ":")
	if !ok {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(label)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		r := []rune(w)
		if len(r) < 4 {
			continue
		}
		if len(r) > 5 {
			r = r[:5]
		}
		if strings.Contains(head, string(r)) {
			return true
		}
	}
	return false
}

// pileText is a pile as one text: its words, after its label when they do
// not name it.
func pileText(p render.Pile) string {
	text := p.Text
	if text == "" {
		text = cardsText(p.Cards, " · ", false)
	}
	if p.Label != "" && !named(p.Label, text) {
		return p.Label + ": " + text
	}
	return text
}

// sameWords reports whether the first of lines says what line says
// ("Play a card" over "Play a card:"), which then is not shown twice.
func sameWords(line string, lines []string) bool {
	if len(lines) == 0 {
		return false
	}
	trim := func(s string) string { return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ".:!")) }
	return trim(line) == trim(lines[0])
}

// pilesShort is a seat's piles in short ("Hares ×3 · Toads ×1"); empty
// when a pile with cards has no short form.
func pilesShort(ps []render.Pile) string {
	var out []string
	for _, p := range ps {
		if emptyPile(p) {
			continue
		}
		if p.Short == "" {
			return ""
		}
		out = append(out, p.Short)
	}
	return strings.Join(out, " · ")
}

// hasCards reports whether cards lie in front of a seat (a Lynx display, a
// Courtisans domain).
func hasCards(s render.SeatPart) bool {
	for _, p := range s.Piles {
		if !emptyPile(p) {
			return true
		}
	}
	return false
}

// emptyPile reports a pile without a card.
func emptyPile(p render.Pile) bool { return len(p.Cards) == 0 && p.Count == 0 }

// pack puts texts side by side, separated by sep, as many as fit a line;
// a text is never broken unless it is longer than a line.
func pack(texts []string, sep string) []string {
	var out []string
	cur := ""
	for _, s := range texts {
		switch {
		case cur == "":
			cur = s
		case width(cur)+width(sep)+width(s) <= termWidth:
			cur += sep + s
		default:
			out = append(out, wrap(cur, termWidth, "  ")...)
			cur = s
		}
	}
	if cur != "" {
		out = append(out, wrap(cur, termWidth, "  ")...)
	}
	return out
}

// chartLines draws a chart as a table: one row per round, one column per
// seat. The reader's own column bears the screen's word for the reader
// ("You"), shorter than the seat's name.
func chartLines(l *locales.Localizer, c *render.Chart, seats []render.SeatPart) []string {
	if c == nil || len(c.Rounds) == 0 {
		return nil
	}
	names := slices.Clone(c.Names)
	for _, s := range seats {
		if head, _, ok := strings.Cut(s.Line, ": "); ok && s.You && int(s.Seat) < len(names) && names[s.Seat] == s.Name {
			names[s.Seat] = head
		}
	}
	labels := make([]string, len(c.Rounds))
	lw := 0
	for r := range c.Rounds {
		labels[r] = l.T("term.chart_round", map[string]any{"N": r + 1})
		lw = max(lw, width(labels[r]))
	}
	col := 3
	for _, n := range names {
		col = max(col, width(n))
	}
	col = min(col, max(3, (termWidth-lw)/max(1, len(names))-2))
	for i, n := range names {
		if r := []rune(n); len(r) > col {
			names[i] = string(r[:col-1]) + "…"
		}
	}
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-width(s))) + s }
	out := wrap(c.Title, termWidth, "  ")
	head := strings.Repeat(" ", lw)
	for _, n := range names {
		head += "  " + pad(n, col)
	}
	out = append(out, head)
	for r, row := range c.Rounds {
		line := pad(labels[r], lw)
		for _, v := range row {
			line += "  " + pad(fmt.Sprint(v), col)
		}
		out = append(out, line)
	}
	return out
}

// A frame is what one redraw shows: the events since the reader's last
// move, the screen, what was chosen so far of the current decision and the
// numbered choices.
type frame struct {
	events []shown       // what happened since the reader's last move
	sc     render.Screen // the reader's screen
	ok     bool          // sc was built (the game has a screen builder)
	lines  []string      // without a screen: the game's public and private lines
	step   []string      // the decision so far and what to choose next
	menu   [][]string    // the numbered choices: one a line, in columns
	msg    []string      // a message about the last answer
	room   int           // lines the frame may take
	l      *locales.Localizer
	final  bool // the game is over: the result and the chart
}

// block is one part of a redraw and its forms, fullest first; the last
// form is usually empty (the part dropped).
type block struct {
	forms [][]string
	cur   int
}

func (b *block) lines() []string { return b.forms[b.cur] }

// to makes the block take its form n (when it has one and is not shorter
// already); false when nothing changed.
func (b *block) to(n int) bool {
	if n >= len(b.forms) || n <= b.cur {
		return false
	}
	b.cur = n
	return true
}

// The parts of a redraw, in the order they are shown.
const (
	bMsg = iota
	bEvents
	bTitle
	bCenter
	bSeats
	bStatus
	bSecret
	bHand
	bResult
	bChart
	bPrompt
	bStep
	bMenu
	nBlocks
)

// render lays a frame out in at most f.room lines of at most 80 columns:
// every part at its fullest, then, while it does not fit, parts shortened
// or dropped in the order of their priority (the screen model's: status,
// the seats, the table, the rule, the title and secret cards go before the
// hand; the result, the prompt and the choices are never dropped).
func (f frame) render() []string {
	l := f.l
	sc := f.sc
	blocks := make([]block, nBlocks)
	one := func(lines []string) [][]string { return [][]string{lines, nil} }
	for i := range blocks {
		blocks[i].forms = [][]string{nil}
	}
	blocks[bMsg].forms = [][]string{wrapAll(f.msg)}
	var ev map[string]int
	blocks[bEvents].forms, ev = eventForms(l, f.events)
	// A line that says what the next one says is shown once: the prompt,
	// the step and the choices' heading may each read "Play a card".
	asked := f.step
	if len(asked) > 0 && len(f.menu) > 0 && len(f.menu[0]) > 0 && sameWords(asked[len(asked)-1], f.menu[0][:1]) {
		asked = asked[:len(asked)-1]
	}
	blocks[bStep].forms = [][]string{wrapAll(asked)}
	blocks[bMenu].forms = f.menu
	if len(f.menu) == 0 {
		blocks[bMenu].forms = [][]string{nil}
	}
	if !f.ok {
		blocks[bSeats].forms = one(wrapAll(f.lines))
		return fit(blocks, f.room, []step{{bMenu, 1}, {bMenu, 2}, {bEvents, 1}, {bEvents, ev["recent0"]}, {bSeats, 1}, {bEvents, ev["posted0"]}, {bMenu, 3}}, nil)
	}
	// The title and the round card's rule.
	var title [][]string
	if sc.Rule != nil && sc.Title != "" {
		title = append(title, wrap(sc.Title+" · "+sc.Rule.Name+": "+sc.Rule.Short, termWidth, "  "))
		title = append(title, wrap(sc.Title+" · "+sc.Rule.Name, termWidth, "  "))
	} else if sc.Rule != nil {
		title = append(title, wrap(sc.Rule.Name+": "+sc.Rule.Short, termWidth, "  "))
		title = append(title, wrap(sc.Rule.Name, termWidth, "  "))
	}
	if sc.Title != "" {
		title = append(title, wrap(sc.Title, termWidth, "  "))
	}
	// Four forms whatever the screen has (the title with the rule in short,
	// with the rule's name, alone, nothing), so that the steps below drop
	// the title last.
	if len(title) == 0 {
		title = [][]string{nil}
	}
	for len(title) < 3 {
		title = append([][]string{title[0]}, title...)
	}
	blocks[bTitle].forms = append(title, nil)
	// The table between the seats, its empty piles left out (the table
	// command shows them): a pile a line; piles side by side; nothing.
	var full, texts, shorts []string
	for _, p := range sc.Center {
		if emptyPile(p) {
			continue
		}
		t := pileText(p)
		full = append(full, wrap(t, termWidth, "  ")...)
		texts = append(texts, t)
		if p.Short != "" {
			shorts = append(shorts, p.Short)
		}
	}
	packed := pack(texts, "  ·  ")
	short := packed
	if len(shorts) > 0 {
		short = pack(shorts, " · ")
	}
	blocks[bCenter].forms = [][]string{full, packed, short, nil}
	// The seats: their whole lines; their cards without the counts; their
	// cards in short; their names and counts; nothing.
	var seats, cards, brief, counts []string
	for _, s := range sc.Seats {
		mark := "  "
		if s.Acting && !f.final {
			mark = "▸ "
		}
		line := s.Line
		if line == "" {
			line = s.Name + ": " + strings.Join(s.Counts, " · ")
		}
		seats = append(seats, wrap(mark+line, termWidth, "    ")...)
		name := s.Name
		if head, _, ok := strings.Cut(s.Line, ": "); ok && s.You {
			name = head // the screen's own word for the reader ("You")
		}
		count := wrap(mark+name+": "+strings.Join(s.Counts, " · "), termWidth, "    ")
		counts = append(counts, count...)
		bare, ok := strings.CutSuffix(line, " · "+strings.Join(s.Counts, " · "))
		if !ok || len(s.Counts) == 0 || !hasCards(s) {
			cards = append(cards, count...)
			brief = append(brief, count...)
			continue
		}
		cards = append(cards, wrap(mark+bare, termWidth, "    ")...)
		if short := pilesShort(s.Piles); short != "" {
			brief = append(brief, wrap(mark+name+": "+short, termWidth, "    ")...)
		} else {
			brief = append(brief, wrap(mark+bare, termWidth, "    ")...)
		}
	}
	if f.final {
		blocks[bSeats].forms = [][]string{counts, nil}
	} else {
		blocks[bSeats].forms = [][]string{seats, cards, brief, counts, nil}
	}
	blocks[bStatus].forms = one(wrapAll(sc.StatusLines()))
	// Secret cards: whole; their names only; nothing.
	var secret, names []string
	for _, p := range sc.Secret {
		secret = append(secret, wrap(pileText(p), termWidth, "  ")...)
		var ns []string
		for _, c := range p.Cards {
			if c.Name != "" {
				ns = append(ns, c.Name)
			}
		}
		if len(ns) > 0 {
			names = append(names, p.Label+": "+strings.Join(ns, ", "))
		} else {
			names = append(names, pileText(p))
		}
	}
	blocks[bSecret].forms = [][]string{secret, pack(names, "  ·  "), nil}
	if !f.final {
		blocks[bHand].forms = [][]string{handLines(l, sc.Hand, false), handLines(l, sc.Hand, true)}
	}
	blocks[bResult].forms = [][]string{wrapAll(sc.Result)}
	if f.final {
		blocks[bChart].forms = [][]string{chartLines(l, sc.Chart, sc.Seats), nil}
	}
	var heading []string
	if len(f.menu) > 0 {
		heading = f.menu[0]
	}
	if sc.Prompt != "" && !f.final && !sameWords(sc.Prompt, f.step) && !sameWords(sc.Prompt, heading) {
		blocks[bPrompt].forms = [][]string{wrap(sc.Prompt, termWidth, "  ")}
	}
	if f.final {
		// The end: the result and the chart before the rest.
		return fit(blocks, f.room, []step{
			{bStatus, 1},
			{bSecret, 2},
			{bCenter, 3},
			{bEvents, ev["recent3"]},
			{bSeats, 1},
			{bTitle, 3},
			{bEvents, ev["posted1"]},
			{bChart, 1},
			{bEvents, ev["posted0"]},
		}, nil)
	}
	// What the decision needs stays: the table between the seats (the
	// trick, the queen's table, the pool) at least side by side, and the
	// cards in front of the seats (Lynx's displays and their top layers,
	// Courtisans' domains) whole.
	// A game that gives its piles a short form keeps them at least in
	// short when nothing else fits.
	need, least := map[int]int{}, map[int]int{}
	if len(f.menu) > 0 {
		need[bCenter], least[bCenter] = 1, 2
		for _, s := range sc.Seats {
			if hasCards(s) {
				need[bSeats], least[bSeats] = 1, 2
			}
		}
	}
	return fit(blocks, f.room, []step{
		{bMenu, 1},
		{bStatus, 1},
		{bSecret, 1},
		{bMenu, 2},
		{bEvents, 1},
		{bSeats, 3},
		{bCenter, 1},
		{bTitle, 1},
		{bEvents, ev["recent6"]},
		{bSeats, 4},
		{bEvents, ev["recent0"]},
		{bEvents, ev["posted3"]},
		{bCenter, 3},
		{bHand, 1},
		{bTitle, 2},
		{bEvents, ev["posted1"]},
		{bTitle, 3},
		{bSecret, 2},
		{bEvents, ev["posted0"]},
		{bMenu, 3},
	}, need, least)
}

// A step shortens one part: block b takes its next forms, one after the
// other, up to its form n, while the blocks do not fit.
type step struct{ b, n int }

// fit lays the blocks out in room lines. It shortens them by steps, in
// order, while they take more than room lines, keeping every block of the
// first need at most at its form there (what the decision needs: the
// seats' displays when choosing a set, the queen's table when placing);
// only when even that does not fit are those shortened further, to the
// next need's forms (their short forms), and then without a cap. Then it
// grows back, in the reverse order, every part that fits again, so that no
// line is left empty while a part is shortened that the free lines would
// show.
func fit(blocks []block, room int, steps []step, needs ...map[int]int) []string {
	total := func() int {
		n := 0
		for i := range blocks {
			n += len(blocks[i].lines())
		}
		return n
	}
	shrink := func(need map[int]int) {
		for _, s := range steps {
			b := &blocks[s.b]
			n := s.n
			if most, ok := need[s.b]; ok {
				n = min(n, most)
			}
			for total() > room && b.cur < n {
				if !b.to(b.cur + 1) {
					break
				}
			}
		}
	}
	for _, need := range needs {
		shrink(need)
	}
	shrink(nil)
	// grow gives block b its fuller form before the current one while the
	// blocks still fit; down to form least.
	grow := func(b *block, least int) bool {
		grew := false
		for b.cur > least {
			was := b.cur
			b.cur--
			if total() > room {
				b.cur = was
				break
			}
			grew = true
		}
		return grew
	}
	for _, need := range needs {
		for b, most := range need {
			grow(&blocks[b], most)
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		least := 0
		for _, s := range steps[:i] {
			if s.b == steps[i].b {
				least = max(least, s.n)
			}
		}
		grow(&blocks[steps[i].b], least)
	}
	for again := true; again; {
		again = false
		for _, s := range steps {
			again = grow(&blocks[s.b], 0) || again
		}
	}
	var out []string
	for i := range blocks {
		out = append(out, blocks[i].lines()...)
	}
	return out
}

// A shown event: its words and where the game shows it (render.Where):
// results are kept when a redraw is short of room, the moves any table
// shows go first.
type shown struct {
	text  string
	where render.Where
}

// eventForms are the forms of the events since the reader's last move,
// one event fewer from one form to the next: all of them; without those the
// table shows anyway (render.Unshown); the results and fewer and fewer of
// the other events, the oldest first; fewer and fewer results; none. A
// line says how many more the log command shows. marks are the forms at
// which the other events are down to 6, 3, 1 and none, and the results to
// 3, 1 and none.
func eventForms(l *locales.Localizer, events []shown) (forms [][]string, marks map[string]int) {
	line := func(e string) []string { return wrap("» "+e, termWidth, "  ") }
	form := func(keep func(i int) bool) []string {
		var out []string
		left := 0
		for i, e := range events {
			if keep(i) {
				out = append(out, line(e.text)...)
			} else {
				left++
			}
		}
		if left == 0 {
			return out
		}
		return append(wrap(l.N("term.more_events", left, nil), termWidth, "  "), out...)
	}
	count := func(w render.Where) int {
		n := 0
		for _, e := range events {
			if e.where == w {
				n++
			}
		}
		return n
	}
	// lastOf keeps the last n events of where w, and the results too when
	// results is set.
	lastOf := func(n int, w render.Where, results bool) func(int) bool {
		return func(i int) bool {
			if events[i].where != w {
				return results && events[i].where == render.Posted
			}
			later := 0
			for _, e := range events[i+1:] {
				if e.where == w {
					later++
				}
			}
			return later < n
		}
	}
	marks = map[string]int{}
	forms = [][]string{form(func(int) bool { return true })}
	forms = append(forms, form(func(i int) bool { return events[i].where != render.Unshown }))
	for n := count(render.Recent) - 1; n >= 0; n-- {
		forms = append(forms, form(lastOf(n, render.Recent, true)))
		if n == 6 || n == 3 || n == 1 || n == 0 {
			marks[fmt.Sprint("recent", n)] = len(forms) - 1
		}
	}
	for n := count(render.Posted) - 1; n >= 0; n-- {
		forms = append(forms, form(lastOf(n, render.Posted, false)))
		if n == 3 || n == 1 || n == 0 {
			marks[fmt.Sprint("posted", n)] = len(forms) - 1
		}
	}
	// A mark the events never reach (there are fewer) is the form before.
	last := 1
	for _, k := range []string{"recent6", "recent3", "recent1", "recent0", "posted3", "posted1", "posted0"} {
		if i, ok := marks[k]; ok {
			last = i
		} else {
			marks[k] = last
		}
	}
	// A form that only trades an event for the line counting them gains
	// nothing: it keeps the fuller form before it.
	for i := 1; i < len(forms); i++ {
		if len(forms[i]) >= len(forms[i-1]) {
			forms[i] = forms[i-1]
		}
	}
	return forms, marks
}

func wrapAll(texts []string) []string {
	var out []string
	for _, t := range texts {
		out = append(out, wrap(t, termWidth, "  ")...)
	}
	return out
}

// tableLines is the whole screen, nothing left out: the table command and
// the replay's last state. Lines are wrapped to 80 columns; there is no
// limit on their number.
func tableLines(l *locales.Localizer, sc render.Screen) []string {
	var out []string
	add := func(lines ...string) {
		for _, s := range lines {
			out = append(out, wrap(s, termWidth, "  ")...)
		}
	}
	if sc.Title != "" {
		add(sc.Title)
	}
	if sc.Rule != nil {
		add(sc.Rule.Name + ": " + sc.Rule.Full)
	}
	for _, p := range sc.Center {
		add(pileText(p))
	}
	for _, s := range sc.Seats {
		mark := "  "
		if s.Acting {
			mark = "▸ "
		}
		line := s.Line
		if line == "" {
			line = s.Name + ": " + strings.Join(s.Counts, " · ")
		}
		out = append(out, wrap(mark+line, termWidth, "    ")...)
	}
	add(sc.StatusLines()...)
	for _, p := range sc.Secret {
		add(pileText(p))
	}
	out = append(out, handLines(l, sc.Hand, false)...)
	add(sc.Result...)
	out = append(out, chartLines(l, sc.Chart, sc.Seats)...)
	if sc.Prompt != "" {
		add(sc.Prompt)
	}
	return out
}
