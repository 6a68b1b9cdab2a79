#!/usr/bin/env bash
# Brings the local stack up on loopback: PostgreSQL, Redis (the machine's own) and a single
# OpenSearch node from the official minimal distribution (integ-test zip on Maven Central).
# Idempotent: a service that already answers is left alone, so a second `up` takes a second.
#   scripts/stack.sh up|down|status
# OPENSEARCH_NODES=2|3 runs a cluster of that many nodes on this machine instead (README
# "Scaling"): HTTP ports from OPENSEARCH_URL's port up (9200, 9201, 9202), transport ports from
# OPENSEARCH_TRANSPORT_PORT up (its HTTP port + 100), a directory of its own per node. `up` waits
# until every node has joined and the cluster is green; `down` and `status` cover every node, and
#   scripts/stack.sh stop-node K|start-node K
# stop and restart node K (1-based) for the fault test (test/cluster/node-loss.cluster.ts).
set -euo pipefail

# The one place the OpenSearch version is pinned (docker-compose reads it from stack.env too).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../stack.env
source "$root/stack.env"

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/listings}"
TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/listings_test}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
OPENSEARCH_URL="${OPENSEARCH_URL:-http://127.0.0.1:9200}"
OPENSEARCH_WAIT_SECONDS="${OPENSEARCH_WAIT_SECONDS:-120}"
OPENSEARCH_NODES="${OPENSEARCH_NODES:-1}"
OPENSEARCH_HEAP="${OPENSEARCH_HEAP:-512m}"
case "$OPENSEARCH_NODES" in 1|2|3) ;; *) echo "OPENSEARCH_NODES must be 1, 2 or 3, not '$OPENSEARCH_NODES'" >&2; exit 2 ;; esac
[[ "$OPENSEARCH_HEAP" =~ ^[0-9]+[mg]$ ]] || { echo "OPENSEARCH_HEAP must look like 512m or 1g, not '$OPENSEARCH_HEAP'" >&2; exit 2; }

stack_dir="$root/.stack"
os_user=opensearch

# True when every directory from / down to $1 lets other users through (o+x): the opensearch
# user, which OpenSearch needs when we are root, can then reach files below it.
traversable_by_others() {
  local dir="$1" perms
  while [ "$dir" != / ]; do
    if [ -e "$dir" ]; then
      perms="$(stat -c %A "$dir")"
      case "${perms:9:1}" in x|t) ;; *) return 1 ;; esac
    fi
    dir="$(dirname "$dir")"
  done
}

# OpenSearch's files live under .stack/ unless we run as root in a checkout other users cannot
# reach (a clone in /root, mode 0700): then they go to a directory of their own under /var/lib,
# one per checkout, and the rest of the stack stays in .stack/.
os_dir="$stack_dir"
if [ "$(id -u)" = 0 ] && ! traversable_by_others "$stack_dir"; then
  os_dir="/var/lib/listings-opensearch/$(printf '%s' "$root" | sha256sum | cut -c1-12)"
fi
os_home="$os_dir/opensearch-$OPENSEARCH_VERSION"
os_run="$os_dir/opensearch-run"
# OPENSEARCH_URL may list several nodes (as the API reads it): the stack's first node is the first.
os_url="${OPENSEARCH_URL%%,*}"
os_port="$(sed -E 's#^https?://[^:/]+:?([0-9]*).*#\1#' <<<"$os_url")"
os_port="${os_port:-9200}"
OPENSEARCH_TRANSPORT_PORT="${OPENSEARCH_TRANSPORT_PORT:-$((os_port + 100))}"

log() { printf '[stack] %s\n' "$*" >&2; }

# --- PostgreSQL ---------------------------------------------------------------------------
pg_admin_url() { sed -E 's#/[^/?]*(\?.*)?$#/postgres#' <<<"$1"; }
pg_db_name() { sed -E 's#^.*/([^/?]+)(\?.*)?$#\1#' <<<"$1"; }

postgres_up() {
  if ! psql "$(pg_admin_url "$DATABASE_URL")" -qtAc 'select 1' >/dev/null 2>&1; then
    log "PostgreSQL is down, starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
  fi
  local url db
  for url in "$DATABASE_URL" "$TEST_DATABASE_URL"; do
    db="$(pg_db_name "$url")"
    if [ "$(psql "$(pg_admin_url "$url")" -qtAc "select 1 from pg_database where datname = '$db'")" != 1 ]; then
      log "creating database $db"
      psql "$(pg_admin_url "$url")" -qc "create database \"$db\""
    fi
  done
}

