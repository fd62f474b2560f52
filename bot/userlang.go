package bot

import (
	"context"
	"sync"
	"time"
)

// userLangs remembers the languages users chose with /stolik language, so
// that an interaction does not read the store for it: every interaction
// needs its user's language, and the store's answer changes only when the
// user chooses again. With one process, that choice is made here and the
// cache is always right. When other processes share the store
// (Deps.SharedStore), a choice made through another one reaches this one
// within sharedLangTTL.
type userLangs struct {
	mu  sync.Mutex
	m   map[string]langEntry
	ttl time.Duration // 0: entries never expire
}

type langEntry struct {
	lang string // "" when the user chose none (the client's locale applies)
	at   time.Time
}

const (
	// sharedLangTTL is how long a remembered choice is trusted when other
	// processes may change it.
	sharedLangTTL = time.Minute
	// maxUserLangs bounds the cache; when it is full, half is forgotten.
	maxUserLangs = 1 << 16
)

// userLang is the language userID chose ("" for none), from the cache or
// the store. A store error is not remembered.
func (b *Bot) userLang(ctx context.Context, userID string) (string, error) {
	now := b.clock.Now()
	c := &b.langs
	c.mu.Lock()
	e, ok := c.m[userID]
	c.mu.Unlock()
	if ok && (c.ttl == 0 || now.Sub(e.at) < c.ttl) {
		return e.lang, nil
	}
	lang, err := b.store.UserLang(ctx, userID)
	if err != nil {
		return "", err
	}
	c.remember(userID, lang, now)
	return lang, nil
}

// setUserLang stores a user's choice and remembers it.
func (b *Bot) setUserLang(ctx context.Context, userID, lang string) error {
	c := &b.langs
	c.mu.Lock()
	delete(c.m, userID) // an error below leaves the store to say
	c.mu.Unlock()
	if err := b.store.SetUserLang(ctx, userID, lang); err != nil {
		return err
	}
	c.remember(userID, lang, b.clock.Now())
	return nil
}

func (c *userLangs) remember(userID, lang string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]langEntry{}
	}
	if len(c.m) >= maxUserLangs {
		n := 0
		for k := range c.m {
			if n >= maxUserLangs/2 {
				break
			}
			delete(c.m, k)
			n++
		}
	}
	c.m[userID] = langEntry{lang: lang, at: at}
}
