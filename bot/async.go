package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/store/record"
)

// Games across days: deadlines per decision, reminders, what the other
// players decide about a stalled seat (wait, a stand-in AI, a new player),
// handing a seat over, and the votes behind all that. Everything is kept in
// the store, so that a restart changes nothing; one scheduler goroutine
// sleeps until the next deadline.

// The choices of a vote about a stalled seat.
const (
	choiceWait    = "wait"
	choiceStandIn = "ai"
	choiceReplace = "replace"
)

// topicAbandon is the vote topic of ending a table without a result.
const topicAbandon = "abandon"

func stallTopic(seat engine.Seat) string { return "stall:" + seat.String() }

// schedulerPoll bounds how long the scheduler sleeps, so that a clock that
// jumps (a suspended machine) is noticed.
const schedulerPoll = time.Minute

// remindFraction: the reminder before a deadline goes out when this part
// of the time is left.
const remindFraction = 4

func (b *Bot) now() time.Time { return b.clock.Now().UTC() }

// Wake makes the scheduler look at the deadlines again (after an action;
// tests call it after moving a fake clock).
func (b *Bot) Wake() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// schedule runs due deadlines, then sleeps until the next one (read from
// the store, so it survives restarts), or until woken. About once every
// aiSweepEvery it also lets the AI seats move that were left still
// (sweepAI).
func (b *Bot) schedule(ctx context.Context) {
	swept := time.Now()
	for {
		b.busy.Add(1)
		b.runDue(ctx)
		if time.Since(swept) >= aiSweepEvery {
			b.sweepAI(ctx)
			swept = time.Now()
		}
		b.busy.Add(-1)
		wait := schedulerPoll
		if next, ok, err := b.store.NextDue(ctx); err != nil {
			if ctx.Err() == nil {
				b.log.Error("finding the next deadline", "err", err)
			}
		} else if ok {
			wait = min(wait, max(next.Sub(b.now()), 50*time.Millisecond))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-b.wake:
			t.Stop()
		case <-t.C:
		}
	}
}

// claimLease is how long a process's claim on the deadlines it is handling
// keeps the other processes off them: a few times the scheduler's longest
// sleep. A process that dies holding claims leaves them to the others
// once it has passed (the others' NextDue points there).
const claimLease = 3 * schedulerPoll

// runDue handles every deadline that has something to do now and that no
// other process (sharing the database) is handling: it claims them first
// (ClaimDue, for claimLease) and releases each once handled. Handling is
// idempotent besides: what was sent is stored first (MarkReminded,
// MarkExpired report the first call), so a deadline that fires twice — a
// claim that outlived its lease — does nothing the second time. Claims last
// for a batch only as long as half the lease; what is left then is
// released and claimed again in the next round.
func (b *Bot) runDue(ctx context.Context) {
	dls, err := b.store.ClaimDue(ctx, b.now(), b.owner, claimLease)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("claiming due deadlines", "err", err)
		}
		return
	}
	stop := time.Now().Add(claimLease / 2)
	for i, dl := range dls {
		if ctx.Err() != nil || time.Now().After(stop) {
			b.releaseClaims(ctx, dls[i:])
			return
		}
		b.fire(ctx, dl)
		b.releaseClaims(ctx, dls[i:i+1])
	}
}

// releaseClaims gives up this process's claims on dls (also at shutdown,
// when ctx is done: another process may take them at once).
func (b *Bot) releaseClaims(ctx context.Context, dls []record.Deadline) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for _, dl := range dls {
		if err := b.store.ReleaseClaim(ctx, dl, b.owner); err != nil {
			b.log.Warn("releasing the claim on a deadline", "table", dl.TableID, "seat", dl.Seat, "err", err)
		}
	}
}

// aiSweepEvery is how often the scheduler looks for tables whose AI seats
// must move and have not for aiQuiet: the process that was moving them
// died (or its move failed).
const (
	aiSweepEvery = time.Minute
	aiQuiet      = 2 * time.Minute
)

