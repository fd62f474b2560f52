package chapters

import (
	"fmt"
	"strings"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
)

func init() { render.Register(Presenter{}) }

// Presenter is the game's presentation (render.Game); the embedded types
// say what the game has nothing for.
type Presenter struct {
	render.Plain
	render.NoPrefix
	render.NoSecrets
	render.NoOptionalActions
}

// ChaptersCard names a card of 3 Chapters: "Goldilocks 5". Play never
// marks the provisional (reconstructed) cards; the card list does
// (ChaptersCardEntry).
func ChaptersCard(l *locales.Localizer, t *chapters.Table, c chapters.Card) string {
	if t == nil {
		t = &chapters.DefaultCards
	}
	return l.T("chapters.ui.card", map[string]any{"Name": l.T("chapters.card."+t.Card(c).Key, nil), "Value": int(c)})
}

// chaptersMarked is a card's name with the provisional mark when the card
// is provisional: "Dragon 50†".
func chaptersMarked(l *locales.Localizer, t *chapters.Table, c chapters.Card) string {
	d := t.Card(c)
	if !d.IsProvisional() {
		return ChaptersCard(l, t, c)
	}
	return l.T("chapters.ui.card_provisional", map[string]any{"Name": l.T("chapters.card."+d.Key, nil), "Value": int(c)})
}

// ChaptersCardEntry is a card's line in the card list (rules, card
// lookup): ChaptersCardLine with every provisional card it names marked.
func ChaptersCardEntry(l *locales.Localizer, t *chapters.Table, c chapters.Card) string {
	if t == nil {
		t = &chapters.DefaultCards
	}
	line := ChaptersCardLine(l, t, c)
	for _, p := range t.Provisional() {
		line = replaceName(line, ChaptersCard(l, t, p), chaptersMarked(l, t, p))
	}
	return line
}

// replaceName replaces every whole occurrence of name in s ("Dragon 5"
// is not a part of "Dragon 50").
func replaceName(s, name, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, name)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(name)
		b.WriteString(s[:i])
		if end < len(s) && s[end] >= '0' && s[end] <= '9' {
			b.WriteString(name)
		} else {
			b.WriteString(with)
		}
		s = s[end:]
	}
}

func chaptersToken(l *locales.Localizer, t *chapters.Table, tok string) string {
	c, ok := chapters.ParseCard(tok)
	if !ok {
		return tok
	}
	return ChaptersCard(l, t, c)
}

// ChaptersTokens is "1 star, 3 hearts, 0 gems".
func ChaptersTokens(l *locales.Localizer, t chapters.Tokens) string {
	return l.T("chapters.ui.tokens", map[string]any{
		"Stars": l.N("chapters.stars", t.Stars, nil), "Hearts": l.N("chapters.hearts", t.Hearts, nil),
		"Gems": l.N("chapters.gems", t.Gems, nil),
	})
}

// chaptersReward lists only the kinds a reward gives: "1 star, 1 heart".
func chaptersReward(l *locales.Localizer, t chapters.Tokens) string {
	var parts []string
	if t.Stars > 0 {
		parts = append(parts, l.N("chapters.stars", t.Stars, nil))
	}
	if t.Hearts > 0 {
		parts = append(parts, l.N("chapters.hearts", t.Hearts, nil))
	}
	if t.Gems > 0 {
		parts = append(parts, l.N("chapters.gems", t.Gems, nil))
	}
	if len(parts) == 0 {
		return l.T("chapters.ui.nothing", nil)
	}
	return strings.Join(parts, ", ")
}

func traitName(l *locales.Localizer, t chapters.Trait) string {
	return l.T("chapters.trait."+t.ID(), nil)
}

// ChaptersTraits lists a card's traits.
func ChaptersTraits(l *locales.Localizer, ts chapters.Traits) string {
	if ts == chapters.AllTraits {
		return l.T("chapters.ui.all_traits", nil)
	}
	list := ts.List()
	if len(list) == 0 {
		return l.T("chapters.ui.no_traits", nil)
	}
	parts := make([]string, len(list))
	for i, t := range list {
		parts[i] = traitName(l, t)
	}
	return strings.Join(parts, ", ")
}

// chaptersCond is one condition in clause form ("if you won the round").
func chaptersCond(l *locales.Localizer, t *chapters.Table, c chapters.Cond) string {
	switch c.Kind {
	case chapters.WithCard:
		return l.T("chapters.cond.with_card", map[string]any{"Card": ChaptersCard(l, t, c.Card)})
	case chapters.AnyTrait:
		key := "chapters.cond.any_trait"
		if c.Other {
			key = "chapters.cond.any_other_trait"
		}
		return l.T(key, map[string]any{"Trait": traitName(l, c.Trait)})
	case chapters.AtLeastHearts:
		return l.N("chapters.cond.at_least_hearts", c.N, nil)
	}
	return l.T("chapters.cond."+c.Kind.ID(), nil)
}

