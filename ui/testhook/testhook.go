// Package testhook holds what the window's real-window tests (scripts/*.sh) set through the
// environment, for every part of the window: files that hold work back until they exist (gates),
// so that keys meet that work in progress however fast the machine is, and whether the window
// logs when its scan views are shown. A person never sets them; unset, they do nothing.
package testhook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Environment variables for the real-window tests only; each names a file (or, ScanLog, is "1").
const (
	// SaveGate: every save of the window waits, once the store has begun it (the dataset marked
	// saving, its journal closed), until that file exists (scripts/keysave.sh).
	SaveGate = "IDXLABEL_TEST_SAVE_GATE"
	// RankGate: a CNN scan's result waits until that file exists before it is handed to the
	// window, so keys sent meanwhile act on the kNN's list (scripts/rank.sh).
	RankGate = "IDXLABEL_TEST_RANK_GATE"
	// ImportGate: an import (File → Import Images…, Import Sheets…) or an append (Append
	// Dataset…), once its samples are read, waits until that file exists, or its Cancel, before
	// it hands them to the window, so keys and clicks sent meanwhile meet the job in progress
	// (scripts/importui.sh, scripts/sheetsui.sh, scripts/cancelbutton.sh).
	ImportGate = "IDXLABEL_TEST_IMPORT_GATE"
	// SuspectsGate: Find Suspects' kNN pass (Ctrl+K), once its result is made, waits until that
	// file exists, or its Cancel, before it hands it to the window, so that keys and clicks sent
	// meanwhile meet the scan in progress (scripts/suspectscancel.sh).
	SuspectsGate = "IDXLABEL_TEST_SUSPECTS_GATE"
	// ExportGate: File → Save Shown As…, Tools → Split Dataset…, File → Export… (and Save As
	// in an export format) and File → Export Errata…, once their files are written, wait until
	// that file exists, or their Cancel, before they end, so that keys sent meanwhile meet the
	// job in progress (scripts/buildui.sh, scripts/formatsui.sh, scripts/annotators.sh).
	ExportGate = "IDXLABEL_TEST_EXPORT_GATE"
	// ExportWriteGate: File → Export… (and Save As in an export format), once it has written
	// some of its samples and not all (its first progress between), waits until that file exists,
	// or its Cancel, before it writes on, so that a Cancel meets the export midway
	// (scripts/exportcancel.sh).
	ExportWriteGate = "IDXLABEL_TEST_EXPORT_WRITE_GATE"
	// SimilarGate: the index of "more like this", once built, waits until that file exists
	// before it is handed to the window, so keys sent meanwhile meet it in progress
	// (scripts/similarui.sh).
	SimilarGate = "IDXLABEL_TEST_SIMILAR_GATE"
	// AgreeGate: the Disagreements mode's agreement figures, made again after the labels
	// changed, wait once made (of the labels read then) until that file exists, so keys sent
	// meanwhile meet that work in progress and change the labels after it read them
	// (scripts/annotators.sh).
	AgreeGate = "IDXLABEL_TEST_AGREE_GATE"
	// ConvertGate: opening a Parquet, CSV or NumPy file waits, once its job has started (its
	// progress shown, edits held), until that file exists, so that keys sent meanwhile meet the
	// conversion in progress (scripts/formatsui.sh).
	ConvertGate = "IDXLABEL_TEST_CONVERT_GATE"
	// ScanLog: set to "1", the window prints to stderr when the confusion matrix or the map is
	// given its scan, and when a view chosen was ready and shown (scripts/scancache.sh).
	ScanLog = "IDXLABEL_TEST_SCANLOG"
	// Map: when a map is laid out the window writes it to that file as CSV (index,x,y by sample,
	// report.WriteMapCSV), and after each frame of the map it writes to the file with ".view"
	// appended how the frame shows it (widgets.MapView.SetDump; scripts/mapview.sh).
	Map = "IDXLABEL_TEST_MAP"
	// Sheets: File → Import Sheets… writes to that file, each time its preview shows a sheet, the
	// sheet's number and what was found on it (scripts/sheetsui.sh).
	Sheets = "IDXLABEL_TEST_SHEETS"
)

// Note writes line to the file the environment variable env names, replacing what it held
// (nothing when env is not set), as Write does; it reports a failure on stderr.
func Note(env, line string) {
	path := os.Getenv(env)
	if path == "" {
		return
	}
	if err := Write(path, []byte(line+"\n")); err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the state for the test:", err)
	}
}

// Write replaces the file path with b whole: written to a new file beside it, then renamed
// over it, so a script reading the file between two writes sees the old line or the new one,
// never an empty or half-written file (os.WriteFile truncates first). Not synced: the file is
// a test's view of the window, not data. Errors: those of creating, writing or renaming.
func Write(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// WaitGate waits until the file the environment variable env names exists (at once when env is
// not set), or ctx ends.
func WaitGate(ctx context.Context, env string) {
	path := os.Getenv(env)
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

// scanLogOn is read once: whether ScanLog is "1".
var scanLogOn = os.Getenv(ScanLog) == "1"

// LogScanShown prints, under ScanLog, that a view asked for a scan at asked was handed one from
// source ("adopted": the views' own; "memory": the window's last scan; "disk cache"; "scan": one
// that ran) and made its content from it, in Unix time (nanoseconds) and ms after asked.
func LogScanShown(asked time.Time, source string, n int) {
	if scanLogOn {
		fmt.Fprintf(os.Stderr, "idxlabel: scan view of %d samples shown at %d, %.1f ms after it was asked for (from %s)\n",
			n, time.Now().UnixNano(), float64(time.Since(asked).Microseconds())/1000, source)
	}
}

// LogModeShown returns what prints, under ScanLog, that the mode titled title (browsing: ""),
// chosen now and ready (its scan adopted), was shown: in Unix time (nanoseconds) and ms after it
// was chosen. Called as defer LogModeShown(title)().
func LogModeShown(title string) func() {
	chosen := time.Now()
	return func() {
		if scanLogOn {
			if title == "" {
				title = "browse"
			}
			fmt.Fprintf(os.Stderr, "idxlabel: mode %q shown at %d, %.1f ms after it was chosen (ready)\n",
				title, time.Now().UnixNano(), float64(time.Since(chosen).Microseconds())/1000)
		}
	}
}
