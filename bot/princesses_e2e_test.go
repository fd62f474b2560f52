package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	princessesview "github.com/stolik-bot/stolik/render/princesses"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/bot/discordtest"
	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// hardRounds are the round cards that change how a trick is played the
// most: Masquerade (everyone after the leader plays face down at once),
// Wedding Gift (a face-down gift pile before every trick) and Prince Always
// Rings Twice (two cards per seat in every trick).
const hardRounds = "masquerade,wedding-gift,rings-twice"

// hardPowers are the powers whose use takes the most steps on Discord:
// Sleeping Beauty (every seat gives her a card; deluxe, she hands them on
// to the seats of her choice), the Ice Princess (deluxe: she names a seat,
// then picks the card to freeze), Mulan (offered when every card is down)
// and Alice (offered when she wins a trick).
var hardPowers = []string{"sleeping-beauty", "ice-princess", "mulan", "alice"}

// TestRebelPrincessHardGames plays whole games of both editions through
// the fake Discord with the hardest round cards, four human players
// holding the hardest powers. The users read only the bot's components;
// each uses their power whenever the bot offers it. After every
// interaction, every message that changed is checked against the engine:
// nobody sees a card they may not know.
//
// Sleeping Beauty and the Ice Princess may be announced at any time, so
// they are used in every game. Mulan and Alice come up only when the cards
// allow (Alice must win a trick without the Frog): a game where one never
// did, as the oracle confirms, is followed by another, up to three.
func TestRebelPrincessHardGames(t *testing.T) {
	t.Parallel()
	for k, ed := range []string{"deluxe", "classic"} {
		t.Run(ed, func(t *testing.T) {
			w := newWorld(t)
			rng := rand.New(rand.NewPCG(11, uint64(k)))
			seen := map[string]string{}
			used := map[string]int{}
			for game := 1; ; game++ {
				h := w.openHard(ed, seen)
				h.chooseHard()
				h.playOut(rng, 2500)
				h.assertHard()
				var missing []string
				for _, p := range hardPowers {
					used[p] += h.offered[p]
					if used[p] == 0 {
						missing = append(missing, p)
					}
				}
				if len(missing) == 0 {
					return
				}
				if game == 3 {
					t.Fatalf("after %d games, never offered: %v", game, missing)
				}
				t.Logf("game %d: %v never came up; another game", game, missing)
			}
		})
	}
}

// hardTable is a table being played by four humans, with the engine as the
// oracle of what each of them may know.
type hardTable struct {
	changes *discordtest.Changes // the messages changed since the last check
	w       *world
	t       *testing.T
	id      string
	edition string
	power   map[string]string // user -> the power they were dealt and keep
	seat    map[string]engine.Seat
	user    map[engine.Seat]string
	sent    int // whole actions sent through components

	// The oracle: the table's state replayed step by step from the store.
	g       engine.Game
	setup   engine.Setup
	st      engine.State
	applied int
	round   string
	newDeal bool
	// known are the cards each seat has held, put forward or been shown
	// privately since the deal; public are the cards shown to everyone
	// since the last check.
	known   map[engine.Seat]map[princesses.Card]bool
	public  map[princesses.Card]bool
	onTable []princesses.Card
	seen    map[string]string // message id -> text checked
	checked int               // messages checked
	rec     table.Record      // as of the last check
	table   *discordtest.Message
	thread  string // where the game is played

	// Probes of the checker itself: a message naming a secret card is
	// posted, and the checker must see the leak.
	poster  *discordgo.Session
	probing bool
	hits    []string // the users the probe's leak was found for
	probed  map[string]bool

	// What happened, for the assertions.
	events      map[string]int // event type, and "power_used <power>"
	actions     map[string]int // log entries by their first word, and "masked"
	maxTrick    map[string]int // round card -> the most cards seen in one trick
	labelled    int            // controls naming a seat whose label was checked
	faceDown    int            // plays labelled face down (Masquerade)
	missedAlice int            // tricks Alice won unasked, her power unused
	offered     map[string]int // power -> times a user was offered to use it
}

