#!/usr/bin/env bash
# Makes a Chromium available for the browser test of the Temporal UI (test/ui): $CHROMIUM_PATH, chromium on
# PATH, else Debian's `chromium` package (root, as on CI). Never a browser download: these machines reach
# package registries only. Prints the path.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; exit 0; fi
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then command -v "$candidate"; exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[ensure-chromium] installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
  command -v chromium
  exit 0
fi
echo "[ensure-chromium] no Chromium found: install Debian's chromium package or set CHROMIUM_PATH" >&2
exit 1
