#!/usr/bin/env bash
# Runs every fuzz target for a fixed number of executions (about 5-10 s each
# on a 2-core machine):
#   scripts/fuzz.sh                  # CI's short step
#   FUZZSCALE=100 scripts/fuzz.sh    # a run 100 times longer
# The budget is a count (-fuzztime Nx), not a duration: go1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded" when a
# duration budget ends while a starved worker is mid-call (go.dev/issue/75804,
# fixed in go1.27). A count has no deadline to race; a real crasher still fails.
# New failing inputs are written under the package's testdata/fuzz/ and then
# run by `go test ./...` as regression cases: commit them with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${FUZZSCALE:-1}"
run() {
	local n=$(($3 * scale))
	echo "== fuzz $1 ($2, ${n} executions)"
	go test -run '^$' -fuzz "^$1\$" -fuzztime "${n}x" "$2"
}
run FuzzParseGameID ./bot/ 50000
run FuzzLoadConfig ./bot/ 3000
run FuzzParseAction ./engine/enginetest/ 200000
run FuzzApplyArbitrary ./engine/enginetest/ 40000
run FuzzRun ./engine/scenario/ 150000
