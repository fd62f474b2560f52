package bot

import (
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
)

// The subcommands of /stolik (their English names, which Discord sends back
// whatever the user's language).
const (
	subOpen      = "open"
	subJoin      = "join"
	subLeave     = "leave"
	subStart     = "start"
	subHand      = "hand"
	subStatus    = "status"
	subRules     = "rules"
	subAbandon   = "abandon"
	subLanguage  = "language"
	subHistory   = "history"
	subStats     = "stats"
	subReminders = "reminders"
)

// The option names (English, as sent in interactions).
const (
	optGame     = "game"
	optSeats    = "seats"
	optLang     = "language"
	optAI       = "ai"
	optDeadline = "deadline"
	optThread   = "thread"
	optTable    = "table"
	optExport   = "export"
	optPlayer   = "player"
	optDM       = "dm"
)

// localized is the text of one locale key in every language: the English
// default and the pl/uk localizations.
type localized struct {
	def string
	loc map[discordgo.Locale]string
}

func text(b *locales.Bundle, key string) localized {
	return localizedFunc(b, func(l *locales.Localizer) string { return l.T(key, nil) })
}

func localizedFunc(b *locales.Bundle, f func(l *locales.Localizer) string) localized {
	return localized{
		def: f(b.Lang("en")),
		loc: map[discordgo.Locale]string{
			discordgo.Polish:    f(b.Lang("pl")),
			discordgo.Ukrainian: f(b.Lang("uk")),
		},
	}
}

func (t localized) ptr() *map[discordgo.Locale]string { m := t.loc; return &m }

// option builds an option from the keys cmd.opt.<key>.name and .desc.
func option(b *locales.Bundle, key string, typ discordgo.ApplicationCommandOptionType, name string, required bool) *discordgo.ApplicationCommandOption {
	n, d := text(b, "cmd.opt."+key+".name"), text(b, "cmd.opt."+key+".desc")
	return &discordgo.ApplicationCommandOption{
		Type: typ, Name: name, Description: d.def, Required: required,
		NameLocalizations: n.loc, DescriptionLocalizations: d.loc,
	}
}

func choice(b *locales.Bundle, key, value string) *discordgo.ApplicationCommandOptionChoice {
	t := text(b, key)
	return &discordgo.ApplicationCommandOptionChoice{Name: t.def, NameLocalizations: t.loc, Value: value}
}

func gameChoices(b *locales.Bundle) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, id := range engine.Games() {
		out = append(out, choice(b, "game."+id+".name", id))
	}
	return out
}

// seatRange is the smallest and largest seat count of any game.
func seatRange() (lo, hi int) {
	lo, hi = 100, 0
	for _, id := range engine.Games() {
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		a, b := g.Seats()
		lo, hi = min(lo, a), max(hi, b)
	}
	if hi == 0 {
		return 2, 6
	}
	return lo, hi
}

func langChoices(b *locales.Bundle, auto bool) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range locales.Languages() {
		out = append(out, choice(b, "cmd.choice.lang."+l, l))
	}
	if auto {
		out = append(out, choice(b, "cmd.choice.lang.auto", "auto"))
	}
	return out
}

