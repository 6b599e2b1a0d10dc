#!/usr/bin/env bash
# Runs one test command (`swift test …`) under a watchdog, for the Makefile:
#
#   test-watchdog.sh LIMIT_SECONDS COMMAND [ARGUMENTS…]
#
# - The command runs in a process group of its own, and only that group is ever signalled: never
#   a process found by name, so another checkout's or another user's tests are never touched.
# - A stall never passes. If the command still runs after LIMIT_SECONDS, every process of its
#   group has the backtraces of all its threads printed (gdb), the group is killed, and the
#   script fails with status 124. Nothing is retried: a hang is a bug to read, not to hide.
# - A run that executed no test fails (status 65): a --filter that matches nothing, or a
#   package whose tests all vanished, is not a pass.
# - Otherwise the command's own status is returned.
set -uo pipefail

limit=$1
shift
log=$(mktemp)
group=""
tail_pid=""

cleanup() {
    # Whatever is left of our own group (a child that outlived the command) goes with us.
    [ -n "$group" ] && kill -KILL -- "-$group" 2>/dev/null
    [ -n "$tail_pid" ] && kill -KILL "$tail_pid" 2>/dev/null
    rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Job control gives the background job its own process group, whose id is the job's pid.
set -m
"$@" >"$log" 2>&1 </dev/null &
group=$!
set +m
# Stream the output as it comes; tail ends by itself once the command has ended.
tail -n +1 -f -s 0.2 --pid="$group" "$log" &
tail_pid=$!

deadline=$((SECONDS + limit))
while kill -0 "$group" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.2
done

if kill -0 "$group" 2>/dev/null; then
    sleep 1  # let tail show the last lines
    kill -KILL "$tail_pid" 2>/dev/null
    wait "$tail_pid" 2>/dev/null
    tail_pid=""
    echo "== STALLED: '$*' still ran after $limit s. Backtraces of every process in its group:"
    for pid in $(ps -e -o pid=,pgid= | awk -v group="$group" '$2 == group { print $1 }'); do
        echo "-- pid $pid: $(ps -o args= -p "$pid" | cut -c1-200)"
        if command -v gdb >/dev/null; then
            timeout 120 gdb -p "$pid" -batch -nx -q -ex "set pagination off" -ex "info threads" \
                -ex "thread apply all bt 40" 2>&1 | grep -v '^\[New LWP\|^warning: .*could not\|^$' | head -2000
        else
            echo "   (gdb is not installed: no backtraces)"
        fi
    done
    kill -KILL -- "-$group" 2>/dev/null
    group=""
    echo "== FAILED: the test run stalled (see the backtraces above)"
    exit 124
fi

wait "$group"
status=$?
wait "$tail_pid" 2>/dev/null
group=""
tail_pid=""

# Tests executed: Swift Testing's closing line less its skipped tests, plus XCTest's count. Only
# whole lines count, not the same words inside a test's name or arguments.
testing=$(grep -aoE '^.{0,4}Test run with [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+' || true)
skipped=$(grep -acE '^➜ Test .* skipped' "$log" || true)
xctest=$(grep -aoE '^[[:space:]]*Executed [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+' || true)
executed=$(( ${testing:-0} - ${skipped:-0} + ${xctest:-0} ))
if [ "$status" -eq 0 ] && [ "$executed" -le 0 ]; then
    echo "== FAILED: no test ran ('$*')"
    exit 65
fi
exit "$status"
