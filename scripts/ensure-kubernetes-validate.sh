#!/usr/bin/env bash
# Makes PyPI's kubernetes-validate (offline Kubernetes schemas, and jsonschema for the controller's CRDs) importable
# for scripts/validate-k8s.py and prints the folder to put on PYTHONPATH: one that already imports it (prints
# nothing then), else .tools/kubernetes-validate/, installed there with pip at the pinned version.
set -euo pipefail

VERSION="1.37.0"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.tools/kubernetes-validate"
log() { echo "[ensure-kubernetes-validate] $*" >&2; }

if python3 -c 'import kubernetes_validate, jsonschema' >/dev/null 2>&1; then echo ""; exit 0; fi
if PYTHONPATH="$target" python3 -c 'import kubernetes_validate, jsonschema' >/dev/null 2>&1; then echo "$target"; exit 0; fi
log "pip install kubernetes-validate==$VERSION into .tools/kubernetes-validate"
python3 -m pip install --quiet --disable-pip-version-check --target "$target" "kubernetes-validate==$VERSION" >&2
echo "$target"
