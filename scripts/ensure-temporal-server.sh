#!/usr/bin/env bash
# Makes the Temporal *server* (not the dev server) and its SQL tool available at the version
# temporal-docker/compose.yaml pins, and prints their paths. Used by the cluster harness
# (test/cluster/) and `npm run chaos`: Temporal on PostgreSQL without Docker.
#   - TEMPORAL_SERVER_PATH, TEMPORAL_SQL_TOOL_PATH: use binaries already installed (both or each);
#   - else the cache ~/.cache/xborder/temporal-server-<version>/ (outside the clone: a second clone, a
#     second run and CI on the same machine need no build; XBORDER_CACHE_DIR moves it);
#   - else `go install` both from the server's Go module (about 7 minutes on 2 cores, once).
# The PostgreSQL schema folders ship inside the same module: TEMPORAL_SCHEMA_DIR overrides.
# PostgreSQL's server binaries (initdb, postgres) come from Debian's `postgresql` package, installed
# here when missing and running as root (PG_BIN_DIR points at others).
# Output: .tools/temporal-server-paths.json ({"version", "server", "sqlTool", "schemaDir"}) and lines on stdout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { echo "[ensure-temporal-server] $*" >&2; }
is_exe() { [ -n "${1:-}" ] && [ -x "$1" ] && [ -f "$1" ]; }

# The version compose runs: `image: temporalio/server:<version>`.
version="$(sed -n 's/^[[:space:]]*image:[[:space:]]*temporalio\/server:\([0-9][0-9.]*\)[[:space:]]*$/\1/p' "$root/temporal-docker/compose.yaml" | head -n 1)"
[ -n "$version" ] || { log "no temporalio/server image in temporal-docker/compose.yaml"; exit 1; }
module="go.temporal.io/server@v$version"
cache="${XBORDER_CACHE_DIR:-$HOME/.cache/xborder}/temporal-server-$version"

# Builds one command of the server module into the cache (GOBIN), under a lock so that two runs at
# once (two test files, two clones) do not build twice.
build() { # package-path binary-name
  command -v go >/dev/null 2>&1 || { log "no Go toolchain: install Go or set TEMPORAL_SERVER_PATH / TEMPORAL_SQL_TOOL_PATH"; return 1; }
  mkdir -p "$cache"
  (
    flock 9
    if is_exe "$cache/$2"; then exit 0; fi
    log "building $2 from $module ($1); about 7 minutes the first time, log in $cache/build-$2.log"
    GOBIN="$cache" go install "go.temporal.io/server/$1@v$version" >"$cache/build-$2.log" 2>&1 \
      || { tail -n 20 "$cache/build-$2.log" >&2; exit 1; }
  ) 9>"$cache/.build.lock"
  is_exe "$cache/$2"
}

find_bin() { # override-path package-path binary-name
  if [ -n "$1" ]; then
    is_exe "$1" || { log "$1 is not an executable"; return 1; }
    echo "$1"; return
  fi
  if ! is_exe "$cache/$3"; then build "$2" "$3" >&2; fi
  echo "$cache/$3"
}

server="$(find_bin "${TEMPORAL_SERVER_PATH:-}" cmd/server server)"
sql_tool="$(find_bin "${TEMPORAL_SQL_TOOL_PATH:-}" cmd/tools/sql sql)"

schema_dir="${TEMPORAL_SCHEMA_DIR:-}"
if [ -z "$schema_dir" ]; then
  modcache="$(go env GOMODCACHE)"
  schema_dir="$modcache/$module/schema/postgresql/v12"
  # Binaries given by path, module never downloaded here: fetch the module only (seconds, no build).
  [ -d "$schema_dir" ] || go mod download "$module" >&2
fi
[ -d "$schema_dir/temporal/versioned" ] && [ -d "$schema_dir/visibility/versioned" ] \
  || { log "no PostgreSQL schema in $schema_dir (set TEMPORAL_SCHEMA_DIR)"; exit 1; }

if [ -z "${PG_BIN_DIR:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing PostgreSQL server binaries (apt-get install postgresql)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 \
      || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
  else
    log "no PostgreSQL server binaries under /usr/lib/postgresql: install the postgresql package or set PG_BIN_DIR"
    exit 1
  fi
fi

mkdir -p "$root/.tools"
printf '{"version": "%s", "server": "%s", "sqlTool": "%s", "schemaDir": "%s"}\n' \
  "$version" "$server" "$sql_tool" "$schema_dir" >"$root/.tools/temporal-server-paths.json"
echo "temporal-server $version: $server"
echo "temporal-sql-tool: $sql_tool"
echo "schema: $schema_dir"