# --- Redis --------------------------------------------------------------------------------
redis_up() {
  if ! redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then
    log "Redis is down, starting it"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$(sed -E 's#.*:([0-9]+).*#\1#' <<<"$REDIS_URL")" --save "" --appendonly no 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
  fi
}

# --- OpenSearch ---------------------------------------------------------------------------
opensearch_answers() { curl -fsS -m 2 "$os_url/_cluster/health" >/dev/null 2>&1; }

# OpenSearch 3.x needs Java 21 or newer; 2.x runs on 17. Take the newest JDK installed.
pick_java_home() {
  local best="" best_major=0 dir major
  for dir in /usr/lib/jvm/*/; do
    [ -x "$dir/bin/java" ] || continue
    major="$("$dir/bin/java" -XshowSettings:properties -version 2>&1 | sed -nE 's/^ *java.specification.version = ([0-9]+).*/\1/p')"
    if [ -n "$major" ] && [ "$major" -gt "$best_major" ]; then best="${dir%/}" best_major="$major"; fi
  done
  [ -n "$best" ] || { log "no JDK found under /usr/lib/jvm"; exit 1; }
  echo "$best"
}

opensearch_install() {
  [ -x "$os_home/bin/opensearch" ] && return
  log "fetching OpenSearch $OPENSEARCH_VERSION (integ-test zip) from Maven Central"
  [ "$os_dir" = "$stack_dir" ] || log "this checkout is not reachable by the $os_user user: OpenSearch lives in $os_dir"
  mkdir -p "$os_dir"
  mvn -q dependency:copy \
    -Dartifact="org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip" \
    -DoutputDirectory="$os_dir"
  rm -rf "$os_home.tmp" && mkdir -p "$os_home.tmp"
  unzip -q "$os_dir/opensearch-$OPENSEARCH_VERSION.zip" -d "$os_home.tmp"
  mv "$os_home.tmp/opensearch-$OPENSEARCH_VERSION" "$os_home" && rmdir "$os_home.tmp"
  rm -f "$os_dir/opensearch-$OPENSEARCH_VERSION.zip"
  # Keep the server core only, as production is specified (no analysis-common, painless, geo
  # shapes...): a mapping or query that needs a module fails here, not in production.
  find "$os_home/modules" -mindepth 1 -maxdepth 1 ! -name transport-netty4 -exec rm -rf {} +
}

opensearch_configure() {
  mkdir -p "$os_dir/opensearch-data" "$os_dir/opensearch-logs" "$os_run"
  cat >"$os_home/config/opensearch.yml" <<YML
cluster.name: listings-local
node.name: local-1
discovery.type: single-node
network.host: 127.0.0.1
http.port: $os_port
path.data: $os_dir/opensearch-data
path.logs: $os_dir/opensearch-logs
action.auto_create_index: false
YML
  printf -- '-Xms%s\n-Xmx%s\n' "$OPENSEARCH_HEAP" "$OPENSEARCH_HEAP" >"$os_home/config/jvm.options.d/heap.options"
}

ensure_os_user() {
  id "$os_user" >/dev/null 2>&1 && return
  log "creating system user $os_user"
  useradd --system --no-create-home --shell /usr/sbin/nologin "$os_user"
}