// sweepAI lets the AI seats move at the open tables of this process's
// shard that have been still for aiQuiet while an AI seat must act, and
// that changed within the resume window (older ones were swept before, or
// are resumed at start). AI moves are made without a pause once begun, so
// such a table was left by a process that died (several processes on one
// database) or by a move that failed. Two processes sweeping the same table
// at once cannot move a seat twice (see runAI): the one that appends first
// goes on, the other stops.
func (b *Bot) sweepAI(ctx context.Context) {
	open, err := b.store.OpenTables(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("listing the open tables for still AI seats", "err", err)
		}
		return
	}
	window := b.cfg.ResumeWindow.Duration
	if window <= 0 {
		window = 15 * time.Minute
	}
	now := b.now()
	for _, t := range open {
		if ctx.Err() != nil {
			return
		}
		if !t.HasAI || t.UpdatedAt.After(now.Add(-aiQuiet)) || t.UpdatedAt.Before(now.Add(-window)) {
			continue
		}
		if err := b.takeOverAI(ctx, t.ID); err != nil && ctx.Err() == nil && !b.damaged(ctx, t.ID, err) {
			b.log.Error("moving still AI seats", "table", t.ID, "err", err)
		}
	}
}

// takeOverAI lets a table's AI seats move if one must and the table is
// still quiet (checked again under the table's lock, on the stored table).
func (b *Bot) takeOverAI(ctx context.Context, id string) error {
	unlock := b.lock(id)
	defer unlock()
	snap, err := b.tables.Get(ctx, id)
	if err != nil {
		return err
	}
	rec := snap.Record
	if rec.Status != table.StatusPlaying || rec.ChannelID == "" || !b.cfg.OnShard(rec.GuildID) {
		return nil
	}
	if _, _, found := aiToAct(snap); !found || rec.UpdatedAt.After(b.now().Add(-aiQuiet)) {
		return nil
	}
	before := snap.State.Acting()
	evs, after, err := b.runAI(ctx, snap)
	if len(evs) > 0 {
		b.log.Info("AI seats left still moved", "table", id, "moves", after.Version-snap.Version)
		b.publish(ctx, after, evs, before, true)
	}
	return err
}

func (b *Bot) fire(ctx context.Context, dl record.Deadline) {
	unlock := b.lock(dl.TableID)
	defer unlock()
	snap, err := b.tables.Get(ctx, dl.TableID)
	if err != nil {
		// A table gone or damaged will not be played: its deadline goes.
		gone := errors.Is(err, table.ErrNotFound) || b.damaged(ctx, dl.TableID, err)
		if !gone {
			b.log.Error("loading a table for its deadline", "table", dl.TableID, "err", err)
			return
		}
		if err := b.store.DeleteDeadline(ctx, dl.TableID, dl.Seat); err != nil {
			b.log.Error("dropping the deadline of a table that cannot be played", "table", dl.TableID, "err", err)
		}
		return
	}
	rec := snap.Record
	si, ok := seatInfo(rec, dl.Seat)
	if rec.Status != table.StatusPlaying || !ok || si.Kind != table.Human || !engine.IsActing(snap.State, dl.Seat) {
		if err := b.store.DeleteDeadline(ctx, dl.TableID, dl.Seat); err != nil {
			b.log.Error("dropping a stale deadline", "table", dl.TableID, "err", err)
		}
		return
	}
	now := b.now()
	where := b.where(ctx, rec)
	l := b.tableLang(rec)
	if !now.Before(dl.DueAt) {
		// Too late for the reminder: mark it so that it is never sent late.
		if dl.RemindedAt.IsZero() {
			if _, err := b.store.MarkReminded(ctx, dl, now); err != nil {
				b.log.Error("marking a reminder", "table", dl.TableID, "err", err)
			}
		}
		if !dl.ExpiredAt.IsZero() {
			return
		}
		first, err := b.store.MarkExpired(ctx, dl, now)
		if err != nil {
			b.log.Error("marking a deadline", "table", dl.TableID, "err", err)
			return
		}
		if first {
			b.log.Info("deadline passed", "table", rec.ID, "seat", dl.Seat)
			b.stalled(ctx, snap, si)
		}
		return
	}
	if dl.RemindedAt.IsZero() && !now.Before(dl.RemindAt) {
		first, err := b.store.MarkReminded(ctx, dl, now)
		if err != nil {
			b.log.Error("marking a reminder", "table", dl.TableID, "err", err)
			return
		}
		if !first {
			return
		}
		b.log.Info("reminder", "table", rec.ID, "seat", dl.Seat)
		data := map[string]any{"Name": "<@" + si.UserID + ">", "Time": stamp(dl.DueAt, "R"), "ID": rec.ID}
		if _, err := b.send(ctx, where, message{content: l.T("async.remind", data), mentions: true}); err != nil {
			b.log.Warn("posting a reminder", "table", rec.ID, "err", err)
		}
		b.dm(ctx, rec, si.UserID, "async.dm_remind", map[string]any{"Time": stamp(dl.DueAt, "R"), "ID": rec.ID, "Channel": "<#" + where + ">"})
	}
}