// openHard opens tables until the engine, set up as the bot set it up,
// offers each of the four hard powers to a different seat; then the four
// users sit down in that order and the game starts.
func (w *world) openHard(edition string, seen map[string]string) *hardTable {
	t := w.t
	t.Helper()
	ctx := context.Background()
	g, _ := engine.Lookup("princesses")
	users := []string{ala, olena, bob, zosia}
	for attempt := 0; attempt < 400; attempt++ {
		w.openRounds(edition, hardRounds)
		id := w.tableID()
		rec, _, err := w.db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		st, err := engine.Start(g, rec.Setup, nil)
		if err != nil {
			t.Fatal(err)
		}
		offered := make([][]string, rec.Setup.Seats)
		for s := range offered {
			offered[s] = st.View(engine.Seat(s)).(*princesses.View).Offered
		}
		match, ok := matchPowers(offered, hardPowers)
		if !ok {
			if m := w.slash(ala, "abandon"); shownText(m) != w.loc.Lang("pl").T("bot.abandoned", nil) {
				t.Fatalf("abandoning lobby %s: %q", id, shownText(m))
			}
			continue
		}
		t.Logf("%s: table %s after %d lobbies; dealt %v", edition, id, attempt+1, offered)
		for _, u := range users[1:] {
			w.do(w.fake.Click(u, w.tableMessage(id), "lobby/"+id+"/join"))
		}
		w.do(w.fake.Click(ala, w.tableMessage(id), "lobby/"+id+"/start"))
		rec, _, err = w.db.Load(ctx, id)
		if err != nil || rec.Status != table.StatusPlaying {
			t.Fatalf("table %s: status %s, %v", id, rec.Status, err)
		}
		h := &hardTable{
			w: w, t: t, id: id, edition: edition,
			power: map[string]string{}, seat: map[string]engine.Seat{}, user: map[engine.Seat]string{},
			g: g, setup: rec.Setup, st: st,
			known: map[engine.Seat]map[princesses.Card]bool{}, public: map[princesses.Card]bool{}, seen: seen,
			events: map[string]int{}, actions: map[string]int{}, maxTrick: map[string]int{}, offered: map[string]int{},
			probed: map[string]bool{},
		}
		for _, si := range rec.Seats {
			if si.Kind != table.Human || users[si.Seat] != si.UserID {
				t.Fatalf("seat %d is %+v, want %s (the order they sat down)", si.Seat, si, users[si.Seat])
			}
			h.seat[si.UserID], h.user[si.Seat] = si.Seat, si.UserID
			h.power[si.UserID] = match[si.Seat]
		}
		h.learn()
		h.check(nil)
		return h
	}
	t.Fatalf("%s: no deal offered the powers %v to four seats", edition, hardPowers)
	return nil
}

// openRounds has ala open a 4-seat table of Rebel Princess with powers and
// the given round cards (a value /stolik open's autocomplete suggests).
func (w *world) openRounds(edition, rounds string) {
	w.t.Helper()
	w.slash(ala, "open", discordtest.Opt("game", "princesses"), discordtest.Opt("seats", 4), discordtest.Opt("edition", edition),
		discordtest.Opt("rounds", rounds), discordtest.Opt("powers", "on"), discordtest.Opt("language", "pl"))
}

// hardLang is each user's language as the bot answers them.
var hardLang = map[string]string{ala: "pl", olena: "uk", bob: "en", zosia: "pl", eve: "en"}

// matchPowers gives each seat a different one of powers among those it was
// offered.
func matchPowers(offered [][]string, powers []string) ([]string, bool) {
	if len(offered) != len(powers) {
		return nil, false
	}
	var try func(s int, left []string) []string
	try = func(s int, left []string) []string {
		if s == len(offered) {
			return []string{}
		}
		for i, p := range left {
			if !slices.Contains(offered[s], p) {
				continue
			}
			rest := slices.Delete(slices.Clone(left), i, i+1)
			if more := try(s+1, rest); more != nil {
				return append([]string{p}, more...)
			}
		}
		return nil
	}
	out := try(0, powers)
	return out, out != nil
}