opensearch_up() {
  if opensearch_answers; then return; fi
  opensearch_install
  opensearch_configure
  local java_home; java_home="$(pick_java_home)"
  local run=()
  if [ "$(id -u)" = 0 ]; then
    # OpenSearch refuses to run as root.
    ensure_os_user
    chown -R "$os_user" "$os_dir/opensearch-data" "$os_dir/opensearch-logs" "$os_run" "$os_home"
    run=(runuser -u "$os_user" --)
  fi
  mkdir -p "$stack_dir"
  log "starting OpenSearch $OPENSEARCH_VERSION on $os_url (java: $java_home)"
  # The daemon must not inherit the caller's descriptors (3-9 closed): `flock LOCK npm test` would
  # otherwise find its lock held by OpenSearch for as long as OpenSearch runs.
  "${run[@]}" env OPENSEARCH_JAVA_HOME="$java_home" OPENSEARCH_PATH_CONF="$os_home/config" \
    "$os_home/bin/opensearch" -d -p "$os_run/opensearch.pid" >"$stack_dir/opensearch-start.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- \
    || { log "OpenSearch failed to start:"; cat "$stack_dir/opensearch-start.log" >&2; exit 1; }
  local deadline=$((SECONDS + OPENSEARCH_WAIT_SECONDS))
  until curl -fsS -m 2 "$os_url/_cluster/health?wait_for_status=yellow&timeout=2s" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      log "OpenSearch did not reach health yellow within ${OPENSEARCH_WAIT_SECONDS}s; see $os_dir/opensearch-logs/"
      exit 1
    fi
    if ! pgrep -f -- "-Dopensearch.path.home=$os_home" >/dev/null; then
      log "OpenSearch exited during start-up; see $os_dir/opensearch-logs/"
      exit 1
    fi
    sleep 1
  done
}

opensearch_down() {
  local pidfile="$os_run/opensearch.pid" pid
  # Read once: OpenSearch removes its pid file as it exits.
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
    log "stopping OpenSearch"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
  fi
  rm -f "$pidfile"
}

# --- OpenSearch cluster (OPENSEARCH_NODES > 1) ----------------------------------------------
# N nodes of one cluster from the same installation, each with a directory of its own (config,
# data, logs, pid file) named by the first HTTP port, so a cluster on other ports (as
# scripts/test-cluster.sh runs one) never shares data with the default one, nor with the single
# node, whose data directory holds a cluster of its own.
cluster_dir="$os_dir/opensearch-cluster-$os_port"
node_dir() { echo "$cluster_dir/node-$1"; }
# The process of node K, found by its configuration directory on its command line. Not by its pid
# file: OpenSearch writes that only seconds into its start and removes it as it exits, so a
# check or a stop in between would miss a running node.
node_pid() { pgrep -f -- "-Dopensearch.path.conf=$(node_dir "$1")/config " | head -n 1; }
node_http_port() { echo $((os_port + $1 - 1)); }
node_url() { echo "http://127.0.0.1:$(node_http_port "$1")"; }
cluster_name="listings-cluster-$os_port"
# True when node K of this cluster answers on its port (not some other OpenSearch, such as the
# single node on the same port).
node_answers() {
  local body
  body="$(curl -fsS -m 2 "$(node_url "$1")/" 2>/dev/null)" || return 1
  [[ "$body" == *"\"$cluster_name\""* ]]
}
port_answers() { curl -fsS -m 2 "$(node_url "$1")/" >/dev/null 2>&1; }
cluster_nodes() { seq 1 "$OPENSEARCH_NODES"; }

# The list the API, the indexer and the tests take as OPENSEARCH_URL.
cluster_urls() {
  local k urls=()
  for k in $(cluster_nodes); do urls+=("$(node_url "$k")"); done
  (IFS=,; echo "${urls[*]}")
}

# A node that answers, for cluster-wide questions while another node is stopped.
answering_node_url() {
  local k
  for k in $(cluster_nodes); do node_answers "$k" && { node_url "$k"; return; }; done
  return 1
}

# `_cluster/health` answers 200 only once `params` hold (else 408 after `timeout`), so curl -f
# fails until then.
cluster_health_is() {
  local url
  url="$(answering_node_url)" || return 1
  curl -fsS -m 5 "$url/_cluster/health?$1&timeout=2s" >/dev/null 2>&1
}

# `cluster.initial_cluster_manager_nodes` belongs to the first start only: once the cluster has
# formed (`up` leaves the mark `formed`) and holds data, it is left out, since a node given it on a
# wiped data directory could bootstrap a second cluster of its own. Decided once per command,
# before any node starts: a node starting writes into its data directory at once.
cluster_needs_bootstrap() {
  local k
  [ -f "$cluster_dir/formed" ] || return 0
  for k in $(cluster_nodes); do
    [ -n "$(find "$(node_dir "$k")/data" -mindepth 1 -print -quit 2>/dev/null)" ] && return 1
  done
  return 0
}
cluster_bootstrap=no

