#!/bin/sh
# Measures agree, errata and apply-errata at 1,000,000 samples: 5 annotators' label files (made
# by bench/agree: 97%, 95%, 90%, 85% and 80% accurate; again with 20% of each left unlabelled),
# agree alone, with --consensus and --votes, and --weighted; errata and apply-errata of 1,000 and
# of about 900,000 corrections on a 1,000,000-sample pair tiled from t10k (bench/mkpair); then
# the package's go benchmarks. Each run is timed by /usr/bin/time (wall, user and system
# seconds, peak RSS). Files go to $OUT (default /tmp/agree-bench, about 900 MB).
set -eu
M=${IDXLABEL_MNIST:-../shared/data/mnist}
OUT=${OUT:-/tmp/agree-bench}
mkdir -p "$OUT/full" "$OUT/missing"
go build -tags "$(scripts/tags.sh)" -o "$OUT/idxlabel" .
go build -o "$OUT/gen" ./bench/agree
go build -o "$OUT/mkpair" ./bench/mkpair
"$OUT/gen" "$OUT/full" >/dev/null
"$OUT/gen" -missing 0.2 -seed 2 "$OUT/missing" >/dev/null
run() {
  what=$1
  shift
  /usr/bin/time -f "$what: wall %e s, user %U s, sys %S s, max RSS %M KB" "$OUT/idxlabel" "$@" >"$OUT/stdout" 2>"$OUT/stderr" || true
  tail -n 1 "$OUT/stderr"
}
uptime
for set in full missing; do
  A="$OUT/$set/annotator-1 $OUT/$set/annotator-2 $OUT/$set/annotator-3 $OUT/$set/annotator-4 $OUT/$set/annotator-5"
  rm -f "$OUT/$set/c" "$OUT/$set/v.csv" "$OUT/$set/cw" "$OUT/$set/vw.csv"
  # shellcheck disable=SC2086 # the file list splits on purpose
  run "$set: agree" agree $A
  # shellcheck disable=SC2086
  run "$set: agree --consensus --votes" agree --consensus "$OUT/$set/c" --votes "$OUT/$set/v.csv" $A
  # shellcheck disable=SC2086
  run "$set: agree --weighted --consensus --votes" agree --weighted --consensus "$OUT/$set/cw" --votes "$OUT/$set/vw.csv" $A
done
"$OUT/mkpair" -n 1000000 "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" "$OUT/big"
python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for k in range(1000):
    d[8 + 997 * k] = (d[8 + 997 * k] + 1) % 10
open(sys.argv[2], 'wb').write(d)" "$OUT/big-labels-idx1-ubyte" "$OUT/fixed1000"
I="$OUT/big-images-idx3-ubyte"
L="$OUT/big-labels-idx1-ubyte"
rm -f "$OUT/out1000" "$OUT/outbig"
/usr/bin/time -f "errata, 1,000 rows: wall %e s, user %U s, sys %S s, max RSS %M KB" "$OUT/idxlabel" errata "$I" "$L" "$OUT/fixed1000" >"$OUT/e1000.csv"
run "apply-errata, 1,000 rows" apply-errata "$OUT/e1000.csv" "$I" "$L" "$OUT/out1000"
cmp "$OUT/out1000" "$OUT/fixed1000" && echo "apply-errata, 1,000 rows: the corrected copy byte for byte"
/usr/bin/time -f "errata, ~900,000 rows: wall %e s, user %U s, sys %S s, max RSS %M KB" "$OUT/idxlabel" errata "$I" "$L" "$OUT/full/annotator-1" >"$OUT/ebig.csv"
run "apply-errata, ~900,000 rows" apply-errata "$OUT/ebig.csv" "$I" "$L" "$OUT/outbig"
go test -run '^$' -bench . -benchmem ./annotate