// chooseHard has every user keep the power chosen for them, through the
// princess buttons of their hand.
func (h *hardTable) chooseHard() {
	w := h.w
	for _, u := range []string{ala, olena, bob, zosia} {
		hand := h.do(w.fake.Click(u, h.table, h.table.Control("hand/"+h.id)))
		var ids []string
		for _, c := range choicesOf(hand) {
			if c.action == "choose "+h.power[u] {
				ids = append(ids, c.comp.CustomID)
			}
		}
		if len(ids) != 1 {
			h.t.Fatalf("%s: no button to choose %s: %s", u, h.power[u], hand)
		}
		h.do(w.fake.Click(u, hand, ids[0]))
		h.sent++
	}
	_, st, _ := w.current(h.id)
	for u, s := range h.seat {
		if p := st.View(s).(*princesses.View).Princess[s]; p != h.power[u] {
			h.t.Fatalf("%s (seat %d) holds %q, chose %q", u, s, p, h.power[u])
		}
	}
}

// do is world.do, then the checks every interaction gets: the answer fits
// Discord's limits (which the fake enforces too) and nobody sees what they
// may not know.
func (h *hardTable) do(in *discordtest.Interaction) *discordtest.Message {
	h.t.Helper()
	m := h.w.do(in)
	if n := utf8.RuneCountInString(shownText(m)); n > 2000 {
		h.t.Errorf("an answer of %d characters: %s", n, m)
	}
	rows := 0
	for _, c := range m.Components {
		if c.Type == discordtest.ComponentActionRow {
			rows++
		}
	}
	if rows > 5 {
		h.t.Errorf("an answer with %d rows: %s", rows, m)
	}
	h.check(m)
	return m
}

// choice is one thing a user can do on a hand message: a button, an option
// of a select menu, or (a pass) a set of options of a multi-select.
type choice struct {
	comp    discordtest.Component
	values  []string
	label   string
	action  string // the action in notation, or the beginning of several
	partial bool   // a step towards an action, not an action
}

// choicesOf lists the controls of a hand message, without its Back button.
func choicesOf(m *discordtest.Message) []choice {
	var out []choice
	for _, row := range m.Components {
		for _, c := range row.Components {
			rest, ok := strings.CutPrefix(c.CustomID, "t/")
			if !ok {
				continue
			}
			parts := strings.SplitN(rest, "/", 3)
			if len(parts) != 3 {
				continue
			}
			act := parts[2]
			switch {
			case act == "~hand":
			case c.IsSelect() && strings.HasPrefix(act, "~sel"):
				for _, o := range c.Options {
					v, partial := strings.CutPrefix(o.Value, ">")
					out = append(out, choice{comp: c, values: []string{o.Value}, label: o.Label, action: v, partial: partial})
				}
			case c.IsSelect():
				// A pass: pick as many cards as the menu wants (the first
				// half of a two-way pass is a step).
				out = append(out, choice{comp: c, action: act, partial: strings.HasPrefix(act, "~")})
			default:
				v, partial := strings.CutPrefix(act, ">")
				out = append(out, choice{comp: c, label: c.Label, action: v, partial: partial})
			}
		}
	}
	return out
}

// usesPower reports whether an action (or the beginning of several) uses a
// power: announcing one, Mulan's swap, Alice's redeal.
func usesPower(action string) (string, bool) {
	f := strings.Fields(action)
	switch {
	case len(f) == 0:
		return "", false
	case len(f) >= 2 && f[0] == "declare":
		return f[1], true
	case len(f) == 1 && f[0] == "declare":
		return "", true
	case f[0] == "mulan" && (len(f) != 2 || f[1] != "none"):
		return "mulan", true
	case action == "alice":
		return "alice", true
	}
	return "", false
}