// stamp is a Discord timestamp: every reader sees it in their own time
// zone (f: date and time; R: relative, "in 3 hours").
func stamp(t time.Time, style string) string {
	return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":" + style + ">"
}

func seatInfo(rec table.Record, seat engine.Seat) (table.SeatInfo, bool) {
	for _, si := range rec.Seats {
		if si.Seat == seat {
			return si, true
		}
	}
	return table.SeatInfo{}, false
}

// voters are the players who decide about a stalled seat: the other humans.
func voters(rec table.Record, seat engine.Seat) []string {
	var out []string
	for _, si := range rec.Seats {
		if si.Kind == table.Human && si.Seat != seat && si.UserID != "" {
			out = append(out, si.UserID)
		}
	}
	return out
}

// stalled opens the vote about a seat whose deadline has passed, or lets a
// stand-in play at once when nobody else could vote.
func (b *Bot) stalled(ctx context.Context, snap *table.Snapshot, si table.SeatInfo) {
	rec := snap.Record
	l := b.tableLang(rec)
	vs := voters(rec, si.Seat)
	if len(vs) == 0 {
		b.standIn(ctx, snap, si.Seat, modeStandIn)
		return
	}
	ms := make([]string, len(vs))
	for i, v := range vs {
		ms[i] = "<@" + v + ">"
	}
	m := message{
		content: l.T("async.stall", map[string]any{"Name": "<@" + si.UserID + ">", "Names": strings.Join(ms, " "), "Needed": len(vs)/2 + 1}),
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("async.button.stall_wait", nil), Style: discordgo.SecondaryButton, CustomID: stallID(rec.ID, si.Seat, choiceWait)},
			discordgo.Button{Label: l.T("async.button.stall_ai", nil), Style: discordgo.PrimaryButton, CustomID: stallID(rec.ID, si.Seat, choiceStandIn)},
			discordgo.Button{Label: l.T("async.button.stall_replace", nil), Style: discordgo.SecondaryButton, CustomID: stallID(rec.ID, si.Seat, choiceReplace)},
		}}},
		mentions: true,
	}
	if _, err := b.post(ctx, rec, m); err != nil {
		b.log.Warn("posting a stall vote", "table", rec.ID, "err", err)
	}
	b.refresh(ctx, snap)
}

func stallID(id string, seat engine.Seat, choice string) string {
	return "stall/" + id + "/" + seat.String() + "/" + choice
}

