#!/usr/bin/env bash
# Follows the systemd steps of App/Deploy/README.md ("From zero to two synced machines") under a
# real systemd: Debian 12 booted in a container (systemd-nspawn, its own network namespace),
# PostgreSQL in it, the server and its unit installed as `make install-server` installs them.
# Checks: enable --now returns once the server answers (Type=notify), the unit starts at boot
# after PostgreSQL, reload (SIGHUP) succeeds, admin reads the environment file and prints only its
# answer, stop is graceful and journalctl shows it, and two machines sync through it.
# Needs root, debootstrap and systemd-container (make test-systemd installs them); the first run
# fetches Debian's base system into ROOTFS (kept for the next run). Bounded: every wait has a limit.
# Usage: systemd-guide.sh PATH-TO-tokens-server PATH-TO-tokens [ROOTFS]
set -euo pipefail
server="$1"; tokens="$2"; rootfs="${3:-/var/lib/machines/tokens-guide}"
here="$(cd "$(dirname "$0")" && pwd)"
[ "$(id -u)" = 0 ] || { echo "systemd-guide: needs root (it boots a container)" >&2; exit 2; }
nspawn=""
cleanup() {
  if [ -n "$nspawn" ] && kill -0 "$nspawn" 2>/dev/null; then
    kill -TERM "$nspawn" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$nspawn" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'echo "systemd-guide: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR
fail() { echo "systemd-guide: FAILED: $*" >&2; exit 1; }
# Whether the unit's journal of this boot has a line matching $1 within 10 s (journald reads the
# service's output on its own time, after systemctl has returned).
journal_has() {
  for _ in $(seq 1 100); do
    inside journalctl -b -u tokens-server -o cat --no-pager | grep -q "$1" && return 0
    sleep 0.1
  done
  return 1
}

if [ ! -x "$rootfs/usr/lib/systemd/systemd" ]; then
  echo "== debootstrap Debian 12 with systemd and PostgreSQL into $rootfs"
  rm -rf "$rootfs"
  timeout 900 debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,postgresql,curl \
    bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
  # Created beside a running PostgreSQL, the cluster may have taken another port than a machine's 5432.
  sed -i 's/^port = .*/port = 5432/' "$rootfs"/etc/postgresql/*/main/postgresql.conf
fi

# Installed as make install-server installs it (without stripping: the binary may be a debug one).
stage="$(mktemp -d)"
rm -f "$rootfs/usr/local/bin/tokens-server" "$rootfs/usr/local/bin/tokens"
DEBUG_SYMBOLS=1 "$here/stage-server.sh" "$server" "$stage/stage" /usr/local >/dev/null
PRODUCT=tokens-server "$here/install.sh" install "$stage/stage" "$rootfs/usr/local" >/dev/null
rm -rf "$stage"
install -m 755 "$tokens" "$rootfs/usr/local/bin/tokens"
# A debug build needs the toolchain's runtime and the system's SQLite: lent read-only.
binds=()
for lib in $(ldd "$server" "$tokens" | awk '/=> \//{print $3}' | sort -u); do
  case "$lib" in
    /lib/*|/usr/lib/*) [ -s "$rootfs$lib" ] || binds+=("--bind-ro=$lib") ;;
    *) binds+=("--bind-ro=$(dirname "$lib")") ;;
  esac
done
binds=($(printf '%s\n' "${binds[@]}" | sort -u))

leader=""
inside() { nsenter -t "$leader" -a "$@"; }
# The container's first process: the child of systemd-nspawn in a pid namespace of its own. nspawn
# forks a short-lived helper in ours first, so "its first child" may name a process about to exit.
container_init() {
  local ours child theirs
  ours="$(readlink "/proc/$nspawn/ns/pid" 2>/dev/null)" || return 0
  for child in $(ps -o pid= --ppid "$nspawn" || true); do
    theirs="$(readlink "/proc/$child/ns/pid" 2>/dev/null || true)"
    if [ -n "$theirs" ] && [ "$theirs" != "$ours" ]; then echo "$child"; return 0; fi
  done
  return 0
}
boot() {
  setsid systemd-nspawn -D "$rootfs" "${binds[@]}" --private-network --register=no --keep-unit \
    --console=passive -b >"$rootfs.log" 2>&1 &
  nspawn=$!
  leader=""
  for _ in $(seq 1 300); do leader="$(container_init)"; [ -n "$leader" ] && break; sleep 0.1; done
  [ -n "$leader" ] || fail "the container did not start: $(tail -3 "$rootfs.log")"
  for _ in $(seq 1 600); do
    state="$(inside systemctl is-system-running 2>/dev/null || true)"
    case "$state" in running|degraded) break ;; esac
    sleep 0.1
  done
  [ "$state" = running ] || fail "systemd in the container is $state: $(inside systemctl --failed --no-legend 2>&1)"
}
poweroff() {
  inside systemctl poweroff || true
  for _ in $(seq 1 300); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$nspawn" 2>/dev/null && fail "the container did not power off"
  nspawn=""
}

echo "== boot, and the guide's database, environment file and systemctl steps"
boot
inside systemctl disable --now tokens-server >/dev/null 2>&1 || true  # a previous run's
inside sh -c 'runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS tokens" -c "DROP ROLE IF EXISTS tokens" \
  -c "CREATE ROLE tokens LOGIN PASSWORD '"'"'guide-password'"'"'" && runuser -u postgres -- createdb -O tokens tokens'
inside sh -c 'install -m 600 /dev/null /etc/tokens-server.env && cat >/etc/tokens-server.env' <<'END'
TOKENS_SERVER_DATABASE_URL=postgres://tokens:guide-password@localhost:5432/tokens?sslmode=disable
TOKENS_SERVER_PROXIES=127.0.0.1
END
inside systemctl daemon-reload
inside timeout 60 systemctl enable --now tokens-server 2>/dev/null || fail "enable --now: $(inside journalctl -b -u tokens-server -o cat --no-pager | tail -5)"
# Type=notify: systemctl returned once the server said READY=1, so it answers now, without a wait.
ready="$(inside curl -s --max-time 5 localhost:8787/v1/ready)"
[[ "$ready" == *'"status":"ok"'* ]] || fail "not ready right after enable --now: $ready"
[ "$(inside systemctl show tokens-server -p StatusText --value)" = "listening on http://127.0.0.1:8787" ] || fail "no status text"
inside timeout 30 systemctl reload tokens-server || fail "reload: $(inside journalctl -b -u tokens-server -o cat --no-pager | tail -3)"
journal_has "SIGHUP" || fail "the reload was not logged"

echo "== admin invite, then two machines sync through it"
invite="$(inside sh -c 'set -a; . /etc/tokens-server.env; exec tokens-server --phase real admin invite' 2>"$rootfs.err" | head -1)"
[ -s "$rootfs.err" ] && fail "admin invite wrote to standard error: $(cat "$rootfs.err")"
inside sh -c 'rm -rf /tmp/laptop /tmp/desktop && mkdir /tmp/laptop /tmp/desktop'
machine() { inside env HOME="/tmp/$1" TOKENS_PASSPHRASE=guide-vault-passphrase tokens "${@:2}"; }
machine laptop init >/dev/null
echo "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub" | machine laptop add - >/dev/null
echo "$invite" | machine laptop sync init --server http://127.0.0.1:8787 --invite >/dev/null
code="$(machine laptop sync code)"
machine desktop init >/dev/null
echo "$code" | machine desktop sync join - --server http://127.0.0.1:8787 --name desktop >/dev/null
machine desktop list | grep -q "GitHub" || fail "the desktop did not receive the laptop's account"

echo "== stop, then a boot starts it after PostgreSQL"
inside timeout 40 systemctl stop tokens-server
journal_has "\] stopped$" || fail "no stop line in the journal"
poweroff
boot
inside systemctl is-active tokens-server >/dev/null || fail "not started at boot: $(inside journalctl -b -u tokens-server -o cat --no-pager | tail -3)"
for _ in $(seq 1 50); do ready="$(inside curl -s --max-time 5 localhost:8787/v1/ready || true)"; [[ "$ready" == *ok* ]] && break; sleep 0.1; done
[[ "$ready" == *'"status":"ok"'* ]] || fail "not ready after boot: $ready"
poweroff
echo "systemd-guide: the guide's systemd steps passed under $(chroot "$rootfs" /usr/lib/systemd/systemd --version | head -1)"
