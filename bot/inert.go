package bot

import (
	"regexp"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// inertReplacer gives every character that Discord's markdown or mention
// syntax reads in a name a look-alike that it does not: a name is shown in
// message text, on buttons and in pictures, and only text reads a
// backslash escape (a button or a picture would show the backslash), so a
// name is made inert once, the same everywhere. Each look-alike is drawn by
// the pictures' font.
var inertReplacer = strings.NewReplacer(
	"*", "∗", // U+2217: bold, italics, lists
	"_", "ˍ", // U+02CD: italics, underline
	"~", "∼", // U+223C: strike-through
	"`", "ˋ", // U+02CB: code
	"|", "ǀ", // U+01C0: spoilers
	"\\", "∖", // U+2216: escapes
	"<", "‹", // U+2039: mentions <@id>, <@&id>, <#id>, timestamps, emoji
	">", "›", // U+203A: and quotes
	"[", "⁅", // U+2045: masked links [text](url)
	"]", "⁆", // U+2046
	"://", ":⁄⁄", // U+2044: a bare link
	"@everyone", "@\u2060everyone", // a word joiner: not the mention
	"@here", "@\u2060here",
)

// lineStart are the markdown marks a line may start with: a heading
// ("# ", "-# "), a list ("- ", "+ ", "1. "), a quote (handled above).
var lineStart = regexp.MustCompile(`^(#|-|\+|\d+\.)`)

// inert is a name a user gave (a nickname, a display name) as the bot
// shows it: no markdown, link or mention syntax left in it, whatever the
// line or control it is put in.
func inert(name string) string {
	name = inertReplacer.Replace(name)
	if m := lineStart.FindString(name); m != "" {
		switch {
		case m == "#":
			name = "♯" + name[1:] // U+266F
		case m == "-":
			name = "‐" + name[1:] // U+2010
		case m == "+":
			name = "˖" + name[1:] // U+02D6
		default:
			name = m[:len(m)-1] + "․" + name[len(m):] // U+2024
		}
	}
	return name
}

// userMention is the mention syntax the bot itself writes.
var userMention = regexp.MustCompile(`<@(\d+)>`)

// mentionedUsers are the users a message the bot composed mentions, by
// id, in order, each once, at most 100 (Discord's limit): the only users
// it may ping (allowed_mentions lists them; no text is parsed for
// mentions). Names are inert, so every <@id> in a message is the bot's.
func mentionedUsers(texts ...string) []string {
	var ids []string
	for _, t := range texts {
		for _, m := range userMention.FindAllStringSubmatch(t, -1) {
			if !slices.Contains(ids, m[1]) && len(ids) < 100 {
				ids = append(ids, m[1])
			}
		}
	}
	return ids
}

// textsOf are the texts of a message's components (Components V2 text
// displays, in containers and sections too).
func textsOf(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, c.Content)
		case *discordgo.TextDisplay:
			out = append(out, c.Content)
		case discordgo.Container:
			out = append(out, textsOf(c.Components)...)
		case *discordgo.Container:
			out = append(out, textsOf(c.Components)...)
		case discordgo.Section:
			out = append(out, textsOf(c.Components)...)
		case *discordgo.Section:
			out = append(out, textsOf(c.Components)...)
		}
	}
	return out
}