// onStallVote counts a click on a stall vote and carries out the choice of
// a majority of the other players.
func (b *Bot) onStallVote(ctx context.Context, r *reply, u user, id string, seat engine.Seat, choice string) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	rec := snap.Record
	si, found := seatInfo(rec, seat)
	open := false
	if found && rec.Status == table.StatusPlaying && si.Kind == table.Human {
		dls, err := b.store.Deadlines(ctx, id)
		if err != nil {
			b.log.Error("reading deadlines", "table", id, "err", err)
			r.send(ctx, message{content: u.l.T("error.internal", nil)})
			return
		}
		for _, dl := range dls {
			open = open || (dl.Seat == seat && !dl.ExpiredAt.IsZero())
		}
	}
	if !open {
		r.send(ctx, message{content: u.l.T("async.vote_closed", nil)})
		return
	}
	if si.UserID == u.id {
		r.send(ctx, b.handMessage(u.l, snap, seat, u.l.T("async.stall_self", nil), ""))
		return
	}
	vs := voters(rec, seat)
	if !slices.Contains(vs, u.id) {
		r.send(ctx, message{content: u.l.T("bot.not_seated", nil)})
		return
	}
	topic := stallTopic(seat)
	count, changed, ok := b.tally(ctx, r, u, id, topic, choice, vs)
	if !ok {
		return
	}
	needed := len(vs)/2 + 1
	l := b.tableLang(rec)
	if count < needed {
		if !changed {
			r.send(ctx, message{content: u.l.T("async.vote_already", nil)})
			return
		}
		r.send(ctx, message{content: u.l.T("async.vote_counted", nil)})
		data := map[string]any{"Name": u.name, "Choice": l.T("async.button.stall_"+choice, nil), "N": count, "Needed": needed}
		if _, err := b.post(ctx, rec, message{content: l.T("async.stall_vote", data)}); err != nil {
			b.log.Warn("posting a vote", "table", id, "err", err)
		}
		return
	}
	b.log.Info("stall vote decided", "table", id, "seat", seat, "choice", choice)
	r.send(ctx, message{content: u.l.T("async.vote_counted", nil)})
	switch choice {
	case choiceWait:
		if err := b.store.ClearVotes(ctx, id, topic); err != nil {
			b.log.Error("clearing votes", "table", id, "err", err)
		}
		meta, err := b.store.Meta(ctx, id)
		if err != nil {
			b.log.Error("reading a table's settings", "table", id, "err", err)
			return
		}
		dl := newDeadline(id, seat, b.now(), meta.Deadline)
		if err := b.store.PutDeadline(ctx, dl); err != nil {
			b.log.Error("extending a deadline", "table", id, "err", err)
			return
		}
		data := map[string]any{"Name": si.Name, "Time": stamp(dl.DueAt, "f")}
		if _, err := b.post(ctx, rec, message{content: l.T("async.stall_wait", data)}); err != nil {
			b.log.Warn("posting a vote result", "table", id, "err", err)
		}
		b.refresh(ctx, snap)
		b.Wake()
	case choiceStandIn:
		b.standIn(ctx, snap, seat, modeStandIn)
	case choiceReplace:
		b.standIn(ctx, snap, seat, modeVacant)
	}
}

// newDeadline starts the clock of a seat at now.
func newDeadline(id string, seat engine.Seat, now time.Time, d time.Duration) record.Deadline {
	return record.Deadline{TableID: id, Seat: seat, StartedAt: now, RemindAt: now.Add(d - d/remindFraction), DueAt: now.Add(d)}
}

// How a human seat is handed to an AI.
type handMode int

const (
	modeStandIn handMode = iota // until the player returns
	modeVacant                  // until someone takes the seat
	modeLeft                    // for the rest of the game
)

// standIn hands a human seat to an AI player (the caller holds the table's
// lock), says so, and lets the AI play if it must.
func (b *Bot) standIn(ctx context.Context, snap *table.Snapshot, seat engine.Seat, mode handMode) {
	rec := snap.Record
	id := rec.ID
	name := ""
	for k := range rec.Seats {
		si := &rec.Seats[k]
		if si.Seat != seat {
			continue
		}
		name = si.Name
		si.Kind, si.Bot = table.AI, b.cfg.StandInAI
		if si.Bot == "" {
			si.Bot = b.cfg.AIBot
		}
		if mode != modeStandIn {
			si.UserID = ""
		}
	}
	rec, err := b.tables.Update(ctx, rec)
	if err != nil {
		b.log.Error("handing a seat to an AI", "table", id, "err", err)
		return
	}
	flags, err := b.store.SeatFlags(ctx, id)
	if err != nil {
		b.log.Error("reading seat flags", "table", id, "err", err)
	}
	f := flags[seat]
	f.StandIn, f.Vacant = true, mode == modeVacant
	if err := b.store.SetSeatFlags(ctx, id, seat, f); err != nil {
		b.log.Error("saving seat flags", "table", id, "err", err)
	}
	meta, err := b.store.Meta(ctx, id)
	if err == nil && !meta.StandIns {
		meta.StandIns = true
		err = b.store.SetMeta(ctx, id, meta)
	}
	if err != nil {
		b.log.Error("marking a table's stand-ins", "table", id, "err", err)
	}
	if err := b.store.DeleteDeadline(ctx, id, seat); err != nil {
		b.log.Error("dropping a deadline", "table", id, "err", err)
	}
	if err := b.store.ClearVotes(ctx, id, stallTopic(seat)); err != nil {
		b.log.Error("clearing votes", "table", id, "err", err)
	}
	b.log.Info("seat handed to an AI", "table", id, "seat", seat, "mode", mode)
	l := b.tableLang(rec)
	data := map[string]any{"Name": name, "N": int(seat) + 1}
	m := message{}
	switch mode {
	case modeStandIn:
		m.content = l.T("async.standin", data)
	case modeLeft:
		m.content = l.T("async.left_to_ai", data)
	case modeVacant:
		m.content = l.T("async.seat_open", data)
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("async.button.take_seat", data), Style: discordgo.SuccessButton, CustomID: seatID(id, seat)},
		}}}
	}
	if _, err := b.post(ctx, rec, m); err != nil {
		b.log.Warn("posting a hand-over", "table", id, "err", err)
	}
	snap, err = b.tables.Get(ctx, id)
	if err != nil {
		b.log.Error("loading a table", "table", id, "err", err)
		return
	}
	before := snap.State.Acting()
	evs, after, err := b.runAI(ctx, snap)
	if err != nil {
		b.log.Error("AI move", "table", id, "err", err)
	}
	b.publish(ctx, after, evs, before, len(evs) > 0)
}

