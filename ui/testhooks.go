package ui

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	"idxlabel/plot"
	"idxlabel/report"
)

// testMapEnv is an environment variable for the real-window tests (scripts/mapview.sh) only; a
// person never needs it (IDXLABEL_QUICK_CNN, quickcnn.go, shortens their CNN scan).
const (
	// testMapEnv names a file: when a map is laid out the window writes it there as CSV
	// (index,x,y by sample, report.WriteMapCSV), and after each frame of the map it writes to the
	// file with ".view" appended how the frame shows it (see mapView.writeView); it prints to
	// stderr how long each frame and each lasso took (logFrame, logLasso).
	testMapEnv = "IDXLABEL_TEST_MAP"
)

// applyTestHooks sets up what the test environment variable asks for.
func applyTestHooks(w *window) {
	if path := os.Getenv(testMapEnv); path != "" {
		w.views.maps.dump = path
		w.views.mapm.panel.view.dump = path + ".view"
	}
}

// writeDump writes d's map as CSV by sample to the test hook's file, when one is set.
func (m *mapper) writeDump(d *scanData) {
	if m.dump == "" {
		return
	}
	l := d.lay
	xy := make([]float32, 2*len(l.point))
	for i, p := range l.point {
		xy[2*i], xy[2*i+1] = float32(math.NaN()), float32(math.NaN())
		if p >= 0 {
			xy[2*i], xy[2*i+1] = l.xy[2*p], l.xy[2*p+1]
		}
	}
	f, err := os.Create(m.dump)
	if err == nil {
		err = report.WriteMapCSV(f, xy)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the map for the test:", err)
	}
}

// writeView writes to the test hook's file how the frame just drawn shows the map: the map
// view's top-left corner in the window (units), the frame's size (pixels), plot.View's centre
// and scale, and the frame's pixels per unit, on one line: "x y w h cx cy scale pixelsPerUnit".
func (v *mapView) writeView(x, y float32, pv plot.View) {
	line := fmt.Sprintf("%g %g %d %d %g %g %g %g\n", x, y, pv.W, pv.H, pv.CX, pv.CY, pv.Scale, v.scale)
	if err := os.WriteFile(v.dump, []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the map's view for the test:", err)
	}
}

// logFrame prints how long the frame begun at start took to make (the test hook's timing).
func (v *mapView) logFrame(start time.Time) {
	fmt.Fprintf(os.Stderr, "idxlabel: map frame at %d in %.3f ms\n", start.UnixNano(), float64(time.Since(start).Microseconds())/1000)
}

// logLasso prints how long a lasso of vertices vertices took to select points.
func (v *mapView) logLasso(vertices, points int, took time.Duration) {
	fmt.Fprintf(os.Stderr, "idxlabel: lasso of %d vertices selected %d points in %.3f ms\n", vertices, points, float64(took.Microseconds())/1000)
}

// testSaveGateEnv is an environment variable for the real-window tests (scripts/keysave.sh)
// only: it names a file, and every save of the window waits, once the store has begun it (the
// dataset marked saving, its journal closed), until that file exists. Keys sent meanwhile meet a
// save in progress however fast the machine writes.
const testSaveGateEnv = "IDXLABEL_TEST_SAVE_GATE"

// waitSaveGate waits until the test hook's file exists (at once when the hook is not set), or ctx
// ends.
func waitSaveGate(ctx context.Context) {
	path := os.Getenv(testSaveGateEnv)
	if path == "" {
		return
	}
	for ctx.Err() == nil {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
