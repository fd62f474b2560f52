package bot

// The composer: a table's screen (render.Screen) as Discord messages in
// Components V2 — the public table message, a player's hand, the status
// and Watch answers — within Discord's limits. Parts give way in the order
// of their priority (docs/design.md, "Presentation"); a line is dropped
// whole, never cut, and who acts and the result never go.

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/picture"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/record"
)

// v2TextBudget is the most text the composer puts in one message's text
// displays: Discord allows maxV2Text in all; the composer keeps well under,
// so that no text reads as cut at the limit.
const v2TextBudget = maxV2Text - 200

// A line is one line of a text display.
type line struct {
	text string
	// drop orders the lines that may give way: the lowest goes first; 0
	// never goes.
	drop int
	// kind names what the line shows ("move"), to tell what gave way.
	kind string
	// head marks a heading ("Last moves:"): it goes once nothing else of
	// its block is left.
	head bool
}

// A part is one piece of a Components V2 message: a text display (lines)
// or another component (a media gallery, a row of buttons).
type part struct {
	lines []line
	comp  discordgo.MessageComponent
}

// textSize is the text the parts' displays hold, in characters.
func textSize(parts []part) int {
	n := 0
	for _, p := range parts {
		k := 0
		for _, l := range p.lines {
			n += utf8.RuneCountInString(l.text)
			k++
		}
		if k > 1 {
			n += k - 1 // the line breaks
		}
	}
	return n
}

// fitParts drops lines until the text displays hold at most budget
// characters: the line of the lowest drop first, a heading once its block
// holds nothing else. When what may not go is still too long, the longest
// lines are shortened at a word (clip). It returns the kinds of the lines
// that were dropped.
func fitParts(parts []part, budget int) map[string]bool {
	dropped := map[string]bool{}
	for textSize(parts) > budget {
		bi, li := -1, -1
		for i, p := range parts {
			for j, l := range p.lines {
				if l.drop > 0 && !l.head && (bi < 0 || l.drop < parts[bi].lines[li].drop) {
					bi, li = i, j
				}
			}
		}
		if bi < 0 {
			break
		}
		dropped[parts[bi].lines[li].kind] = true
		parts[bi].lines = slices.Delete(parts[bi].lines, li, li+1)
		if !slices.ContainsFunc(parts[bi].lines, func(l line) bool { return !l.head }) {
			parts[bi].lines = nil
		}
	}
	for over := textSize(parts) - budget; over > 0; over = textSize(parts) - budget {
		bi, li, longest := -1, -1, 0
		for i, p := range parts {
			for j, l := range p.lines {
				if n := utf8.RuneCountInString(l.text); n > longest {
					bi, li, longest = i, j, n
				}
			}
		}
		if longest <= 40 {
			break // nothing sensible left to shorten
		}
		parts[bi].lines[li].text = clip(parts[bi].lines[li].text, max(40, longest-over))
	}
	return dropped
}

// components lays the parts out: a text display per part with lines, the
// other components as they are.
func components(parts []part) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, p := range parts {
		switch {
		case p.comp != nil:
			out = append(out, p.comp)
		case len(p.lines) > 0:
			texts := make([]string, len(p.lines))
			for i, l := range p.lines {
				texts[i] = l.text
			}
			if t := strings.Join(texts, "\n"); strings.TrimSpace(t) != "" {
				out = append(out, discordgo.TextDisplay{Content: t})
			}
		}
	}
	return out
}

// countComponents counts components as Discord does: every one, nested
// ones included.
func countComponents(cs []discordgo.MessageComponent) int {
	n := 0
	for _, c := range cs {
		n++
		switch c := c.(type) {
		case discordgo.ActionsRow:
			n += len(c.Components)
		case *discordgo.ActionsRow:
			n += len(c.Components)
		case discordgo.Container:
			n += countComponents(c.Components)
		case discordgo.Section:
			n += countComponents(c.Components) + 1
		}
	}
	return n
}

// gallery is a media gallery of one picture, with its description.
func gallery(name, alt string) discordgo.MessageComponent {
	alt = clip(alt, maxMediaDescription)
	item := discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + name}}
	if alt != "" {
		item.Description = &alt
	}
	return discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{item}}
}

