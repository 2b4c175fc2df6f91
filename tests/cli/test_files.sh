#!/usr/bin/env bash
# Output files and late usage errors (issue 11): a usage error found in any selected workload stops the run
# before anything is measured or written; two outputs naming one file are refused; the user's PATH.tmp, long
# names, symbolic links and file modes survive; a failed --output PNG write removes nothing; options a workload
# does not take are refused; "--" ends the options; a palette PNG with tRNS is accepted.
bin=$1
. "$(dirname "$0")/lib.sh"

tiny=(--size 4096 --runs 1 --warmup 0)

# --- late usage errors: every workload is checked before the first ladder runs ---------------------------
printf 'previous run\n' >"$tmp/prev.json"
expect "size 17 refused by convolution before reduction runs" 1 "convolution.*filter" -- \
    "$bin" run reduction:naive,convolution:naive --size 17 --runs 1 --warmup 0 --json "$tmp/prev.json"
check "prev.json kept after the usage error" -- grep -qx 'previous run' "$tmp/prev.json"
# Nothing was measured: a fresh cache directory gets no roofline and no program (the run stopped before them).
expect "nothing of reduction was run or printed" 1 '!reduction:naive' -- \
    env CLGAUGE_CACHE_DIR="$tmp/fresh-cache" "$bin" run reduction:naive,convolution:naive --size 17 --runs 1 \
    --warmup 0 --json "$tmp/prev.json"
check "no device work before the usage error" -- test -z "$(find "$tmp/fresh-cache" -type f 2>/dev/null)"
expect "--filter beyond the size refused up front" 1 "larger than" -- \
    "$bin" run reduction:naive,convolution:naive --size 16 --filter 3,17 --json "$tmp/prev.json"
check "prev.json still kept" -- grep -qx 'previous run' "$tmp/prev.json"
expect "blur --sigma 40 refused before reduction runs" 1 "sigma 40 is out of range" -- \
    "$bin" run reduction:naive,blur:sep --sigma 40 "${tiny[@]}" --json "$tmp/prev.json"
check "prev.json kept after the sigma error" -- grep -qx 'previous run' "$tmp/prev.json"
expect "--input picture too large for --size refused up front" 1 "drop --size" -- \
    "$bin" run reduction:naive,filter3x3:u8-buf-div --input "$TESTDATA/rgb_13x7.png" --size 64 --json "$tmp/prev.json"
expect "--input unreadable refused before reduction runs" 5 '!reduction:naive' -- \
    "$bin" run reduction:naive,filter3x3:u8-buf-div --input "$tmp/missing.png" --json "$tmp/prev.json"
check "prev.json kept after the input error" -- grep -qx 'previous run' "$tmp/prev.json"

# --- two outputs, one file ------------------------------------------------------------------------------
printf 'mine\n' >"$tmp/x"
expect "--json X --csv X" 1 "name the same file" -- "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/x" --csv "$tmp/x"
expect "--json - --csv -" 1 "name the same file" -- "$bin" run reduction:naive "${tiny[@]}" --json - --csv -
ln -s x "$tmp/x-link"
expect "--json X --csv LINK-TO-X" 1 "name the same file" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/x" --csv "$tmp/x-link"
expect "--json X --html ./X" 1 "name the same file" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/new.json" --html "$tmp/./new.json"
check "X untouched" -- grep -qx 'mine' "$tmp/x"
expect "--output with two picture workloads" 1 "one picture" -- \
    "$bin" run filter3x3:u8-buf-div,blur:sep --output "$tmp/pic.png"
expect "peak --json X --csv X" 1 "name the same file" -- "$bin" peak --only read --json "$tmp/x" --csv "$tmp/x"
check "X untouched by peak" -- grep -qx 'mine' "$tmp/x"

# --- the file system: temp names, links, modes, long names, directories ----------------------------------
printf 'my own tmp\n' >"$tmp/out.json.tmp"
expect "run --json out.json" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" --quiet --json "$tmp/out.json"
check "out.json written" -- grep -q '"schema_version"' "$tmp/out.json"
check "the user's out.json.tmp untouched" -- grep -qx 'my own tmp' "$tmp/out.json.tmp"
check "no temporary file left" -- test "$(find "$tmp" -name '.out.json.*' | wc -l)" -eq 0
printf 'old\n' >"$tmp/target.json"
chmod 600 "$tmp/target.json"
ln -s target.json "$tmp/link.json"
expect "run --json LINK" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" --quiet --json "$tmp/link.json"
check "the link is still a link" -- test -L "$tmp/link.json"
check "its target was updated" -- grep -q '"schema_version"' "$tmp/target.json"
check "the target kept its mode 600" -- test "$(stat -c %a "$tmp/target.json")" = 600
long=$(printf 'a%.0s' $(seq 1 255))
expect "a 255-byte name works" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" --quiet --json "$tmp/$long"
check "the 255-byte file exists" -- test -s "$tmp/$long"
expect "a 256-byte name refused up front" 5 "name too long" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/${long}b"
expect "a directory as --json refused up front" 5 "is a directory" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp"
expect "a missing directory refused up front" 5 "No such file" -- \
    "$bin" run reduction:naive "${tiny[@]}" --csv "$tmp/nodir/out.csv"
ln -s "$tmp/nowhere/x.json" "$tmp/dangling.json"
expect "a dangling link into a missing directory" 5 "No such file" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/dangling.json"
check "the dangling link is kept" -- test -L "$tmp/dangling.json"

