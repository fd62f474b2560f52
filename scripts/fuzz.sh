#!/usr/bin/env bash
# Runs every fuzz target for FUZZTIME each (default 10s):
#   scripts/fuzz.sh            # CI's short step
#   FUZZTIME=10m scripts/fuzz.sh   # a longer run
# New failing inputs are written under the package's testdata/fuzz/ and then
# run by `go test ./...` as regression cases: commit them with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
t="${FUZZTIME:-10s}"
run() { echo "== fuzz $1 ($2, $t)"; go test -run '^$' -fuzz "^$1\$" -fuzztime "$t" "$2"; }
run FuzzParseGameID ./bot/
run FuzzLoadConfig ./bot/
run FuzzParseAction ./engine/enginetest/
run FuzzApplyArbitrary ./engine/enginetest/
run FuzzRun ./engine/scenario/
