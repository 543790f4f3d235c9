#!/usr/bin/env bash
# Real-window test of labelling from scratch to a finished label file: the 10,000 t10k images
# (generated digits, bench/mkpair -digits, when the real files are absent; with
# IDXLABEL_REQUIRE_MNIST=1 their absence is a failure) are opened with no label file; the
# Suggested list is shown (Ctrl+Shift+U); the label of the sample at the cursor is typed from the
# truth (the script knows it) while the cursor is on a sample the list asks for, until LABELS
# labels are typed (→ skips a suggestion to the asks a round put after it; keys go on while
# rounds run, none waiting for one); once the round that learnt from them all has refined its
# suggestions, Tools → Accept Suggestions… (Ctrl+Shift+T) and Enter accept every class at the
# dialog's threshold; then the doubtful rest, which the list puts at the cursor, is reviewed one
# by one (the true label typed at each); Ctrl+S saves and Ctrl+Q quits. The saved label file is
# then read from outside: every label typed is on its sample (none lost or misplaced), every
# sample has a label, and the share right is printed with the keys typed, the reviews asked and
# the times; it fails when the share right is below 98.5% or more than 200 keys (reviews aside)
# were typed. Every wait is on the window's state line (IDXLABEL_TEST_STATE) or its Suggested
# list (IDXLABEL_TEST_SUGGEST), never on time alone. Screenshots: /tmp/scratchlabel-*.png.
# Usage: scripts/scratchlabel.sh BINARY [T10K_IMAGES]   (LABELS=180 labels asked by default;
# FYNE_THEME=light or dark picks Fyne's theme for the screenshots)
set -euo pipefail
bin=$(realpath "$1")
src=${2:-}
labels_wanted=${LABELS:-180}
root=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/xvfb.sh"
start_xvfb
work=$XVFB_CFG/data
mkdir -p "$work"
log=$XVFB_CFG/app.log
fail() { xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/scratchlabel-fail.png || true; echo "scratchlabel: $*; screenshot /tmp/scratchlabel-fail.png" >&2; tail -n 20 "$log" >&2; exit 1; }

if [ -n "$src" ] && [ -f "$src" ] && [ -f "${src/images-idx3/labels-idx1}" ]; then
  what="t10k"
elif [ "${IDXLABEL_REQUIRE_MNIST:-}" = 1 ]; then
  echo "scratchlabel: the real MNIST files are not at '${src}', and IDXLABEL_REQUIRE_MNIST=1 requires them" >&2
  exit 1
else
  echo "scratchlabel: no real MNIST files at '${src}': 10,000 generated digits instead (bench/mkpair -digits)"
  (cd "$root" && go run ./bench/mkpair -digits -n 10000 "$work/gen")
  src=$work/gen-images-idx3-ubyte
  what="generated digits"
fi
# All 10,000 images with no label file (images, labels, truth, list: loop_pair's names).
loop_pair scratchlabel "$src" scratch 10000
state=$work/state.txt

start=$(date +%s.%N)
IDXLABEL_TEST_STATE=$state IDXLABEL_TEST_SUGGEST=$list "$bin" "$images" >"$log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
for _ in $(seq "$WAIT_TENTHS"); do grep -q "mode=browse" "$state" 2>/dev/null && break; sleep 0.1; done
grep -q "mode=browse" "$state" || fail "the window never showed its samples"
xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || xdotool windowfocus "$wid"

# The driver: reads the state line and the list, types keys, keeps the count and the times.
python3 - "$state" "$list" "$truth" "$labels_wanted" "$work/typed.txt" "$work/figures.txt" "$APP_PID" <<'PY' || fail "the driver failed"
import os, re, subprocess, sys, time
state, listf, truthf, wanted, typedf, figf, pid = sys.argv[1:]
wanted, pid = int(wanted), int(pid)
truth = [int(x) for x in open(truthf).read().split()]
NONE = -2**31
keys = 0          # every key typed, reviews aside
reviews = 0       # the labels typed at the doubtful rest after the accept
typed = {}        # sample -> label typed
during = 0        # keys typed while a round refined its suggestions
marks = {}

def die(msg):
    sys.exit("scratchlabel: " + msg)

def alive():
    try:
        os.kill(pid, 0)
    except OSError:
        die("the app exited")

def shot(name):
    theme = os.environ.get("FYNE_THEME", "")
    subprocess.run("xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/scratchlabel-%s%s.png" % (theme and theme + "-", name), shell=True)

