package bot

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	_ "github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

var nameRE = regexp.MustCompile(`^[-_\p{L}\p{N}]{1,32}$`)

func checkName(t *testing.T, where, n string) {
	t.Helper()
	if !nameRE.MatchString(n) || strings.ToLower(n) != n {
		t.Errorf("%s: name %q is not a valid lowercase command name", where, n)
	}
}

func checkDesc(t *testing.T, where, d string) {
	t.Helper()
	if n := utf8.RuneCountInString(d); n < 1 || n > 100 || strings.Contains(d, locales.MissingOpen) {
		t.Errorf("%s: description %q (%d characters)", where, d, n)
	}
}

// localeCodes are the Discord locales the commands are localized for: those
// of every language but the fallback, whose texts are the defaults.
func localeCodes(t *testing.T, b *locales.Bundle) []discordgo.Locale {
	t.Helper()
	var out []discordgo.Locale
	for _, lang := range b.Languages() {
		if lang == locales.Fallback {
			continue
		}
		for _, c := range b.DiscordLocales(lang) {
			out = append(out, discordgo.Locale(c))
		}
	}
	if len(out) == 0 {
		t.Fatal("no Discord locales besides the fallback's")
	}
	return out
}

func TestCommandsLocalized(t *testing.T) {
	b := locales.MustLoad()
	codes := localeCodes(t, b)
	cmds := Commands(b)
	if len(cmds) != 1 || cmds[0].Name != "stolik" {
		t.Fatalf("commands: %+v", cmds)
	}
	c := cmds[0]
	// Server channels only, the bot installed into a server; not the
	// deprecated dm_permission.
	if c.DMPermission != nil || c.Contexts == nil || !slices.Equal(*c.Contexts, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}) ||
		c.IntegrationTypes == nil || !slices.Equal(*c.IntegrationTypes, []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}) {
		t.Errorf("dm_permission %v, contexts %v, integration_types %v; want none, [0], [0]", c.DMPermission, c.Contexts, c.IntegrationTypes)
	}
	want := map[discordgo.Locale]string{discordgo.Polish: "stolik", discordgo.Ukrainian: "столик"}
	for loc, n := range want {
		if got := (*c.NameLocalizations)[loc]; got != n {
			t.Errorf("%s name = %q, want %q", loc, got, n)
		}
	}
	var walk func(where string, o *discordgo.ApplicationCommandOption)
	walk = func(where string, o *discordgo.ApplicationCommandOption) {
		where += "/" + o.Name
		checkName(t, where, o.Name)
		checkDesc(t, where, o.Description)
		for _, loc := range codes {
			checkName(t, where+"@"+string(loc), o.NameLocalizations[loc])
			checkDesc(t, where+"@"+string(loc), o.DescriptionLocalizations[loc])
		}
		if len(o.NameLocalizations) != len(codes) || len(o.DescriptionLocalizations) != len(codes) {
			t.Errorf("%s: localized for %d and %d locales, want %d", where, len(o.NameLocalizations), len(o.DescriptionLocalizations), len(codes))
		}
		if len(o.Choices) > 25 {
			t.Errorf("%s: %d choices", where, len(o.Choices))
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			t.Errorf("%s: autocomplete with choices", where)
		}
		for _, ch := range o.Choices {
			names := []string{ch.Name}
			for _, loc := range codes {
				names = append(names, ch.NameLocalizations[loc])
			}
			for _, n := range names {
				if l := utf8.RuneCountInString(n); l < 1 || l > 100 || strings.Contains(n, locales.MissingOpen) {
					t.Errorf("%s: choice name %q", where, n)
				}
			}
		}
		for _, sub := range o.Options {
			walk(where, sub)
		}
	}
	checkName(t, "stolik", c.Name)
	checkDesc(t, "stolik", c.Description)
	for _, loc := range codes {
		if !discordtest.ValidLocale(string(loc)) {
			t.Errorf("%q is not a Discord locale", loc)
		}
		checkName(t, "stolik@"+string(loc), (*c.NameLocalizations)[loc])
		checkDesc(t, "stolik@"+string(loc), (*c.DescriptionLocalizations)[loc])
	}
	subs := map[string]bool{}
	for _, o := range c.Options {
		subs[o.Name] = true
		walk("stolik", o)
	}
	for _, s := range []string{subOpen, subJoin, subLeave, subStart, subHand, subStatus, subRules, subAbandon, subLanguage} {
		if !subs[s] {
			t.Errorf("missing subcommand %s", s)
		}
	}
}

