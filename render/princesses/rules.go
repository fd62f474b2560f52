package princesses

import (
	"slices"

	"github.com/stolik-bot/stolik/render"

	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
)

// Rebel Princess's rules topics: the round cards and the princess powers of
// each edition, in that edition's wording (the texts shown at round start
// and with a princess), listed from the engine's data.
const (
	topicCardsDeluxe   = "cards-deluxe"
	topicCardsClassic  = "cards-classic"
	topicPowersDeluxe  = "powers-deluxe"
	topicPowersClassic = "powers-classic"
)

func (Presenter) RulesTopics() []string {
	return []string{topicCardsDeluxe, topicCardsClassic, topicPowersDeluxe, topicPowersClassic}
}

func (Presenter) RulesEntries(l *locales.Localizer, topic string) []render.RulesEntry {
	switch topic {
	case topicCardsDeluxe:
		return roundEntries(l, princesses.Deluxe)
	case topicCardsClassic:
		return roundEntries(l, princesses.Classic)
	case topicPowersDeluxe:
		return powerEntries(l, princesses.Deluxe)
	case topicPowersClassic:
		return powerEntries(l, princesses.Classic)
	}
	return nil
}

// textKey is the key of a card's rule text in an edition's wording.
func textKey(prefix string, ed princesses.Edition) string {
	if ed == princesses.Classic {
		return prefix + ".text_classic"
	}
	return prefix + ".text"
}

func roundEntries(l *locales.Localizer, ed princesses.Edition) []render.RulesEntry {
	var out []render.RulesEntry
	for _, id := range princesses.RoundCardIDs(ed) {
		name := roundName(l, id)
		head := "**" + name + "** `" + id + "`"
		if left, right, hourglass, ok := princesses.RoundCardPass(id); ok {
			head += " · " + passText(l, left, right)
			if hourglass {
				head += " · " + l.T("princesses.topic.hourglass", nil)
			}
		}
		out = append(out, render.RulesEntry{
			ID: id, Names: []string{name},
			Text: head + "\n" + l.T(textKey("princesses.round."+id, ed), nil),
		})
	}
	return out
}

// powerEntries lists an edition's princesses, the promo ones included and
// marked as such.
func powerEntries(l *locales.Localizer, ed princesses.Edition) []render.RulesEntry {
	base := princesses.PrincessIDs(ed, false)
	var out []render.RulesEntry
	for _, id := range princesses.PrincessIDs(ed, true) {
		name, power := princessName(l, id), l.T("princesses.princess."+id+".power", nil)
		head := "**" + name + "** · *" + power + "* `" + id + "`"
		if !slices.Contains(base, id) {
			head += " · " + l.T("princesses.topic.promo", nil)
		}
		out = append(out, render.RulesEntry{
			ID: id, Names: []string{name, power},
			Text: head + "\n" + l.T(textKey("princesses.princess."+id, ed), nil),
		})
	}
	return out
}
