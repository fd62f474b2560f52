package bot_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/store/record"
)

// guardedStore counts the store calls made while it is watching: an
// autocomplete interaction (one at every keystroke) must make none.
type guardedStore struct {
	bot.Store
	watching atomic.Bool
	mu       sync.Mutex
	calls    []string
}

func (s *guardedStore) note(what string) {
	if s.watching.Load() {
		s.mu.Lock()
		s.calls = append(s.calls, what)
		s.mu.Unlock()
	}
}

func (s *guardedStore) made() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func (s *guardedStore) UserLang(ctx context.Context, userID string) (string, error) {
	s.note("UserLang")
	return s.Store.UserLang(ctx, userID)
}

func (s *guardedStore) InChannel(ctx context.Context, channelID string) ([]string, error) {
	s.note("InChannel")
	return s.Store.InChannel(ctx, channelID)
}

func (s *guardedStore) LastInChannel(ctx context.Context, channelID string) (string, error) {
	s.note("LastInChannel")
	return s.Store.LastInChannel(ctx, channelID)
}

func (s *guardedStore) Load(ctx context.Context, id string) (table.Record, []table.Entry, error) {
	s.note("Load")
	return s.Store.Load(ctx, id)
}

func (s *guardedStore) Meta(ctx context.Context, id string) (record.Meta, error) {
	s.note("Meta")
	return s.Store.Meta(ctx, id)
}

func (s *guardedStore) Create(ctx context.Context, rec table.Record) error {
	s.note("Create")
	return s.Store.Create(ctx, rec)
}

// hasChoice reports whether a choice of that name and value is offered.
func hasChoice(cs []discordtest.CommandChoice, name, value string) bool {
	return slices.ContainsFunc(cs, func(c discordtest.CommandChoice) bool { return c.Name == name && c.Value == value })
}

func choiceValues(cs []discordtest.CommandChoice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Value.(string))
	}
	return out
}

// autocompleteRounds has user type typed in /stolik open's rounds (after
// the other options given) and returns the suggestions.
func autocompleteRounds(t *testing.T, fake *discordtest.Server, user, typed string, other ...discordtest.Arg) []discordtest.CommandChoice {
	t.Helper()
	args := append(slices.Clone(other), discordtest.Opt("rounds", typed))
	in := fake.Autocomplete(user, guildID, channelID, "stolik", "rounds", discordtest.Sub("open", args...))
	resp := in.Wait(context.Background())
	if resp.Type != discordtest.CallbackAutocompleteResult || resp.Choices == nil {
		t.Fatalf("%s typing %q: response %+v", user, typed, resp)
	}
	if rej := in.Rejected(); len(rej) > 0 {
		t.Fatalf("%s typing %q: rejected %v", user, typed, rej)
	}
	return resp.Choices
}

