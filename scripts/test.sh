#!/usr/bin/env bash
# `npm test`: the tap suite against the real stack, with a database, index prefix and queue prefix
# of its own, so tests never touch development data and can run twice in a row.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export NODE_ENV=test
export DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/listings_test}"
export INDEX_PREFIX="${TEST_INDEX_PREFIX:-test-}"
export QUEUE_PREFIX="${TEST_QUEUE_PREFIX:-listings-test}"
export LOG_LEVEL="${LOG_LEVEL:-silent}"
export MEDIA_DIR="${TEST_MEDIA_DIR:-.stack/test-media}"
# Every test talks from 127.0.0.1: the per-address limit is raised here; tests of it set their own.
export IP_RATE_LIMIT_MAX="${IP_RATE_LIMIT_MAX:-100000000}"
# Likewise the failed authentications per address, which many test files cause on purpose.
export AUTH_FAILURE_LIMIT="${AUTH_FAILURE_LIMIT:-100000000}"

bash scripts/stack.sh up
# Every run starts from nothing: an empty test database, no queued test jobs, fresh test indices.
PGOPTIONS='--client-min-messages=warning' psql "$DATABASE_URL" -qv ON_ERROR_STOP=1 -c 'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public'
redis-cli -u "${REDIS_URL:-redis://127.0.0.1:6379}" --scan --pattern "$QUEUE_PREFIX*" | xargs -r redis-cli -u "${REDIS_URL:-redis://127.0.0.1:6379}" del >/dev/null
npx tsc -p .
npx tsx src/cli.ts indices --recreate
npx tsx src/cli.ts setup
# test/http/logs.test.ts needs a real database error whose parameters carry personal data: names
# containing this marker are refused. Added here, before any test runs, because altering a table
# takes a lock that would wait for, and then block, the other test files.
psql "$DATABASE_URL" -qv ON_ERROR_STOP=1 -c "alter table listings add constraint test_log_marker check (position('Geheimname' in name) = 0) not valid"
if [ "$#" -gt 0 ]; then
  npx tap "$@"
else
  npx tap
  # The fault-injection suites need minutes per scenario, so they run on their own with a longer limit.
  # One at a time: each starts indexers of its own on the shared test database, and kills them.
  npx tap --jobs=1 --timeout=900 test/faults/*.fault.ts
fi
