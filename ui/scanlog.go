package ui

import (
	"fmt"
	"idxlabel/ui/mode"
	"os"
	"time"
)

// testScanLogEnv names an environment variable for the real-window tests (scripts/scancache.sh)
// only: set to "1", the window prints to stderr, each time the confusion matrix or the map is
// given its scan, where the scan came from and how long after the view asked for it the view
// had it (logScanShown), and each time a view chosen was ready and shown without a scan, how
// long that took (logModeShown). A person never needs it.
const testScanLogEnv = "IDXLABEL_TEST_SCANLOG"

// scanLogOn is read once: whether testScanLogEnv is "1".
var scanLogOn = os.Getenv(testScanLogEnv) == "1"

// logScanShown prints, under testScanLogEnv, that a view asked for a scan at asked was handed
// one from source ("adopted": the views' own; "memory": the window's last scan; "disk cache";
// "scan": one that ran) and made its content from it, in Unix time (nanoseconds) and ms after
// asked.
func logScanShown(asked time.Time, source string, n int) {
	if scanLogOn {
		fmt.Fprintf(os.Stderr, "idxlabel: scan view of %d samples shown at %d, %.1f ms after it was asked for (from %s)\n",
			n, time.Now().UnixNano(), float64(time.Since(asked).Microseconds())/1000, source)
	}
}

// logModeShown returns what prints, under testScanLogEnv, that mode m, chosen now and ready
// (its scan adopted), was shown: in Unix time (nanoseconds) and ms after it was chosen. Called
// as defer logModeShown(m)().
func logModeShown(m mode.Mode) func() {
	chosen := time.Now()
	return func() {
		if scanLogOn {
			name := m.Title() // "Confusion matrix", "Map"
			if name == "" {
				name = "browse"
			}
			fmt.Fprintf(os.Stderr, "idxlabel: mode %q shown at %d, %.1f ms after it was chosen (ready)\n",
				name, time.Now().UnixNano(), float64(time.Since(chosen).Microseconds())/1000)
		}
	}
}