// /stolik open's rounds is autocompleted: the presets while nothing is
// typed, then the round cards of the chosen edition completing the list,
// named in the user's language; it never reads the store. A table opened
// with a suggested value plays those round cards.
func TestRoundsAutocomplete(t *testing.T) {
	t.Parallel()
	guard := &guardedStore{}
	r := newRig(t, rigOptions{wrap: func(s bot.Store) bot.Store { guard.Store = s; return guard }})
	pl, uk := r.loc.Lang("pl"), r.loc.Lang("uk")
	game := discordtest.Opt("game", "princesses")

	// Registered as autocomplete, with no choices.
	open := r.fake.Commands("")[0].Option("open")
	if o := open.Option("rounds"); o == nil || !o.Autocomplete || len(o.Choices) != 0 || o.MaxLength == nil || *o.MaxLength != 100 {
		t.Fatalf("rounds registered as %+v", o)
	}

	guard.watching.Store(true)
	calls := r.fake.RESTCalls()
	asked := 0
	ask := func(user, typed string, other ...discordtest.Arg) []discordtest.CommandChoice {
		asked++
		return autocompleteRounds(t, r.fake, user, typed, other...)
	}

	got := ask(ala, "", game)
	if !slices.Equal(choiceValues(got), []string{"5", "3", "random", "random3"}) {
		t.Errorf("nothing typed: %v", got)
	}
	for _, c := range got {
		if c.Name != pl.T("cmd.choice.rounds."+c.Value.(string), nil) {
			t.Errorf("preset %v named %q", c.Value, c.Name)
		}
	}
	if got := ask(ala, "mas"); !hasChoice(got, "Bal maskowy", "masquerade") {
		t.Errorf("pl mas: %v", got)
	}
	masquerade := "once-upon-a-time,masquerade"
	if got := ask(ala, "a,mas", game); len(got) == 0 || got[0].Value != masquerade || got[0].Name != "Dawno, dawno temu… · Bal maskowy" {
		t.Errorf("pl a,mas: %v", got)
	}
	if got := ask(olena, "маск", game); len(got) == 0 || got[0].Value != "masquerade" || got[0].Name != "Бал-маскарад" {
		t.Errorf("uk маск: %v", got)
	}
	if got := ask(ala, "prezent slub", game); len(got) != 1 || got[0].Value != "wedding-gift" {
		t.Errorf("pl without accents: %v", got)
	}

	// The edition chosen decides the cards.
	classic := discordtest.Opt("edition", "classic")
	if got := ask(bob, "inv", game, classic); len(got) == 0 || got[0].Value != "invitation" || got[0].Name != "Invitation" {
		t.Errorf("classic inv: %v", got)
	}
	if got := ask(bob, "inv", game); slices.Contains(choiceValues(got), "invitation") {
		t.Errorf("deluxe inv offers Invitation: %v", got)
	}
	all := choiceValues(ask(bob, "a,", game, classic))
	if !slices.Contains(all, "once-upon-a-time,invitation") || slices.Contains(all, "once-upon-a-time,magic-beans") || slices.Contains(all, "once-upon-a-time,once-upon-a-time") {
		t.Errorf("classic a,: %v", all)
	}
	deluxe := choiceValues(ask(bob, "a,", game))
	if !slices.Contains(deluxe, "once-upon-a-time,magic-beans") || slices.Contains(deluxe, "once-upon-a-time,invitation") {
		t.Errorf("deluxe a,: %v", deluxe)
	}
	// A game without the option suggests nothing.
	if got := ask(bob, "a", discordtest.Opt("game", "lynx")); len(got) != 0 {
		t.Errorf("lynx: %v", got)
	}

	// Hand-made autocomplete payloads: a focused option that is not
	// autocompleted, an over-long value, another subcommand are answered
	// with no choices; one without a focused option is dropped.
	cmd := r.fake.Commands("")[0]
	payload := func(sub string, options ...map[string]any) map[string]any {
		return r.fake.InteractionPayload(discordtest.InteractionAutocomplete, ala, channelID, map[string]any{
			"id": cmd.ID, "name": cmd.Name, "type": 1,
			"options": []any{map[string]any{"type": 1, "name": sub, "options": options}},
		}, nil)
	}
	str := func(name, v string, focused bool) map[string]any {
		return map[string]any{"type": 3, "name": name, "value": v, "focused": focused}
	}
	for name, p := range map[string]map[string]any{
		"focused game":   payload("open", str("game", "pri", true)),
		"over-long":      payload("open", str("rounds", strings.Repeat("a,", 3000), true)),
		"rules card":     payload("rules", str("game", "princesses", false), str("card", "mas", true)),
		"two focused":    payload("open", str("game", "pri", true), str("rounds", "mas", true)),
		"none focused":   payload("open", str("rounds", "mas", false)),
		"number focused": payload("open", map[string]any{"type": 3, "name": "rounds", "value": 5, "focused": true}),
	} {
		asked++
		in, err := r.fake.DispatchInteraction(p)
		if err != nil {
			t.Fatal(err)
		}
		if name == "two focused" || name == "none focused" {
			time.Sleep(100 * time.Millisecond)
			r.idle()
			if _, acked := in.Response(); acked {
				t.Errorf("%s: answered", name)
			}
			asked--
			continue
		}
		if resp := in.Wait(context.Background()); resp.Type != discordtest.CallbackAutocompleteResult || len(resp.Choices) != 0 {
			t.Errorf("%s: %+v", name, resp)
		}
	}
	r.idle()
	if made := guard.made(); len(made) != 0 {
		t.Errorf("autocomplete read the store: %v", made)
	}
	if n := r.fake.RESTCalls() - calls; n != asked {
		t.Errorf("%d REST calls for %d autocomplete answers: %v", n, asked, r.fake.Calls()[calls:])
	}
	guard.watching.Store(false)

	// The suggested value opens a table of those round cards.
	id := r.open(guildID, channelID, "princesses", 3, []discordtest.Arg{discordtest.Opt("rounds", masquerade), discordtest.Opt("powers", "off")}, ala)
	rec, _, err := r.db.Load(context.Background(), id)
	if err != nil || rec.Setup.Options["rounds"] != masquerade {
		t.Fatalf("table %s options %v, %v", id, rec.Setup.Options, err)
	}
	tm := r.tableMessage(id)
	if sc := replayScreen(t, r.db, r.loc, id); !strings.Contains(sc.Title, "1") || !strings.Contains(sc.Title, "2") ||
		!strings.Contains(shownText(tm), sc.Title) || !strings.Contains(shownText(tm), "**Dawno, dawno temu…**") {
		t.Errorf("the table message does not show round 1 of 2, Dawno, dawno temu… (%q): %s", sc.Title, shownText(tm))
	}
	_ = uk
	r.fake.AssertNoErrors(t)
}

