#!/usr/bin/env bash
# Real-window regression test: labels typed on an image file opened alone are saved and found
# again. Writes a 200-image IDX file with no label file beside it (the first 200 real t10k
# images when IMAGES is given, generated ones otherwise), opens it in the built app under Xvfb,
# types 7 2 1, saves with Ctrl+S and quits; checks that scratch-labels-idx1-ubyte was written
# (samples 0–2 labelled 7 2 1, the rest without a label) and the journal is gone. Then opens the
# image file alone again: the window's title must name the label file (the app found it), and a
# 4 typed on sample 3 and saved must join the three labels already there.
# Usage: scripts/scratch.sh BINARY [IMAGES]
set -euo pipefail
bin=$(realpath "$1")
src=${2:-}

. "$(dirname "$0")/xvfb.sh"
start_xvfb
work=$XVFB_CFG/data
mkdir -p "$work"
images=$work/scratch-images-idx3-ubyte
state=$XVFB_CFG/state
fail() { echo "scratch: $*" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }
labels=$work/scratch-labels-idx1-ubyte
python3 - "$src" "$images" <<'PY'
import gzip, struct, sys
src, out = sys.argv[1], sys.argv[2]
n = 200
try:
    with gzip.open(src) as f:
        magic, count, h, w = struct.unpack(">IIII", f.read(16))
        data = f.read(n * h * w)
except (OSError, ValueError):
    h = w = 28
    data = bytes((i * 37 + i // 784) % 256 for i in range(n * h * w))
with open(out, "wb") as f:
    f.write(struct.pack(">IIII", 0x803, n, h, w) + data)
PY

# labels_of FILE: the first 4 labels and how many samples have no label (−2147483648).
labels_of() {
  python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
kind, rank = b[2], b[3]
n = struct.unpack(">I", b[4:8])[0]
fmt = {0x08: "B", 0x0C: "i"}[kind]
vals = struct.unpack(">%d%s" % (n, fmt), b[4 + 4 * rank:])
print(" ".join(map(str, vals[:4])), sum(v == -2**31 for v in vals))
PY
}

# session ARGS KEYS...: opens the app on ARGS, types KEYS once it shows its cursor, saves, waits
# for the label file to change and the window to say it is saved, quits, and checks that the app
# exited cleanly.
session() {
  local args=$1; shift
  local before
  before=$(stat -c %Y.%s "$labels" 2>/dev/null || echo none)
  rm -f "$state"
  IDXLABEL_TEST_STATE=$state "$bin" $args >"$XVFB_CFG/app.log" 2>&1 &
  APP_PID=$!
  wid=$(wait_window) || fail "no window appeared"
  ready "$wid"
  title=$(xdotool getwindowname "$wid")
  for k in "$@"; do xdotool key --clearmodifiers "$k"; done
  xdotool key --clearmodifiers ctrl+s
  for _ in $(seq 100); do [ "$(stat -c %Y.%s "$labels" 2>/dev/null || echo none)" != "$before" ] && break; sleep 0.2; done
  wait_clean "$wid"
  xdotool key --clearmodifiers ctrl+q
  for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$APP_PID" 2>/dev/null; then
    xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/scratch-fail.png || true
    echo "scratch: the app did not quit on Ctrl+Q (unsaved edits?); screenshot /tmp/scratch-fail.png" >&2; exit 1
  fi
  local status=0
  wait "$APP_PID" || status=$?
  APP_PID=""
  [ "$status" -eq 0 ] || { echo "scratch: the app exited with status $status" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }
  if grep -qi "panic\|fatal" "$XVFB_CFG/app.log"; then cat "$XVFB_CFG/app.log" >&2; exit 1; fi
}

session "$images" 7 2 1
[ -f "$labels" ] || { echo "scratch: Ctrl+S wrote no label file: the labels typed were lost" >&2; exit 1; }
got=$(labels_of "$labels")
echo "scratch: first save: labels $got (the first four, then how many unlabelled)"
[ "$got" = "7 2 1 -2147483648 197" ] || { echo "scratch: want 7 2 1 and 197 unlabelled" >&2; exit 1; }
for j in "$images.idxlabel-journal" "$labels.idxlabel-journal"; do
  [ ! -e "$j" ] || { echo "scratch: $j left after the save" >&2; exit 1; }
done

session "$images" Right Right Right 4
case "$title" in
*scratch-labels-idx1-ubyte*) ;;
*) echo "scratch: reopening the image file did not find its label file (title: $title)" >&2; exit 1 ;;
esac
got=$(labels_of "$labels")
echo "scratch: second session ($title): labels $got"
[ "$got" = "7 2 1 4 196" ] || { echo "scratch: want 7 2 1 4 and 196 unlabelled" >&2; exit 1; }
echo "scratch: ok"
