#!/bin/sh
# Stages tokens-server for `make install-server`: the binary stripped (DEBUG_SYMBOLS=1 keeps its
# symbols), and the example systemd unit with ExecStart pointing where the binary will be.
#
#   stage-server.sh BINARY STAGE PREFIX
set -eu

fail() { echo "stage-server.sh: $*" >&2; exit 1; }
[ $# -eq 3 ] || fail "usage: stage-server.sh BINARY STAGE PREFIX"
binary=$1 stage=$2 prefix=$3
[ -x "$binary" ] || fail "no tokens-server at $binary"
unit=$(dirname "$0")/../Deploy/tokens-server.service

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib/systemd/system"
if [ "${DEBUG_SYMBOLS:-0}" = 1 ]; then cp "$binary" "$stage/bin/tokens-server"
else strip --strip-all -o "$stage/bin/tokens-server" "$binary"; fi
sed "s|^ExecStart=/usr/local/bin/tokens-server |ExecStart=$prefix/bin/tokens-server |" "$unit" \
    >"$stage/lib/systemd/system/tokens-server.service"
grep -q "^ExecStart=$prefix/bin/tokens-server " "$stage/lib/systemd/system/tokens-server.service" ||
    fail "the unit's ExecStart was not rewritten"