// The default names of the subcommands and options come from the fallback
// language's file, and Discord sends them back whatever the user's
// language: they must be the names the router reads.
func TestCommandNamesAreRouted(t *testing.T) {
	gameOpts, _, _ := gameOptionKeys()
	if len(gameOpts) > maxGameOptions {
		gameOpts = gameOpts[:maxGameOptions]
	}
	want := map[string][]string{
		subOpen:      append(append([]string{optGame, optSeats}, gameOpts...), optLang, optDeadline, optThread, optLevel),
		subJoin:      nil,
		subLeave:     nil,
		subStart:     {optAI},
		subHand:      nil,
		subStatus:    nil,
		subRules:     {optGame, optTopic, optCard},
		subAbandon:   nil,
		subLanguage:  {optLang},
		subHistory:   {optTable, optExport},
		subStats:     {optPlayer},
		subReminders: {optDM},
	}
	got := map[string][]string{}
	for _, o := range Commands(locales.MustLoad())[0].Options {
		if _, dup := got[o.Name]; dup {
			t.Errorf("subcommand %s twice", o.Name)
		}
		got[o.Name] = nil
		for _, so := range o.Options {
			got[o.Name] = append(got[o.Name], so.Name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("subcommands %v, want %v", got, want)
	}
	for sub, opts := range want {
		if g, ok := got[sub]; !ok || !slices.Equal(g, opts) {
			t.Errorf("/stolik %s: options %v (present %v), want %v", sub, g, ok, opts)
		}
	}
}

// A game option whose values are free-form (an OptionSpec without Values:
// Rebel Princess's rounds) is offered with autocomplete and no choices, so
// that any value can be typed; the others list their values as choices.
func TestFreeFormOptionsAutocomplete(t *testing.T) {
	var open *discordgo.ApplicationCommandOption
	for _, o := range Commands(locales.MustLoad())[0].Options {
		if o.Name == subOpen {
			open = o
		}
	}
	free := freeOptions()
	if !free["rounds"] || free["edition"] || free["powers"] {
		t.Errorf("free-form options: %v", free)
	}
	keys, _, _ := gameOptionKeys()
	for _, key := range keys {
		var o *discordgo.ApplicationCommandOption
		for _, so := range open.Options {
			if so.Name == key {
				o = so
			}
		}
		switch {
		case o == nil:
			t.Errorf("%s: not offered", key)
		case free[key] && (!o.Autocomplete || len(o.Choices) != 0 || o.MaxLength != maxOptionText):
			t.Errorf("%s: free-form but %+v", key, o)
		case !free[key] && (o.Autocomplete || len(o.Choices) == 0):
			t.Errorf("%s: has values but %+v", key, o)
		}
	}
}

func TestParseGameID(t *testing.T) {
	c, ok := parseGameID("t/abcd1234/17/play Q7")
	if !ok || c.table != "abcd1234" || c.version != 17 || c.action != "play Q7" {
		t.Errorf("got %+v %v", c, ok)
	}
	for _, bad := range []string{"t/", "t/x", "t/x/1", "t/x/-1/play Q7", "t/x/a/play", "t//1/play", "lobby/x/join"} {
		if _, ok := parseGameID(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// /stolik rules offers every topic of every game, and every page of every
// topic, in every language, is a message within Discord's limits whose
// buttons lead to the neighbouring pages and to the game's other topics.
func TestRulesMessages(t *testing.T) {
	b := locales.MustLoad()
	var rules *discordgo.ApplicationCommandOption
	for _, o := range Commands(b)[0].Options {
		if o.Name == subRules {
			rules = o
		}
	}
	offered := map[string]bool{}
	for _, o := range rules.Options {
		if o.Name == optTopic {
			for _, c := range o.Choices {
				offered[c.Value.(string)] = true
			}
		}
	}
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for _, id := range engine.Games() {
			for _, topic := range render.RulesTopics(id) {
				if !offered[topic] {
					t.Errorf("%s: topic %s is not offered", id, topic)
				}
				for page := 0; ; page++ {
					m := rulesMessage(l, id, topic, page)
					where := lang + " " + rulesID(id, topic, page)
					if n := utf8.RuneCountInString(m.content); n == 0 || n > maxContent || strings.Contains(m.content, locales.MissingOpen) {
						t.Errorf("%s: %d characters", where, n)
					}
					if len(m.components) > maxRows {
						t.Errorf("%s: %d rows", where, len(m.components))
					}
					seen, next := map[string]bool{}, ""
					for _, row := range m.components {
						bs := row.(discordgo.ActionsRow).Components
						if len(bs) > maxRowButtons {
							t.Errorf("%s: %d buttons in a row", where, len(bs))
						}
						for _, c := range bs {
							btn := c.(discordgo.Button)
							if len(btn.CustomID) > maxCustomID || seen[btn.CustomID] || utf8.RuneCountInString(btn.Label) > maxButtonLabel {
								t.Errorf("%s: button %+v", where, btn)
							}
							seen[btn.CustomID] = true
							if btn.CustomID == rulesID(id, topic, page+1) && !btn.Disabled {
								next = btn.CustomID
							}
						}
					}
					if next == "" {
						if last := rulesMessage(l, id, topic, page+5); last.content != m.content {
							t.Errorf("%s: a page past the end is not the last page", where)
						}
						break
					}
					if page > 30 {
						t.Fatalf("%s: the pages never end", where)
					}
				}
			}
		}
	}
}
