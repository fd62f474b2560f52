package bot

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestInertNames: a name keeps its look but loses every markdown, link and
// mention syntax; making a name inert twice changes nothing more.
func TestInertNames(t *testing.T) {
	syntax := regexp.MustCompile("[*_~`|\\\\<>\\[\\]]|://|@everyone|@here|^(#|-|\\+|\\d+\\.)")
	for _, c := range []struct{ in, want string }{
		{"Ala", "Ala"},
		{"Олександра-Марія", "Олександра-Марія"},
		{"<@300000000000000001>@everyone<@&1>", "‹@300000000000000001›@\u2060everyone‹@&1›"},
		{"**bold** __u__ ~~s~~ `c` ||sp||", "∗∗bold∗∗ ˍˍuˍˍ ∼∼s∼∼ ˋcˋ ǀǀspǀǀ"},
		{"[click](https://evil.example)", "⁅click⁆(https:⁄⁄evil.example)"},
		{"# Heading", "♯ Heading"},
		{"-# small", "‐# small"}, // no longer a subtext line
		{"- item", "‐ item"},
		{"1. first", "1․ first"},
		{"> quote", "› quote"},
		{"back\\slash", "back∖slash"},
		{"@here now", "@\u2060here now"},
	} {
		got := inert(c.in)
		if got != c.want {
			t.Errorf("inert(%q) = %q, want %q", c.in, got, c.want)
		}
		if syntax.MatchString(got) {
			t.Errorf("inert(%q) = %q still holds syntax", c.in, got)
		}
		if again := inert(got); again != got {
			t.Errorf("inert twice: %q, then %q", got, again)
		}
	}
}

// TestMentionedUsers: a message pings exactly the users the bot wrote
// mentions of, by id, each once.
func TestMentionedUsers(t *testing.T) {
	got := mentionedUsers("Your move: <@1> <@2>", "again <@1>, and "+inert("<@3>")+" in a name")
	if !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("mentioned %v, want [1 2]", got)
	}
	if ids := mentionedUsers(strings.Repeat("<@4>", 3)); !slices.Equal(ids, []string{"4"}) {
		t.Errorf("a repeated mention: %v", ids)
	}
}
