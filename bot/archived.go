package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// A table's thread is archived after a week without a message (its
// auto_archive_duration), or when a moderator closes it. Discord then
// refuses to edit or delete a message in it (400, 50083) until it is
// unarchived, which a new message in it does by itself and which the bot,
// a member of the thread it started, may do at once. So an edit of the
// table message that meets an archived thread reopens the thread and is
// made again.

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
