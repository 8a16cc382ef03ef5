#!/bin/sh
# Makes the secret files compose.yaml and compose.cloud.yaml mount (docs/deployment.md, "Secrets"), once: each in
# its own file of mode 0600 in temporal-docker/secrets/ (or the folder given), git-ignored. A file that exists is
# never overwritten (so the script is safe to re-run, and fills in only what is missing); to rotate a secret, write
# its new file yourself as the docs say. The values are generated here and never printed.
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
mkdir -p "$dir"
chmod 700 "$dir"
mkdir -p "$dir/events"
chmod 700 "$dir/events"

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
# Compose bind-mounts the files as they are: our images and Temporal's read them as uid 1000.
if [ "$(id -u)" != 1000 ]; then
  echo "make-secrets: the containers read these files as uid 1000; as root: chown -R 1000:1000 $dir" >&2
fi