// ChaptersAbility describes one ability in words, from the vocabulary.
func ChaptersAbility(l *locales.Localizer, t *chapters.Table, a chapters.Ability) string {
	var text string
	switch {
	case a.Freeze:
		text = l.T("chapters.ability.freeze", nil)
	case a.Echo != nil:
		text = l.T("chapters.ability.echo", map[string]any{
			"From": l.T("chapters.token_of."+a.Echo.From.ID(), nil), "To": l.N("chapters."+a.Echo.To.ID()+"s", 1, nil),
		})
	default:
		reward := chaptersReward(l, a.Reward)
		switch a.Per.Kind {
		case chapters.CountTrait:
			key := "chapters.per.trait"
			if a.Per.Other {
				key = "chapters.per.other_trait"
			}
			reward = l.T(key, map[string]any{"Text": reward, "Trait": traitName(l, a.Per.Trait)})
		case chapters.CountValues:
			reward = l.T("chapters.per.values", map[string]any{"Text": reward, "Min": a.Per.Lo, "Max": a.Per.Hi})
		}
		if len(a.When) == 0 {
			text = reward
			break
		}
		conds := make([]string, len(a.When))
		for i, c := range a.When {
			conds[i] = chaptersCond(l, t, c)
		}
		cond := conds[0]
		for _, c := range conds[1:] {
			cond = l.T("chapters.ability.and", map[string]any{"Cond": cond, "Text": c})
		}
		text = l.T("chapters.ability.when", map[string]any{"Cond": cond, "Text": reward})
	}
	text = render.Capitalize(text)
	if a.Seal != 0 {
		text = l.T("chapters.ability.sealed", map[string]any{"Text": text, "Round": l.T(fmt.Sprintf("chapters.seal.%d", a.Seal), nil)})
	}
	return text
}

// ChaptersAbilities describes all of a card's abilities ("—" for none).
func ChaptersAbilities(l *locales.Localizer, t *chapters.Table, c chapters.Card) string {
	d := t.Card(c)
	if len(d.Abilities) == 0 {
		return l.T("chapters.ui.no_ability", nil)
	}
	var out []string
	for i, a := range d.Abilities {
		text := ChaptersAbility(l, t, a)
		if a.Either != 0 && i > 0 && d.Abilities[i-1].Either == a.Either {
			out[len(out)-1] = l.T("chapters.ability.or", map[string]any{"Cond": out[len(out)-1], "Text": text})
			continue
		}
		out = append(out, text)
	}
	return strings.Join(out, " · ")
}

// ChaptersCardLine is a card with its traits and abilities, for hands and
// the card list.
func ChaptersCardLine(l *locales.Localizer, t *chapters.Table, c chapters.Card) string {
	return l.T("chapters.ui.card_line", map[string]any{
		"Card": ChaptersCard(l, t, c), "List": ChaptersTraits(l, t.Card(c).Traits), "Text": ChaptersAbilities(l, t, c),
	})
}

// ChaptersCardList lists every card of a table, provisional ones marked,
// followed by the line naming the provisional cards.
func ChaptersCardList(l *locales.Localizer, t *chapters.Table) []string {
	if t == nil {
		t = &chapters.DefaultCards
	}
	var out []string
	for v := chapters.Card(1); v <= chapters.NumCards; v++ {
		out = append(out, ChaptersCardEntry(l, t, v))
	}
	return append(out, ChaptersProvisional(l, t))
}

// ChaptersProvisional names the provisional cards (generated from the data).
func ChaptersProvisional(l *locales.Localizer, t *chapters.Table) string {
	var vals []string
	for _, c := range t.Provisional() {
		vals = append(vals, c.String())
	}
	return l.T("chapters.ui.provisional", map[string]any{"List": strings.Join(vals, ", ")})
}

func (Presenter) Action(l *locales.Localizer, ea engine.Action) string {
	a := ea.(chapters.Action)
	t := &chapters.DefaultCards
	switch a.Kind {
	case chapters.KindPick:
		if a.Ghost != 0 {
			return l.T("chapters.action.pick_ghost", map[string]any{"Card": ChaptersCard(l, t, a.Card), "Text": ChaptersCard(l, t, a.Ghost)})
		}
		return l.T("chapters.action.pick", map[string]any{"Card": ChaptersCard(l, t, a.Card)})
	case chapters.KindPlay:
		return l.T("chapters.action.play", map[string]any{"Card": ChaptersCard(l, t, a.Card)})
	}
	return a.String()
}

