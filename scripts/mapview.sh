#!/usr/bin/env bash
# Real-window test of the map's lasso: a lasso drawn with Shift+drag on the 2-D map, a digit
# typed, a save; the saved labels must differ from the labels opened exactly at the samples
# inside the lasso. Writes a 500-sample pair (the first 500 real t10k samples when IMAGES is
# given, with the labels beside it; generated shapes in 5 classes otherwise), opens it in the
# built app under Xvfb with a short CNN scan (IDXLABEL_QUICK_CNN=1) in a 1000×700 window, opens
# the map (Ctrl+M: the window must keep its size), and reads the map the app laid out and how
# it shows it (IDXLABEL_TEST_MAP: the map's CSV, index,x,y by sample, and the view). It places
# a hexagon about the centre of a class's points (the largest class first), away from every
# point by 2 pixels or more, computes the samples inside it, drags the lasso along it with
# xdotool, types 5, saves with Ctrl+S and quits.
# Before the lasso, the map's controls are focused from the keyboard (Tab, Shift+Tab), and the
# keys typed on them must go on to the grid as if nothing had the focus: a digit typed on the
# focused Fit button, the lasso check box and the colour choice relabels the sample at the
# cursor, an arrow moves the cursor (the choice would have stepped through its options). A
# widget.Button, Check or Select dropped them. The saved labels must hold these too.
# Usage: scripts/mapview.sh BINARY [IMAGES]
set -euo pipefail
bin=$(realpath "$1")
src=${2:-}

. "$(dirname "$0")/xvfb.sh"
start_xvfb
work=$XVFB_CFG/data
mkdir -p "$work"
images=$work/lasso-images-idx3-ubyte
labels=$work/lasso-labels-idx1-ubyte
map=$work/map.csv
python3 - "$src" "$images" "$labels" <<'PY'
import gzip, math, random, struct, sys
src, out_images, out_labels = sys.argv[1], sys.argv[2], sys.argv[3]
n = 500
try:
    with gzip.open(src) as f:
        magic, count, h, w = struct.unpack(">IIII", f.read(16))
        data = f.read(n * h * w)
    with gzip.open(src.replace("images-idx3", "labels-idx1")) as f:
        f.read(8)
        lab = f.read(n)
    if len(data) != n * h * w or len(lab) != n:
        raise ValueError("short file")
except (OSError, ValueError):
    # Five classes of shapes, each drawn with jitter: a bar, a column, a ring, a cross, a slash.
    rng = random.Random(7)
    h = w = 28
    px, lab = bytearray(n * h * w), bytearray(n)
    for i in range(n):
        k = i % 5
        lab[i] = k
        cx, cy, r, t = 14 + rng.uniform(-3, 3), 14 + rng.uniform(-3, 3), rng.uniform(4, 11), rng.uniform(1, 3)
        for y in range(h):
            for x in range(w):
                dx, dy = x - cx, y - cy
                on = [abs(dy) < t and abs(dx) < r, abs(dx) < t and abs(dy) < r,
                      abs(math.hypot(dx, dy) - r) < t, (abs(dx) < t or abs(dy) < t) and max(abs(dx), abs(dy)) < r,
                      abs(dx - dy) < t and abs(dx) < r][k]
                if on:
                    px[i * h * w + y * w + x] = 255
                elif rng.random() < 0.05:
                    px[i * h * w + y * w + x] = rng.randrange(256)
    data = bytes(px)
with open(out_images, "wb") as f:
    f.write(struct.pack(">IIII", 0x803, n, h, w) + data)
with open(out_labels, "wb") as f:
    f.write(struct.pack(">II", 0x801, n) + bytes(lab))
PY
cp "$labels" "$work/opened-labels"

fail() {
  echo "mapview: $*" >&2
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/mapview-fail.png 2>/dev/null || true
  echo "mapview: screenshot /tmp/mapview-fail.png; the app's log:" >&2
  cat "$XVFB_CFG/app.log" >&2
  exit 1
}

state=$XVFB_CFG/state
IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_MAP=$map IDXLABEL_TEST_STATE=$state "$bin" "$images" "$labels" >"$XVFB_CFG/app.log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
ready "$wid"
# A small window (1000×700) must keep its size when the map is shown: the map's toolbar once
# asked for 1,161 pixels, and the window grew past its screen.
# Under load the app's own first size (1280×820) once reached the window after this resize, and
# the check below failed with a map that grew nothing: resize until the window reads 1000×700.
for _ in $(seq "$WAIT_TENTHS"); do
  xdotool windowsize --sync "$wid" 1000 700
  eval "$(xdotool getwindowgeometry --shell "$wid")"
  [ "$WIDTH" -eq 1000 ] && [ "$HEIGHT" -eq 700 ] && break
  sleep 0.1