// ruleLine is a round card's rule on one line: its name in bold, then the
// short form.
func ruleLine(r *render.Rule) string {
	switch {
	case r.Name == "":
		return r.Short
	case r.Short == "":
		return "**" + r.Name + "**"
	}
	return "**" + r.Name + "**: " + r.Short
}

// turnLine says who must act: the human seats mentioned (once each), or
// named when mention is false, and the AI seats named.
func turnLine(l *locales.Localizer, rec table.Record, nm render.Names, acting []engine.Seat, mention bool) string {
	if !mention {
		if len(acting) == 0 {
			return ""
		}
		return l.T("ui.waiting", map[string]any{"Names": nm.List(acting)})
	}
	var people []string
	var ai []engine.Seat
	for _, s := range acting {
		if ms := mentions(rec, []engine.Seat{s}); len(ms) > 0 {
			for _, m := range ms {
				if !slices.Contains(people, m) {
					people = append(people, m)
				}
			}
		} else {
			ai = append(ai, s)
		}
	}
	var out []string
	switch len(people) {
	case 0:
	case 1:
		out = append(out, l.T("bot.turn_you", map[string]any{"Names": people[0]}))
	default:
		out = append(out, l.T("bot.turn_you_all", map[string]any{"Names": strings.Join(people, " ")}))
	}
	if len(ai) > 0 {
		out = append(out, l.T("ui.waiting", map[string]any{"Names": nm.List(ai)}))
	}
	return strings.Join(out, " · ")
}

// screenOpts says what a composed screen of a table is for.
type screenOpts struct {
	l *locales.Localizer
	// table: the public table message (who acts mentioned, the last
	// moves, the buttons); else an answer to one reader (who acts named).
	table bool
	// note is a first line.
	note   string
	dls    []record.Deadline
	recent []engine.Event
	// pictures draws the table's picture.
	pictures bool
}