func (Presenter) Hint(l *locales.Localizer, ev engine.View) string {
	v := ev.(*chapters.View)
	if v.Seat < 0 || v.Phase != "draft" || !v.Ghosts || len(v.Hand) < 2 {
		return ""
	}
	example := "pick " + v.Hand[len(v.Hand)-1].String() + " ghost " + v.Hand[0].String()
	return l.T("chapters.ui.pick_hint", map[string]any{"Example": example})
}

func (Presenter) Event(l *locales.Localizer, e engine.Event, names render.Names) string {
	a := e.Args
	t := &chapters.DefaultCards
	seat := func(k string) string {
		s, _ := a[k].(engine.Seat)
		return names.Of(s)
	}
	card := func(k string) string {
		c, _ := a[k].(string)
		return chaptersToken(l, t, c)
	}
	who := func() string {
		if g, ok := a["ghost"].(int); ok {
			return l.T("chapters.ui.ghost", map[string]any{"N": g + 1})
		}
		return seat("seat")
	}
	// you is key, or its second-person variant when the seat (not a
	// ghost) is the reader's.
	you := func(key string) string {
		if _, ghost := a["ghost"]; ghost {
			return key
		}
		s, ok := a["seat"].(engine.Seat)
		if !ok {
			return key
		}
		return render.YouKey(l, names, key, "_you", s)
	}
	tokens := func() chapters.Tokens {
		st, _ := a["stars"].(int)
		h, _ := a["hearts"].(int)
		g, _ := a["gems"].(int)
		return chapters.Tokens{Stars: st, Hearts: h, Gems: g}
	}
	switch e.Type {
	case "card_picked":
		return l.T(you("chapters.event.card_picked"), map[string]any{"Name": seat("seat")})
	case "kept":
		if _, ok := a["ghost"]; ok {
			return l.T("chapters.event.kept_ghost", map[string]any{"Card": card("card"), "Text": card("ghost")})
		}
		return l.T("chapters.event.kept", map[string]any{"Card": card("card")})
	case "hands_passed":
		return l.T("chapters.event.hands_passed", nil)
	case "redealt":
		return l.T("chapters.event.redealt", nil)
	case "chapter_two":
		return l.T(you("chapters.event.chapter_two"), map[string]any{"Name": seat("seat")})
	case "card_played":
		return l.T(you("chapters.event.card_played"), map[string]any{"Name": who(), "Card": card("card")})
	case "round_won":
		round, _ := a["round"].(int)
		text := l.T(you("chapters.event.round_won"), map[string]any{"Round": round, "Name": who(), "Card": card("card")})
		if _, ghost := a["ghost"]; ghost {
			text += " " + l.T("chapters.event.ghost_won", nil)
		}
		if frozen, _ := a["frozen"].(bool); frozen {
			text += " " + l.T("chapters.ui.frozen", nil)
		}
		return text
	case "tokens":
		return l.T(you("chapters.event.tokens"), map[string]any{"Name": seat("seat"), "Card": card("card"), "Tokens": chaptersReward(l, tokens())})
	case "chapter_three":
		return l.T(you("chapters.event.chapter_three"), map[string]any{"Name": seat("seat"), "Tokens": chaptersReward(l, tokens())})
	case "gem_bonus":
		return l.T(you("chapters.event.gem_bonus"), map[string]any{"Name": seat("seat"), "Tokens": chaptersReward(l, tokens())})
	case "game_over":
		scores, _ := a["scores"].([]int)
		places, _ := a["places"].([]int)
		top, _ := a["tiebreak"].([]int)
		return chapterEnding(l, names, scores, places, top).Post(l)
	}
	return ""
}

// RulesAppendix names the provisional cards of the game's card table, so
// that the rules command always matches the data.
func (Presenter) RulesAppendix(l *locales.Localizer) string {
	return ChaptersProvisional(l, &chapters.DefaultCards)
}

// Where posts the results: the start of chapter II, each round's winner and
// tokens, chapter III's scoring and the end; the picks and plays that lead
// to them are in the table message's list of last moves.
func (Presenter) Where(e engine.Event) render.Where {
	switch e.Type {
	case "card_picked", "hands_passed", "redealt", "card_played":
		return render.Recent
	}
	return render.Posted
}