// turn has user open "My hand" and follow its controls until one action
// is sent: a power whenever one is offered, else a random control.
func (h *hardTable) turn(u string, rng *rand.Rand) {
	t, w := h.t, h.w
	t.Helper()
	hand := h.do(w.fake.Click(u, h.table, h.table.Control("hand/"+h.id)))
	for step := 0; step < 6; step++ {
		cs := choicesOf(hand)
		if len(cs) == 0 {
			t.Fatalf("%s has no controls: %s", u, hand)
		}
		h.checkLabels(u, cs)
		var pow []choice
		var rest []choice
		for _, c := range cs {
			if p, ok := usesPower(c.action); ok {
				if p != "" && p != h.power[u] {
					t.Errorf("%s (%s) is offered another power: %q", u, h.power[u], c.action)
				}
				pow = append(pow, c)
			} else if c.action != "withdraw" || len(cs) == 1 {
				rest = append(rest, c)
			}
		}
		var c choice
		if len(pow) > 0 {
			c = pow[rng.IntN(len(pow))]
			if !c.partial {
				h.offered[h.power[u]]++
			}
		} else {
			c = rest[rng.IntN(len(rest))]
			if h.power[u] == "alice" {
				c = highest(rest, c)
			}
		}
		var in *discordtest.Interaction
		switch {
		case c.comp.IsSelect() && c.values == nil:
			n := 1
			if c.comp.MinValues != nil {
				n = *c.comp.MinValues
			}
			var vals []string
			for _, k := range rng.Perm(len(c.comp.Options))[:n] {
				vals = append(vals, c.comp.Options[k].Value)
			}
			in = w.fake.Select(u, hand, c.comp.CustomID, vals...)
		case c.comp.IsSelect():
			in = w.fake.Select(u, hand, c.comp.CustomID, c.values...)
		default:
			in = w.fake.Click(u, hand, c.comp.CustomID)
		}
		v := h.applied
		hand = h.do(in)
		if c.partial {
			if h.applied != v {
				t.Fatalf("%s: a step (%q) changed the table", u, c.action)
			}
			continue
		}
		if h.applied != v+1 {
			t.Fatalf("%s: %q was not taken (log %d → %d): %s", u, c.action, v, h.applied, hand)
		}
		h.sent++
		return
	}
	t.Fatalf("%s: no action after 6 steps: %s", u, hand)
}

// highest is the play of the highest card among cs (def if none): Alice's
// player tries to win tricks, so that her power comes up in every game.
func highest(cs []choice, def choice) choice {
	best, rank := def, 0
	for _, c := range cs {
		a, err := princesses.ParseAction(c.action)
		if err == nil && a.Kind == princesses.KindPlay && a.Cards[0].Rank() > rank {
			best, rank = c, a.Cards[0].Rank()
		}
	}
	return best
}

// checkLabels: a play after a Masquerade lead is offered under the card's
// name, in a menu that says it is face down or as a button under the
// hand's prompt that says so; a control that names a
// seat (announcing the Ice Princess on a player, Sleeping Beauty handing a
// card on, Pocahontas) names the player, as the table shows them, not a
// seat number.
func (h *hardTable) checkLabels(u string, cs []choice) {
	l := h.w.loc.Lang(hardLang[u])
	v := h.st.View(h.seat[u]).(*princesses.View)
	for _, c := range cs {
		if c.partial || c.label == "" {
			continue
		}
		a, err := princesses.ParseAction(c.action)
		if err != nil {
			continue
		}
		if a.Kind == princesses.KindPlay && a.Pow == 0 && len(v.Masked) > 0 && v.Seat != v.Leader {
			// In a menu, the menu says face down; as a button, the card
			// under the hand's prompt, which says it (the screen tests).
			h.faceDown++
			want := l.T("princesses.control.menu.play_masked", nil)
			card := princessesview.PrincessCard(l, a.Cards[0])
			if !strings.Contains(c.label, card) || (c.comp.IsSelect() && c.comp.Placeholder != want) {
				h.t.Errorf("%s: a face-down play is %q in %q, want %q in a menu %q or on a button", u, c.label, c.comp.Placeholder, card, want)
			}
		}
		target := a.TargetSeat()
		if target < 0 || a.No {
			continue
		}
		h.labelled++
		name := h.w.name(h.user[target])
		if !strings.Contains(c.label, name) {
			h.t.Errorf("%s: the control for %q does not name %s: %q", u, c.action, name, c.label)
		}
	}
}

