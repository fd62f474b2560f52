package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// onGameClick handles a control of an ephemeral hand: it answers by
// redrawing that message (UPDATE_MESSAGE). The seat is the clicking user's;
// the custom_id only names the table, the version and the action. A seat
// that need not act may still take its optional actions (engine.AnyLegal).
func (b *Bot) onGameClick(ctx context.Context, i *discordgo.Interaction, u user, c gameClick, values []string) {
	t0 := time.Now()
	r := b.newReply(i, true)
	unlock := b.lock(c.table)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, c.table)
	if !ok {
		return
	}
	seat, seated := seatOf(snap.Record, u.id)
	if !seated {
		if next, back, ok := b.reclaim(ctx, snap, u); ok {
			// The player is back: their old controls are stale, the new hand is not.
			r.send(ctx, b.handMessage(u.l, next, back, u.l.T("async.welcome_back", nil), ""))
			return
		}
		r.asNew()
		r.send(ctx, b.readerMessage(u.l, snap, u.l.T("bot.not_player", nil), nil))
		return
	}
	if snap.Record.Status != table.StatusPlaying {
		r.send(ctx, b.handMessage(u.l, snap, seat, "", ""))
		return
	}
	if c.action == "~hand" {
		r.send(ctx, b.handMessage(u.l, snap, seat, "", ""))
		return
	}
	stale := func() { r.send(ctx, b.handMessage(u.l, snap, seat, u.l.T("error.stale", nil), "")) }
	if c.version > snap.Version && shownOn(i) {
		// Discord holds a control drawn at a version the stored log never
		// reached (the clicked message, as Discord sends it, has it):
		// moves that players were shown are missing from it (a database
		// rolled back, a damaged write-ahead log). The table is never
		// served short: it is damaged, and reported. A custom_id the
		// message does not hold proves nothing: it is stale.
		b.rolledBack(ctx, r, u, c.table, c.version, snap.Version)
		return
	}
	fresh, err := b.tables.Stands(ctx, snap, seat, c.version)
	if err != nil {
		b.actFailed(ctx, r, u, snap, seat, "checking a click's version", err)
		return
	}
	if !fresh {
		stale()
		return
	}
	action := c.action
	switch {
	case action == pickFirst || action == "~passl": // ~passl: controls drawn before the rename
		if len(values) == 0 {
			stale()
			return
		}
		r.send(ctx, b.handMessage(u.l, snap, seat, "", strings.Join(values, " ")))
		return
	case strings.HasPrefix(action, "~sel"):
		if len(values) != 1 {
			stale()
			return
		}
		action = values[0]
	case strings.Contains(action, "*"):
		action = setAction(snap, seat, action, values)
	case strings.HasPrefix(action, "~"):
		stale()
		return
	}
	if prefix, ok := strings.CutPrefix(action, prefixMark); ok {
		// The beginning of several actions: offer the next step.
		r.send(ctx, b.handMessage(u.l, snap, seat, "", prefix))
		return
	}

	if !engine.IsActing(snap.State, seat) && !anyLegal(snap, seat, action) {
		// Not this seat's turn, and nothing it may do meanwhile.
		stale()
		return
	}
	before := slices.DeleteFunc(snap.State.Acting(), func(s engine.Seat) bool { return s == seat })
	evs, next, err := b.act(ctx, c.table, seat, action, snap.Version)
	if unsure := (*table.UnsureError)(nil); errors.As(err, &unsure) {
		b.unsureMove(ctx, r, u, seat, unsure, before)
		return
	}
	if err != nil {
		switch code := engine.Code(err); code {
		case engine.CodeStale:
			cur, gerr := b.tables.Get(ctx, c.table)
			if gerr == nil {
				snap = cur
				stale()
				return
			}
			b.actFailed(ctx, r, u, snap, seat, "acting", gerr, "action", action)
		case "":
			b.actFailed(ctx, r, u, snap, seat, "acting", err, "action", action)
		default:
			r.send(ctx, b.handMessage(u.l, snap, seat, render.Error(u.l, err), ""))
		}
		return
	}
	b.log.Debug("acted", "table", c.table, "seat", seat, "action", action, "version", next.Version)
	// The AI seats that move next do so before the answer when they are
	// quick: then the answer shows the table after them, and with it the
	// player's next move when it is theirs again, without a "My hand".
	more, after, done, err := b.runAIUntil(ctx, next, t0.Add(aiBeforeAnswer))
	if err != nil {
		b.log.Error("AI move", "table", c.table, "err", err)
	}
	note := ""
	if rg, ok := render.For(snap.Record.Setup.Game); ok {
		if a, err := snap.Game.ParseAction(action); err == nil {
			note = actedNote(u.l, rg, snap, seat, a, evs)
		}
	}
	r.send(ctx, b.handMessage(u.l, after, seat, note, ""))
	if !done && err == nil {
		rest, last, err := b.runAI(ctx, after)
		if err != nil {
			b.log.Error("AI move", "table", c.table, "err", err)
		}
		more, after = append(more, rest...), last
	}
	b.publish(ctx, after, append(evs, more...), before, true)
}