done
[ "$WIDTH" -eq 1000 ] && [ "$HEIGHT" -eq 700 ] || fail "the window did not take the size 1000×700 (${WIDTH}×${HEIGHT})"
xdotool key --clearmodifiers ctrl+m
for _ in $(seq $((WAIT_TENTHS / 2))); do [ -s "$map" ] && [ -s "$map.view" ] && break; sleep 0.2; done
[ -s "$map" ] && [ -s "$map.view" ] || fail "no map was laid out after Ctrl+M"
sleep 1
eval "$(xdotool getwindowgeometry --shell "$wid")" # X, Y: the window's place on the screen
[ "$WIDTH" -le 1000 ] && [ "$HEIGHT" -le 700 ] || fail "showing the map grew the window to ${WIDTH}×${HEIGHT}"

# The map's controls pass on the keys they do not use. The grid has the keys after Ctrl+M; the
# focus chain from it runs through the side panel's Show list, classes, go-to box and tile
# size (Tab ×4), then the colour choice, the lasso check box and Fit (Tab ×5, ×6, ×7); Shift+Tab
# from the grid focuses Fit. A key passed on gives the grid the focus back, so each key below is
# typed after its own Tab. typed_on WHAT TABS KEY WANT: types TABS (xdotool key names), then KEY,
# and waits until the state line matches WANT.
: >"$work/typed.txt" # "sample digit", one a line: the digits the focused controls passed on
typed_on() {
  local at
  at=$(sed -n 's/.* sample=\([0-9]*\) .*/\1/p' "$state")
  # shellcheck disable=SC2086 # TABS is a list of key names
  xdotool key --clearmodifiers $2
  xdotool key --clearmodifiers "$3"
  until_state "$4" "the $3 typed with $1 focused did not reach the grid (dropped?)"
  case $3 in [0-9]) echo "$at $3" >>"$work/typed.txt" ;; esac
}
# The status bar holds the map's note ("Map of 500 samples laid out in …") until the cursor moves
# or the state changes; the counts line ("… 0 edited …") when the note has given way.
until_state "mode=Map .*cursor=0 .*(_0_edited|status=Map_of_500_samples_laid_out)" "the map's grid is not on sample 0 with nothing edited"
typed_on "the map's Fit button (Shift+Tab)" shift+Tab 3 "cursor=1 .*_1_edited"
tabs6="Tab Tab Tab Tab Tab Tab"
typed_on "the lasso check box (Tab ×6)" "$tabs6" Right "cursor=2 "
typed_on "the lasso check box (Tab ×6)" "$tabs6" 4 "cursor=3 .*_2_edited"
typed_on "the colour choice (Tab ×5)" "Tab Tab Tab Tab Tab" Right "cursor=4 "
typed_on "the colour choice (Tab ×5)" "Tab Tab Tab Tab Tab" 6 "cursor=5 .*_3_edited"
echo "mapview: keys typed on the focused Fit button, lasso check box and colour choice reached the grid: $(tr '\n' ' ' <"$work/typed.txt")(sample digit)"

# The lasso: screen vertices (plan.txt, one "x y" a line) and the samples inside (inside.txt).
python3 - "$map" "$map.view" "$X" "$Y" "$labels" "$work" <<'PY'
import csv, math, sys
mapcsv, viewf, wx, wy, labels, work = sys.argv[1:7]
vx, vy, w, h, cx, cy, sc, pu = map(float, open(viewf).read().split())
lab = open(labels, "rb").read()[8:]
pts = []
for row in list(csv.reader(open(mapcsv)))[1:]:
    i, x, y = int(row[0]), float(row[1]), float(row[2])
    if math.isnan(x):
        continue
    fx, fy = (x - cx) * sc + w / 2, (y - cy) * sc + h / 2   # frame pixels
    pts.append((i, int(wx) + vx + fx / pu, int(wy) + vy + fy / pu))  # screen pixels
counts = {}
for i, _, _ in pts:
    counts[lab[i]] = counts.get(lab[i], 0) + 1

def inside(poly, x, y):
    c = False
    for k in range(len(poly)):
        (ax, ay), (bx, by) = poly[k], poly[(k + 1) % len(poly)]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            c = not c
    return c

