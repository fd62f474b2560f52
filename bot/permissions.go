package bot

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// What the bot may do in a channel. An interaction tells it
// (app_permissions): /stolik open refuses a channel where the bot may not
// post, and plays in a thread only where it may start one and post in it.
//
// A channel message's pictures are files the bot uploads with its own
// token, which Discord allows only where the bot has the Attach Files
// permission (an interaction's answer may always carry them). Where a
// server took it away, Discord refuses the whole message (403, 50013), so
// the bot sends the same message in words, tells its host, and leaves the
// pictures out of that channel's messages for a while before it tries
// again: the server's admins may give the permission back.

// mayPost reports whether the bot may post in the interaction's channel
// (see it and send messages, in a channel or a thread), as far as the
// interaction's app_permissions tell: none given (0) tells nothing.
func mayPost(i *discordgo.Interaction) bool {
	p := i.AppPermissions
	if i.GuildID == "" || p == 0 {
		return true
	}
	return p&discordgo.PermissionViewChannel != 0 &&
		p&(discordgo.PermissionSendMessages|discordgo.PermissionSendMessagesInThreads) != 0
}

// threadsAllowed reports whether the bot may play in a public thread of the
// interaction's channel: it may create public threads and send messages in
// them.
func threadsAllowed(i *discordgo.Interaction) bool {
	const need = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads
	// In a thread (where no thread can start) the attempt fails and the
	// game stays where it is.
	return i.GuildID != "" && i.AppPermissions&need == need
}

// noFilesFor is how long a channel's messages go without pictures after
// Discord refused the bot's files there.
const noFilesFor = 10 * time.Minute

// filesRefused reports whether err is Discord refusing a message because
// of its pictures: the bot may not attach files in the channel.
func filesRefused(err error, pics []drawnPicture) bool {
	return len(pics) > 0 && isCode(err, discordgo.ErrCodeMissingPermissions)
}

// refuseFiles remembers that the bot may not attach files in channelID,
// and forgets the channels whose time without pictures is over, so that
// noFiles holds only the channels refused in the last noFilesFor.
func (b *Bot) refuseFiles(channelID string) {
	now := b.clock.Now()
	b.noFiles.Range(func(k, v any) bool {
		if !now.Before(v.(time.Time)) {
			b.noFiles.CompareAndDelete(k, v)
		}
		return true
	})
	b.noFiles.Store(channelID, now.Add(noFilesFor))
	b.log.Warn("the bot may not attach files in a channel: its messages there go without their pictures; give the bot the Attach Files permission",
		"channel", channelID, "retry_after", noFilesFor)
}

// filesAllowed reports whether the bot may attach files in channelID, as
// far as it knows.
func (b *Bot) filesAllowed(channelID string) bool {
	v, ok := b.noFiles.Load(channelID)
	if !ok {
		return true
	}
	if b.clock.Now().Before(v.(time.Time)) {
		return false
	}
	b.noFiles.CompareAndDelete(channelID, v)
	return true
}

// withFiles runs call, a request that sends m with its pictures to
// channelID; when Discord refuses the files, it notes so and runs call
// again with m in words.
func (b *Bot) withFiles(channelID string, m message, pics []drawnPicture, call func(message, []drawnPicture) error) error {
	err := call(m, pics)
	if filesRefused(err, pics) {
		b.refuseFiles(channelID)
		err = call(withoutPicture(m), nil)
	}
	return err
}

// withoutPicture is m as it goes when its picture cannot: in words.
func withoutPicture(m message) message {
	if m.pic == nil {
		return m
	}
	if m.plain != nil {
		return m.plain()
	}
	m.pic = nil
	return m
}

// drawFor draws the picture of m, a message for channelID, unless the bot
// may not attach files there: then m goes in words, and nothing is drawn.
func (b *Bot) drawFor(channelID string, m message) (message, []drawnPicture) {
	if !b.filesAllowed(channelID) {
		return withoutPicture(m), nil
	}
	return b.draw(m)
}