// Commands returns the application commands: /stolik with its
// subcommands, names and descriptions localized for pl and uk from the
// locale files.
func Commands(b *locales.Bundle) []*discordgo.ApplicationCommand {
	sub := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		n, d := text(b, "cmd."+name+".name"), text(b, "cmd."+name+".desc")
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: d.def,
			NameLocalizations: n.loc, DescriptionLocalizations: d.loc, Options: opts,
		}
	}
	game := func() *discordgo.ApplicationCommandOption {
		o := option(b, "game", discordgo.ApplicationCommandOptionString, optGame, true)
		o.Choices = gameChoices(b)
		return o
	}
	lo, hi := seatRange()
	seats := option(b, "seats", discordgo.ApplicationCommandOptionInteger, optSeats, false)
	minSeats := float64(lo)
	seats.MinValue, seats.MaxValue = &minSeats, float64(hi)
	lang := option(b, "lang", discordgo.ApplicationCommandOptionString, optLang, false)
	lang.Choices = langChoices(b, false)
	mylang := option(b, "mylang", discordgo.ApplicationCommandOptionString, optLang, true)
	mylang.Choices = langChoices(b, true)
	deadline := option(b, "deadline", discordgo.ApplicationCommandOptionString, optDeadline, false)
	for _, v := range deadlineOrder {
		deadline.Choices = append(deadline.Choices, choice(b, "cmd.choice.deadline."+v, v))
	}
	thread := option(b, "thread", discordgo.ApplicationCommandOptionBoolean, optThread, false)
	tableOpt := option(b, "table", discordgo.ApplicationCommandOptionString, optTable, false)
	tableOpt.MaxLength = 16
	export := option(b, "export", discordgo.ApplicationCommandOptionBoolean, optExport, false)
	player := option(b, "player", discordgo.ApplicationCommandOptionUser, optPlayer, false)
	dm := option(b, "dm", discordgo.ApplicationCommandOptionBoolean, optDM, true)

	noDM := false
	n, d := text(b, "cmd.stolik.name"), text(b, "cmd.stolik.desc")
	return []*discordgo.ApplicationCommand{{
		Type:                     discordgo.ChatApplicationCommand,
		Name:                     n.def,
		NameLocalizations:        n.ptr(),
		Description:              d.def,
		DescriptionLocalizations: d.ptr(),
		DMPermission:             &noDM,
		Options: []*discordgo.ApplicationCommandOption{
			sub(subOpen, append(append([]*discordgo.ApplicationCommandOption{game(), seats}, gameOptions(b)...), lang, deadline, thread)...),
			sub(subJoin),
			sub(subLeave),
			sub(subStart, option(b, "ai", discordgo.ApplicationCommandOptionBoolean, optAI, false)),
			sub(subHand),
			sub(subStatus),
			sub(subRules, game()),
			sub(subAbandon),
			sub(subLanguage, mylang),
			sub(subHistory, tableOpt, export),
			sub(subStats, player),
			sub(subReminders, dm),
		},
	}}
}

// freeChoices are the choices offered for a game option whose values are
// free-form (the engine validates whatever is sent).
var freeChoices = map[string][]string{
	"rounds": {"5", "3", "random", "random3", "a"},
}

// gameOptionKeys lists, in order, the keys of every registered game's table
// options, each once, with the games that have it and its values.
func gameOptionKeys() (keys []string, games map[string][]string, values map[string][]string) {
	games, values = map[string][]string{}, map[string][]string{}
	for _, id := range engine.Games() {
		g, err := engine.Lookup(id)
		if err != nil {
			continue
		}
		for _, spec := range g.Options() {
			if _, ok := games[spec.Key]; !ok {
				keys = append(keys, spec.Key)
			}
			games[spec.Key] = append(games[spec.Key], id)
			vals := spec.Values
			if len(vals) == 0 {
				vals = freeChoices[spec.Key]
			}
			for _, v := range vals {
				if !slices.Contains(values[spec.Key], v) {
					values[spec.Key] = append(values[spec.Key], v)
				}
			}
		}
	}
	return keys, games, values
}

// choiceKey is the locale key naming value v of game option key:
// cmd.choice.<key>.<v>, else <game>.<key>.<v> (princesses.edition.deluxe),
// else cmd.choice.any.<v> (on, off).
func choiceKey(b *locales.Bundle, games []string, key, v string) string {
	en := b.Lang("en")
	cands := []string{"cmd.choice." + key + "." + v}
	for _, g := range games {
		cands = append(cands, g+"."+key+"."+v)
	}
	cands = append(cands, "cmd.choice.any."+v)
	for _, k := range cands {
		if en.Has(k) {
			return k
		}
	}
	return cands[0]
}

// gameOptions are /stolik open's options for the games' table options,
// built from Game.Options(): one string option per key (named from
// cmd.opt.<key>), its choices the union of the games' values. Discord
// allows 25 options and 25 choices: the rest are left out.
func gameOptions(b *locales.Bundle) []*discordgo.ApplicationCommandOption {
	keys, games, values := gameOptionKeys()
	var out []*discordgo.ApplicationCommandOption
	for _, key := range keys {
		if len(out) == maxGameOptions {
			break
		}
		o := option(b, key, discordgo.ApplicationCommandOptionString, key, false)
		for _, v := range values[key] {
			if len(o.Choices) == maxSelectItems {
				break
			}
			o.Choices = append(o.Choices, choice(b, choiceKey(b, games[key], key, v), v))
		}
		out = append(out, o)
	}
	return out
}

// maxGameOptions leaves room in /stolik open (25 options) for game, seats,
// language, deadline and thread.
const maxGameOptions = 20
