#!/bin/sh
# Adds the systemd user units of automatic backups (App/Deploy/user) to a staged install, with
# ExecStart pointing where make install puts tokens.
#
#   stage-user-units.sh STAGE PREFIX
set -eu

fail() { echo "stage-user-units.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: stage-user-units.sh STAGE PREFIX"
stage=$1 prefix=$2
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
units=$(dirname "$0")/../Deploy/user

mkdir -p "$stage/share/systemd/user"
sed "s|^ExecStart=/usr/local/bin/tokens |ExecStart=$prefix/bin/tokens |" "$units/tokens-backup.service" \
    >"$stage/share/systemd/user/tokens-backup.service"
grep -q "^ExecStart=$prefix/bin/tokens " "$stage/share/systemd/user/tokens-backup.service" ||
    fail "the unit's ExecStart was not rewritten"
cp "$units/tokens-backup.timer" "$stage/share/systemd/user/tokens-backup.timer"
