#!/usr/bin/env bash
# Times, in one run and in-process on both sides, our IDX decoder against Python's
# numpy.frombuffer(gzip.open(f).read()) and torchvision's read_image_file on the same files:
# the real t10k images (.gz and raw) and a 60,000-image set built from them (.gz and raw).
# Needs Debian's python3-numpy and python3-torchvision (`make compare` installs them) and the
# real MNIST files in ../shared/data/mnist (or $IDXLABEL_MNIST).
set -euo pipefail
cd "$(dirname "$0")/.."
mnist=${IDXLABEL_MNIST:-../shared/data/mnist}
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -tags "$(scripts/tags.sh)" -o "$work/decodetime" ./bench/decodetime
go build -o "$work/mkpair" ./bench/mkpair
"$work/mkpair" -n 10000 "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/t10k"
"$work/mkpair" -n 60000 "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/big60k"
"$work/mkpair" -n 60000 -gz "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/big60k"
files=("$mnist/t10k-images-idx3-ubyte.gz" "$work/t10k-images-idx3-ubyte" "$work/big60k-images-idx3-ubyte.gz" "$work/big60k-images-idx3-ubyte")

{ "$work/decodetime" "${files[@]}"; "$python" bench/compare.py "${files[@]}"; } > "$work/times"

awk '
  { t[$1 " " $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
  function ratio(a, b) { return sprintf("%.2f×", a / b) }
  END {
    split("go-idx go-readfile numpy-gzip numpy-raw torchvision py-read", tools, " ")
    for (i = 1; i <= n; i++) {
      f = order[i]; name = f; sub(".*/", "", name)
      printf "\n%s\n", name
      for (j = 1; j in tools; j++) if ((tools[j] " " f) in t) printf "  %-12s %8.2f ms\n", tools[j], 1000 * t[tools[j] " " f]
      g = t["go-idx " f]
      if (("numpy-gzip " f) in t) printf "  ours / numpy+gzip     = %s   (target ≤ 0.50×)\n", ratio(g, t["numpy-gzip " f])
      if (("go-readfile " f) in t) printf "  ours / Go os.ReadFile = %s   (target ≤ 1.50×)\n", ratio(g, t["go-readfile " f])
      if (("py-read " f) in t) printf "  ours / Python read    = %s\n", ratio(g, t["py-read " f])
      if (("numpy-raw " f) in t) printf "  ours / numpy raw      = %s\n", ratio(g, t["numpy-raw " f])
      if (("torchvision " f) in t) printf "  ours / torchvision    = %s\n", ratio(g, t["torchvision " f])
    }
  }' "$work/times"
