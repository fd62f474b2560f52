package bot

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
)

// A table plays in a public thread started from its lobby message, where
// the server lets the bot start one (moveToThread). The thread may change
// under it. Discord archives it after a week without a message (its
// auto_archive_duration), or a moderator closes it; Discord then refuses
// to edit or delete a message in it (400, 50083) until it is unarchived,
// which a new message in it does by itself and which the bot, a member of
// the thread it started, may do at once. So an edit of the table message
// that meets an archived thread reopens the thread and is made again. A
// moderator may also delete the thread (404, 10003 for everything in it):
// the table then goes on in its channel, where its message is posted
// again, and the lobby message that pointed to the thread is deleted.

// moveToThread starts a public thread from a table's lobby message when the
// table asked for one: the lobby message stays in the channel and points to
// the thread, where the table message and everything else then go. The
// caller holds the table's lock. Without a thread the game stays in the
// channel.
func (b *Bot) moveToThread(ctx context.Context, snap *table.Snapshot) *table.Snapshot {
	rec := snap.Record
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
		return snap
	}
	if !meta.WantThread || meta.ThreadID != "" || rec.MessageID == "" {
		return snap
	}
	l := b.tableLang(rec)
	game := l.T("game."+rec.Setup.Game+".name", nil)
	var th *discordgo.Channel
	err = b.retry(ctx, func() error {
		var err error
		th, err = b.s.MessageThreadStartComplex(rec.ChannelID, rec.MessageID, &discordgo.ThreadStart{
			Name:                threadName(l, game, rec),
			AutoArchiveDuration: 10080,
			Type:                discordgo.ChannelTypeGuildPublicThread,
		}, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		b.log.Warn("starting a thread; the game stays in the channel", "table", rec.ID, "err", err)
		return snap
	}
	meta.ThreadID = th.ID
	if err := b.store.SetMeta(ctx, rec.ID, meta); err != nil {
		b.log.Error("saving a table's thread", "table", rec.ID, "err", err)
		return snap
	}
	content := header(l, rec) + "\n" + l.T("async.in_thread", map[string]any{"Thread": "<#" + th.ID + ">"})
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("async.button.watch", nil), Style: discordgo.SecondaryButton, CustomID: watchID(rec.ID)},
	}}}
	err = b.retry(ctx, func() error {
		_, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{
			ID: rec.MessageID, Channel: rec.ChannelID, Content: &content, Components: &comps,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
		}, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		b.log.Warn("editing the lobby message", "table", rec.ID, "err", err)
	}
	rec.MessageID = "" // the table message is posted in the thread
	if rec, err = b.tables.Update(ctx, rec); err != nil {
		b.log.Error("moving a table to its thread", "table", rec.ID, "err", err)
		return snap
	}
	b.log.Info("table moved to a thread", "table", rec.ID, "thread", th.ID)
	snap.Record = rec
	return snap
}

// archivedThread reports whether err is Discord refusing an operation in
// an archived thread.
func archivedThread(err error) bool {
	return isCode(err, discordgo.ErrCodePerformedOperationOnArchivedThread)
}

// reopen unarchives a thread, and reports whether it could.
func (b *Bot) reopen(ctx context.Context, threadID string) bool {
	open := false
	_, err := b.s.ChannelEditComplex(threadID, &discordgo.ChannelEdit{Archived: &open}, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("reopening an archived thread", "thread", threadID, "err", err)
		return false
	}
	b.log.Info("reopened an archived thread to update its table", "thread", threadID)
	return true
}

// channelGone reports whether err is Discord saying the channel is gone.
func channelGone(err error) bool {
	return isCode(err, discordgo.ErrCodeUnknownChannel)
}

// leaveThread brings the table rec, whose thread threadID was deleted,
// back to its channel, and returns the channel: the thread is forgotten, so
// everything of the table goes to the channel from now on, and the lobby
// message the thread was started from (the same id) is deleted. A thread
// that is not the table's changes nothing: the channel is returned all the
// same.
func (b *Bot) leaveThread(ctx context.Context, rec table.Record, threadID string) string {
	meta, err := b.store.Meta(ctx, rec.ID)
	if err != nil {
		b.log.Warn("reading a table's settings", "table", rec.ID, "err", err)
		return rec.ChannelID
	}
	if meta.ThreadID != threadID || threadID == rec.ChannelID {
		return rec.ChannelID
	}
	meta.ThreadID = ""
	if err := b.store.SetMeta(ctx, rec.ID, meta); err != nil {
		b.log.Error("forgetting a table's deleted thread", "table", rec.ID, "err", err)
		return rec.ChannelID
	}
	b.log.Warn("a table's thread was deleted: the table goes on in its channel", "table", rec.ID, "thread", threadID, "channel", rec.ChannelID)
	if err := b.s.ChannelMessageDelete(rec.ChannelID, threadID, discordgo.WithContext(ctx)); err != nil {
		b.log.Debug("deleting the lobby message of a deleted thread", "table", rec.ID, "err", err)
	}
	return rec.ChannelID
}

// afterThreadGone is leaveThread for a table known by its id, when a post
// to where found the channel gone: the channel to post to instead (the
// table's channel, also when the table left where already), or "" when
// where was not the table's thread. The table message is redrawn in the
// channel.
func (b *Bot) afterThreadGone(ctx context.Context, id, where string) string {
	snap, err := b.tables.Get(ctx, id)
	if err != nil || where == snap.Record.ChannelID {
		return ""
	}
	if now := b.where(ctx, snap.Record); now != where {
		return now // it left the thread already (its message was edited first)
	}
	ch := b.leaveThread(ctx, snap.Record, where)
	b.refresh(ctx, snap)
	return ch
}

// post sends m to the table's thread, or its channel when it has none
// (sendAt).
func (b *Bot) post(ctx context.Context, rec table.Record, m message) (*discordgo.Message, error) {
	msg, _, err := b.sendAt(ctx, rec.ID, b.where(ctx, rec), m)
	return msg, err
}

// sendAt sends m to where, the thread or channel of table id, and returns
// where it went: a deleted thread brings the table back to its channel
// (afterThreadGone), where m then goes.
func (b *Bot) sendAt(ctx context.Context, id, where string, m message) (*discordgo.Message, string, error) {
	msg, err := b.send(ctx, where, m)
	if err != nil && channelGone(err) {
		if moved := b.afterThreadGone(ctx, id, where); moved != "" {
			where = moved
			msg, err = b.send(ctx, where, m)
		}
	}
	return msg, where, err
}

// maxThreadName is Discord's limit on a thread's name.
const maxThreadName = 100

// threadName is a table's thread title: the game and its players ("Lynx ·
// Ala, Bob, Bot 3"), as many names as fit Discord's 100 characters, then how
// many more; the game alone if even one name does not fit.
func threadName(l *locales.Localizer, game string, rec table.Record) string {
	nm := names(l, rec)
	for n := len(nm); n > 0; n-- {
		list := strings.Join(nm[:n], ", ")
		if n < len(nm) {
			list = l.T("async.thread_more", map[string]any{"List": list, "Count": len(nm) - n})
		}
		if t := l.T("async.thread_name", map[string]any{"Game": game, "Players": list}); utf8.RuneCountInString(t) <= maxThreadName {
			return t
		}
	}
	return clip(game, maxThreadName)
}
