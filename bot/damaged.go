package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/stolik-bot/stolik/engine/table"
)

// A damaged table is one whose stored record cannot be read or whose log
// does not replay (*table.CorruptError): it cannot be continued, and trying
// again changes nothing. Its players are told so in their language, and the
// host reads one error line per table, not one per click.

// corruptMarker is the store that can record that a table is damaged, so
// that it is not resumed or counted as open any more.
type corruptMarker interface {
	MarkCorrupt(ctx context.Context, id, reason string) error
}

// loadFailed answers a user whose table could not be loaded: a damaged
// table says so; anything else is an internal error, worth another try.
func (b *Bot) loadFailed(ctx context.Context, r *reply, u user, id string, err error) {
	if b.damaged(ctx, id, err) {
		r.send(ctx, message{content: u.l.T("error.table_damaged", nil)})
		return
	}
	b.log.Error("loading a table", "table", id, "err", err)
	r.send(ctx, message{content: u.l.T("error.internal", nil)})
}

// damaged reports whether err says that table id is damaged. The first time
// this process finds a table damaged it logs one error line with the table
// and the reason, and marks the table in the store when the store can.
func (b *Bot) damaged(ctx context.Context, id string, err error) bool {
	var ce *table.CorruptError
	if !errors.As(err, &ce) {
		return false
	}
	if !b.damagedTables.first(id) {
		return true
	}
	b.log.Error("a table's saved record is damaged: the table cannot be continued", "table", id, "err", err)
	if m, ok := b.store.(corruptMarker); ok {
		if err := m.MarkCorrupt(ctx, id, ce.Err.Error()); err != nil {
			b.log.Warn("marking a damaged table in the store", "table", id, "err", err)
		}
	}
	return true
}

// damagedSeen are the damaged tables this process has reported, by id, so
// that the host reads one line per table. A damaged table is set aside in
// the store and seldom clicked again, so the set is bounded rather than
// cleaned: past damagedKept it starts again, and a table clicked after
// that is reported once more.
type damagedSeen struct {
	mu sync.Mutex
	m  map[string]struct{}
}

// damagedKept bounds damagedSeen.
const damagedKept = 1024

// first reports whether id is reported for the first time, and remembers
// it.
func (d *damagedSeen) first(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.m[id]; ok {
		return false
	}
	if d.m == nil || len(d.m) >= damagedKept {
		d.m = map[string]struct{}{}
	}
	d.m[id] = struct{}{}
	return true
}

// shownBeyond reads, before resume redraws a table's message (and with it
// the version its My hand carries, the witness of how far the table got),
// the version the message shows now; when it is beyond the stored log the
// database lost moves the players were shown (it was rolled back while the
// bot was down): the table is marked damaged and reported, not redrawn.
// A message that cannot be read says nothing.
func (b *Bot) shownBeyond(ctx context.Context, snap *table.Snapshot) bool {
	rec := snap.Record
	if rec.MessageID == "" {
		return false
	}
	m, err := b.s.ChannelMessage(b.where(ctx, rec), rec.MessageID, discordgo.WithContext(ctx))
	if err != nil {
		return false
	}
	shown := -1
	for _, cid := range customIDs(m.Components) {
		if id, v, ok := parseHandID(cid); ok && id == rec.ID {
			shown = max(shown, v)
		}
	}
	if shown <= snap.Version {
		return false
	}
	b.damaged(ctx, rec.ID, &table.CorruptError{ID: rec.ID, Err: fmt.Errorf(
		"its message shows version %d, but the stored log holds %d moves: moves the players were shown are missing (the database was rolled back)", shown, snap.Version)})
	if err := b.tables.Reload(ctx, rec.ID); err != nil {
		b.log.Warn("dropping a damaged table from the cache", "table", rec.ID, "err", err)
	}
	return true
}