// playOut plays until the game is over: a user who must act (now and then
// one who need not, but may announce a power) takes a turn.
func (h *hardTable) playOut(rng *rand.Rand, maxTurns int) {
	t := h.t
	for turns := 0; ; turns++ {
		if turns == maxTurns {
			t.Fatalf("not over after %d turns", turns)
		}
		h.maybeProbe()
		m := h.table
		if !playing(m) {
			return
		}
		acting := toAct(m)
		if len(acting) == 0 {
			t.Fatalf("nobody to act: %q", shownText(m))
		}
		for _, u := range acting {
			if !engine.IsActing(h.st, h.seat[u]) {
				t.Fatalf("%s is mentioned but need not act", u)
			}
		}
		u := acting[rng.IntN(len(acting))]
		if rng.IntN(3) == 0 {
			var waiting []string
			for s, wu := range h.user {
				if engine.IsActing(h.st, s) {
					continue
				}
				for _, a := range engine.AnyLegal(h.st, s) {
					if strings.HasPrefix(a.String(), "declare ") {
						waiting = append(waiting, wu)
						break
					}
				}
			}
			if len(waiting) > 0 {
				slices.Sort(waiting)
				u = waiting[rng.IntN(len(waiting))]
			}
		}
		h.turn(u, rng)
	}
}

// ---------------------------------------------------------------- oracle

// learn applies the log entries the oracle has not seen, noting what each
// seat comes to know and what happens.
func (h *hardTable) learn() {
	t := h.t
	rec, log, err := h.w.db.Load(context.Background(), h.id)
	if err != nil {
		t.Fatal(err)
	}
	h.rec = rec
	for i := h.applied; i < len(log); i++ {
		m := engine.Move{Seat: log[i].Seat, Action: log[i].Action}
		before := h.st.View(m.Seat).(*princesses.View)
		evs, err := engine.Step(h.g, h.st, h.setup.Seed, i, m, nil)
		if err != nil {
			t.Fatalf("replaying %d %v: %v", i, m, err)
		}
		h.applied = i + 1
		word := strings.Fields(m.Action)[0]
		h.actions[word]++
		if word == "play" && before.RoundCard == "masquerade" && len(before.Trick) > 0 {
			h.actions["masked"]++
		}
		for _, e := range evs {
			if s, ok := e.Args["seat"].(engine.Seat); ok && e.Type == "trick_won" && h.power[h.user[s]] == "alice" && !before.Used[s] {
				cs, _ := e.Args["cards"].([]string)
				if !slices.Contains(cs, "A8") {
					h.missedAlice++
				}
			}
			h.events[e.Type]++
			if e.Type == "power_used" {
				h.events["power_used "+e.Args["power"].(string)]++
			}
			for _, c := range eventCards(e) {
				if e.Audience == engine.Everyone {
					h.public[c] = true
				} else {
					h.knows(e.Audience, c)
				}
			}
		}
		h.look()
	}
	if h.applied == 0 {
		h.look()
	}
}

// look notes what every seat may now know from its own view, and the
// largest trick of the round.
func (h *hardTable) look() {
	pub := h.st.View(engine.Spectator).(*princesses.View)
	round := fmt.Sprint(pub.Round, pub.Extra)
	if round != h.round {
		h.round, h.newDeal = round, true
	}
	n := len(pub.Trick)
	for _, m := range pub.Masked {
		if m {
			n++
		}
	}
	h.maxTrick[pub.RoundCard] = max(h.maxTrick[pub.RoundCard], n)
	for s := 0; s < h.setup.Seats; s++ {
		v := h.st.View(engine.Seat(s)).(*princesses.View)
		h.knows(engine.Seat(s), own(v)...)
		h.knows(engine.Seat(s), v.Offers...)
		h.knows(engine.Seat(s), v.MyFrozen)
	}
}