def edge_dist(poly, x, y):
    d = 1e9
    for k in range(len(poly)):
        (ax, ay), (bx, by) = poly[k], poly[(k + 1) % len(poly)]
        t = max(0, min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / max(1e-9, (bx - ax) ** 2 + (by - ay) ** 2)))
        d = min(d, math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)))
    return d

# About the centre of each class's points, the largest class first (a class whose points are
# spread out, or whose centre falls in a crowd, may have no hexagon clear of them).
for big in sorted(counts, key=lambda c: (-counts[c], c)):
    mx = sum(p[1] for p in pts if lab[p[0]] == big) / counts[big]
    my = sum(p[2] for p in pts if lab[p[0]] == big) / counts[big]
    for r in range(24, 90, 2):
        for turn in range(0, 60, 10):
            poly = [(round(mx + r * math.cos(math.radians(60 * k + turn))), round(my + r * math.sin(math.radians(60 * k + turn)))) for k in range(6)]
            if any(edge_dist(poly, x, y) < 2 for _, x, y in pts):
                continue
            ins = sorted(i for i, x, y in pts if inside(poly, x, y))
            if 8 <= len(ins) < len(pts) // 2:
                open(work + "/plan.txt", "w").write("\n".join("%d %d" % v for v in poly) + "\n")
                open(work + "/inside.txt", "w").write("\n".join(map(str, ins)) + "\n")
                print("mapview: a hexagon of radius %d px about class %d's points holds %d samples" % (r, big, len(ins)))
                sys.exit(0)
sys.exit("mapview: no hexagon clear of the points by 2 px holds 8 samples or more")
PY
[ -s "$work/plan.txt" ] || fail "no lasso planned"

# Drag the lasso with Shift held: along each edge in steps of about 5 pixels, back to the start.
mapfile -t verts <"$work/plan.txt"
verts+=("${verts[0]}")
read -r x0 y0 <<<"${verts[0]}"
xdotool mousemove "$x0" "$y0"
sleep 0.2
xdotool keydown shift mousedown 1
for k in $(seq 1 $((${#verts[@]} - 1))); do
  read -r ax ay <<<"${verts[$((k - 1))]}"
  read -r bx by <<<"${verts[$k]}"
  steps=$(python3 -c "import math; print(max(1, int(math.hypot($bx-$ax, $by-$ay) / 5)))")
  for s in $(seq 1 "$steps"); do
    xdotool mousemove $((ax + (bx - ax) * s / steps)) $((ay + (by - ay) * s / steps))
    sleep 0.02
  done
  sleep 0.1
done
xdotool mouseup 1 keyup shift
for _ in $(seq "$WAIT_TENTHS"); do grep -q "lasso of" "$XVFB_CFG/app.log" && break; sleep 0.1; done
grep "lasso of" "$XVFB_CFG/app.log" || fail "the app reported no lasso"
before=$(stat -c %Y.%s "$labels")
xdotool key --clearmodifiers 5
xdotool key --clearmodifiers ctrl+s
for _ in $(seq $((WAIT_TENTHS / 2))); do [ "$(stat -c %Y.%s "$labels")" != "$before" ] && break; sleep 0.2; done
wait_clean "$wid"
quit_app || fail "no clean quit"
if grep -qi "panic\|fatal" "$XVFB_CFG/app.log"; then fail "the app's log holds a panic"; fi

python3 - "$work/opened-labels" "$labels" "$work/inside.txt" "$work/typed.txt" <<'PY'
import sys
opened, saved = open(sys.argv[1], "rb").read()[8:], open(sys.argv[2], "rb").read()[8:]
inside = set(int(l) for l in open(sys.argv[3]) if l.strip())
typed = dict(tuple(map(int, l.split())) for l in open(sys.argv[4]) if l.strip())
if len(opened) != len(saved):
    sys.exit("mapview: %d labels saved, %d opened" % (len(saved), len(opened)))
want = [5 if i in inside else typed.get(i, opened[i]) for i in range(len(saved))]
wrong = [i for i in range(len(saved)) if saved[i] != want[i]]
changed = [i for i in range(len(saved)) if saved[i] != opened[i]]
if wrong:
    sys.exit("mapview: the saved labels are not the lasso's and the digits typed on the focused controls: %d samples wrong (first %s); %d changed, %d inside" % (len(wrong), wrong[:10], len(changed), len(inside)))
print("mapview: ok: %d samples lassoed and relabelled 5, %d digits typed on focused controls, %d labels changed and saved; every other label as opened" % (len(inside), len(typed), len(changed)))
PY
