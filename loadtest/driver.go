package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/bot/discordtest"
)

// driver plays one channel's tables as its users, one interaction at a
// time, the way people do: a user who holds controls for a move uses them
// (optional ones now and then); otherwise a user whom the table message mentions presses "My hand" —
// unless the hand they hold is already as new as the table message (they
// got it after the table message last changed: it is their own move that
// the table message has not caught up with yet), and then they wait.
type driver struct {
	h     *harness
	ch    string
	guild string // the channel's guild
	game  string
	seats int
	users []string // the human seats; the others are AI players
	rnd   *rand.Rand

	id     string                          // the current table
	msgID  string                          // its public message
	hand   map[string]*discordtest.Message // each user's last ephemeral answer
	handAt map[string]int                  // the table message's edit count when it came
	// unseen are the hands not yet counted in handPictures: a hand's
	// picture is edited into its answer after it, so it counts when the
	// user next uses the hand (or gets another).
	unseen map[string]unseenHand
	// declared are the users who have announced a power in advance in the
	// current game (Rebel Princess).
	declared map[string]bool
	idle     int // steps in a row where nobody did anything
}

var mentionRE = regexp.MustCompile(`<@(\d+)>`)

// optionalOdds: a user whom the table does not wait for uses the controls
// they hold at one step in optionalOdds.
const optionalOdds = 10