// composeScreen is a table being played, over or abandoned as everyone may
// see it, as a Components V2 message: who acts, the table's picture, a
// short status (the game, the table, the title, the round card's rule, the
// result, the deadlines; without a picture also the centre, the seats and
// the status lines in words), the last moves and the buttons. The last
// moves give way first, then the status lines, the seats, the centre and
// the rule; when moves gave way, a History button shows them.
func (b *Bot) composeScreen(snap *table.Snapshot, o screenOpts) message {
	rec := snap.Record
	l := o.l
	nm := names(l, rec)
	var sc render.Screen
	haveScreen := false
	if snap.State != nil && rec.Status != table.StatusAbandoned {
		sc, haveScreen = render.ScreenOf(rec.Setup.Game, l, snap.State.View(engine.Spectator), nm, nil)
	}
	rank := 0
	next := func() int { rank++; return rank }

	var first []line
	if o.note != "" {
		first = append(first, line{text: o.note})
	}
	switch rec.Status {
	case table.StatusPlaying:
		if t := turnLine(l, rec, nm, snap.State.Acting(), o.table); t != "" {
			first = append(first, line{text: t})
		}
	case table.StatusFinished:
		first = append(first, line{text: "**" + endHeadline(l, sc) + "**"})
	case table.StatusAbandoned:
		first = append(first, line{text: "**" + l.T("bot.abandoned", nil) + "**"})
	}

	// The last moves: the oldest give way first.
	var moves []line
	if r, ok := render.For(rec.Setup.Game); ok && o.table && rec.Status != table.StatusAbandoned {
		for _, e := range o.recent {
			if t := r.Event(l, e, nm); t != "" {
				moves = append(moves, line{text: "· " + t, drop: next(), kind: "move"})
			}
		}
	}
	if len(moves) > 0 {
		moves = append([]line{{text: l.T("bot.last_moves", nil), head: true, kind: "move"}}, moves...)
	}

	// The status: the game and the table with the title, the result, the
	// rule, the centre and the seats (in words when there is no picture),
	// the status lines, the deadlines.
	pic := o.pictures && haveScreen
	head := header(l, rec)
	if sc.Title != "" {
		head += " · " + sc.Title
	}
	status := []line{{text: head}}
	for _, r := range endLines(rec, sc) {
		status = append(status, line{text: literal(r)})
	}
	var rule, center, seats, extra []line
	if sc.Rule != nil && (sc.Rule.Name != "" || sc.Rule.Short != "") {
		rule = append(rule, line{text: ruleLine(sc.Rule), kind: "rule"})
	}
	if !pic {
		for _, p := range sc.Center {
			center = append(center, line{text: p.Line(), kind: "center"})
		}
	}
	// The seats in words, with a picture too: the picture shows a seat's
	// name and counts only (a chat shows it too small for a seat's cards).
	for _, s := range sc.Seats {
		t := s.Line
		if t == "" {
			t = s.Name + ": " + strings.Join(s.Counts, " · ")
		}
		seats = append(seats, line{text: t, kind: "seat"})
	}
	// The totals so far in one line: the picture of a game in play leaves
	// out the chart of the rounds.
	if pic && len(sc.Result) == 0 {
		if t := totalsLine(l, sc); t != "" {
			status = append(status, line{text: t})
		}
	}
	// The status lines are words, with a picture too: in a picture they
	// would be drawn at a size no one reads once a chat has scaled it
	// down. What the acting seats are doing is the first line's and the
	// last moves' to say; the latest plays are said by the last moves
	// where they are listed.
	for _, s := range sc.Status {
		extra = append(extra, line{text: s, kind: "status"})
	}
	if len(moves) == 0 {
		for _, s := range sc.Recent {
			extra = append(extra, line{text: s, kind: "status"})
		}
	}
	// Ranks after the moves': status lines, seats, centre (each from the
	// last), the rule.
	for _, group := range [][]line{extra, seats, center, rule} {
		for i := len(group) - 1; i >= 0; i-- {
			group[i].drop = next()
		}
	}
	status = append(append(append(append(status, rule...), center...), seats...), extra...)
	if rec.Status == table.StatusPlaying {
		for _, d := range deadlineLines(l, nm, o.dls) {
			status = append(status, line{text: d})
		}
	}

	parts := []part{{lines: first}}
	var job *pictureJob
	if pic {
		// The picture holds no status lines: they are in the text.
		drawn := sc
		drawn.Doing, drawn.Status, drawn.Recent = nil, nil, nil
		if len(drawn.Result) == 0 {
			drawn.Chart = nil // the totals line says it
		}
		job = newPictureJob("table", drawn, picture.TableSplitAlt(drawn), false)
		for _, g := range job.galleries() {
			parts = append(parts, part{comp: g})
		}
	}
	parts = append(parts, part{lines: status}, part{lines: moves})
	dropped := fitParts(parts, v2TextBudget)

	if o.table && rec.Status == table.StatusFinished {
		parts = append(parts, part{comp: discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: clip(l.T("bot.button.rematch", nil), maxButtonLabel), Style: discordgo.SuccessButton, CustomID: rematchID(rec.ID)},
		}}})
	}
	if o.table && rec.Status == table.StatusPlaying {
		row := []discordgo.MessageComponent{
			discordgo.Button{Label: clip(l.T("bot.button.hand", nil), maxButtonLabel), Style: discordgo.PrimaryButton, CustomID: handAtID(rec.ID, snap.Version)},
			discordgo.Button{Label: clip(l.T("async.button.watch", nil), maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: watchID(rec.ID)},
		}
		if sc.Rule != nil && sc.Rule.Full != "" {
			row = append(row, discordgo.Button{Label: clip(l.T("bot.button.rule", nil), maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: ruleID(rec.ID)})
		}
		if dropped["move"] {
			row = append(row, discordgo.Button{Label: clip(l.T("bot.button.history", nil), maxButtonLabel), Style: discordgo.SecondaryButton, CustomID: historyID(rec.ID)})
		}
		parts = append(parts, part{comp: discordgo.ActionsRow{Components: row}})
	}
	m := message{v2: true, components: components(parts), pic: job}
	if job != nil {
		o.pictures = false
		m.plain = func() message { return b.composeScreen(snap, o) }
	}
	return m
}

// signedNumber is n as the messages write it: a negative one with the minus
// sign (−3), as locales does.
func signedNumber(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

// totalsLine is the scoreboard in one line ("Totals so far: Ala 3 · Bob
// 8"): the chart's last totals, else the seats' scores so far; "" when
// the game keeps none yet.
func totalsLine(l *locales.Localizer, sc render.Screen) string {
	var out []string
	if ch := sc.Chart; ch != nil && len(ch.Rounds) > 0 {
		last := ch.Rounds[len(ch.Rounds)-1]
		for i, name := range ch.Names {
			if i < len(last) {
				out = append(out, name+" "+signedNumber(last[i]))
			}
		}
	} else {
		for _, s := range sc.Seats {
			if s.Score != nil {
				out = append(out, s.Name+" "+signedNumber(*s.Score))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return l.T("bot.totals", map[string]any{"List": strings.Join(out, " · ")})
}

// composeHand is a seat's own message, as a Components V2 message: a note
// (what the seat just did) first, then what the seat must do now or whom
// the table waits for, a picture of its hand, its secret cards in words,
// and the controls for exactly what it may do now (engine.AnyLegal): its
// legal actions when it must act, else its optional ones. Nothing of the
// public table is repeated: the table message shows it. stage carries a
// partly made choice (the left card of a two-way pass).
func (b *Bot) composeHand(l *locales.Localizer, snap *table.Snapshot, seat engine.Seat, note, stage string, pictures bool) message {
	rec := snap.Record
	v := snap.State.View(seat)
	nm := names(l, rec)
	r, _ := render.For(rec.Setup.Game)
	playing := rec.Status == table.StatusPlaying
	var legal []engine.Action // what the seat may do now, the acting seat's or its optional actions
	if playing {
		legal = engine.AnyLegal(snap.State, seat)
	}
	// Midway through a choice (a card chosen, where it goes next), the
	// screen marks what was chosen: the actions that follow it.
	sc, haveScreen := render.ScreenParts(rec.Setup.Game, render.PrivateParts, l, v, nm, underPrefix(legal, stage))

	var top []line
	if note != "" {
		top = append(top, line{text: note})
	}
	var rows []discordgo.MessageComponent
	controls := func(legal []engine.Action) {
		var extra string
		rows, extra = b.controls(l, r, snap, seat, v, legal, stage)
		if extra != "" {
			top = append(top, line{text: extra})
		}
	}
	switch {
	case rec.Status == table.StatusFinished:
		// The headline, then the seat's own place, both in bold: what a
		// player looks for first in their answer.
		top = append(top, line{text: "**" + endHeadline(l, sc) + "**"})
		for i, res := range endLines(rec, sc) {
			if i == 0 && sc.Viewer >= 0 && len(sc.Result) > 1 {
				res = "**" + res + "**"
			} else {
				res = literal(res)
			}
			top = append(top, line{text: res})
		}
	case rec.Status == table.StatusAbandoned:
		top = append(top, line{text: "**" + l.T("bot.abandoned", nil) + "**"})
	case engine.IsActing(snap.State, seat):
		prompt := l.T("bot.your_move", nil)
		if haveScreen && sc.Prompt != "" {
			prompt = "**" + strings.TrimSpace(sc.Prompt) + "**"
		}
		top = append(top, line{text: prompt})
		controls(legal)
	default:
		top = append(top, line{text: l.T("ui.waiting", map[string]any{"Names": nm.List(snap.State.Acting())})})
		// A seat that need not act may still have optional actions (Rebel
		// Princess: announcing a power in advance).
		if len(legal) > 0 {
			top = append(top, line{text: l.T("ui.optional.hand", nil)})
			controls(legal)
		}
	}

	pic := pictures && playing && haveScreen && (sc.Hand != nil || len(sc.Secret) > 0)
	var cards []line
	if haveScreen && playing {
		if sc.Hand != nil && !pic {
			cards = append(cards, line{text: sc.Hand.Line(), kind: "hand"})
		}
		for _, p := range sc.Secret {
			cards = append(cards, line{text: p.Line(), kind: "secret"})
		}
		for i := len(cards) - 1; i >= 0; i-- {
			cards[i].drop = len(cards) - i
		}
	}

	parts := []part{{lines: top}}
	var job *pictureJob
	if pic {
		// What the hand's picture shows, and nothing else: the same hand
		// is drawn once (pictures.hands) for each set of marked cards (a
		// step of a choice marks the card chosen; the prompt above says
		// it in words).
		hs := render.Screen{Game: sc.Game, Viewer: sc.Viewer, Hand: sc.Hand, Secret: sc.Secret}
		job = newPictureJob("hand", hs, []string{picture.HandAlt(hs)}, true)
		parts = append(parts, part{comp: job.galleries()[0]})
	}
	parts = append(parts, part{lines: cards})
	fitParts(parts, v2TextBudget)
	cs := components(parts)
	if countComponents(cs)+countComponents(rows) > maxV2Components && job != nil {
		// The controls come first: the picture gives way to them.
		return b.composeHand(l, snap, seat, note, stage, false)
	}
	m := message{v2: true, components: append(cs, rows...), pic: job}
	if job != nil {
		m.plain = func() message { return b.composeHand(l, snap, seat, note, stage, false) }
	}
	return m
}

// key is what a message shows, to tell whether an edit would change it:
// its text, its components and the screen its picture is drawn from.
func (m message) key() string {
	if m.pic != nil && !m.pic.keyed {
		return "" // never equal to what was shown: the edit goes out
	}
	// A picture's file name, in the components, is the hash of what it
	// shows (newPictureJob).
	return m.content + "\x00" + componentKey(m.comps())
}

// v2Text is the text of a message's text displays, one per line.
func v2Text(cs []discordgo.MessageComponent) string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, c.Content)
		case discordgo.Container:
			if t := v2Text(c.Components); t != "" {
				out = append(out, t)
			}
		case discordgo.Section:
			if t := v2Text(c.Components); t != "" {
				out = append(out, t)
			}
		}
	}
	return strings.Join(out, "\n")
}

func ruleID(id string) string { return "rule/" + id }

func historyID(id string) string { return "hist/" + id }

// fitText fits a text to n characters by lines: whole lines from the end
// give way, and a first line too long alone is shortened at a word.
func fitText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	lines := strings.Split(s, "\n")
	size := utf8.RuneCountInString(s)
	for len(lines) > 1 && size > n {
		size -= utf8.RuneCountInString(lines[len(lines)-1]) + 1
		lines = lines[:len(lines)-1]
	}
	if size > n {
		return clip(lines[0], n)
	}
	return strings.Join(lines, "\n")
}