// rolledBack marks a table damaged whose stored log (stored moves) is
// behind a control Discord showed (drawn at version), and answers so: the
// table is never served short.
func (b *Bot) rolledBack(ctx context.Context, r *reply, u user, id string, version, stored int) {
	b.damaged(ctx, id, &table.CorruptError{ID: id, Err: fmt.Errorf(
		"a control drawn at version %d, but the stored log holds %d moves: moves the players were shown are missing (the database was rolled back)", version, stored)})
	if err := b.tables.Reload(ctx, id); err != nil {
		b.log.Warn("dropping a damaged table from the cache", "table", id, "err", err)
	}
	r.send(ctx, message{content: u.l.T("error.table_damaged", nil)})
}

// shownOn reports whether the message an interaction's component was
// clicked on, as Discord sent it with the interaction, holds that
// component: the custom_id is one Discord showed, not one made up.
func shownOn(i *discordgo.Interaction) bool {
	if i.Type != discordgo.InteractionMessageComponent || i.Message == nil {
		return false
	}
	return slices.Contains(customIDs(i.Message.Components), i.MessageComponentData().CustomID)
}

// customIDs lists the custom_ids of a message's buttons and menus, in
// rows, containers and sections (accessories included).
func customIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.Button:
			out = append(out, c.CustomID)
		case *discordgo.SelectMenu:
			out = append(out, c.CustomID)
		case *discordgo.ActionsRow:
			out = append(out, customIDs(c.Components)...)
		case *discordgo.Container:
			out = append(out, customIDs(c.Components)...)
		case *discordgo.Section:
			out = append(out, customIDs(c.Components)...)
			if c.Accessory != nil {
				out = append(out, customIDs([]discordgo.MessageComponent{c.Accessory})...)
			}
		}
	}
	return out
}

// unsureMove answers a move whose storing the store did not confirm (a
// failed sync, a commit cut by a lost connection): it may be in the log.
// The player hears that it is being checked, never that nothing changed;
// then, once the store can be read (tried again with a growing pause, for
// as long as the answer can be edited), the answer says what happened and
// shows the hand as the table now stands, and a stored move is shown to
// the table as any other.
func (b *Bot) unsureMove(ctx context.Context, r *reply, u user, seat engine.Seat, unsure *table.UnsureError, before []engine.Seat) {
	id := unsure.Table
	b.log.Error("storing a move: the store did not say whether it was stored", "table", id, "seat", seat, "move", unsure.Entry.N, "err", unsure.Err)
	r.send(ctx, message{content: u.l.T("error.move_checking", nil)})
	i := r.i
	b.busy.Add(1)
	go func() {
		defer b.busy.Add(-1)
		ctx, cancel := context.WithTimeout(context.Background(), handLife)
		defer cancel()
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 30*time.Second) {
			if b.settleMove(ctx, i, u, seat, unsure, before) {
				return
			}
			select {
			case <-ctx.Done():
				b.log.Error("a move's outcome could not be found out before its answer expired", "table", id, "move", unsure.Entry.N)
				return
			case <-time.After(wait):
			}
		}
	}()
}

