package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/stolik-bot/stolik/engine/table"
)

// A table's thread may change under it. Discord archives it after a week
// without a message (its auto_archive_duration), or a moderator closes it;
// Discord then refuses to edit or delete a message in it (400, 50083)
// until it is unarchived, which a new message in it does by itself and
// which the bot, a member of the thread it started, may do at once. So an
// edit of the table message that meets an archived thread reopens the
// thread and is made again. A moderator may also delete the thread (404,
// 10003 for everything in it): the table then goes on in its channel, where
// its message is posted again, and the lobby message that pointed to the
// thread is deleted.

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

// post sends m to the table's thread, or its channel when it has none; a
// deleted thread brings the table back to its channel (afterThreadGone),
// where m then goes.
func (b *Bot) post(ctx context.Context, rec table.Record, m message) (*discordgo.Message, error) {
	where := b.where(ctx, rec)
	msg, err := b.send(ctx, where, m)
	if err != nil && channelGone(err) {
		if moved := b.afterThreadGone(ctx, rec.ID, where); moved != "" {
			msg, err = b.send(ctx, moved, m)
		}
	}
	return msg, err
}
