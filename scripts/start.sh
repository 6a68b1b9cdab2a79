#!/usr/bin/env bash
# `npm start`: the whole service on this machine. Brings the stack up, migrates, creates the
# indices, loads categories and sample data (a few thousand listings on the first start), then
# runs the API and the indexer in the foreground; Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/stack.sh up
npx tsx src/cli.ts setup
# The first start also loads a few thousand generated listings (realistic German names, places and
# categories; seconds), enough to try typo, transliteration and geo searches.
first_start=yes
[ -f .stack/demo-key ] && first_start=no
npx tsx src/cli.ts sample
if [ "$first_start" = yes ]; then
  npx tsx src/cli.ts seed --country de --count "${START_SEED_COUNT:-3000}"
fi

# Compiled JavaScript, as in production; node directly (not npm), so that the pids below are the
# processes that receive our signals. Their V8 flags (heap cap) come from package.json.
npm run --silent build
read -r -a node_flags <<< "$(node -p "require('./package.json').config.node_flags")"
node "${node_flags[@]}" dist/indexer/main.js &
indexer=$!
# The API's metrics on their own port (docs/security.md "Operational endpoints"), on this machine only.
METRICS_PORT="${METRICS_PORT:-3002}" node "${node_flags[@]}" dist/src/server.js &
api=$!
stop() { kill -TERM "$api" "$indexer" 2>/dev/null || true; wait "$api" "$indexer" 2>/dev/null || true; }
trap 'stop; exit 0' INT TERM
# If either process exits, stop the other and report its status.
set +e
wait -n "$api" "$indexer"
status=$?
stop
exit $status