func seatID(id string, seat engine.Seat) string { return "seat/" + id + "/" + seat.String() }

// standInSeat finds the seat an AI keeps for a player who may come back.
func standInSeat(rec table.Record, userID string) (engine.Seat, bool) {
	for _, si := range rec.Seats {
		if si.Kind == table.AI && si.UserID == userID && userID != "" {
			return si.Seat, true
		}
	}
	return 0, false
}

// reclaim gives a player back the seat a stand-in kept for them (the
// caller holds the table's lock). It returns the table as it then stands.
func (b *Bot) reclaim(ctx context.Context, snap *table.Snapshot, u user) (*table.Snapshot, engine.Seat, bool) {
	rec := snap.Record
	if rec.Status != table.StatusPlaying {
		return snap, 0, false
	}
	seat, ok := standInSeat(rec, u.id)
	if !ok {
		return snap, 0, false
	}
	for k := range rec.Seats {
		if rec.Seats[k].Seat == seat {
			rec.Seats[k].Kind, rec.Seats[k].Bot, rec.Seats[k].Name = table.Human, "", u.name
		}
	}
	if _, err := b.tables.Update(ctx, rec); err != nil {
		b.log.Error("handing a seat back", "table", rec.ID, "err", err)
		return snap, 0, false
	}
	next, err := b.tables.Get(ctx, rec.ID)
	if err != nil {
		b.log.Error("loading a table", "table", rec.ID, "err", err)
		return snap, 0, false
	}
	b.log.Info("seat handed back", "table", rec.ID, "seat", seat)
	l := b.tableLang(rec)
	if _, err := b.post(ctx, rec, message{content: l.T("async.returned", map[string]any{"Name": u.name})}); err != nil {
		b.log.Warn("posting a return", "table", rec.ID, "err", err)
	}
	b.publish(ctx, next, nil, nil, false)
	return next, seat, true
}

// offerLeave answers a seated player who wants to leave a game being
// played: hand the seat to an AI, or open it for someone else.
func (b *Bot) offerLeave(ctx context.Context, r *reply, u user, rec table.Record) {
	r.send(ctx, message{
		content: u.l.T("async.leave_offer", nil),
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: u.l.T("async.button.leave_ai", nil), Style: discordgo.DangerButton, CustomID: "leave/" + rec.ID + "/ai"},
			discordgo.Button{Label: u.l.T("async.button.leave_open", nil), Style: discordgo.DangerButton, CustomID: "leave/" + rec.ID + "/open"},
		}}},
	})
}

