#!/bin/sh
# Output of every rank arrives complete and line by line: 4 ranks x 2000 lines, a line over
# 64 KiB, stderr beside stdout, a last line without a newline, with and without --tag-output.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

lines=2000 long=70000
run -t 60 tagged "$plexrun" -n 4 --tag-output "$client" lines "$lines" "$long" partial
expect_status 0

# What every rank must have printed, tagged, in any order between ranks.
awk -v n=4 -v lines="$lines" -v long="$long" 'BEGIN {
  for (r = 0; r < n; r++) {
    for (i = 0; i < lines; i++) {
      pad = ""; for (k = 0; k < i % 97; k++) pad = pad sprintf("%c", 97 + i % 26)
      printf "[1,%d]<stdout>: rank %d line %d %s\n", r, r, i, pad
    }
    big = ""; for (k = 0; k < long; k++) big = big "L"
    printf "[1,%d]<stdout>: rank %d long %s\n", r, r, big
    printf "[1,%d]<stdout>: rank %d last-without-newline\n", r, r
  }
}' | sort >"$work/expected.out"
sort "$out" >"$work/got.out"
if ! cmp -s "$work/expected.out" "$work/got.out"; then
  fail "tagged: stdout is not every line once, whole and tagged"
  diff "$work/expected.out" "$work/got.out" | cut -c1-200 | head -20
fi
awk -v n=4 -v lines="$lines" 'BEGIN {
  for (r = 0; r < n; r++) for (i = 0; i < lines; i += 10) printf "[1,%d]<stderr>: rank %d err %d\n", r, r, i
}' | sort >"$work/expected.err"
sort "$err" >"$work/got.err"
cmp -s "$work/expected.err" "$work/got.err" || { fail "tagged: stderr differs"; diff "$work/expected.err" "$work/got.err" | head -20; }
# Each rank's lines stay in order.
for r in 0 1 2 3; do
  grep -F "[1,$r]<stdout>: rank $r line " "$out" | awk '{ print $5 }' >"$work/order-$r"
  seq 0 $((lines - 1)) | cmp -s - "$work/order-$r" || fail "tagged: rank $r's lines are out of order"
done
expect_clean

# Untagged: the same lines, bare; the long line whole.
run -t 60 untagged "$plexrun" -n 2 "$client" lines 300 "$long"
expect_status 0
expect_count "$out" 602 '^rank [01] (line [0-9]+ [a-z]*|long L+)$'
whole=$(awk -v len=$((long + 12)) '/^rank [01] long L+$/ && length($0) == len { n++ } END { print n + 0 }' "$out")
[ "$whole" -eq 2 ] || fail "untagged: $whole of 2 long lines arrived whole"
expect_count "$err" 60 '^rank [01] err [0-9]+$'

# Untagged, a last line without a newline is forwarded as it is.
run -t 30 partial "$plexrun" -n 1 sh -c 'printf "complete\nno newline"'
expect_status 0
[ "$(cat "$out")" = "$(printf 'complete\nno newline')" ] || { fail "partial: stdout differs"; show; }
expect_clean

finish
