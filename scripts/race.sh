#!/usr/bin/env bash
# The whole suite under the race detector: .ci/run runs it after the
# README's `go test -timeout 30m ./...`. Under -race the long single-goroutine walks
# (the engines' seeded games, the renderers' and the bot's whole-game
# walks, where the detector has nothing to find) play a sample
# (enginetest.Sampled); the README's command plays them in full. Every
# test that runs goroutines — the bot against the fake Discord, the store,
# the table service, the serve processes — runs in full.
#   scripts/race.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go test -race -count=1 -timeout 60m ./...
