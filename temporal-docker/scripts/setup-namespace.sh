#!/bin/sh
# One-shot job of the temporalio/admin-tools image, run once the Temporal frontend is up: creates the
# namespace and registers xborder's search attributes in it (ARCHITECTURE.md, "Search attributes").
# Idempotent: a second run changes nothing; an attribute registered with another type is an error.
#   TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE  where (the temporal CLI reads the same variables)
#   TEMPORAL_NAMESPACE_RETENTION          how long closed workflows stay visible, e.g. 30d
#   XBORDER_SEARCH_ATTRIBUTES             "Name=Type ...", from workflows/search-attributes.ts
#                                         (test/docker/compose.test.ts keeps them equal)
#   TEMPORAL_CLI                          the temporal CLI when not on PATH (the test harness,
#                                         test/cluster/, runs this same script on the host)
set -eu
: "${TEMPORAL_ADDRESS:?TEMPORAL_ADDRESS is required}"
: "${TEMPORAL_NAMESPACE:?TEMPORAL_NAMESPACE is required}"
: "${XBORDER_SEARCH_ATTRIBUTES:?XBORDER_SEARCH_ATTRIBUTES is required}"
retention="${TEMPORAL_NAMESPACE_RETENTION:-30d}"
cli="${TEMPORAL_CLI:-temporal}"
tries="${SETUP_MAX_TRIES:-60}"

# Retries a command every 2 s until it succeeds or $tries attempts have failed.
retry() {
  what="$1"
  shift
  n=0
  until "$@" >/dev/null 2>&1; do
    n=$((n + 1))
    if [ "$n" -ge "$tries" ]; then
      echo "setup-namespace: $what: still failing after $n tries" >&2
      "$@" >&2 || true
      exit 1
    fi
    sleep 2
  done
}

retry "cluster health at $TEMPORAL_ADDRESS" "$cli" operator cluster health --address "$TEMPORAL_ADDRESS"

if "$cli" operator namespace describe --namespace "$TEMPORAL_NAMESPACE" --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; then
  echo "setup-namespace: namespace $TEMPORAL_NAMESPACE exists"
else
  "$cli" operator namespace create --namespace "$TEMPORAL_NAMESPACE" --retention "$retention" --address "$TEMPORAL_ADDRESS"
  echo "setup-namespace: namespace $TEMPORAL_NAMESPACE created (retention $retention)"
fi
# A new namespace reaches the search-attribute API a few seconds after `describe` sees it.
retry "search attributes of $TEMPORAL_NAMESPACE" "$cli" operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" --address "$TEMPORAL_ADDRESS"

# The type of $1 in the namespace's list (lower case), or nothing when it is not registered.
registered_type() {
  list="$("$cli" operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" --address "$TEMPORAL_ADDRESS")"
  printf '%s\n' "$list" | awk -v name="$1" '$1 == name { print tolower($2); exit }'
}

for pair in $XBORDER_SEARCH_ATTRIBUTES; do
  name="${pair%%=*}"
  type="${pair#*=}"
  want="$(echo "$type" | tr '[:upper:]' '[:lower:]')"
  have="$(registered_type "$name")"
  if [ -z "$have" ]; then
    "$cli" operator search-attribute create --namespace "$TEMPORAL_NAMESPACE" --name "$name" --type "$type" --address "$TEMPORAL_ADDRESS"
    have="$(registered_type "$name")"
  fi
  if [ "$have" != "$want" ]; then
    echo "setup-namespace: search attribute $name is registered as '${have:-nothing}', xborder needs $type" >&2
    exit 1
  fi
  echo "setup-namespace: search attribute $name $type ok"
done