// interact dispatches one interaction and waits for its acknowledgement,
// recording the latency while the run is measured: the acknowledgement's
// as Discord would see it (discordtest.Interaction.AckLatency), and the
// round trip the simulated user saw, which adds the fake Discord's own
// work on either side and the wait for the user's goroutine to run.
func (d *driver) interact(ctx context.Context, kind string, f func() (*discordtest.Interaction, error)) (*discordtest.Interaction, error) {
	t0 := time.Now()
	in, err := f()
	if err != nil {
		return nil, err
	}
	measured := d.h.measuring.Load()
	select {
	case <-in.Acked():
	case <-time.After(5 * time.Second):
		if measured {
			d.h.mu.Lock()
			d.h.unacked++
			d.h.mu.Unlock()
		}
		return nil, fmt.Errorf("%s: no acknowledgement within 5 s", in)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	round := time.Since(t0)
	lat, ok := in.AckLatency()
	if !ok {
		lat = round
	}
	r, _ := in.Response()
	// A click on a public message (the table's My hand) is acknowledged
	// by a deferred update of it, and the answer the user reads is an
	// ephemeral follow-up: its latency is the follow-up's arrival.
	aside := r.Type == 6 && r.Message != nil && !r.Message.Ephemeral()
	if aside {
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && ctx.Err() == nil; time.Sleep(time.Millisecond) {
			if a := in.Answer(); a != nil && a.Ephemeral() {
				break
			}
		}
		round = time.Since(t0)
		lat = round
	}
	deferred := r.Type == 5 || (r.Type == 6 && !aside)
	if measured {
		d.h.mu.Lock()
		d.h.lat = append(d.h.lat, lat)
		d.h.roundLat = append(d.h.roundLat, round)
		d.h.latBy[kind] = append(d.h.latBy[kind], lat)
		if deferred {
			d.h.deferred++
		}
		d.h.mu.Unlock()
	}
	if deferred {
		// Deferred: the answer comes as an edit of the original message; the
		// user reads that, not the message as it was when deferred.
		edits := 0
		if m := in.Original(); m != nil {
			edits = m.Edits
		}
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && ctx.Err() == nil; time.Sleep(5 * time.Millisecond) {
			if m := in.Original(); m != nil && m.Edits > edits {
				break
			}
		}
	}
	return in, nil
}

// slash runs /stolik <sub> for a user and waits until the bot has answered
// it completely (a deferred answer filled).
func (d *driver) slash(ctx context.Context, user, sub string, args ...discordtest.Arg) error {
	_, err := d.interact(ctx, "command", func() (*discordtest.Interaction, error) {
		return d.h.fake.SlashCommandErr(user, d.guild, d.ch, "stolik", discordtest.Sub(sub, args...))
	})
	return err
}

// open opens a table in the driver's channel with every seat taken by one
// of its users, and starts it.
func (d *driver) open(ctx context.Context) error {
	args := []discordtest.Arg{discordtest.Opt("game", d.game), discordtest.Opt("seats", d.seats), discordtest.Opt("thread", false)}
	if d.h.cfg.AILevel != "" {
		args = append(args, discordtest.Opt("ai_level", d.h.cfg.AILevel))
	}
	if err := d.slash(ctx, d.users[0], "open", args...); err != nil {
		return err
	}
	var ids []string
	for try := 0; ; try++ {
		var err error
		if ids, err = d.h.db.InChannel(ctx, d.ch); err != nil {
			return err
		}
		if len(ids) > 0 || try == 100 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(ids) == 0 {
		return fmt.Errorf("channel %s: /stolik open made no table", d.ch)
	}
	d.id = ids[len(ids)-1]
	rec, _, err := d.h.db.Load(ctx, d.id)
	if err != nil {
		return err
	}
	d.msgID = rec.MessageID
	for _, u := range d.users[1:] {
		if err := d.slash(ctx, u, "join"); err != nil {
			return err
		}
	}
	var ai []discordtest.Arg
	if len(d.users) < d.seats {
		ai = append(ai, discordtest.Opt("ai", true))
	}
	if err := d.slash(ctx, d.users[0], "start", ai...); err != nil {
		return err
	}
	clear(d.hand)
	clear(d.handAt)
	clear(d.declared)
	d.h.mu.Lock()
	d.h.tableIDs = append(d.h.tableIDs, d.id)
	d.h.mu.Unlock()
	return nil
}

// play runs until ctx ends.
func (d *driver) play(ctx context.Context) {
	for ctx.Err() == nil {
		if d.h.cfg.Think > 0 {
			pause := time.Duration(d.rnd.ExpFloat64() * float64(d.h.cfg.Think))
			select {
			case <-time.After(min(pause, 10*d.h.cfg.Think)):
			case <-ctx.Done():
				return
			}
		}
		if err := d.step(ctx); err != nil && ctx.Err() == nil {
			d.h.fail("table %s (%s): %v", d.id, d.game, err)
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// controls lists the game controls of a message: buttons and selects whose
// custom_id is t/<table>/...
func controls(m *discordtest.Message, id string) []*discordtest.Component {
	if m == nil {
		return nil
	}
	var out []*discordtest.Component
	for _, cid := range m.CustomIDs() {
		if strings.HasPrefix(cid, "t/"+id+"/") && !strings.HasSuffix(cid, "/~hand") {
			if c := m.Component(cid); c != nil && !c.Disabled {
				out = append(out, c)
			}
		}
	}
	return out
}

// step makes one interaction.
func (d *driver) step(ctx context.Context) error {
	tm := d.h.fake.Message(d.msgID)
	if tm == nil {
		return fmt.Errorf("the table message %s is gone", d.msgID)
	}
	if !slices.Contains(tm.CustomIDs(), tm.Control("hand/"+d.id)) {
		if slices.Contains(tm.CustomIDs(), "lobby/"+d.id+"/start") {
			// Started, but the message is not redrawn yet.
			time.Sleep(10 * time.Millisecond)
			return nil
		}
		// The game is over: open the next one in the channel.
		if d.h.measuring.Load() {
			d.h.mu.Lock()
			d.h.finished++
			d.h.mu.Unlock()
		}
		return d.open(ctx)
	}
	// A user who holds controls and whose turn it is acts. A user who holds
	// controls while the table does not wait for them (optional actions,
	// such as announcing a Rebel Princess power in advance) uses them now
	// and then, not at every step.
	var mentioned []string
	for _, m := range mentionRE.FindAllStringSubmatch(tm.Text(), -1) {
		mentioned = append(mentioned, m[1])
	}
	first := d.rnd.IntN(len(d.users))
	for k := range d.users {
		u := d.users[(first+k)%len(d.users)]
		if h := d.hand[u]; h != nil {
			// The hand as the user sees it now: the bot brings an open
			// hand message up to date when the user's turn comes back.
			if live := d.h.fake.Message(h.ID); live != nil {
				d.hand[u] = live
			}
		}
		var cs []*discordtest.Component
		for _, c := range controls(d.hand[u], d.id) {
			if c.IsSelect() || d.wanted(u, strings.SplitN(c.CustomID, "/", 4)[3]) {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 || !slices.Contains(mentioned, u) && d.rnd.IntN(optionalOdds) != 0 {
			continue
		}
		c := cs[d.rnd.IntN(len(cs))]
		d.look(u)
		msg := d.hand[u]
		in, err := d.interact(ctx, "move", func() (*discordtest.Interaction, error) {
			if !c.IsSelect() {
				d.used(u, strings.SplitN(c.CustomID, "/", 4)[3])
				return d.h.fake.ClickErr(u, msg, c.CustomID)
			}
			n := 1
			if c.MinValues != nil {
				n = *c.MinValues
			}
			var opts []string
			for _, o := range c.Options {
				if d.wanted(u, strings.TrimPrefix(o.Value, ">")) {
					opts = append(opts, o.Value)
				}
			}
			if n > len(opts) {
				return nil, fmt.Errorf("select %s needs %d of %d options", c.CustomID, n, len(opts))
			}
			var vals []string
			for _, k := range d.rnd.Perm(len(opts))[:n] {
				vals = append(vals, opts[k])
				d.used(u, strings.TrimPrefix(opts[k], ">"))
			}
			return d.h.fake.SelectErr(u, msg, c.CustomID, vals...)
		})
		if err != nil {
			d.hand[u] = nil
			return err
		}
		d.got(u, in, false)
		d.idle = 0
		return nil
	}
	// Nobody acts: whom does the table wait for, and who of them has not
	// seen their hand since the table message last changed?
	var who []string
	for _, u := range mentioned {
		if slices.Contains(d.users, u) && !slices.Contains(who, u) && (d.hand[u] == nil || tm.Edits > d.handAt[u]) {
			who = append(who, u)
		}
	}
	if len(who) == 0 {
		// Everyone waits for the table message to catch up.
		d.idle++
		if d.idle == 100 {
			return fmt.Errorf("nobody could act for 100 steps: %q", tm.Text())
		}
		return nil
	}
	d.idle = 0
	u := who[d.rnd.IntN(len(who))]
	in, err := d.interact(ctx, "hand", func() (*discordtest.Interaction, error) {
		return d.h.fake.ClickErr(u, tm, tm.Control("hand/"+d.id))
	})
	if err != nil {
		return err
	}
	if d.h.measuring.Load() {
		d.h.mu.Lock()
		d.h.hands++
		d.h.mu.Unlock()
	}
	d.got(u, in, true)
	return nil
}

// unseenHand is an answer showing a hand, not yet looked at again: asked
// when it answers "My hand" (the bot draws its picture; an answer to a
// move shows the hand in words unless its picture was drawn before).
type unseenHand struct {
	id    string
	asked bool
}

// got keeps the answer to u's interaction as their hand, and how new the
// table message was when it came; asked: the answer to "My hand".
func (d *driver) got(u string, in *discordtest.Interaction, asked bool) {
	d.look(u)
	d.hand[u] = in.Answer()
	if tm := d.h.fake.Message(d.msgID); tm != nil {
		d.handAt[u] = tm.Edits
	}
	// A hand (a Components V2 answer): its picture may come after it.
	if m := d.hand[u]; m != nil && m.Flags&discordtest.FlagComponentsV2 != 0 && d.h.measuring.Load() {
		d.h.mu.Lock()
		d.h.handAnswers++
		if asked {
			d.h.askedAnswers++
		}
		d.h.mu.Unlock()
		if d.unseen == nil {
			d.unseen = map[string]unseenHand{}
		}
		d.unseen[u] = unseenHand{id: m.ID, asked: asked}
	}
}

// look is u looking at their hand again before using it: the message as
// it is now (its picture edited in, or not yet), counted in handPictures
// once.
func (d *driver) look(u string) {
	seen, ok := d.unseen[u]
	if !ok {
		return
	}
	id := seen.id
	delete(d.unseen, u)
	m := d.h.fake.Message(id)
	if m == nil {
		return
	}
	if h := d.hand[u]; h != nil && h.ID == id {
		d.hand[u] = m
	}
	if slices.ContainsFunc(m.Attachments, func(a discordtest.Attachment) bool { return strings.HasPrefix(a.Filename, "hand-") }) {
		d.h.mu.Lock()
		d.h.handPictures++
		if seen.asked {
			d.h.askedPictures++
		}
		d.h.mu.Unlock()
	}
}

// wanted reports whether a user would use a control for action: people
// announce a power in advance once a game at most, and do not take an
// announcement back at random (a random user would toggle it at every
// step, each toggle a cheap move without a handover).
func (d *driver) wanted(u, action string) bool {
	verb, _, _ := strings.Cut(action, " ")
	switch verb {
	case "withdraw":
		return false
	case "declare":
		return !d.declared[u]
	}
	return true
}

// used notes that a user chose action.
func (d *driver) used(u, action string) {
	if verb, _, _ := strings.Cut(action, " "); verb == "declare" {
		d.declared[u] = true
	}
}