// settleMove finds out once what became of an unsure move and, when the
// store answers, tells the player and shows a stored move; it reports
// whether it did.
// before are the seats that had to act before the move, but its maker.
func (b *Bot) settleMove(ctx context.Context, i *discordgo.Interaction, u user, seat engine.Seat, unsure *table.UnsureError, before []engine.Seat) bool {
	unlock := b.lock(unsure.Table)
	defer unlock()
	stored, evs, snap, err := b.tables.Settle(ctx, unsure)
	if err != nil {
		b.log.Warn("finding out a move's outcome: the store does not answer yet", "table", unsure.Table, "err", err)
		return false
	}
	note := "error.move_not_saved"
	if stored {
		note = "error.move_saved"
		b.log.Info("a move whose storing was not confirmed is in the log", "table", unsure.Table, "move", unsure.Entry.N)
		more, after, err := b.runAI(ctx, snap)
		if err != nil {
			b.log.Error("AI move", "table", unsure.Table, "err", err)
		}
		b.publish(ctx, after, append(evs, more...), before, true)
		snap = after
	} else {
		b.log.Info("a move whose storing was not confirmed is not in the log", "table", unsure.Table, "move", unsure.Entry.N)
	}
	b.editReply(i, "").send(ctx, b.handMessage(u.l, snap, seat, u.l.T(note, nil), ""))
	return true
}

// actFailed answers a click that failed for want of its table (the store,
// a log that does not replay): a damaged table says so, without controls;
// anything else is an internal error, over the hand as it stood. what and
// args describe the failure for the log.
func (b *Bot) actFailed(ctx context.Context, r *reply, u user, snap *table.Snapshot, seat engine.Seat, what string, err error, args ...any) {
	id := snap.Record.ID
	if b.damaged(ctx, id, err) {
		r.send(ctx, message{content: u.l.T("error.table_damaged", nil)})
		return
	}
	b.log.Error(what, append([]any{"table", id, "seat", seat, "err", err}, args...)...)
	r.send(ctx, b.handMessage(u.l, snap, seat, u.l.T("error.internal", nil), ""))
}

// aiBeforeAnswer bounds how long the answer to a move waits for the AI
// seats that move after it (counted from the click's arrival): far below
// Discord's 3-second deadline and the bot's own deferral, and short enough
// not to slow the acknowledgement down noticeably. Each AI move is stored
// (and synced to disk) before the next one, so a long run of AI moves goes
// on after the answer.
var aiBeforeAnswer = 10 * time.Millisecond

// runAIUntil is runAI that stops when deadline has passed: done reports
// whether no AI seat has to move any more.
func (b *Bot) runAIUntil(ctx context.Context, snap *table.Snapshot, deadline time.Time) (evs []engine.Event, after *table.Snapshot, done bool, err error) {
	_, ok := snap.Game.(engine.Bots)
	if !ok {
		return nil, snap, true, nil
	}
	for step := 0; step < 10000 && snap.Record.Status == table.StatusPlaying; step++ {
		seat, kind, found := aiToAct(snap)
		if !found {
			break
		}
		if time.Now().After(deadline) {
			return evs, snap, false, nil
		}
		if kind == "" {
			kind = b.cfg.AIBot
		}
		p, err := ai.Player(snap.Game, kind, len(snap.Record.Seats), 0)
		if err != nil {
			return evs, snap, true, err
		}
		if ai.Slow(p) {
			// A search player thinks longer than the answer may wait:
			// runAI, after the answer, hands it to the thinker.
			return evs, snap, false, nil
		}
		legal := snap.State.Legal(seat)
		if len(legal) == 0 {
			break
		}
		a := engine.Decide(p, snap.State, seat, engine.NewRand(randomUint64(), 0))
		more, next, err := b.act(ctx, snap.Record.ID, seat, a.String(), snap.Version)
		if engine.Code(err) == engine.CodeStale {
			// Another process moved this seat first (see runAI).
			b.log.Info("AI seat moved by another process", "table", snap.Record.ID, "seat", seat)
			return evs, snap, true, nil
		}
		if err != nil {
			return evs, snap, true, fmt.Errorf("AI seat %d (%s): %w", seat, a, err)
		}
		evs, snap = append(evs, more...), next
	}
	return evs, snap, true, nil
}

