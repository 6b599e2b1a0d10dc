#!/usr/bin/env bash
# Runs schemathesis (PyPI) with all its checks against tokens-server --phase dev, through the
# document the server serves, as an enrolled device (so the bearer-protected operations are
# exercised too). Bounded: EXAMPLES per operation (default 25), a fixed SEED, and a time limit.
# Usage: schemathesis.sh PATH-TO-tokens-server [EXAMPLES] [SEED]
set -euo pipefail
server="$1"; examples="${2:-25}"; seed="${3:-1}"
work="$(mktemp -d)"
pid=""
cleanup() { if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT
command -v st >/dev/null || python3 -m pip install -q --disable-pip-version-check 'schemathesis==4.32.5'
# Pulls answer at once (server.pull.wait 0): a generated wait would otherwise hold each example.
# Every example comes from this machine: it may open more accounts than one address an hour.
TOKENS_SERVER_PULL_WAIT=0 TOKENS_SERVER_ACCOUNTS_PER_ADDRESS=100000 "$server" --phase dev --host 127.0.0.1 --port 0 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 1 300); do grep -q "listening on" "$work/out" 2>/dev/null && break; sleep 0.1; done
port="$(grep -o '[0-9]*$' "$work/out")"
base="http://127.0.0.1:$port/v1"
account="$(python3 -c 'import uuid; print(uuid.uuid4())')"
key="$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')"
curl -sf -X POST -H 'Content-Type: application/json' -d "{\"accountId\":\"$account\",\"authKey\":\"$key\"}" "$base/accounts" >/dev/null
token="$(curl -sf -X POST -H 'Content-Type: application/json' -d "{\"authKey\":\"$key\",\"name\":\"schemathesis\"}" \
  "$base/accounts/$account/devices" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
echo "== schemathesis: all checks, $examples examples per operation, seed $seed, against $base"
cd "$work"
timeout 900 st run "$base/openapi.yaml" --url "$base" --checks all --max-examples "$examples" --seed "$seed" \
  -H "Authorization: Bearer $token" --no-color
