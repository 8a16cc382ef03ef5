#!/bin/sh
# Blue/green upgrade of the compose workers (docs/deployment.md, "Upgrades"). Two slots, worker-a and worker-b,
# run the current build between deploys. A deploy, from the checkout of the new code:
#
#   temporal-docker/scripts/upgrade.sh start b     slot b: build this checkout, start it beside slot a (which keeps
#                                                  the current build), wait until its build polls, make it current
#   temporal-docker/scripts/upgrade.sh finish a    once the old build holds no open PINNED payment (days: a payment
#                                                  waits up to 3 business days for funds), slot a follows to the new
#                                                  build; refused while the old build holds one
#
# Next deploy: `start a`, then `finish b`. The build id is derived from each image's workflow bundle
# (`xborder deploy build-id`): a rebuild of changed workflow code is always a new build, never a new code under an
# old id. Nothing here moves a PINNED payment: it finishes on the build that started it.
# Environment: COMPOSE_FILE (default compose.yaml, e.g. compose.cloud.yaml), UPGRADE_WAIT_S (default 300).
set -eu
cd "$(dirname "$0")/.."
FILE="${COMPOSE_FILE:-compose.yaml}"
WAIT_S="${UPGRADE_WAIT_S:-300}"

usage() {
  echo "usage: $0 start <a|b> | finish <a|b>" >&2
  exit 2
}
[ $# -eq 2 ] || usage
case "$2" in a | b) ;; *) usage ;; esac
slot="$2"
if [ "$slot" = a ]; then other=b; else other=a; fi
SLOT_VAR="XBORDER_WORKER_$(echo "$slot" | tr a-z A-Z)_TAG"

compose() { docker compose -f "$FILE" "$@"; }
# the xborder CLI inside a slot's container: its Temporal settings are the worker's own
xborder() {
  s="$1"
  shift
  compose exec -T "worker-$s" node dist/src/cli/main.js "$@"
}
# the slot's image tag, kept in .env so that a later `docker compose up -d` keeps each slot on its image
set_tag() {
  if grep -q "^$1=" .env 2>/dev/null; then sed -i "s/^$1=.*/$1=$2/" .env; else echo "$1=$2" >>.env; fi
}

case "$1" in
  start)
    old="$(xborder "$other" deploy build-id)"
    version="$(node -p "require('../package.json').version" 2>/dev/null || sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' ../package.json | head -1)"
    tag="$version-$(git rev-parse --short=12 HEAD)"
    echo "upgrade: slot $other keeps build $old (current); slot $slot gets image xborder/worker:$tag from this checkout"
    set_tag "$SLOT_VAR" "$tag"
    compose build "worker-$slot"
    compose up -d --no-deps "worker-$slot"
    new=""
    i=0
    while [ -z "$new" ]; do
      new="$(xborder "$slot" deploy build-id 2>/dev/null || true)"
      i=$((i + 2)); [ "$i" -le "$WAIT_S" ] || { echo "upgrade: slot $slot did not start" >&2; exit 1; }
      [ -n "$new" ] || sleep 2
    done
    if [ "$new" = "$old" ]; then
      echo "upgrade: build $new is the same workflow code as the current one: nothing to switch"
      exit 0
    fi
    # refused until the new build's workers polled every task queue of the current build (deploy status lists it)
    i=0
    until xborder "$slot" deploy set-current "$new"; do
      i=$((i + 5)); [ "$i" -le "$WAIT_S" ] || { echo "upgrade: build $new not accepted as current; slot $other still serves $old" >&2; exit 1; }
      sleep 5
    done
    echo "upgrade: build $new is current; build $old drains on slot $other."
    echo "upgrade: when \`xborder deploy drained $old\` says so (alerts XborderCurrentBuildNoPollers/BacklogAging stay quiet meanwhile): $0 finish $other"
    ;;
  finish)
    old="$(xborder "$slot" deploy build-id)"
    current_tag="$(grep "^XBORDER_WORKER_$(echo "$other" | tr a-z A-Z)_TAG=" .env | cut -d= -f2)"
    [ -n "$current_tag" ] || { echo "upgrade: no tag of slot $other in .env: run start first" >&2; exit 1; }
    xborder "$slot" deploy drained "$old" || { echo "upgrade: build $old still holds PINNED payments: slot $slot keeps running it" >&2; exit 1; }
    set_tag "$SLOT_VAR" "$current_tag"
    compose up -d --no-deps "worker-$slot"
    echo "upgrade: slot $slot runs xborder/worker:$current_tag; both slots on one build again"
    ;;
  *) usage ;;
esac
