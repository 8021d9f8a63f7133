#!/usr/bin/env bash
# Runs the test suite on a fresh Debian machine: installs what the tests need
# (apt packages when run as root, npm dependencies), then runs node's test runner.
# Usage: scripts/test.sh [all|unit|integration|e2e] [extra test files...]
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-all}
shift || true

bash scripts/install-test-deps.sh
# The portal end-to-end tests load the built front-end (web/dist): build it when missing or stale.
node web/build-if-stale.mjs

case "$kind" in
  unit) dirs="test/unit" ;;
  integration) dirs="test/integration" ;;
  e2e) dirs="test/e2e" ;;
  all) dirs="test/unit test/integration test/e2e" ;;
  *) echo "usage: scripts/test.sh [all|unit|integration|e2e]" >&2; exit 2 ;;
esac

mapfile -t files < <(find $dirs -name '*.test.ts' 2>/dev/null | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files under $dirs" >&2
  exit 1
fi
export NODE_ENV=test
export LOG_LEVEL=${LOG_LEVEL:-silent}
# Every event read from a store is deep-frozen in the whole suite (the default under NODE_ENV=test, forced
# here whatever the caller's environment says): a fold that writes into a recorded event fails its test.
export FREEZE_EVENTS=true
exec node --import tsx --test --test-reporter="${TEST_REPORTER:-spec}" --test-concurrency="${TEST_CONCURRENCY:-2}" --test-timeout=300000 "${files[@]}" "$@"
