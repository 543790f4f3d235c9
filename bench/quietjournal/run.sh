#!/bin/sh
# Measures what a --force writer pays for judging a killed window's journal beside its output
# (store.JournalChangesNothing, asked by pairfile.ClaimOutputs): peak RSS (GNU time's "Maximum
# resident set size") and CPU seconds (user+sys) of `idxlabel split --stratify [--shuffle]
# --force IMAGES LABELS TRAIN… TEST…` whose train outputs are an existing pair as large as the
# input, once with a journal whose edits cancel out beside it (left by bench/quietjournal:
# a label typed over, then typed back, the window killed) and once without. The same old pair
# is put back before every run (a hard link to a copy made once). Usage:
# bench/quietjournal/run.sh [BIN [IMAGES LABELS]]; without IMAGES LABELS it builds 1,000,000
# samples from t10k (bench/mkpair) in the work folder, which needs about 2.5 GB in $TMPDIR.
set -eu
BIN=$(realpath "${1:-bin/idxlabel}")
HERE=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TAGS=$("$HERE/scripts/tags.sh")
(cd "$HERE" && go build -tags "$TAGS" -o "$W/quietjournal" ./bench/quietjournal && go build -o "$W/mkpair" ./bench/mkpair)
if [ $# -ge 3 ]; then
	IMAGES=$(realpath "$2") LABELS=$(realpath "$3")
else
	M=$(realpath "${IDXLABEL_MNIST:-$HERE/../shared/data/mnist}")
	"$W/mkpair" -n 1000000 "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" "$W/big" >/dev/null
	IMAGES=$W/big-images-idx3-ubyte LABELS=$W/big-labels-idx1-ubyte
fi
mkdir "$W/keep" "$W/run"
cp "$IMAGES" "$W/keep/tr-i"
cp "$LABELS" "$W/keep/tr-l"
restore() { # with a journal (1) or without (0): the old train pair put back
	rm -rf "$W/run" && mkdir "$W/run"
	ln "$W/keep/tr-i" "$W/run/tr-i"
	cp "$W/keep/tr-l" "$W/run/tr-l"
	if [ "$1" = 1 ]; then
		for f in "$W/keep/journal"/*; do cp -P "$f" "$W/run/"; done
	fi
}
# The journal, and the unsaved-edits marker beside the images, of a window killed after edits
# that cancel out, kept aside to be put back before each run.
mkdir "$W/keep/journal"
restore 0
"$W/quietjournal" "$W/run/tr-i" "$W/run/tr-l" >/dev/null
for f in "$W/run"/*; do
	case $(basename "$f") in tr-i | tr-l) ;; *) cp -P "$f" "$W/keep/journal/" ;; esac
done
ls "$W/keep/journal" | grep -q idxlabel || { echo "no journal was left beside the pair" >&2; exit 1; }
measure() { # label, journal (1 or 0), split options...
	label=$1 j=$2; shift 2
	restore "$j"
	/usr/bin/time -f "%e %U %S %M" -o "$W/t.txt" "$BIN" split "$@" --force "$IMAGES" "$LABELS" \
		"$W/run/tr-i" "$W/run/tr-l" "$W/run/te-i" "$W/run/te-l" >/dev/null 2>"$W/err.txt" || { cat "$W/err.txt"; exit 1; }
	if [ "$j" = 1 ] && ls "$W/run" | grep -q journal; then
		echo "$label: the journal was not removed" >&2; exit 1
	fi
	read -r s u sys kb <"$W/t.txt"
	echo "$label: peak RSS $((kb / 1024)) MB, CPU $(awk "BEGIN { printf \"%.2f\", $u + $sys }") s (user $u, sys $sys), wall $s s, load $(cut -d' ' -f1 /proc/loadavg)"
}
n=$(stat -c %s "$LABELS")
echo "input and old train pair: $(stat -c %s "$IMAGES") image bytes, $n label bytes"
for opts in "--stratify" "--stratify --shuffle"; do
	# shellcheck disable=SC2086
	measure "split $opts, no journal        " 0 $opts
	# shellcheck disable=SC2086
	measure "split $opts, quiet journal     " 1 $opts
done
