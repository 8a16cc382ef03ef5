#!/usr/bin/env bash
# Makes Helm available for the chart's validation (test/deploy/helm-chart.test.ts renders deploy/helm/xborder with
# `helm template`) and prints its path: $HELM, helm on PATH, .tools/helm/, else `go install` of the pinned version
# into .tools/helm/ (the Go module proxy serves it; a first build takes minutes). A second run needs no network.
set -euo pipefail

HELM_VERSION="v3.19.0"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.tools/helm"
log() { echo "[ensure-helm] $*" >&2; }

if [ -n "${HELM:-}" ] && [ -x "$HELM" ]; then echo "$HELM"; exit 0; fi
if command -v helm >/dev/null 2>&1; then command -v helm; exit 0; fi
if [ -x "$target/helm" ]; then echo "$target/helm"; exit 0; fi

command -v go >/dev/null 2>&1 || { log "no helm and no go: install Helm $HELM_VERSION or set HELM"; exit 1; }
log "go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION (first build: a few minutes)"
mkdir -p "$target"
GOBIN="$target" go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
log "$("$target/helm" version --short 2>&1)"
echo "$target/helm"