// onLeave hands the clicking player's seat over during play.
func (b *Bot) onLeave(ctx context.Context, r *reply, u user, id, how string) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	seat, seated := seatOf(snap.Record, u.id)
	switch {
	case snap.Record.Status != table.StatusPlaying:
		r.send(ctx, message{content: u.l.T("bot.finished", nil)})
		return
	case !seated:
		r.send(ctx, message{content: u.l.T("bot.not_seated", nil)})
		return
	}
	mode := modeLeft
	if how == "open" {
		mode = modeVacant
	}
	r.send(ctx, message{content: u.l.T("bot.left", map[string]any{"ID": id})})
	b.standIn(ctx, snap, seat, mode)
}

// onTakeSeat seats the clicking user in a vacant seat.
func (b *Bot) onTakeSeat(ctx context.Context, r *reply, u user, id string, seat engine.Seat) {
	unlock := b.lock(id)
	defer unlock()
	snap, ok := b.loadFor(ctx, r, u, id)
	if !ok {
		return
	}
	rec := snap.Record
	flags, err := b.store.SeatFlags(ctx, id)
	if err != nil {
		b.log.Error("reading seat flags", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	si, found := seatInfo(rec, seat)
	if rec.Status != table.StatusPlaying || !found || si.Kind != table.AI || !flags[seat].Vacant {
		r.send(ctx, message{content: u.l.T("async.seat_taken_already", nil)})
		return
	}
	if _, seated := seatOf(rec, u.id); seated {
		r.send(ctx, message{content: u.l.T("bot.already_seated", nil)})
		return
	}
	if _, kept := standInSeat(rec, u.id); kept {
		r.send(ctx, message{content: u.l.T("bot.already_seated", nil)})
		return
	}
	for k := range rec.Seats {
		if rec.Seats[k].Seat == seat {
			rec.Seats[k] = table.SeatInfo{Seat: seat, Kind: table.Human, UserID: u.id, Name: u.name}
		}
	}
	if _, err := b.tables.Update(ctx, rec); err != nil {
		b.log.Error("seating a new player", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	f := flags[seat]
	f.Vacant = false
	if err := b.store.SetSeatFlags(ctx, id, seat, f); err != nil {
		b.log.Error("saving seat flags", "table", id, "err", err)
	}
	b.log.Info("vacant seat taken", "table", id, "seat", seat, "user", u.id)
	next, err := b.tables.Get(ctx, id)
	if err != nil {
		b.log.Error("loading a table", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return
	}
	r.send(ctx, b.handMessage(u.l, next, seat, u.l.T("async.seat_taken_you", nil), ""))
	l := b.tableLang(rec)
	if _, err := b.post(ctx, rec, message{content: l.T("async.seat_taken", map[string]any{"Name": u.name, "N": int(seat) + 1})}); err != nil {
		b.log.Warn("posting a new player", "table", id, "err", err)
	}
	before := slices.DeleteFunc(next.State.Acting(), func(s engine.Seat) bool { return s == seat })
	b.publish(ctx, next, nil, before, true)
}

// syncDeadlines keeps one deadline per human seat that must act: new ones
// start now, those of seats that no longer must act go. The caller holds
// the table's lock.
func (b *Bot) syncDeadlines(ctx context.Context, snap *table.Snapshot, meta record.Meta) []record.Deadline {
	rec := snap.Record
	have, err := b.store.Deadlines(ctx, rec.ID)
	if err != nil {
		b.log.Error("reading deadlines", "table", rec.ID, "err", err)
		return nil
	}
	var want []engine.Seat
	if rec.Status == table.StatusPlaying && meta.Deadline > 0 {
		for _, s := range snap.State.Acting() {
			if si, ok := seatInfo(rec, s); ok && si.Kind == table.Human {
				want = append(want, s)
			}
		}
	}
	var out []record.Deadline
	for _, dl := range have {
		if !slices.Contains(want, dl.Seat) {
			if err := b.store.DeleteDeadline(ctx, rec.ID, dl.Seat); err != nil {
				b.log.Error("dropping a deadline", "table", rec.ID, "err", err)
			}
			if err := b.store.ClearVotes(ctx, rec.ID, stallTopic(dl.Seat)); err != nil {
				b.log.Error("clearing votes", "table", rec.ID, "err", err)
			}
			continue
		}
		out = append(out, dl)
	}
	now := b.now()
	for _, s := range want {
		if slices.ContainsFunc(out, func(dl record.Deadline) bool { return dl.Seat == s }) {
			continue
		}
		dl := newDeadline(rec.ID, s, now, meta.Deadline)
		if err := b.store.PutDeadline(ctx, dl); err != nil {
			b.log.Error("starting a deadline", "table", rec.ID, "err", err)
			continue
		}
		out = append(out, dl)
	}
	return out
}

// dm sends a reminder by direct message to a user who opted in. When the
// user does not accept DMs from the bot (50007), their DM reminders are
// turned off and the table's channel is told once.
func (b *Bot) dm(ctx context.Context, rec table.Record, userID, key string, data map[string]any) {
	on, err := b.store.DMReminders(ctx, userID)
	if err != nil {
		b.log.Warn("reading a user's reminder choice", "user", userID, "err", err)
		return
	}
	if !on {
		return
	}
	lang := rec.Lang
	if pref, err := b.userLang(ctx, userID); err == nil && pref != "" {
		lang = pref
	}
	l := b.loc.Lang(lang)
	err = b.retry(ctx, func() error {
		ch, err := b.s.UserChannelCreate(userID, discordgo.WithContext(ctx))
		if err != nil {
			return err
		}
		_, err = b.s.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{
			Content: clip(l.T(key, data), maxContent), AllowedMentions: &discordgo.MessageAllowedMentions{},
		}, discordgo.WithContext(ctx))
		return err
	})
	if err == nil {
		return
	}
	if !isCode(err, discordgo.ErrCodeCannotSendMessagesToThisUser) {
		b.log.Warn("sending a DM reminder", "user", userID, "err", err)
		return
	}
	b.log.Info("a user does not accept DMs: DM reminders off", "user", userID)
	if err := b.store.SetDMReminders(ctx, userID, false); err != nil {
		b.log.Error("turning DM reminders off", "user", userID, "err", err)
	}
	tl := b.tableLang(rec)
	if _, err := b.post(ctx, rec, message{content: tl.T("async.dm_blocked", map[string]any{"Name": "<@" + userID + ">"}), mentions: true}); err != nil {
		b.log.Warn("posting a DM notice", "table", rec.ID, "err", err)
	}
}

// where is the channel a table's game messages go to: its thread, or its
// channel.
func (b *Bot) where(ctx context.Context, rec table.Record) string {
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
	}
	if meta.ThreadID != "" {
		return meta.ThreadID
	}
	return rec.ChannelID
}

// deadlineLines describe, for the table message, whom the table waits for
// and until when.
func deadlineLines(l *locales.Localizer, nm []string, dls []record.Deadline) []string {
	var out []string
	for _, dl := range dls {
		name := "?"
		if int(dl.Seat) < len(nm) && dl.Seat >= 0 {
			name = nm[dl.Seat]
		}
		if !dl.ExpiredAt.IsZero() {
			out = append(out, l.T("async.deadline_passed", map[string]any{"Name": name}))
			continue
		}
		out = append(out, l.T("async.deadline", map[string]any{"Name": name, "Time": stamp(dl.DueAt, "f"), "Left": stamp(dl.DueAt, "R")}))
	}
	return out
}

// recordResults stores a finished game's results for the statistics
// (idempotent).
func (b *Bot) recordResults(ctx context.Context, snap *table.Snapshot) {
	done, res := snap.State.Result()
	if !done {
		return
	}
	rec := snap.Record
	flags, err := b.store.SeatFlags(ctx, rec.ID)
	if err != nil {
		b.log.Error("reading seat flags", "table", rec.ID, "err", err)
	}
	var rs []record.Result
	for s := 0; s < rec.Setup.Seats; s++ {
		seat := engine.Seat(s)
		r := record.Result{TableID: rec.ID, Seat: seat, Game: rec.Setup.Game, FinishedAt: rec.UpdatedAt,
			Won: slices.Contains(res.Winners, seat), StandIn: flags[seat].StandIn}
		if s < len(res.Scores) {
			r.Score = res.Scores[s]
		}
		if si, ok := seatInfo(rec, seat); ok {
			r.UserID = si.UserID // a player's seat, even if a stand-in finished it (marked)
		}
		rs = append(rs, r)
	}
	if err := b.store.RecordResults(ctx, rs); err != nil {
		b.log.Error("recording results", "table", rec.ID, "err", err)
	}
}
