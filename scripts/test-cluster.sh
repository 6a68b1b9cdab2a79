#!/usr/bin/env bash
# `npm run test:cluster` (opt-in; not part of `npm test` or CI): the whole tap suite, then the
# cluster tests (test/cluster/*.cluster.ts: node loss under load, two API instances and two
# indexers), against a three-node OpenSearch cluster with OPENSEARCH_SHARDS=2 and
# OPENSEARCH_REPLICAS=1, so that every shard has a copy on two nodes.
#
# The cluster runs beside the single node, on ports of its own (HTTP 9210-9212, transport
# 9310-9312; CLUSTER_HTTP_PORT moves them) and with its own data: the single node that
# `npm start` and `npm test` use is neither stopped nor touched. The cluster is stopped at the end
# (three 512 MiB heaps; CLUSTER_KEEP=1 leaves it running). PostgreSQL, Redis, the test database and
# the test prefixes are those of `npm test` (scripts/test.sh), so the two must not run at once.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

base="${CLUSTER_HTTP_PORT:-9210}"
export OPENSEARCH_NODES=3
export OPENSEARCH_HEAP="${OPENSEARCH_HEAP:-512m}"
export OPENSEARCH_URL="http://127.0.0.1:$base,http://127.0.0.1:$((base + 1)),http://127.0.0.1:$((base + 2))"
export OPENSEARCH_TRANSPORT_PORT="$((base + 100))"
export OPENSEARCH_SHARDS=2
export OPENSEARCH_REPLICAS=1
# Three JVMs starting side by side on a small machine take longer than one.
export OPENSEARCH_WAIT_SECONDS="${OPENSEARCH_WAIT_SECONDS:-300}"

# Set first, so that a start that fails half-way leaves no node behind either.
if [ "${CLUSTER_KEEP:-}" != 1 ]; then trap 'bash scripts/stack.sh down' EXIT; fi
bash scripts/stack.sh up

# scripts/test.sh resets the test database, queues and indices (created with 2 shards, 1 replica).
if [ "${CLUSTER_ONLY:-}" != 1 ]; then bash scripts/test.sh; fi
# Each file several minutes (a node restart, thousands of paced writes): a longer limit.
bash scripts/test.sh --timeout=900 test/cluster/node-loss.cluster.ts test/cluster/instances.cluster.ts
