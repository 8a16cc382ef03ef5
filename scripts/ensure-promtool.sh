#!/usr/bin/env bash
# Makes Prometheus's `promtool` available (temporal-docker/prometheus/alerts.yaml is checked with
# `promtool check rules` by test/docker/compose.test.ts) and prints its path: $PROMTOOL, promtool on PATH,
# .tools/, else Debian's `prometheus` package, downloaded (not installed: no server is set up or started)
# and only its promtool binary extracted into .tools/. A second run finds .tools/ and needs no network.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.tools/promtool"
log() { echo "[ensure-promtool] $*" >&2; }

if [ -n "${PROMTOOL:-}" ] && [ -x "$PROMTOOL" ]; then echo "$PROMTOOL"; exit 0; fi
if command -v promtool >/dev/null 2>&1; then command -v promtool; exit 0; fi
if [ -x "$target/promtool" ]; then echo "$target/promtool"; exit 0; fi

command -v apt-get >/dev/null 2>&1 || { log "no apt-get: install promtool (Prometheus) or set PROMTOOL"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
log "downloading Debian's prometheus package for its promtool"
(cd "$tmp" && apt-get download prometheus >&2) || {
  # An apt cache with no lists yet: refresh them when allowed (root), then try once more.
  if [ "$(id -u)" = "0" ]; then apt-get update -qq >&2 && (cd "$tmp" && apt-get download prometheus >&2); else exit 1; fi
}
dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x"
mkdir -p "$target"
cp "$tmp/x/usr/bin/promtool" "$target/promtool.part"
chmod 755 "$target/promtool.part"
mv "$target/promtool.part" "$target/promtool"
log "$("$target/promtool" --version 2>&1 | head -1)"
echo "$target/promtool"
