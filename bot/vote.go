package bot

import "context"

// tally stores u's vote on a topic of table id and counts how many of
// voters chose choice. When the store fails it answers u itself and ok is
// false.
func (b *Bot) tally(ctx context.Context, r *reply, u user, id, topic, choice string, voters []string) (count int, changed, ok bool) {
	changed, err := b.store.Vote(ctx, id, topic, u.id, choice, b.now())
	if err != nil {
		b.log.Error("saving a vote", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return 0, false, false
	}
	votes, err := b.store.Votes(ctx, id, topic)
	if err != nil {
		b.log.Error("reading votes", "table", id, "err", err)
		r.send(ctx, message{content: u.l.T("error.internal", nil)})
		return 0, false, false
	}
	for _, v := range voters {
		if votes[v] == choice {
			count++
		}
	}
	return count, changed, true
}