// showRule answers "Round card": the round card in play at a table, its
// name and its whole text, in the reader's language.
func (b *Bot) showRule(ctx context.Context, r *reply, u user, id string) {
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	var rule *render.Rule
	if snap.State != nil {
		if sc, ok := render.ScreenOf(snap.Record.Setup.Game, u.l, snap.State.View(engine.Spectator), names(u.l, snap.Record), nil); ok {
			rule = sc.Rule
		}
	}
	if rule == nil || rule.Full == "" {
		r.send(ctx, message{content: u.l.T("bot.no_rule", nil)})
		return
	}
	text := rule.Full
	if rule.Name != "" {
		text = "**" + rule.Name + "**\n" + text
	}
	r.send(ctx, message{content: text})
}

// underPrefix are the actions of legal that begin with the words of prefix
// (the part of a choice made so far); all of legal when none does (no
// choice begun, or a stage that is not a beginning of actions: a pick's
// first cards).
func underPrefix(legal []engine.Action, prefix string) []engine.Action {
	pre := strings.Fields(prefix)
	if len(pre) == 0 {
		return legal
	}
	var out []engine.Action
	for _, a := range legal {
		if f := strings.Fields(a.String()); len(f) >= len(pre) && slices.Equal(f[:len(pre)], pre) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return legal
	}
	return out
}

// endHeadline is the first line of a finished table: the screen's winner
// headline, or "This game is over." without a screen.
func endHeadline(l *locales.Localizer, sc render.Screen) string {
	if len(sc.Result) > 0 {
		return render.Trophy + sc.Result[0]
	}
	return l.T("bot.finished", nil)
}

// endLines are the result's lines after its headline.
func endLines(rec table.Record, sc render.Screen) []string {
	if rec.Status != table.StatusFinished || len(sc.Result) == 0 {
		return sc.Result
	}
	return sc.Result[1:]
}

// literal is a line shown as written: a place at its start ("2. Ala",
// "2nd Ala") is set in bold, so that "2. " is not read as a numbered
// list, which Discord would number anew (1, 2, 3 for a shared 1, 1, 3).
func literal(s string) string {
	if m := placeAtStart.FindStringSubmatch(s); m != nil {
		return "**" + m[1] + "**" + s[len(m[1]):]
	}
	return s
}

// placeAtStart is a place at a line's start, as render.Place writes it.
var placeAtStart = regexp.MustCompile(`^([0-9]+(?:\.|st|nd|rd|th)) `)

func rematchID(id string) string { return "again/" + id }