# Writes node K's configuration: a copy of the distribution's config directory (JVM options,
# logging) with its own opensearch.yml and heap. OpenSearch 3.x names the bootstrap setting
# cluster_manager (`cluster.initial_master_nodes` is its deprecated alias).
cluster_node_configure() {
  local k="$1" dir seeds names i
  dir="$(node_dir "$k")"
  mkdir -p "$dir/data" "$dir/logs" "$dir/config/jvm.options.d"
  cp -r "$os_home/config/." "$dir/config/"
  seeds="$(for i in $(cluster_nodes); do printf '"127.0.0.1:%s", ' $((OPENSEARCH_TRANSPORT_PORT + i - 1)); done)"
  names="$(for i in $(cluster_nodes); do printf '"node-%s", ' "$i"; done)"
  cat >"$dir/config/opensearch.yml" <<YML
cluster.name: $cluster_name
node.name: node-$k
network.host: 127.0.0.1
http.port: $(node_http_port "$k")
transport.port: $((OPENSEARCH_TRANSPORT_PORT + k - 1))
discovery.seed_hosts: [${seeds%, }]
path.data: $dir/data
path.logs: $dir/logs
action.auto_create_index: false
YML
  if [ "$cluster_bootstrap" = yes ]; then
    echo "cluster.initial_cluster_manager_nodes: [${names%, }]" >>"$dir/config/opensearch.yml"
  fi
  printf -- '-Xms%s\n-Xmx%s\n' "$OPENSEARCH_HEAP" "$OPENSEARCH_HEAP" >"$dir/config/jvm.options.d/heap.options"
}

# Starts node K in the background of this shell (the caller waits for the launcher; the node's
# health is awaited by cluster_wait_for). The nodes start side by side: a lone node of a new
# cluster cannot elect a cluster manager until a majority of the others runs.
cluster_node_start() {
  local k="$1" java_home="$2" dir run=()
  dir="$(node_dir "$k")"
  cluster_node_configure "$k"
  if [ "$(id -u)" = 0 ]; then
    ensure_os_user
    chown -R "$os_user" "$dir" "$os_home"
    run=(runuser -u "$os_user" --)
  fi
  mkdir -p "$stack_dir"
  log "starting OpenSearch node $k on $(node_url "$k") (transport $((OPENSEARCH_TRANSPORT_PORT + k - 1)), heap $OPENSEARCH_HEAP)"
  "${run[@]}" env OPENSEARCH_JAVA_HOME="$java_home" OPENSEARCH_PATH_CONF="$dir/config" \
    "$os_home/bin/opensearch" -d -p "$dir/opensearch.pid" >"$stack_dir/opensearch-$(node_http_port "$k")-start.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
}

# Waits for each background start; any failure stops the script with its log.
cluster_wait_starts() {
  local pid k failed=0
  for pid in "$@"; do wait "$pid" || failed=1; done
  if [ "$failed" = 1 ]; then
    log "an OpenSearch node failed to start:"
    for k in $(cluster_nodes); do cat "$stack_dir/opensearch-$(node_http_port "$k")-start.log" >&2 2>/dev/null || true; done
    exit 1
  fi
}

# Waits until the cluster health holds `params`, failing early when a node's process is gone.
cluster_wait_for() {
  local params="$1" deadline=$((SECONDS + OPENSEARCH_WAIT_SECONDS)) k pid
  until cluster_health_is "$params"; do
    if [ $SECONDS -ge $deadline ]; then
      log "the OpenSearch cluster did not reach $params within ${OPENSEARCH_WAIT_SECONDS}s; see $cluster_dir/node-*/logs/"
      exit 1
    fi
    for k in $(cluster_nodes); do
      if [ -z "$(node_pid "$k")" ] && ! node_answers "$k"; then
        log "OpenSearch node $k is not running; see $(node_dir "$k")/logs/"; exit 1
      fi
    done
    sleep 1
  done
}

