#!/usr/bin/env bash
# Brings the local stack up on loopback: PostgreSQL, Redis (the machine's own) and a single
# OpenSearch node from the official minimal distribution (integ-test zip on Maven Central).
# Idempotent: a service that already answers is left alone, so a second `up` takes a second.
#   scripts/stack.sh up|down|status
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
os_port="$(sed -E 's#^https?://[^:/]+:?([0-9]*).*#\1#' <<<"$OPENSEARCH_URL")"
os_port="${os_port:-9200}"

log() { printf '[stack] %s\n' "$*" >&2; }

# --- PostgreSQL ---------------------------------------------------------------------------
pg_admin_url() { sed -E 's#/[^/?]*(\?.*)?$#/postgres#' <<<"$1"; }
pg_db_name() { sed -E 's#^.*/([^/?]+)(\?.*)?$#\1#' <<<"$1"; }

postgres_up() {
  if ! psql "$(pg_admin_url "$DATABASE_URL")" -qtAc 'select 1' >/dev/null 2>&1; then
    log "PostgreSQL is down, starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
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
    redis-server --daemonize yes --bind 127.0.0.1 --port "$(sed -E 's#.*:([0-9]+).*#\1#' <<<"$REDIS_URL")" --save "" --appendonly no
  fi
}

# --- OpenSearch ---------------------------------------------------------------------------
opensearch_answers() { curl -fsS -m 2 "$OPENSEARCH_URL/_cluster/health" >/dev/null 2>&1; }

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
  printf -- '-Xms512m\n-Xmx512m\n' >"$os_home/config/jvm.options.d/heap.options"
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
  log "starting OpenSearch $OPENSEARCH_VERSION on $OPENSEARCH_URL (java: $java_home)"
  "${run[@]}" env OPENSEARCH_JAVA_HOME="$java_home" OPENSEARCH_PATH_CONF="$os_home/config" \
    "$os_home/bin/opensearch" -d -p "$os_run/opensearch.pid" >"$stack_dir/opensearch-start.log" 2>&1 \
    || { log "OpenSearch failed to start:"; cat "$stack_dir/opensearch-start.log" >&2; exit 1; }
  local deadline=$((SECONDS + OPENSEARCH_WAIT_SECONDS))
  until curl -fsS -m 2 "$OPENSEARCH_URL/_cluster/health?wait_for_status=yellow&timeout=2s" >/dev/null 2>&1; do
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

status() {
  local ok=0
  if psql "$(pg_admin_url "$DATABASE_URL")" -qtAc 'select 1' >/dev/null 2>&1; then echo "postgres   up   $DATABASE_URL"; else echo "postgres   down"; ok=1; fi
  if redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then echo "redis      up   $REDIS_URL"; else echo "redis      down"; ok=1; fi
  if opensearch_answers; then echo "opensearch up   $OPENSEARCH_URL"; else echo "opensearch down"; ok=1; fi
  return $ok
}

case "${1:-}" in
  up) postgres_up; redis_up; opensearch_up; log "stack is up" ;;
  down) opensearch_down ;; # PostgreSQL and Redis belong to the machine: left running
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
