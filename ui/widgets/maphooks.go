package widgets

import (
	"fmt"
	"os"
	"time"

	"idxlabel/plot"
	"idxlabel/ui/testhook"
)

// SetDump is a hook for the real-window tests (scripts/mapview.sh) only: after each frame the
// view writes to the file path how the frame shows the map (writeView), and it prints to stderr
// how long each frame and each lasso took. "" turns it off.
func (v *MapView) SetDump(path string) { v.dump = path }

// writeView writes to the test hook's file how the frame just drawn shows the map: the map
// view's top-left corner in the window (units), the frame's size (pixels), plot.View's centre
// and scale, and the frame's pixels per unit, on one line: "x y w h cx cy scale pixelsPerUnit".
func (v *MapView) writeView(x, y float32, pv plot.View) {
	line := fmt.Sprintf("%g %g %d %d %g %g %g %g\n", x, y, pv.W, pv.H, pv.CX, pv.CY, pv.Scale, v.scale)
	if err := testhook.Write(v.dump, []byte(line)); err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the map's view for the test:", err)
	}
}

// logFrame prints how long the frame begun at start took to make (the test hook's timing).
func (v *MapView) logFrame(start time.Time) {
	fmt.Fprintf(os.Stderr, "idxlabel: map frame at %d in %.3f ms\n", start.UnixNano(), float64(time.Since(start).Microseconds())/1000)
}

// logLasso prints how long a lasso of vertices vertices took to select points.
func (v *MapView) logLasso(vertices, points int, took time.Duration) {
	fmt.Fprintf(os.Stderr, "idxlabel: lasso of %d vertices selected %d points in %.3f ms\n", vertices, points, float64(took.Microseconds())/1000)
}
