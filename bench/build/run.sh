#!/bin/sh
# Measures merge and split of 1,000,000 MNIST samples, and split of the 70,000: wall time and
# peak RSS (GNU time's "Maximum resident set size") of bin/idxlabel, against the size of the
# largest output. The 1,000,000 samples are MNIST's training set 16 times then t10k 4 times,
# merged from the .gz files; the split is stratified, 20% test. Usage: bench/build/run.sh
# [BIN [MNIST_DIR]]; it needs GNU time (/usr/bin/time) and about 3 GB in $TMPDIR.
set -eu
BIN=$(realpath "${1:-bin/idxlabel}")
M=$(realpath "${2:-${IDXLABEL_MNIST:-../shared/data/mnist}}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
measure() { # label, command...: prints seconds, peak RSS in MB
	label=$1; shift
	/usr/bin/time -f "%e %M" -o t.txt "$@" >/dev/null 2>err.txt || { cat err.txt; exit 1; }
	read s kb <t.txt
	echo "$label: ${s} s, peak RSS $((kb / 1024)) MB (load $(cut -d' ' -f1 /proc/loadavg))"
}
args=""
for _ in $(seq 16); do args="$args $M/train-images-idx3-ubyte.gz $M/train-labels-idx1-ubyte.gz"; done
for _ in $(seq 4); do args="$args $M/t10k-images-idx3-ubyte.gz $M/t10k-labels-idx1-ubyte.gz"; done
# shellcheck disable=SC2086
measure "merge of 1,000,000 (20 .gz pairs → raw, output $(( 1000000 * 784 / 1000000 )) MB)" "$BIN" merge $args big-images big-labels
measure "split of 1,000,000 (--stratify, largest output 627 MB)" "$BIN" split --stratify big-images big-labels tr-i tr-l te-i te-l
rm -f tr-i tr-l te-i te-l
measure "split of 1,000,000 (--stratify --shuffle)" "$BIN" split --stratify --shuffle big-images big-labels tr-i tr-l te-i te-l
rm -f big-images big-labels tr-i tr-l te-i te-l
"$BIN" merge "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" "$M/train-images-idx3-ubyte.gz" "$M/train-labels-idx1-ubyte.gz" all-i all-l >/dev/null
measure "split of 70,000 (raw, --stratify)" "$BIN" split --stratify all-i all-l tr-i tr-l te-i te-l
rm -f tr-i tr-l te-i te-l
measure "split of 70,000 (raw → .gz, --stratify)" "$BIN" split --stratify all-i all-l tr-i.gz tr-l.gz te-i.gz te-l.gz