def read_state():
    try:
        line = open(state).read()
    except OSError:
        return None
    m = re.search(r" sample=(-?\d+) .* samples=(\d+) .*prompt=(\S+) .*status=(.*)$", line.strip())
    if not m or "mode=" not in line:
        return None
    return {"sample": int(m.group(1)), "prompt": m.group(3), "status": m.group(4), "mode": re.search(r"mode=(\S+)", line).group(1)}

def wait(cond, what, limit=900):
    end = time.time() + limit
    while time.time() < end:
        v = cond()
        if v:
            return v
        alive()
        time.sleep(0.02)
    die("waited %d s for %s" % (limit, what))

def read_list():
    try:
        lines = open(listf).read().splitlines()
    except OSError:
        return None
    if len(lines) < 2 or not lines[0].startswith("# learnt from "):
        return None
    head = lines[0][len("# learnt from "):]
    n = int(head.split()[0])
    rows = []
    for l in lines[2:]:
        p = l.split(",")
        if len(p) == 5:
            rows.append((int(p[0]), int(p[1]), p[2] == "1", int(p[3]), float(p[4])))
    return {"from": n, "refining": head.endswith("refining"), "rows": rows, "head": lines[0]}

def key(k):
    global keys
    subprocess.run(["xdotool", "key", "--clearmodifiers", k], check=True)
    keys += 1

def label_at_cursor(review=False):
    """Types the true label of the sample at the cursor; waits for the cursor to move on (or,
    at the list's end, for nothing to be left)."""
    global reviews, keys, during
    s = wait(read_state, "the state line")["sample"]
    l = read_list()
    if l and l["refining"]:
        during += 1
    subprocess.run(["xdotool", "key", "--clearmodifiers", str(truth[s])], check=True)
    typed[s] = truth[s]
    if review:
        reviews += 1
    else:
        keys += 1
    return s

# Show → Suggested.
t0 = time.time()
key("ctrl+shift+u")
wait(lambda: (st := read_state()) and st["mode"] == "Suggested", "the Suggested list")
# The estimate is said before the space of the pixels is first computed.
seen = wait(lambda: ((st := read_state()) and "Learning_features" in st["status"] and "estimate") or (read_list() and "list"),
            "the estimate of the space's computation")
if seen != "estimate":
    die("the first asks came with no estimate said of the space's computation")
time.sleep(0.5); shot("estimate")   # a look, once Fyne has painted it: not a wait
l = wait(lambda: (l := read_list()) and l["from"] == 0 and l, "the first round's asks (the space of the pixels computed)")
marks["first asks"] = time.time() - t0
shot("asked")
firsts = []       # seconds from the key that ended a batch of asks to the round's first suggestions
last_key = None
while len(typed) < wanted:
    l = wait(lambda: (l := read_list()) and l["from"] == len(typed) and l, "the round that learnt from %d labels" % len(typed))
    if last_key is not None:
        firsts.append(time.time() - last_key)
    asks = {r[0] for r in l["rows"] if r[2] and r[1] == NONE and r[0] not in typed}
    if not asks:
        die("the round that learnt from %d labels asked for none" % len(typed))
    s = wait(read_state, "the state line")["sample"]
    if s not in asks:
        key("Right")      # the asks come after the cursor
        wait(lambda: (st := read_state()) and st["sample"] != s, "the cursor to move on")
        s = read_state()["sample"]
        if s not in asks:
            die("after → the cursor is on sample %d, not on an ask" % s)
    while s in asks and len(typed) < wanted:
        label_at_cursor()
        last_key = time.time()
        wait(lambda: (st := read_state()) and st["sample"] != s, "the cursor to move on after a label")
        s = read_state()["sample"]
shot("labelled")
t1 = time.time()
l = wait(lambda: (l := read_list()) and l["from"] == len(typed) and not l["refining"] and l, "the refined round of %d labels" % len(typed))
marks["refined after the last key"] = time.time() - last_key
shot("refined")
before = {r[0]: r for r in l["rows"]}

# Tools → Accept Suggestions…, Enter: every class at the dialog's threshold.
key("ctrl+shift+t")
wait(lambda: (st := read_state()) and st["prompt"] == "accept_suggestions", "the Accept Suggestions dialog")
time.sleep(0.5); shot("accept")     # a look, once Fyne has painted it: not a wait
key("Return")
st = wait(lambda: (st := read_state()) and st["prompt"] == "-" and st["status"].startswith("Accepted_") and st, "the accept")
m = re.match(r"Accepted_([\d,]+)_suggestions.*;_([\d,]+)_doubtful_left", st["status"])
if not m:
    die("the status after the accept: %s" % st["status"])
