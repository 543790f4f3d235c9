#!/usr/bin/env bash
# Real-window regression test: a window that opened a pair through symbolic links holds the lock
# of the files the links name, so a command-line writer aimed at those files is refused. Before,
# the window locked the links' names ("mine-labels.idxlabel-lock" beside the links), a writer of
# the files themselves took their own lock, found neither that lock nor the window's journal, and
# replaced a file the window was editing (`subset --force` exited 0).
#  1. The t10k pair (ungzipped) in data/, opened in a window through links mine/mine-images and
#     mine/mine-labels (another folder): `subset --force --max 5` writing data/'s two files must
#     be refused as open for editing (exit 1) and leave them as they were.
#  2. A digit typed (journaled), the window killed (kill -9): the same writer must be refused by
#     the unsaved edits (exit 1), and the window opened again on data/'s own names must offer the
#     journal written through the links.
# Usage: scripts/linklock.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "linklock: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
img=$work/t10k-images-idx3-ubyte lab=$work/t10k-labels-idx1-ubyte
gunzip -c "$work/t10k-images-idx3-ubyte.gz" >"$img"
gunzip -c "$work/t10k-labels-idx1-ubyte.gz" >"$lab"
src_i=$work/t10k-images-idx3-ubyte.gz src_l=$work/t10k-labels-idx1-ubyte.gz # the writer's input
mine=$XVFB_CFG/mine
mkdir -p "$mine"
ln -s "$img" "$mine/mine-images"
ln -s "$lab" "$mine/mine-labels"
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state

fail() { echo "linklock: $*" >&2; cat "$log" >&2; exit 1; }

# journal_edits prints how many edit records the pair's journal holds (0 when there is none):
# it looks beside the label file and beside the link, so that the script waits on the journal
# wherever a version puts it.
journal_edits() { journal_edits_in "$lab.idxlabel-journal" "$mine/mine-labels.idxlabel-journal"; }

# write_real WANT: runs the writer over data/'s two files; it must exit 1 with WANT in its message
# and leave both files' bytes as they were.
write_real() {
  local before out code
  before=$(md5sum "$img" "$lab" | cut -d' ' -f1)
  set +e
  out=$("$bin" subset --force --max 5 "$src_i" "$src_l" "$img" "$lab" 2>&1)
  code=$?
  set -e
  [ "$code" -eq 1 ] || fail "subset --force over the files a window opened through links: exit $code, want 1 (refused): $out"
  grep -q "$1" <<<"$out" || fail "subset's refusal does not say '$1': $out"
  [ "$(md5sum "$img" "$lab" | cut -d' ' -f1)" = "$before" ] || fail "subset replaced the files"
  echo "linklock: refused: $out"
}

# 1. The window has the pair open through the links.
IDXLABEL_TEST_STATE=$state "$bin" "$mine/mine-images" "$mine/mine-labels" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
write_real "open for editing"

# 2. Unsaved edits, the window gone.
xdotool key --clearmodifiers 3
for _ in $(seq "$WAIT_TENTHS"); do [ "$(journal_edits)" -ge 1 ] && break; sleep 0.1; done
[ "$(journal_edits)" -ge 1 ] || fail "the journal holds no edit after a digit"
kill -9 "$APP_PID"
wait "$APP_PID" 2>/dev/null || true
APP_PID=""
write_real "unsaved edits"

rm -f "$state"
IDXLABEL_TEST_STATE=$state "$bin" "$img" "$lab" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared on reopening by the files' own names"
until_state "prompt=[^-]" "the window opened on the files' own names did not offer the journal written through the links"
echo "linklock: ok: the writer was refused while the window had the pair open through links and after it died; the files' own names offer its journal"
