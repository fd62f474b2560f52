package bot

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// onAutocomplete answers an APPLICATION_COMMAND_AUTOCOMPLETE interaction:
// the user is typing a free-form table option of /stolik open (Rebel
// Princess's rounds), and the game's renderer suggests values for what is
// typed so far, given the other options already filled in (the edition).
// It is answered at once (callback 8, up to 25 choices), in the language of
// the user's Discord client, and never reads the store or a table: it runs
// at every keystroke. What the user finally sends is checked as any command
// is, and the engine validates the value. An interaction Discord would not
// send (no focused option, not our command) is dropped: nobody reads an
// autocomplete answer but the client that asked.
func (b *Bot) onAutocomplete(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	sub, focused, ok := b.focusedOption(data)
	if !ok {
		b.log.Info("an autocomplete interaction Discord would not send", "command", clip(data.Name, 32), "interaction", i.ID)
		return
	}
	l := b.loc.Lang(string(i.Locale))
	choices := b.suggestions(l, sub, focused)
	err := b.s.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices},
	}, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("answering an autocomplete interaction", "interaction", i.ID, "err", err)
	}
}

// focusedOption finds, in an autocomplete interaction, the subcommand and
// the option being typed. It requires what Discord always sends: our
// command, one subcommand, and exactly one focused option in it.
func (b *Bot) focusedOption(data discordgo.ApplicationCommandInteractionData) (*discordgo.ApplicationCommandInteractionDataOption, *discordgo.ApplicationCommandInteractionDataOption, bool) {
	if !slices.ContainsFunc(b.commands, func(c *discordgo.ApplicationCommand) bool { return c.Name == data.Name }) ||
		len(data.Options) != 1 || data.Options[0] == nil || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return nil, nil, false
	}
	sub := data.Options[0]
	var focused *discordgo.ApplicationCommandInteractionDataOption
	for _, o := range sub.Options {
		if o == nil {
			return nil, nil, false
		}
		if o.Focused {
			if focused != nil {
				return nil, nil, false
			}
			focused = o
		}
	}
	return sub, focused, focused != nil
}

// suggestions are the choices offered for the focused option: for a
// free-form table option of /stolik open, the suggestions of the renderer
// of the game chosen (or, before a game is chosen, of every game having
// the option), each fitting Discord's limits; none for anything else.
func (b *Bot) suggestions(l *locales.Localizer, sub, focused *discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandOptionChoice {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	typed, ok := focused.Value.(string)
	if sub.Name != subOpen || !freeOptions()[focused.Name] || !ok || utf8.RuneCountInString(typed) > maxOptionText {
		return out
	}
	opts := map[string]string{}
	for _, o := range sub.Options {
		if s, ok := o.Value.(string); ok && o != focused {
			opts[o.Name] = s
		}
	}
	_, games, _ := gameOptionKeys()
	candidates := games[focused.Name]
	if g, ok := opts[optGame]; ok {
		candidates = slices.DeleteFunc(slices.Clone(candidates), func(id string) bool { return id != g })
	}
	seen := map[string]bool{}
	for _, g := range candidates {
		for _, s := range render.OptionSuggestions(l, g, focused.Name, typed, opts) {
			name := strings.TrimSpace(clip(s.Name, maxOptionText))
			if name == "" || s.Value == "" || utf8.RuneCountInString(s.Value) > maxOptionText || seen[s.Value] {
				continue
			}
			seen[s.Value] = true
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: s.Value})
			if len(out) == maxSelectItems {
				return out
			}
		}
	}
	return out
}