cluster_up() {
  local n="$OPENSEARCH_NODES"
  if cluster_health_is "wait_for_status=green&wait_for_nodes=$n"; then return; fi
  opensearch_install
  local java_home k starts=()
  java_home="$(pick_java_home)"
  cluster_needs_bootstrap && cluster_bootstrap=yes
  for k in $(cluster_nodes); do
    node_answers "$k" && continue
    if port_answers "$k"; then
      log "$(node_url "$k") answers, but not as node $k of $cluster_name (the single node? stop it with scripts/stack.sh down, or give OPENSEARCH_URL other ports)"
      exit 1
    fi
    cluster_node_start "$k" "$java_home"
    starts+=($!)
  done
  cluster_wait_starts "${starts[@]}"
  cluster_wait_for "wait_for_status=green&wait_for_nodes=$n"
  touch "$cluster_dir/formed"
  log "OpenSearch cluster of $n nodes is green; OPENSEARCH_URL=$(cluster_urls)"
}

# Stops node K: SIGTERM, then waits until its process is gone.
cluster_node_stop() {
  local pid
  pid="$(node_pid "$1")"
  if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
    log "stopping OpenSearch node $1"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
  fi
  rm -f "$(node_dir "$1")/opensearch.pid"
}

# Every node at once: each is sent SIGTERM first, then all are awaited.
cluster_down() {
  local k pid pids=()
  for k in $(cluster_nodes); do
    pid="$(node_pid "$k")"
    if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then log "stopping OpenSearch node $k"; pids+=("$pid"); fi
  done
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
  done
  for k in $(cluster_nodes); do rm -f "$(node_dir "$k")/opensearch.pid"; done
}

# The node number argument of stop-node / start-node.
node_arg() {
  [ "$OPENSEARCH_NODES" -gt 1 ] || { echo "stop-node and start-node need OPENSEARCH_NODES=2 or 3" >&2; exit 2; }
  case "${1:-}" in
    [1-9]) [ "$1" -le "$OPENSEARCH_NODES" ] && { echo "$1"; return; } ;;
  esac
  echo "node must be 1..$OPENSEARCH_NODES, not '${1:-}'" >&2
  exit 2
}

# Restarts node K into the running cluster and waits until every node has joined again. Its shard
# copies then recover in the background: callers wait for green themselves.
cluster_node_up() {
  local k="$1" java_home
  if node_answers "$k"; then return; fi
  java_home="$(pick_java_home)"
  cluster_needs_bootstrap && cluster_bootstrap=yes
  cluster_node_start "$k" "$java_home"
  cluster_wait_starts $!
  cluster_wait_for "wait_for_nodes=$OPENSEARCH_NODES"
}

cluster_status() {
  local k ok=0 url
  for k in $(cluster_nodes); do
    if node_answers "$k"; then echo "opensearch-$k up   $(node_url "$k")"; else echo "opensearch-$k down $(node_url "$k")"; ok=1; fi
  done
  if url="$(answering_node_url)"; then
    curl -fsS -m 2 "$url/_cat/health?h=cluster,status,node.total,shards,relo,init,unassign" 2>/dev/null | sed 's/^/cluster       /' || ok=1
  fi
  return $ok
}

status() {
  local ok=0
  if psql "$(pg_admin_url "$DATABASE_URL")" -qtAc 'select 1' >/dev/null 2>&1; then echo "postgres   up   $DATABASE_URL"; else echo "postgres   down"; ok=1; fi
  if redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then echo "redis      up   $REDIS_URL"; else echo "redis      down"; ok=1; fi
  if [ "$OPENSEARCH_NODES" = 1 ]; then
    if opensearch_answers; then echo "opensearch up   $os_url"; else echo "opensearch down"; ok=1; fi
  else
    cluster_status || ok=1
  fi
  return $ok
}

single_node() { [ "$OPENSEARCH_NODES" = 1 ]; }

case "${1:-}" in
  up) postgres_up; redis_up; if single_node; then opensearch_up; else cluster_up; fi; log "stack is up" ;;
  down) if single_node; then opensearch_down; else cluster_down; fi ;; # PostgreSQL and Redis belong to the machine: left running
  status) status ;;
  # An assignment, so that a bad node number stops the script (set -e).
  stop-node) node="$(node_arg "${2:-}")"; cluster_node_stop "$node" ;;
  start-node) node="$(node_arg "${2:-}")"; cluster_node_up "$node" ;;
  *) echo "usage: $0 up|down|status|stop-node K|start-node K" >&2; exit 2 ;;
esac
