#!/usr/bin/env bash
# The long runs: .ci/run runs this after the README's `go test -timeout 30m ./...` and
# scripts/race.sh. Under -race without STOLIK_SOAK=1 the long single-
# goroutine walks play a sample (enginetest.Sampled; the README's command,
# without -race, plays them in full); with STOLIK_SOAK=1 the conformance
# suites play 2000 seeded games per game (the README's command 600), every
# walk plays everything, the map test opens 200 tables, and the SIGKILL loop (TestKillUnderLoad), skipped
# otherwise, runs.
#   scripts/soak.sh
# Single-goroutine game walks run without -race; what runs a bot against
# the fake Discord, or a bot process, runs under -race.
set -euo pipefail
cd "$(dirname "$0")/.."
export STOLIK_SOAK=1
step() {
	echo "== soak: $*"
	go test -count=1 -timeout 60m "$@"
}
step -run '^(TestConformance|TestIsLegalAgreesWithLegal|TestCheckAgreesWithLegal)$' ./engine/...
step -run '^(TestConformance|TestPrincessesScreen|TestChaptersScreen|TestLynxScreen|TestCourtiersScreen)$' ./render/...
step -run '^(TestHandMessagesWithinLimits|TestMessagesShowOnlyWhatTheSeatMayKnow|TestControlsReachEveryLegalAction|TestLastMovesWithinLimits)$' ./bot/
step -race -run '^TestControlsThroughDiscord$' ./bot/
step -run '^(TestMapsBackToStartAfterTables|TestSimultaneousOpensMakeOneTable)$' ./bot/
step -race -run '^TestKillUnderLoad$' ./cmd/stolik/
