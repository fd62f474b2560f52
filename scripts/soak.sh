#!/usr/bin/env bash
# The long runs the README's `go test -race ./...` samples, played in full:
# .ci/run runs this after the README's command. Under -race without
# STOLIK_SOAK=1 those tests play a sample (enginetest.Sampled); with
# STOLIK_SOAK=1 they play everything they played before the sampling, and
# the SIGKILL loop (TestKillUnderLoad), skipped otherwise, runs.
#   scripts/soak.sh
# Single-goroutine game walks (the engines' conformance suites, the
# renderers' and the bot's whole-game walks) run without -race (the
# conformance suites then play 2000 seeded games per game, seeds 1-2000,
# where -race played 600); what runs a bot against the fake Discord, or a
# bot process, runs under -race.
set -euo pipefail
cd "$(dirname "$0")/.."
export STOLIK_SOAK=1
step() {
	echo "== soak: $*"
	go test -count=1 "$@"
}
step -run '^(TestConformance|TestIsLegalAgreesWithLegal|TestCheckAgreesWithLegal)$' ./engine/...
step -run '^(TestRenderedViewsHideOtherHands|TestChaptersRenderedViewsHideHiddenCards|TestCourtiersRenderedViewsHideSecrets)$' ./render/
step -run '^(TestHandMessagesWithinLimits|TestMessagesShowOnlyWhatTheSeatMayKnow|TestControlsReachEveryLegalAction|TestLastMovesWithinLimits)$' ./bot/
step -race -run '^TestControlsThroughDiscord$' ./bot/
step -race -run '^TestKillUnderLoad$' ./cmd/stolik/