func (h *hardTable) knows(s engine.Seat, cs ...princesses.Card) {
	if h.known[s] == nil {
		h.known[s] = map[princesses.Card]bool{}
	}
	for _, c := range cs {
		if c != 0 {
			h.known[s][c] = true
		}
	}
}

// own lists the cards a view shows as its seat's: in hand, put forward,
// set aside, given, played face down, or held by its power.
func own(v *princesses.View) []princesses.Card {
	out := slices.Clone(v.Hand)
	out = append(out, v.MyPass...)
	out = append(out, v.MySetAside...)
	out = append(out, v.MyGift, v.MyMasked)
	return append(out, v.Held...)
}

// eventCards lists the cards an event names.
func eventCards(e engine.Event) []princesses.Card {
	var out []princesses.Card
	for _, v := range e.Args {
		var ts []string
		switch x := v.(type) {
		case string:
			ts = []string{x}
		case []string:
			ts = x
		case [][]string: // gift piles counted at the round's end
			ts = slices.Concat(x...)
		}
		for _, t := range ts {
			if c, ok := princesses.ParseCard(t); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// secrets are the cards seat s may not know now: what the other seats hold
// in hand (but a revealed card), put forward, set aside, gave to the gift
// pile, played face down or hold by a power, unless s has held it or been
// shown it since the deal, or it was shown to everyone since the last
// check.
func (h *hardTable) secrets(s engine.Seat, public map[princesses.Card]bool) map[princesses.Card]bool {
	out := map[princesses.Card]bool{}
	for o := 0; o < h.setup.Seats; o++ {
		if engine.Seat(o) == s {
			continue
		}
		v := h.st.View(engine.Seat(o)).(*princesses.View)
		for _, c := range own(v) {
			if c != 0 && !slices.Contains(v.Revealed[o], c) && !h.known[s][c] && !public[c] {
				out[c] = true
			}
		}
	}
	return out
}

// check brings the oracle up to date and checks the messages that may have
// changed: the interaction's answer, the table message, the messages where
// the game is played (its thread) and every player's private messages. finalSweep proves, at the end,
// that no other message naming a card was ever shown.
func (h *hardTable) check(answer *discordtest.Message) {
	t, w := h.t, h.w
	t.Helper()
	h.learn()
	public := h.public
	for _, c := range h.onTable {
		public[c] = true
	}
	pub := h.st.View(engine.Spectator).(*princesses.View)
	h.onTable = h.onTable[:0]
	for _, p := range pub.Trick {
		h.onTable = append(h.onTable, p.Card)
		public[p.Card] = true
	}
	for _, rs := range pub.Revealed {
		for _, c := range rs {
			public[c] = true
		}
	}
	var msgs []*discordtest.Message
	if answer != nil {
		msgs = append(msgs, answer)
	}
	if h.table = w.fake.Message(h.rec.MessageID); h.table == nil {
		t.Fatalf("the table message %s is gone", h.rec.MessageID)
	}
	msgs = append(msgs, h.table)
	if h.thread == "" {
		h.thread = w.gameChannel(h.id)
	}
	msgs = append(msgs, w.fake.Messages(h.thread)...)
	viewers := append([]string{ala, olena, bob, zosia}, eve)
	if h.changes == nil {
		h.changes = w.fake.Changes()
	}
	for _, u := range viewers {
		// Whatever else changed that the user sees: their hand messages,
		// brought up to date by the bot when their turn comes back.
		msgs = append(msgs, h.changes.VisibleTo(u)...)
	}
	defer h.changes.Mark()
	secret := map[string]map[princesses.Card]bool{}
	for _, m := range msgs {
		text := m.Text()
		if h.seen[m.ID] == text {
			continue
		}
		h.seen[m.ID] = text
		h.checked++
		named := h.cardsIn(text)
		if len(named) == 0 {
			continue
		}
		for _, u := range viewers {
			if m.Ephemeral() && m.EphemeralTo != u {
				continue
			}
			seat, seated := h.seat[u]
			if !seated {
				seat = engine.Spectator
			}
			if secret[u] == nil {
				secret[u] = h.secrets(seat, public)
			}
			for _, c := range named {
				if !secret[u][c] {
					continue
				}
				if h.probing {
					h.hits = append(h.hits, u)
					continue
				}
				t.Errorf("LEAK: %s (seat %d) sees %s in %s", u, seat, c, m)
			}
		}
	}
	h.public = map[princesses.Card]bool{}
	if h.newDeal {
		// Cards known before the deal say nothing of the new hands.
		h.newDeal = false
		h.known = map[engine.Seat]map[princesses.Card]bool{}
		h.look()
		h.newDeal = false
	}
}

var (
	allCards  []princesses.Card
	cardNames [][]string // per card, its name in every language
)

// cardsIn lists the cards a text names (in any language, as whole words),
// leaving out the texts of round and princess cards.
func (h *hardTable) cardsIn(text string) []princesses.Card {
	w := h.w
	patternsMu.Lock()
	if allCards == nil {
		for _, su := range "QFAP" {
			for r := 1; r <= 12; r++ {
				c, _ := princesses.ParseCard(fmt.Sprintf("%c%d", su, r))
				var names []string
				for _, lang := range locales.Languages() {
					names = append(names, princessesview.PrincessCard(w.loc.Lang(lang), c))
				}
				allCards, cardNames = append(allCards, c), append(cardNames, names)
			}
		}
	}
	patternsMu.Unlock()
	text = w.withoutRuleTexts(text)
	var out []princesses.Card
	for i, c := range allCards {
		for _, n := range cardNames[i] {
			if namesWord(text, n) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// namesWord reports whether text holds name as cardPatterns match it, not
// inside a word nor followed by a digit ("Queen 1" is not in "Queen 10"),
// without regexps, which are slow under -race.
func namesWord(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (j == 0 || !unicode.IsLetter(before) && !unicode.IsNumber(before)) && (end == len(text) || !unicode.IsNumber(after)) {
			return true
		}
		i = j + 1
	}
}

// finalSweep: every message any user can see was checked as it now reads.
func (h *hardTable) finalSweep() {
	for _, u := range append([]string{ala, olena, bob, zosia}, eve) {
		for _, m := range h.w.fake.VisibleTo(u) {
			if text := m.Text(); h.seen[m.ID] != text && h.cardsIn(text) != nil {
				h.t.Errorf("a message naming cards was never checked: %s", m)
			}
		}
	}
}

// ---------------------------------------------------------------- probes

// maybeProbe tests the checker on each kind of secret the first time the
// game has one: a card in another seat's hand, played face down, on the
// gift pile, given to Sleeping Beauty, or drawn by the Ice Princess. A
// message naming it is posted in the table's channel; every user but its
// owner (and those who have legitimately seen it) must be found to see a
// secret.
func (h *hardTable) maybeProbe() {
	pub := h.st.View(engine.Spectator).(*princesses.View)
	for s := 0; s < h.setup.Seats; s++ {
		v := h.st.View(engine.Seat(s)).(*princesses.View)
		switch {
		case !h.probed["hand"] && pub.Phase == "play" && len(v.Hand) > 0:
			h.probe("hand", engine.Seat(s), v.Hand[len(v.Hand)-1])
		case !h.probed["masked"] && v.MyMasked != 0:
			h.probe("masked", engine.Seat(s), v.MyMasked)
		case !h.probed["gift"] && v.MyGift != 0 && pub.Phase == "play":
			h.probe("gift", engine.Seat(s), v.MyGift)
		case !h.probed["offer"] && pub.Phase == "offer" && len(v.MyPass) > 0:
			h.probe("offer", engine.Seat(s), v.MyPass[0])
		case !h.probed["held"] && len(v.Held) > 0:
			h.probe("held", engine.Seat(s), v.Held[0])
		}
	}
}

func (h *hardTable) probe(zone string, owner engine.Seat, c princesses.Card) {
	t, w := h.t, h.w
	t.Helper()
	h.probed[zone] = true
	if h.poster == nil {
		dg, err := discordgo.New("Bot test-token")
		if err != nil {
			t.Fatal(err)
		}
		w.fake.Configure(dg)
		h.poster = dg
	}
	var want []string
	for _, u := range append([]string{ala, olena, bob, zosia}, eve) {
		s, seated := h.seat[u]
		if !seated {
			s = engine.Spectator
		}
		if s != owner && !h.known[s][c] {
			want = append(want, u)
		}
	}
	if len(want) == 0 {
		t.Fatalf("probe %s: everyone knows %s", zone, c)
	}
	text := "probe: " + princessesview.PrincessCard(w.loc.Lang("uk"), c)
	if _, err := h.poster.ChannelMessageSend(h.thread, text); err != nil {
		t.Fatal(err)
	}
	h.probing, h.hits = true, nil
	h.check(nil)
	h.probing = false
	slices.Sort(want)
	slices.Sort(h.hits)
	if !slices.Equal(h.hits, want) {
		t.Errorf("probe %s (%s of seat %d): the checker found it shown to %v, want %v", zone, c, owner, h.hits, want)
	}
}

// ---------------------------------------------------------------- the end

func (h *hardTable) assertHard() {
	t, w := h.t, h.w
	h.check(nil)
	h.finalSweep()
	rec, log, err := w.db.Load(context.Background(), h.id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != table.StatusFinished {
		t.Fatalf("status %s", rec.Status)
	}
	if h.sent != len(log) {
		t.Errorf("%d actions were sent through components, the log has %d", h.sent, len(log))
	}
	t.Logf("%s: %d log entries, %d messages checked; actions %v; events %v; biggest tricks %v; powers offered %v; %d seat labels",
		h.edition, len(log), h.checked, h.actions, h.events, h.maxTrick, h.offered, h.labelled)

	// Each hard power used went through its sub-steps; the two that may be
	// announced at any time were used.
	for _, p := range []string{"sleeping-beauty", "ice-princess"} {
		if h.offered[p] == 0 {
			t.Errorf("%s was never offered", p)
		}
	}
	if h.missedAlice > 0 {
		t.Errorf("Alice's player won %d tricks without the Frog and her power unused, but was not offered it", h.missedAlice)
	}
	want := map[string][]string{
		"sleeping-beauty": {"power_used sleeping-beauty", "offers_done", "beauty_kept"},
		"ice-princess":    {"power_used ice-princess", "card_frozen"},
		"mulan":           {"mulan_swapped"},
		"alice":           {"alice_redealt"},
	}
	for p, evs := range want {
		for _, k := range evs {
			if h.offered[p] > 0 && h.events[k] == 0 {
				t.Errorf("%s: no %s event", p, k)
			}
		}
	}
	for _, k := range []string{"offer", "retain", "declare", "gift"} {
		if h.actions[k] == 0 {
			t.Errorf("no %s action", k)
		}
	}
	if h.edition == "deluxe" {
		for _, k := range []string{"assign", "freeze"} {
			if h.actions[k] == 0 {
				t.Errorf("no %s action", k)
			}
		}
		if h.labelled == 0 {
			t.Error("no control named a seat")
		}
	}
	for _, z := range []string{"hand", "masked", "gift", "offer"} {
		if !h.probed[z] {
			t.Errorf("the checker was never probed with a card %s", z)
		}
	}
	if h.edition == "deluxe" && !h.probed["held"] {
		t.Error("the checker was never probed with the Ice Princess's cards")
	}
	// The round cards: masked plays, gift piles, two cards each per trick.
	if h.actions["masked"] == 0 || h.faceDown == 0 || h.events["card_masked"] == 0 || h.events["cards_unmasked"] == 0 {
		t.Error("no masked play")
	}
	if h.events["gifts_placed"] == 0 {
		t.Error("no gift pile")
	}
	if n := h.maxTrick["rings-twice"]; n != 2*h.setup.Seats {
		t.Errorf("Prince Always Rings Twice: the biggest trick had %d cards", n)
	}
	w.fake.AssertNoErrors(t)
}