accepted, left = int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))
time.sleep(0.5); shot("review")     # a look, once Fyne has painted it: not a wait
threshold = 0.95
acc = {i for i, r in before.items() if r[1] == NONE and not r[2] and r[3] != NONE and r[4] >= threshold}
if len(acc) != accepted:
    die("the dialog accepted %d suggestions; the list held %d at %.2f or more" % (accepted, len(acc), threshold))

# The doubtful rest, one by one, where the list puts the cursor.
unl = len(truth) - len(typed) - accepted
if unl != left:
    die("%d samples left without a label, the window says %d" % (unl, left))
while len(typed) < len(truth) - accepted:
    s = wait(read_state, "the state line")["sample"]
    if s in typed or s in acc:
        die("the cursor is on sample %d, labelled already, with %d left" % (s, len(truth) - accepted - len(typed)))
    label_at_cursor(review=True)
    if len(typed) < len(truth) - accepted:
        wait(lambda: (st := read_state()) and st["sample"] != s, "the cursor to move on after a review")
shot("done")
key("ctrl+s")
open(typedf, "w").write("".join("%d %d\n" % kv for kv in typed.items()))
open(figf, "w").write("keys=%d reviews=%d accepted=%d typed_during_rounds=%d first_asks=%.1f refined_after=%.1f firsts=%s labelling=%.1f\n" % (
    keys + 1, reviews, accepted, during, marks["first asks"], marks["refined after the last key"],
    ",".join("%.1f" % f for f in firsts), time.time() - t0))
PY
for _ in $(seq "$WAIT_TENTHS"); do [ -f "$labels" ] && [ ! -e "$labels.idxlabel-journal" ] && [ ! -e "$images.idxlabel-journal" ] && break; sleep 0.1; done
[ -f "$labels" ] || fail "Ctrl+S wrote no label file"
quit_app || fail "the app did not quit cleanly"
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"
"$bin" info "$images" "$labels" >/dev/null || fail "idxlabel info cannot read the pair saved"
wall=$(python3 -c "import sys, time; print('%.0f' % (time.time() - float(sys.argv[1])))" "$start")

python3 - "$labels" "$truth" "$work/typed.txt" "$work/figures.txt" "$what" "$wall" <<'PY'
import struct, sys
path, truthf, typedf, figf, what, wall = sys.argv[1:]
b = open(path, "rb").read()
kind, rank = b[2], b[3]
n = struct.unpack(">I", b[4:8])[0]
fmt = {0x08: "B", 0x0C: "i"}[kind]
got = struct.unpack(">%d%s" % (n, fmt), b[4 + 4 * rank:])
true = [int(x) for x in open(truthf).read().split()]
typed = dict(tuple(map(int, l.split())) for l in open(typedf))
fig = dict(kv.split("=") for kv in open(figf).read().split())
none = -2**31
if n != len(true):
    sys.exit("scratchlabel: the label file holds %d labels for %d images" % (n, len(true)))
lost = [(i, got[i], l) for i, l in typed.items() if got[i] != l]
if lost:
    sys.exit("scratchlabel: %d labels typed are not on their samples, e.g. (sample, saved, typed) %s" % (len(lost), lost[:5]))
if any(g == none for g in got):
    sys.exit("scratchlabel: %d samples saved without a label" % sum(g == none for g in got))
right = sum(g == t for g, t in zip(got, true))
acc = 100 * right / n
keys, reviews = int(fig["keys"]), int(fig["reviews"])
print("scratchlabel: %s, %d images: %d keys typed (%d labels asked, %d while a round refined), %d suggestions accepted in one step, %d reviews asked; %.2f%% right (%d wrong); the first asks %s s after Ctrl+Shift+U (the pixels' space computed), the first suggestions %s s after each batch's last key, refined %s s after the last; %s s labelling, %s s wall"
      % (what, n, keys, len(typed) - reviews, int(fig["typed_during_rounds"]), int(fig["accepted"]), reviews, acc, n - right,
         fig["first_asks"], fig["firsts"], fig["refined_after"], fig["labelling"], wall))
if acc < 98.5:
    sys.exit("scratchlabel: %.2f%% right, below the bar of 98.5%%" % acc)
if keys > 200:
    sys.exit("scratchlabel: %d keys typed (reviews aside), more than 200" % keys)
PY
echo "scratchlabel: ok"
