#!/bin/sh
# Makes the secret files compose.yaml and compose.cloud.yaml mount (docs/deployment.md, "Secrets"), once: each in
# its own file of mode 0600 in temporal-docker/secrets/ (or the folder given), git-ignored. A file that exists is
# never overwritten (so the script is safe to re-run, and fills in only what is missing); to rotate a secret, write
# its new file yourself as the docs say. The values are generated here and never printed. Every file found there is
# set to 0600 too; a symlink in the folder (or in events/) is refused, naming it, before anything is made or changed.
#
#   temporal-docker/scripts/make-secrets.sh [folder]
#
# Against the real payments service, first write the files it gives you (the script then keeps them):
#   provider_api_key   its API key                    webhook_secrets   its webhook signing secret (whsec_...)
# What is generated otherwise (the sandbox profile accepts any key and signs with the secret it is given):
#   postgres_password       openssl rand -hex 24
#   provider_api_key        sk_ + openssl rand -hex 16
#   webhook_secrets         whsec_ + openssl rand -base64 24
#   sandbox_control_token   openssl rand -base64 24
#   codec_keys              {"current":"<yyyy-mm>","keys":{"<yyyy-mm>":"<openssl rand -base64 32>"}} (docs/codec.md)
#   codec_server_tokens     codec_ + openssl rand -hex 24
#   events/                 a folder for the optional outbound-event secrets (docs/outbound-events.md), left empty
set -eu
dir="${1:-$(dirname "$0")/../secrets}"
umask 077

# refuse <path> <why>: stops before anything is made or changed, naming the path (never a value)
refuse() {
  echo "make-secrets: $1: $2; refused, nothing made or changed (docs/deployment.md, \"Secrets\")" >&2
  exit 1
}
# the folder itself: chmod and every write below would follow a link to wherever it points
if [ -L "$dir" ]; then refuse "$dir" "the secrets folder is a symlink"; fi
mkdir -p "$dir"
chmod 700 "$dir"
# A symlink in the folder is refused: a secret written, or a mode set, through one would land wherever it points
# (any file the operator can write, or a folder someone else reads). Replace it with the file itself.
[ -L "$dir/events" ] && refuse "$dir/events" "a symlink (the events folder must be a folder of its own)"
[ ! -e "$dir/events" ] || [ -d "$dir/events" ] || refuse "$dir/events" "not a folder"
for entry in "$dir"/* "$dir"/.[!.]* "$dir/events"/* "$dir/events"/.[!.]*; do
  [ -e "$entry" ] || [ -L "$entry" ] || continue # a pattern that matched nothing
  [ -L "$entry" ] && refuse "$entry" "a symlink in the secrets folder (write the secret into a file there instead)"
  [ "$entry" = "$dir/events" ] || [ -f "$entry" ] || [ -d "$entry" ] ||
    refuse "$entry" "neither a file nor a folder"
done
mkdir -p "$dir/events"
chmod 700 "$dir/events"
# Every file already there (one the operator wrote, e.g. the real service's key) gets mode 0600 too, whatever the
# umask it was written with: the script promises 0600 for every secret file, not only the ones it makes.
for entry in "$dir"/* "$dir"/.[!.]* "$dir/events"/* "$dir/events"/.[!.]*; do
  if [ -f "$entry" ] && [ ! -L "$entry" ]; then chmod 600 "$entry"; fi
done

made=0
# make <name> <generator...>: writes the generator's output to <name> unless it exists (noclobber refuses then too)
make() {
  name="$1"
  shift
  if [ -e "$dir/$name" ]; then
    echo "make-secrets: $name exists, kept"
    return 0
  fi
  value="$("$@")"
  [ -n "$value" ] || { echo "make-secrets: $name: the generator gave nothing" >&2; exit 1; }
  (set -C && printf '%s\n' "$value" >"$dir/$name")
  chmod 600 "$dir/$name"
  made=$((made + 1))
  echo "make-secrets: $name made"
}

rand() { openssl rand "$@"; }
prefixed() {
  prefix="$1"
  shift
  printf '%s%s' "$prefix" "$(rand "$@")"
}
codec_keys() {
  id="$(date -u +%Y-%m)"
  printf '{"current":"%s","keys":{"%s":"%s"}}' "$id" "$id" "$(rand -base64 32)"
}

make postgres_password rand -hex 24
make provider_api_key prefixed sk_ -hex 16
make webhook_secrets prefixed whsec_ -base64 24
make sandbox_control_token rand -base64 24
make codec_keys codec_keys
make codec_server_tokens prefixed codec_ -hex 24

echo "make-secrets: $made made in $dir (mode 0600)"
# Compose bind-mounts the files as they are (no uid or mode applied to file secrets): our images and Temporal's read
# them as uid 1000, PostgreSQL's entrypoint as root. So the files (and events/, a mounted folder) must be uid 1000's;
# the folder itself must not: the bind mount reaches each file by its path without the folder's permission, and a
# folder of mode 0700 that stays its owner's keeps every host account but that owner and root away from the files,
# whoever host uid 1000 is (often the first person's account: `chown -R` on the folder gave that person every secret).
if [ "$(id -u)" != 1000 ]; then
  owned=""
  for entry in "$dir"/* "$dir"/.[!.]* "$dir/events"/* "$dir/events"/.[!.]*; do
    if [ -f "$entry" ] && [ ! -L "$entry" ]; then owned="$owned '$entry'"; fi
  done
  owned="$owned '$dir/events'"
  echo "make-secrets: the containers read these files as uid 1000; as root, give them the files, never the folder:" >&2
  echo "  chown 1000:1000$owned" >&2
  echo "make-secrets: keep $dir itself yours at mode 0700 (no other host account reaches the files through it)" >&2
fi
