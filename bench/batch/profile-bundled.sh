#!/bin/sh
# Bundles bench/batch/profile-bundled.ts (esbuild) into a temporary tree where the matcher's data files
# resolve as they do from src/screening/matching, and runs it from this checkout:
#   WARM=10000 bench/batch/profile-bundled.sh 8000 /tmp/screen.cpuprofile
set -e
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
mkdir -p "$tmp/src/screening/matching"
ln -s "$repo/src/screening/matching/data" "$tmp/src/screening/matching/data"
ln -s "$repo/node_modules" "$tmp/node_modules"
cd "$repo"
npx esbuild bench/batch/profile-bundled.ts --bundle --platform=node --format=esm --packages=external --outfile="$tmp/src/screening/matching/profile.mjs" --log-level=warning
node "$tmp/src/screening/matching/profile.mjs" "${1:-3000}" "${2:-/tmp/batch-screen.cpuprofile}"
[ -n "$KEEP" ] && cp "$tmp/src/screening/matching/profile.mjs" "$KEEP"
rm -rf "$tmp"
