#!/usr/bin/env bash
# Runs clgauge (the first argument) with the remaining arguments. When LeakSanitizer itself crashed ("has
# encountered a fatal error": its stop-the-world tracer can fault while the OpenCL runtime's worker threads
# exit), no leak check happened, so the command runs once more. A leak LeakSanitizer does report still fails.
# Outputs are buffered and replayed, so use it only where the caller does not need a terminal.
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for attempt in 1 2; do
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    grep -q "LeakSanitizer has encountered a fatal error" "$tmp/err" || break
    [ "$attempt" = 1 ] && echo "note: LeakSanitizer crashed (not a leak report); running once more" >&2
done
cat "$tmp/out"
cat "$tmp/err" >&2
exit "$rc"
