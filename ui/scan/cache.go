package scan

import (
	"context"
	"fmt"
	"time"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/scancache"
)

// cacheFor returns how the window's CNN scan of ds uses the scan cache: the file beside its
// image file (scancache.Suffix; none for a dataset never saved), read always, written only when
// ds is open for editing (a read-only open, whose pair another window or process edits, changes
// nothing in the pair's folder).
func cacheFor(ds *store.Dataset) scancache.Scanner {
	images, _ := ds.Paths()
	s := scancache.Scanner{Read: true, Write: !ds.ReadOnly()}
	if images != "" {
		s.Path = images + scancache.Suffix
	}
	return s
}

// estimate says, before a CNN scan of d with opts starts, about how long it will take:
// "about 2 min (an estimate)" (suspect.EstimateCNN at the rate suspect.CalibrateCNN measures
// now, in about 0.3 s); "" when the calibration failed (ctx cancelled). O(N).
func estimate(ctx context.Context, d sample.Set, opts suspect.CNNOptions) string {
	rate, err := suspect.CalibrateCNN(ctx)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("about %s (an estimate)", roughDuration(suspect.EstimateCNN(d, opts, rate)))
}

// roughDuration writes an estimate d as a person would say it: to the second below a minute,
// to the minute below an hour, then in hours and minutes.
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %d min", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
