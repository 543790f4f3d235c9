#!/usr/bin/env bash
# Real-window regression test: a --force writer never replaces a file of a pair whose window died
# with unsaved edits, whatever the pair's files are named. Before, with names that follow no
# MNIST rule (g-img, g-lab), `subset --force … g-img zz-lab` found no journal for g-img (it looked
# beside g-img and beside the label file MNIST's naming gives it), exited 0 and replaced g-img:
# the pair no longer opened and its edits could not be replayed.
#  1. On a copy of the t10k pair named g-img and g-lab (ungzipped), type 3 5 7 (three relabels,
#     each journaled) and kill -9 the window once the journal holds them.
#  2. `subset --force --max 5 T10K_IMAGES T10K_LABELS g-img zz-lab` and `merge --force` of the
#     same must be refused (exit 1, naming the journal) and leave g-img's bytes as they were.
#  3. The window opened again on g-img g-lab offers the journal of 3 edits; replaying it and
#     saving (Enter, Ctrl+S) gives labels 3 5 7 to samples 0, 1, 2.
# Then the same with g-img and g-lab in different folders (imgs/, labs/): the journal beside
# g-lab is not in g-img's folder, so the window keeps a marker beside g-img while it has unsaved
# edits ("g-img.idxlabel-unsaved": the journal's base name and a digest of its path, no path); the writers must
# be refused by it (naming the journal), and the save must remove it. Before, they replaced
# g-img with --force.
# Usage: scripts/forcecrash.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "forcecrash: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
gunzip -c "$work/t10k-images-idx3-ubyte.gz" >"$work/g-img"
gunzip -c "$work/t10k-labels-idx1-ubyte.gz" >"$work/g-lab"
src_i=$work/t10k-images-idx3-ubyte.gz src_l=$work/t10k-labels-idx1-ubyte.gz # another pair: the writers' input
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state

fail() { echo "forcecrash: $*" >&2; cat "$log" >&2; exit 1; }

# journal_edits prints how many edit records the pair's journal holds (0 when there is none).
journal_edits() { journal_edits_in "$journal"; }

# crash_and_write IMAGES LABELS: the three steps on the pair IMAGES LABELS (its journal beside
# LABELS); the writers' other output goes beside IMAGES.
crash_and_write() {
  local img=$1 lab=$2 out
  journal=$lab.idxlabel-journal
  rm -f "$state"
  IDXLABEL_TEST_STATE=$state "$bin" "$img" "$lab" >"$log" 2>&1 &
  APP_PID=$!
  main=$(wait_window) || fail "no window appeared"
  ready "$main"
  xdotool key --delay 200 3 5 7
  for _ in $(seq 300); do [ "$(journal_edits)" -ge 3 ] && break; sleep 0.1; done
  [ "$(journal_edits)" -ge 3 ] || fail "the journal holds $(journal_edits) edits after 3 digits, want 3"
  kill -9 "$APP_PID"
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=""

  before=$(md5sum <"$img")
  for cmd in "subset --force --max 5" "merge --force $src_i $src_l"; do
    set +e
    out=$("$bin" $cmd "$src_i" "$src_l" "$img" "$(dirname "$img")/zz-lab" 2>&1)
    code=$?
    set -e
    [ "$code" -eq 1 ] || fail "$cmd over $img after the crash: exit $code: $out"
    grep -q "$(basename "$lab").idxlabel-journal" <<<"$out" || fail "$cmd: the refusal does not name the journal: $out"
    [ "$(md5sum <"$img")" = "$before" ] || fail "$cmd replaced $img"
    echo "forcecrash: ${cmd%% *} refused: $out"
  done

  # 3. The pair opens again and its edits replay.
  rm -f "$state"
  IDXLABEL_TEST_STATE=$state "$bin" "$img" "$lab" >"$log" 2>&1 &
  APP_PID=$!
  main=$(wait_window) || fail "no window appeared on reopening"
  until_state "prompt=[^-]" "the window did not ask about the journal"
  xdotool windowfocus --sync "$main"
  xdotool key --clearmodifiers Return # the question about the journal: Enter replays
  until_state "prompt=- " "the question about the journal did not close on Enter"
  old=$(stat -c %i "$lab")
  xdotool key --clearmodifiers ctrl+s
  for _ in $(seq 300); do [ "$(stat -c %i "$lab")" != "$old" ] && break; sleep 0.1; done
  [ "$(stat -c %i "$lab")" != "$old" ] || fail "no save after replaying"
  quit_app || fail "quitting"
  got=$(python3 -c 'import sys; b=open(sys.argv[1],"rb").read(); print(*b[8:11])' "$lab")
  [ "$got" = "3 5 7" ] || fail "labels of samples 0–2 after the replay and save: $got, want 3 5 7"
  [ ! -e "$img.idxlabel-unsaved" ] || fail "the marker beside $img outlived the save"
  echo "forcecrash: ok: the writers were refused, $(basename "$img") is intact, and the 3 edits replayed and saved"
}

crash_and_write "$work/g-img" "$work/g-lab"
# The same with the images and the labels in different folders: the journal is beside the labels,
# so the refusal comes from the marker the window keeps beside the images (no path in it),
# which the refusal names and the save removes.
mkdir -p "$work/imgs" "$work/labs"
gunzip -c "$work/t10k-images-idx3-ubyte.gz" >"$work/imgs/g-img"
gunzip -c "$work/t10k-labels-idx1-ubyte.gz" >"$work/labs/g-lab"
crash_and_write "$work/imgs/g-img" "$work/labs/g-lab"