// setAction is the action a multi-select makes: the tokens before "*" in
// pattern and the values chosen. A multi-select chooses a set, and Discord
// need not send its values in any particular order, so it is the legal
// action made of those tokens in whatever order the notation wants (a pass
// of two cards one way lists them in card order).
func setAction(snap *table.Snapshot, seat engine.Seat, pattern string, values []string) string {
	head, _, _ := strings.Cut(pattern, "*")
	fixed := strings.Fields(head)
	want := slices.Sorted(slices.Values(values))
	for _, a := range engine.AnyLegal(snap.State, seat) {
		f := strings.Fields(a.String())
		if len(f) == len(fixed)+len(values) && slices.Equal(f[:len(fixed)], fixed) &&
			slices.Equal(slices.Sorted(slices.Values(f[len(fixed):])), want) {
			return a.String()
		}
	}
	return strings.Replace(pattern, "*", strings.Join(values, " "), 1)
}

// anyLegal reports whether action (in notation) is among what seat may do
// now: for a seat that is not acting, its optional actions.
func anyLegal(snap *table.Snapshot, seat engine.Seat, action string) bool {
	a, err := snap.Game.ParseAction(action)
	if err != nil {
		return false
	}
	want := a.String()
	for _, o := range engine.AnyLegal(snap.State, seat) {
		if o.String() == want {
			return true
		}
	}
	return false
}

// actedNote tells a player what their move did, in the second person:
// the first event of the move told to them ("You play Queen 9."), or else
// the move in the words of its control. An action that sends a card where
// others may not see it is not repeated in words.
func actedNote(l *locales.Localizer, rg render.Game, snap *table.Snapshot, seat engine.Seat, a engine.Action, evs []engine.Event) string {
	nm := names(l, snap.Record)
	for _, e := range evs {
		if text := render.ToReader(rg, l, e, nm, seat); text != "" {
			return l.T("bot.acted", map[string]any{"Action": text})
		}
	}
	if rg.Secret(a) {
		// A card on its way to where others may not see it is not
		// repeated once done (the hand shows a pending pass's cards).
		return ""
	}
	label := render.StepLabel(rg, l, snap.State.View(seat), nm,
		render.Step{Tokens: strings.Fields(a.String()), Whole: true}, snap.Game.ParseAction)
	return l.T("bot.acted", map[string]any{"Action": label})
}

// slowMove is how long storing one move may take before the bot tells its
// host: a move is answered only once it is on disk (RELIABILITY.md), so
// the players wait as long, and on a healthy disk it takes milliseconds.
const slowMove = 500 * time.Millisecond

// act stores a move (table.Service.Act) and warns when storing it took
// slowMove or more: the disk's syncs (or the database server) are what
// the players are waiting for. The log throttle keeps a disk that stalls
// often to one line per interval, with the count of the others.
func (b *Bot) act(ctx context.Context, id string, seat engine.Seat, action string, version int) ([]engine.Event, *table.Snapshot, error) {
	t0 := b.clock.Now()
	evs, next, err := b.tables.Act(ctx, id, seat, action, version)
	if d := b.clock.Now().Sub(t0); d >= slowMove {
		b.log.Warn("storing a move was slow: players wait for the database to sync it", "table", id, "took", d.Round(time.Millisecond))
	}
	return evs, next, err
}