# --- a failed --output write removes nothing --------------------------------------------------------------
if [ -w /dev/full ]; then
    ln -s /dev/full "$tmp/full.png"
    expect "--output to a full device fails" 5 "cannot write" -- \
        "$bin" run filter3x3:u8-buf-div --size 64x64 --runs 1 --warmup 0 --output "$tmp/full.png"
    check "the link to the device is kept" -- test -L "$tmp/full.png"
    check "the device is kept" -- test -c /dev/full
fi

# --- the report files of a run are replaced together or not at all
if [ -w /dev/full ]; then
    echo old >"$tmp/set.json"
    expect "--json FILE --csv /dev/full: exit 5" 5 "cannot write --csv file /dev/full" -- \
        "$bin" run reduction:naive "${tiny[@]}" -q --json "$tmp/set.json" --csv /dev/full
    check "the JSON the user had is kept when the CSV fails" -- grep -qx old "$tmp/set.json"
    check "no temporary file left" -- bash -c '! ls -a "$1" | grep -q "^\.set\.json\."' _ "$tmp"
fi

# --- a FIFO: written when a reader comes, a clear error (never a hang) when none does within 10 s -----------
mkfifo "$tmp/fifo.json"
(cat "$tmp/fifo.json" >"$tmp/fifo-read.json") &
reader=$!
expect "--json to a FIFO with a reader" 0 "" -- "$bin" run reduction:naive "${tiny[@]}" -q --json "$tmp/fifo.json"
wait "$reader"
check "the reader got the JSON" -- grep -q '"schema_version"' "$tmp/fifo-read.json"
expect "--json to a FIFO nobody reads: exit 5 within about 10 s" 5 "nobody read this FIFO" -- \
    timeout 60 "$bin" run reduction:naive "${tiny[@]}" -q --json "$tmp/fifo.json"
check "the FIFO is kept" -- test -p "$tmp/fifo.json"

# --- options a workload does not take, numbers, "--" ------------------------------------------------------
expect "--sigma without blur" 1 "sigma applies to the blur" -- "$bin" run reduction:naive "${tiny[@]}" --sigma 3
expect "--seed ' -1'" 1 "non-negative integer" -- "$bin" run reduction:naive "${tiny[@]}" --seed " -1"
expect "--seed -1" 1 "non-negative integer" -- "$bin" run reduction:naive "${tiny[@]}" --seed -1
expect "--runs ' 3'" 1 "whole number" -- "$bin" run reduction:naive --runs " 3"
expect "--filter 0 names the real limit" 1 "outside 1 to 32" -- "$bin" run convolution --filter 0
expect "-- ends the options" 0 "^reduction:naive +OK" -- "$bin" run "${tiny[@]}" -- reduction:naive
expect "-- then an option-like word is a workload" 1 "unknown workload" -- "$bin" run --runs 1 -- --runs
expect "short options -s -r -w" 0 "^reduction:naive +OK" -- "$bin" run reduction:naive -s 4096 -r1 -w 0
expect "-j writes JSON" 0 '"schema_version"' -- "$bin" run reduction:naive "${tiny[@]}" -q -j -
expect "--json given twice: refused" 1 "--json is given twice: give it once" -- \
    "$bin" run reduction:naive "${tiny[@]}" --json "$tmp/a.json" --json "$tmp/b.json"
check "--json given twice: nothing written" -- test ! -e "$tmp/a.json" -a ! -e "$tmp/b.json"
expect "-j then --json: refused" 1 "--json is given twice" -- "$bin" run reduction:naive -j - --json -
expect "--sigma in hex refused" 1 "--sigma expects a positive number, not '0x5'" -- "$bin" run blur --sigma 0x5
expect "a trailing comma in the workload list" 1 "empty item at the end of workload list 'saxpy,'" -- \
    "$bin" run saxpy,
expect "unknown short option" 1 "unknown option '-z'" -- "$bin" run reduction:naive -z

# --- terminal escapes and bidi overrides in arguments and the environment never reach stderr raw
expect "an escape sequence in a workload name" 1 "unknown workload '\?\[2Jsaxpy'" -- "$bin" run $'\e[2Jsaxpy'
check "no ESC byte on stderr" -- bash -c '! grep -q $'"'"'\x1b'"'"' "$1"' _ "$last_stderr"
expect "an escape sequence in CLGAUGE_DEVICE" 2 "no device matches '\?\[31m'" -- \
    env CLGAUGE_DEVICE=$'\e[31m' "$bin" run reduction:naive "${tiny[@]}"
expect "a right-to-left override in a command" 1 "unknown command 'a\?b'" -- "$bin" $'a\xe2\x80\xaeb'

# --- a PNG whose header declares 10^12 pixels: refused from the header, naming the file, not --size
expect "--input declaring 1000000x1000000 pixels" 1 "--input .*seed-huge-header.png is 1000000x1000000 pixels.*give a smaller picture" -- \
    "$bin" run filter3x3:u8-buf-div --runs 1 --warmup 0 --input "$TESTDATA/../fuzz/corpus/png/seed-huge-header.png"

# --- PNG input with a palette and tRNS -------------------------------------------------------------------
expect "palette + tRNS picture accepted" 0 "^filter3x3:u8-buf-div +OK" -- \
    "$bin" run filter3x3:u8-buf-div --runs 1 --warmup 0 --input "$TESTDATA/palette_trns_4x2.png"

done_tests
