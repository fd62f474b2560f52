package render

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stolik-bot/stolik/locales"
)

// RulesBase is the topic every game has: the summary of its rules (Rules).
const RulesBase = "base"

// RulesEntry is one item of a rules topic, a card or a princess power: what
// a reader may look it up by, and what they read.
type RulesEntry struct {
	ID    string   // the notation id (haggle, cinderella)
	Names []string // its names in the reader's language
	Text  string   // the entry as shown
}

// RulesTopics lists the topics of a game's rules: RulesBase first, then the
// game's own.
func RulesTopics(gameID string) []string {
	out := []string{RulesBase}
	if g, ok := games[gameID]; ok {
		out = append(out, g.RulesTopics()...)
	}
	return out
}

// RulesTopicKey is the locale key naming a topic: ui.rules.base for the
// summary, <game>.topic.<topic> for a game's own.
func RulesTopicKey(gameID, topic string) string {
	if topic == RulesBase {
		return "ui.rules.base"
	}
	return gameID + ".topic." + topic
}

func hasTopic(gameID, topic string) bool { return slices.Contains(RulesTopics(gameID), topic) }

// RulesTopicList names a game's topics, for a reader who asked for one the
// game does not have.
func RulesTopicList(l *locales.Localizer, gameID string) string {
	var parts []string
	for _, t := range RulesTopics(gameID) {
		parts = append(parts, l.T(RulesTopicKey(gameID, t), nil))
	}
	return strings.Join(parts, ", ")
}

// RulesPages renders one topic of a game's rules as pages of at most limit
// characters each (a Discord message holds 2000; the terminal passes a
// large limit to get one page). The summary is Rules' text, split between
// paragraphs only when it does not fit; any other topic is a header and
// its entries, each entry kept whole on one page. ok is false for a game
// or topic that does not exist.
func RulesPages(l *locales.Localizer, gameID, topic string, limit int) (pages []string, ok bool) {
	if _, known := games[gameID]; !known || !hasTopic(gameID, topic) {
		return nil, false
	}
	if topic == RulesBase {
		text := Rules(l, gameID)
		if utf8.RuneCountInString(text) <= limit {
			return []string{text}, true
		}
		return pack("", strings.Split(text, "\n\n"), limit), true
	}
	entries := games[gameID].RulesEntries(l, topic)
	texts := make([]string, len(entries))
	for i, e := range entries {
		texts[i] = e.Text
	}
	data := map[string]any{"Game": l.T("game."+gameID+".name", nil), "Topic": l.T(RulesTopicKey(gameID, topic), nil)}
	// Leave room for the longest page counter a header can get.
	data["N"], data["Total"] = "99", "99"
	head := l.T("ui.rules.header", data)
	pages = pack(head, texts, limit)
	if len(pages) == 1 {
		pages[0] = l.T("ui.rules.header_one", data) + pages[0][len(head):]
		return pages, true
	}
	for i := range pages {
		data["N"], data["Total"] = strconv.Itoa(i+1), strconv.Itoa(len(pages))
		pages[i] = l.T("ui.rules.header", data) + pages[i][len(head):]
	}
	return pages, true
}

// pack fills pages of at most limit characters with head followed by
// parts, joined by blank lines; a part longer than a page is clipped.
func pack(head string, parts []string, limit int) []string {
	var pages []string
	cur, n := head, utf8.RuneCountInString(head)
	for _, p := range parts {
		if p == "" {
			continue
		}
		sep := 0
		if cur != "" {
			sep = 2
		}
		pn := utf8.RuneCountInString(p)
		if n+sep+pn > limit && cur != head {
			pages = append(pages, cur)
			cur, n, sep = head, utf8.RuneCountInString(head), 0
			if head != "" {
				sep = 2
			}
		}
		if room := limit - n - sep; pn > room {
			p, pn = ClipRunes(p, room), room
		}
		if sep > 0 {
			cur += "\n\n"
		}
		cur += p
		n += sep + pn
	}
	if cur != head || len(pages) == 0 {
		pages = append(pages, cur)
	}
	return pages
}

func ClipRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// RulesLookup finds the cards and powers of a game named by query (their
// id or their name in the reader's language; exact matches first, else
// every entry whose id or name contains it) and renders them, each under
// the topics it appears in, within limit characters. ok is false when
// nothing matches.
func RulesLookup(l *locales.Localizer, gameID, query string, limit int) (text string, ok bool) {
	t, has := games[gameID]
	q := Fold(query)
	if !has || q == "" {
		return "", false
	}
	type hit struct {
		id     string
		name   string
		text   string
		topics []string
	}
	var exact, partial []*hit
	seen := map[string]*hit{} // by text: the same wording in two editions is shown once
	for _, topic := range t.RulesTopics() {
		for _, e := range t.RulesEntries(l, topic) {
			isExact, isPartial := Fold(e.ID) == q, strings.Contains(Fold(e.ID), q)
			for _, n := range e.Names {
				isExact = isExact || Fold(n) == q
				isPartial = isPartial || strings.Contains(Fold(n), q)
			}
			if !isPartial {
				continue
			}
			tn := l.T(RulesTopicKey(gameID, topic), nil)
			if h, dup := seen[e.Text]; dup {
				h.topics = append(h.topics, tn)
				continue
			}
			h := &hit{id: e.ID, name: e.ID, text: e.Text, topics: []string{tn}}
			if len(e.Names) > 0 {
				h.name = e.Names[0]
			}
			seen[e.Text] = h
			if isExact {
				exact = append(exact, h)
			} else {
				partial = append(partial, h)
			}
		}
	}
	hits := exact
	if len(hits) == 0 {
		hits = partial
	}
	if len(hits) == 0 {
		return "", false
	}
	// One card's editions side by side, in the order the cards were found.
	order := map[string]int{}
	for _, h := range hits {
		if _, ok := order[h.id]; !ok {
			order[h.id] = len(order)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return order[hits[i].id] < order[hits[j].id] })
	more := func(from int) string {
		if from >= len(hits) {
			return ""
		}
		var names []string
		for _, h := range hits[from:] {
			if !slices.Contains(names, h.name) {
				names = append(names, h.name)
			}
		}
		return "\n\n" + l.T("ui.rules.more", map[string]any{"List": strings.Join(names, ", ")})
	}
	var b strings.Builder
	for i, h := range hits {
		part := "*" + strings.Join(h.topics, " · ") + "*\n" + h.text
		if i == 0 {
			part = ClipRunes(part, limit)
		} else {
			part = "\n\n" + part
		}
		if i > 0 && utf8.RuneCountInString(b.String()+part+more(i+1)) > limit {
			if m := more(i); utf8.RuneCountInString(b.String()+m) <= limit {
				b.WriteString(m)
			}
			break
		}
		b.WriteString(part)
	}
	return b.String(), true
}

// Fold is the form in which names are compared: lower case, without
// surrounding spaces and quotes, typographic apostrophes made plain.
func Fold(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(s, "\"'«»„”“`")
	s = strings.NewReplacer("’", "'", "…", "", "...", "").Replace(s)
	return strings.TrimSpace(s)
}
