#!/bin/sh
# One-shot job of the temporalio/admin-tools image, run before the Temporal server starts: creates the
# two PostgreSQL databases (history and visibility) and brings both schemas to the version this
# admin-tools release ships. Safe to re-run: an existing database is kept and only migrated, which is
# also how a Temporal upgrade goes (bump server and admin-tools together, then `docker compose up`).
#   DB_PORT, POSTGRES_SEEDS, POSTGRES_USER, POSTGRES_PWD   the same variables the server reads
#   POSTGRES_PWD_FILE                                       or the password from this file (compose's mounted
#                                                           secret: docs/deployment.md, "Secrets"), not both
#   DBNAME, VISIBILITY_DBNAME                               database names (the server's too)
#   SCHEMA_DIR, TEMPORAL_SQL_TOOL                           where the schema and the SQL tool are, when not
#                                                           in the admin-tools image (the test harness,
#                                                           test/cluster/, runs this same script on the host)
set -eu
if [ -n "${POSTGRES_PWD_FILE:-}" ]; then
  if [ -n "${POSTGRES_PWD:-}" ]; then
    echo "setup-schema: set POSTGRES_PWD or POSTGRES_PWD_FILE, not both" >&2
    exit 2
  fi
  # $(...) drops the file's trailing newline; a missing or unreadable file stops here (set -e), naming the path
  POSTGRES_PWD="$(cat "$POSTGRES_PWD_FILE")"
fi
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}" "${DBNAME:?}" "${VISIBILITY_DBNAME:?}"
port="${DB_PORT:-5432}"
schema_dir="${SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"
export SQL_PASSWORD="$POSTGRES_PWD"

sql_tool="${TEMPORAL_SQL_TOOL:-temporal-sql-tool}"

sql() {
  "$sql_tool" --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$port" -u "$POSTGRES_USER" "$@"
}

# Runs a step whose only acceptable failure is "already exists" (second run, upgrade).
tolerate_existing() {
  if ! out="$("$@" 2>&1)"; then
    if printf '%s' "$out" | grep -qi 'already exists'; then return 0; fi
    printf '%s\n' "$out" >&2
    return 1
  fi
  printf '%s\n' "$out"
}

for pair in "$DBNAME:temporal" "$VISIBILITY_DBNAME:visibility"; do
  db="${pair%%:*}"
  kind="${pair#*:}"
  echo "setup-schema: $db ($kind)"
  tolerate_existing sql --db "$db" create
  tolerate_existing sql --db "$db" setup-schema -v 0.0
  sql --db "$db" update-schema -d "$schema_dir/$kind/versioned"
done
echo "setup-schema: done"
