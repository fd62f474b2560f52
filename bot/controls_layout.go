package bot

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// stepChoice is one control of a step: what it does (value: an action, or
// prefixMark and the beginning of several) and how it shows.
type stepChoice struct {
	render.Control
	value string
	toks  []string
	whole bool
	alt   string // the whole action in words, to tell it from another
}

// menu is the options of one select menu.
type menu struct {
	key, placeholder string
	options          []*stepChoice
}

// layout lays out the choices of a step: each render.Control.Menu as a
// select menu (or several, 25 options each), the rest as buttons, five to
// a row, then Back when the user has chosen something. Buttons that leave
// no room for the menus go into a menu of their own; what still does not
// fit in five rows is left out, and more() is added to extra. Every text
// is within its limit, and no two controls of the message, nor two
// options of a menu, show the same text.
func layout(l *locales.Localizer, id string, ver int, choices []stepChoice, back bool, extra *string, more func() string) []discordgo.MessageComponent {
	if len(choices) == 1 && choices[0].Menu != "" {
		// One thing to do: one tap, on a button that says what it does.
		c := &choices[0]
		c.Menu = ""
		if c.alt != "" && utf8.RuneCountInString(c.alt) <= maxButtonLabel {
			c.Label = c.alt
		}
	}
	cardsAsButtons(choices, back)
	if lines := detailLines(l, choices); len(lines) > 0 {
		*extra = strings.TrimSpace(*extra + "\n" + strings.Join(lines, "\n"))
	}
	var menus []*menu
	var buttons []*stepChoice
	find := func(key string) *menu {
		for _, m := range menus {
			if m.key == key {
				return m
			}
		}
		m := &menu{key: key}
		menus = append(menus, m)
		return m
	}
	for i := range choices {
		c := &choices[i]
		if c.Menu == "" {
			buttons = append(buttons, c)
			continue
		}
		m := find(c.Menu)
		if m.placeholder == "" {
			m.placeholder = c.Placeholder
		}
		m.options = append(m.options, c)
	}
	backN := 0
	if back {
		backN = 1
	}
	menuRows := func() int {
		n := 0
		for _, m := range menus {
			n += (len(m.options) + maxSelectItems - 1) / maxSelectItems
		}
		return n
	}
	if len(buttons) > 0 && menuRows()+(len(buttons)+backN+maxRowButtons-1)/maxRowButtons > maxRows {
		m := find("~buttons")
		m.options = append(m.options, buttons...)
		buttons = nil
	}
	rows := maxRows - (len(buttons)+backN+maxRowButtons-1)/maxRowButtons

	// The select menus, as many as fit.
	type sel struct {
		placeholder string
		options     []*stepChoice
	}
	var sels []sel
	cut := false
	for _, m := range menus {
		if m.placeholder == "" {
			m.placeholder = l.T("bot.choose_placeholder", nil)
		}
		parts := (len(m.options) + maxSelectItems - 1) / maxSelectItems
		for k := 0; k < parts; k++ {
			if len(sels) == rows {
				cut = true
				break
			}
			p := m.placeholder
			if parts > 1 {
				p = fitWords(p, maxPlaceholder-8) + " (" + strconv.Itoa(k+1) + "/" + strconv.Itoa(parts) + ")"
			}
			sels = append(sels, sel{p, m.options[k*maxSelectItems : min(len(m.options), (k+1)*maxSelectItems)]})
		}
	}
	if cut {
		*extra = strings.TrimSpace(*extra + "\n" + more())
	}

	// Texts within their limits, and distinct.
	for _, b := range buttons {
		b.Label = fitWords(b.Label, maxButtonLabel)
	}
	for i := range sels {
		sels[i].placeholder = fitWords(sels[i].placeholder, maxPlaceholder)
		opts := sels[i].options
		for _, o := range opts {
			o.Label = fitWords(o.Label, maxOptionText)
			o.Description = fitWords(o.Description, maxOptionText)
		}
		distinct(len(opts), func(k int) string { return opts[k].Label + "\x00" + opts[k].Description },
			func(k int) *string { return &opts[k].Label }, func(k int) string { return opts[k].alt }, maxOptionText)
	}
	// The faces of the controls: Back first (it keeps its text), then the
	// buttons and the menus' placeholders.
	backLabel := l.T("bot.button.back", nil)
	var faces []*string
	var alts []string
	var limits []int
	if back {
		faces, alts, limits = append(faces, &backLabel), append(alts, ""), append(limits, maxButtonLabel)
	}
	for _, b := range buttons {
		faces, alts, limits = append(faces, &b.Label), append(alts, b.alt), append(limits, maxButtonLabel)
	}
	for i := range sels {
		faces, alts, limits = append(faces, &sels[i].placeholder), append(alts, ""), append(limits, maxPlaceholder)
	}
	distinct(len(faces), func(k int) string { return *faces[k] }, func(k int) *string { return faces[k] },
		func(k int) string {
			if k == 0 && back {
				return "" // Back stays Back
			}
			return alts[k]
		}, 0, limits...)

	var out []discordgo.MessageComponent
	for k, s := range sels {
		opts := make([]discordgo.SelectMenuOption, len(s.options))
		for i, c := range s.options {
			opts[i] = discordgo.SelectMenuOption{Label: c.Label, Value: c.value, Description: c.Description}
		}
		out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: actionID(id, ver, "~sel"+strconv.Itoa(k)), Placeholder: s.placeholder,
			Options: opts, MinValues: ptr(1), MaxValues: 1,
		}}})
	}
	var row []discordgo.MessageComponent
	flush := func() {
		if len(row) > 0 {
			out = append(out, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	add := func(b discordgo.Button) {
		row = append(row, b)
		if len(row) == maxRowButtons {
			flush()
		}
	}
	for _, b := range buttons {
		add(discordgo.Button{Label: b.Label, Style: discordgo.SecondaryButton, CustomID: actionID(id, ver, b.value)})
	}
	if back {
		add(discordgo.Button{Label: backLabel, Style: discordgo.SecondaryButton, CustomID: actionID(id, ver, "~hand")})
	}
	flush()
	return out
}

// distinct makes the first n texts different from each other. Texts
// shown alike become their alternatives (alt: the whole action in words)
// when those tell them apart; what is still alike then gets a number. face
// gives what a text shows (with whatever shows with it: an option's
// description), "" for one that need not be told apart. limit bounds each
// text, or limits[k] the k-th.
func distinct(n int, face func(k int) string, text func(k int) *string, alt func(k int) string, limit int, limits ...int) {
	lim := func(k int) int {
		if k < len(limits) {
			return limits[k]
		}
		return limit
	}
	alike := func() [][]int {
		var order []string
		groups := map[string][]int{}
		for k := 0; k < n; k++ {
			f := face(k)
			if f == "" {
				continue
			}
			if _, ok := groups[f]; !ok {
				order = append(order, f)
			}
			groups[f] = append(groups[f], k)
		}
		var out [][]int
		for _, f := range order {
			if len(groups[f]) > 1 {
				out = append(out, groups[f])
			}
		}
		return out
	}
	shown := map[string]bool{}
	for k := 0; k < n; k++ {
		shown[*text(k)] = true
	}
	for _, g := range alike() {
		alts := make([]string, len(g))
		ok := true
		for i, k := range g {
			alts[i] = fitWords(alt(k), lim(k))
			ok = ok && alts[i] != "" && !shown[alts[i]] && !slices.Contains(alts[:i], alts[i])
		}
		if !ok {
			continue
		}
		for i, k := range g {
			*text(k) = alts[i]
			shown[alts[i]] = true
		}
	}
	for round := 0; round < 3; round++ {
		groups := alike()
		if len(groups) == 0 {
			return
		}
		for _, g := range groups {
			for i, k := range g[1:] {
				suffix := " (" + strconv.Itoa(i+2) + ")"
				*text(k) = fitWords(*text(k), lim(k)-len([]rune(suffix))) + suffix
			}
		}
	}
}

// fitWords keeps a text within n characters, as a safety net for texts
// that are meant to fit by construction: a longer one is cut at a word,
// with an ellipsis.
func fitWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	for i := len(r) - 1; i > n/2; i-- {
		if r[i] == ' ' {
			r = r[:i]
			break
		}
	}
	return strings.TrimRight(string(r), " ,;:·—-") + "…"
}

// cardsAsButtons makes the choices of a step buttons instead of a select
// menu wherever they fit (one tap instead of two): when they are the
// options of one menu alone and, with the other buttons and Back, fit the
// message's rows. What their descriptions said goes above the buttons
// (detailLines).
func cardsAsButtons(choices []stepChoice, back bool) {
	key, n := "", len(choices)
	if back {
		n++
	}
	if n > maxRows*maxRowButtons {
		return
	}
	for _, c := range choices {
		switch {
		case c.Menu == "":
		case key == "":
			key = c.Menu
		case c.Menu != key:
			return // two menus: their placeholders tell them apart
		}
	}
	for i := range choices {
		choices[i].Menu = ""
	}
}

// detailLines say what the choices do where their controls cannot: a
// button's description, and the whole text a description shortened
// (render.Control.Detail). Choices that do the same share one line
// ("Prince 6, Queen 7 — you may use your power with it").
func detailLines(l *locales.Localizer, choices []stepChoice) []string {
	var order []string
	labels := map[string][]string{}
	for _, c := range choices {
		text := c.Detail
		if text == "" && c.Menu == "" {
			text = c.Description
		}
		if text == "" {
			continue
		}
		if _, ok := labels[text]; !ok {
			order = append(order, text)
		}
		labels[text] = append(labels[text], c.Label)
	}
	out := make([]string, len(order))
	for i, text := range order {
		out[i] = l.T("bot.choice_detail", map[string]any{"List": strings.Join(labels[text], ", "), "Text": text})
	}
	return out
}
