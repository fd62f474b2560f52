package bot_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stolik-bot/stolik/bot"
	"github.com/stolik-bot/stolik/bot/discordtest"
)

// TestGameOverHTTPInteractions: with public_key set and the fake Discord
// delivering interactions to the bot's HTTP interactions endpoint (signed
// with the application's key, after the Developer Portal's PING check),
// a whole game is played; every delivery is answered 202 with no body, the
// answers going through the callback route.
func TestGameOverHTTPInteractions(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t)
	w.config = func(c *bot.Config) { c.PublicKey = hex.EncodeToString(pub) }
	w.stop() // the key is read by New: start again with it
	w.start()
	h, err := w.bot.InteractionsHandler()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	// The Developer Portal refuses an endpoint that does not check
	// signatures.
	_, wrong, _ := ed25519.GenerateKey(nil)
	if err := w.fake.SetInteractionsURL(srv.URL, wrong); err == nil {
		t.Fatal("an endpoint with another application's key passed the PING check")
	}
	if err := w.fake.SetInteractionsURL(srv.URL, priv); err != nil {
		t.Fatal(err)
	}
	defer gameDeadline(t)()

	in := w.fake.SlashCommand(bob, guildID, channelID, "stolik", discordtest.Sub("stats"))
	w.do(in)
	ctx, cancel := context.WithTimeout(context.Background(), idleWait())
	defer cancel()
	if status, body, err := in.HTTPAnswer(ctx); err != nil || status != http.StatusAccepted || len(body) != 0 {
		t.Fatalf("the endpoint answered %d %q, %v; want 202 with no body", status, body, err)
	}

	g := w.openGame("lynx", 2, []discordtest.Arg{discordtest.Opt("language", "en")}, bob, ala)
	if moves := g.playOut(400); moves < 5 {
		t.Errorf("only %d moves", moves)
	}
	g.finish()

	ctx, cancel = context.WithTimeout(context.Background(), idleWait())
	defer cancel()
	answers, err := w.fake.EndpointAnswers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 1 || answers[http.StatusAccepted] < 10 {
		t.Errorf("the endpoint's answers by status: %v; want only 202s, at least 10", answers)
	}
	w.fake.AssertNoErrors(t)
}
