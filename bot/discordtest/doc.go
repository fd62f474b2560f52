// Package discordtest is a fake Discord for end-to-end tests of a bot built on
// the real discordgo client.
//
// A Server runs on 127.0.0.1 (net/http/httptest) and speaks
//
//   - the gateway: a websocket with JSON frames and no compression. It sends
//     HELLO, answers IDENTIFY with READY (session_id, resume_gateway_url, the
//     bot user, application.id, the guilds as unavailable) followed, with the
//     GUILDS intent, by one GUILD_CREATE per guild, acknowledges heartbeats, and answers RESUME by
//     replaying the dispatches the session missed, then RESUMED. Every
//     dispatch carries a sequence number that increases per session. A
//     session that identified with a shard [i, n] (discordgo's ShardID and
//     ShardCount) gets only the events of the guilds with
//     (guild_id >> 22) % n == i — READY's guild list, GUILD_CREATE,
//     CHANNEL_CREATE, INTERACTION_CREATE — and shard 0 those of direct
//     messages (ShardOf; ShardLive says whether a shard is connected), so
//     several bot processes can each hold a part of the gateway
//     (ClickOnShardErr sends a click to another shard's session, as a load
//     balancer in front of several processes might); a session without a
//     shard gets everything, and Dispatch goes to every session;
//   - the REST routes a slash-command bot uses, under /api/v9/ (what
//     discordgo v0.29 calls) and /api/v10/: application commands, interaction
//     callbacks, interaction webhooks (follow-ups, @original), channel
//     messages, channels, guilds, threads (archived ones refuse edits and
//     deletions: ArchiveThread; DeleteThread), DM channels and users.
//
// It enforces what Discord enforces and answers with Discord-shaped errors:
// one initial response per interaction (40060), the 3-second deadline for it
// (10062), the 15-minute life of the interaction token (401/50027), the
// message, embed and component limits (50035), the application command
// naming and localization rules (50035), ephemeral messages that cannot be
// reached through channel routes (10008). Time comes from a Clock, so a test
// can use a FakeClock and jump over deadlines.
//
// Tests act as users through the Server: SlashCommand, Click, Select and
// SubmitModal dispatch INTERACTION_CREATE events and return an Interaction
// handle whose Wait reports the bot's initial response. Everything the bot
// sent is kept in its current state (after edits and deletes): Messages for a
// channel, Ephemeral and DMs for a user, VisibleTo for "what could this user
// ever see", plus the raw record of calls (Calls, Sent, Errors, Unexpected).
//
// Point a discordgo session at the fake with Configure, before Open:
//
//	s := discordtest.New(t)
//	s.AddGuild("100", "Test", "pl")
//	s.AddChannel("100", "200")
//	s.AddUser("300", "ala", "pl")
//	dg, _ := discordgo.New("Bot test-token")
//	s.Configure(dg)
//	dg.AddHandler(bot.onInteraction)
//	if err := dg.Open(); err != nil { t.Fatal(err) }
//	t.Cleanup(func() { // registered after New: runs before the fake stops
//		dg.ShouldReconnectOnError = false // see WithHeartbeatInterval
//		dg.Close()
//	})
//	in := s.SlashCommand("300", "100", "200", "table", discordtest.Opt("game", gameID))
//	resp := in.Wait(ctx)
//
// Configure touches no package-level discordgo variable (see its comment), so
// tests with separate fakes may run in parallel.
//
// Rate limits and outages are opt-in: RateLimitNext answers the next
// requests on a route with 429 and retry_after, FailNext with a 5xx,
// WithLatency and SetLatency slow every answer down; ClearFaults drops
// what was armed and not met. On the gateway,
// DropConnection cuts the connections (the bot resumes and gets what it
// missed), InvalidateSessions also ends the sessions (the resume is refused
// with op 9, the bot must identify afresh, and what it missed is lost), and
// RedeliverOnResume makes the next resume send interactions the bot had
// already received.
//
// SetInteractionsURL switches to an application with an Interactions
// Endpoint URL: after checking the endpoint as the Developer Portal does (a
// signed PING answered with PONG, a badly signed request with 401), the
// fake POSTs every interaction to it, signed with a test Ed25519 key,
// instead of sending INTERACTION_CREATE over the gateway. The endpoint
// answers 200 with the initial response, or 202 with no body after using
// the callback route; anything else is a rejected request of the
// interaction (HTTPAnswer, EndpointAnswers).
//
// InteractionPayload and DispatchInteraction send hand-made
// INTERACTION_CREATE payloads that Discord's client would never produce
// (over-long or foreign custom_ids, no member, wrong option types...), to
// test a bot against a hostile or broken client.
//
// Two environment variables help look at what the bot sends. With
// STOLIK_CAPTURE=/abs/path.jsonl every REST request (and the users, guilds
// and channels a test adds) is appended to that file in the capture format
// of the discord-look tool, which checks it against Discord's API
// specification and draws the messages (capture.go). TextViolations lists
// texts the bot cut at a limit, controls of one message that read the same,
// and mentions that would ping unexpectedly; each of them fails the test
// unless the Server was made WithLenientText (textcheck.go).
//
// Not modelled: zlib or ETF on the gateway, MESSAGE_CREATE/UPDATE events for
// what the bot sends, sharding's limits (max_concurrency, the recommended
// shard count of GET /gateway/bot, two sessions of one shard being
// refused), roles and
// permissions (every user sees every guild channel and public thread; the
// bot may do anything, except where SetBotPermissions takes View Channel,
// Send Messages or Attach Files from it), reactions, pins, autocomplete, serving attachments'
// bytes at their URL (tests read them from Attachment.Data), rate-limit
// headers on successful answers, and the daily command-creation limit.
// Routes outside the list in rest.go answer 404 and show up in Unexpected.
package discordtest