// A list of round cards chosen through autocomplete is played: the second
// round is the card suggested.
func TestRoundsChosenByAutocompleteArePlayed(t *testing.T) {
	w := newWorld(t)
	defer gameDeadline(t)()
	got := autocompleteRounds(t, w.fake, ala, "a, bal mask", discordtest.Opt("game", "princesses"))
	if len(got) != 1 || got[0].Value != "once-upon-a-time,masquerade" {
		t.Fatalf("a, bal mask: %v", got)
	}
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 3),
		discordtest.Opt("rounds", got[0].Value.(string)), discordtest.Opt("powers", "off"), discordtest.Opt("language", "pl"))
	id := w.tableID()
	m := w.do(w.fake.Click(ala, w.tableMessage(id), "lobby/"+id+"/start"))
	w.do(w.fake.Click(ala, m, "lobby/"+id+"/startai"))
	pl := w.loc.Lang("pl")
	if tm := w.tableMessage(id); !strings.Contains(shownText(tm), "Dawno, dawno temu…") {
		t.Errorf("round 1 is not Dawno, dawno temu…: %s", tm)
	}
	w.play(id, rand.New(rand.NewPCG(3, 2)), 400)
	if rec, _, err := w.db.Load(context.Background(), id); err != nil || rec.Status != table.StatusFinished {
		t.Fatalf("the game did not end: %s, %v", rec.Status, err)
	}
	w.fake.AssertNoErrors(t)
	var started []string
	for _, m := range w.fake.Messages(w.gameChannel(id)) {
		for _, card := range []string{"Dawno, dawno temu…", "Bal maskowy"} {
			for n := 1; n <= 2; n++ {
				line := pl.T("princesses.event.round_started", map[string]any{"Round": n, "Card": card, "Name": ""})
				if strings.Contains(shownText(m), line[:strings.Index(line, card)+len(card)]) {
					started = append(started, card)
				}
			}
		}
	}
	if !slices.Contains(started, "Bal maskowy") {
		t.Errorf("no round of Bal maskowy was announced; rounds started: %v", started)
	}
}
