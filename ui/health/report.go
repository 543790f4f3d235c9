package health

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"idxlabel/export"
	"idxlabel/internal/clip"
	"idxlabel/report"
	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
)

// reportTop is how many findings of each kind the health report shows (contact sheets and
// tables), most severe first, as the check command's --report does by default.
const reportTop = 100

// reportJob is the health report being written: its job, and its progress for the check's view.
type reportJob struct {
	job   *jobs.Job
	dir   string
	stage string
	done  float64
}

// ExportReport is File → Export Health Report…: it asks for the folder (and the other set to
// check leakage against), and writes the report of the check of the samples as they are now:
// the last check when it is of them and of that other set, the check running when it is, or a
// new check, which the window shows, whose report is written when it ends.
func (k *Checker) ExportReport() {
	c := k.c
	if c.State().DS.Len() == 0 {
		k.d.Inform("Export Health Report", "There are no samples to check.")
		return
	}
	if k.rep != nil {
		k.d.Inform("Export Health Report", "A health report is being written: "+clip.Printable(k.rep.dir)+".")
		return
	}
	k.dialog("Export Health Report", "Export", true, func(against []string, dir string) {
		if dir == "" {
			k.d.Inform("Export Health Report", "Name the folder to write the report to.")
			return
		}
		run := k.run
		switch {
		case run.Current(c) && slices.Equal(run.Against, against):
			k.WriteReport(run, dir, false)
		case run != nil && run.Job != nil && run.ds == c.State().DS && slices.Equal(run.Against, against):
			k.afterCheck(dir)
		default:
			if k.Start(against) {
				k.afterCheck(dir)
			}
		}
	})
}

// afterCheck writes the report to dir when the check running ends (complete).
func (k *Checker) afterCheck(dir string) {
	k.after = append(k.after, func(run *Run) {
		if run == nil {
			k.c.Say("The health report was not written: the check did not finish, or a save renumbered the samples meanwhile")
			return
		}
		k.WriteReport(run, dir, false)
	})
	k.c.Say("The health report will be written to " + dir + " when the check is done")
}

// WriteReport writes run's health report into dir off the UI thread, its progress and Cancel in
// the check's view (which the window shows) and on the status bar. An earlier report at dir is
// replaced only after asking (replace); anything else there is refused (report.Write's
// rule).
func (k *Checker) WriteReport(run *Run, dir string, replace bool) {
	c := k.c
	if k.rep != nil {
		return
	}
	rep := &reportJob{job: k.jobs.Start(jobs.Exporting, "Health report: starting"), dir: dir, stage: "starting"}
	k.rep = rep
	if c.Showing() != mode.Mode(k.Mode) && k.Mode.Ready() {
		c.Choose(k.Mode)
	}
	k.show()
	ctx := rep.job.Ctx
	gen := c.State().DS.Gen()
	start := time.Now()
	k.jobs.Run(func() {
		exists, err := export.ReportAt(dir)
		if err == nil && exists && !replace {
			k.jobs.Schedule(func() {
				k.reportDone(rep)
				k.d.Ask("Replace?", clip.Printable(dir)+" holds an earlier health report. Replace it?", false, func(yes bool) {
					if yes {
						k.WriteReport(run, dir, true)
					}
				})
			})
			return
		}
		if err == nil {
			var r report.Report
			if r, err = healthReport(ctx, run, gen, func(stage string, f float64) {
				k.jobs.Schedule(func() {
					if k.rep == rep {
						rep.stage, rep.done = stage, f
						k.jobs.SetNote(rep.job, "Health report: "+stage)
						k.show()
						c.Progress()
					}
				})
			}); err == nil {
				err = report.Write(ctx, dir, r)
			}
		}
		k.jobs.Schedule(func() {
			k.reportDone(rep)
			switch {
			case errors.Is(err, context.Canceled):
				c.Say("The health report was not written (cancelled)")
			case err != nil:
				k.d.ShowError(err)
			default:
				c.Say("Health report written to " + dir) // replaces an earlier "not written"
				k.d.Inform("Health report written", fmt.Sprintf("%s written in %.1f s: open index.html in a browser.", clip.Printable(filepath.Join(dir, "index.html")), time.Since(start).Seconds()))
			}
		})
	})
}

// reportDone ends the report's job.
func (k *Checker) reportDone(rep *reportJob) {
	k.jobs.Finish(rep.job)
	if k.rep == rep {
		k.rep = nil
	}
	k.show()
	k.c.Render()
}

// progressFunc reports a stage's share done (0–1).
type progressFunc func(stage string, f float64)

// healthReport makes the report of run (complete): the findings of both passes (the reportTop
// most severe of each kind) on the samples as the check saw them, the class histogram, and,
// when a CNN scan served it, the confusion matrix and the 2-D map of the scan
// (report.NewScanViews: the long part, with progress; report.Build). gen is the dataset's generation now: the
// report says when edits since the check are not in it. Growth: the map's (embed.Map), O(N)
// beyond it. Errors: NewScanViews' and the sections', or the context's when cancelled.
func healthReport(ctx context.Context, run *Run, gen uint64, progress progressFunc) (report.Report, error) {
	in := report.Input{Set: run.snap, Result: reportResult(run), Against: run.Against,
		Began: run.began, Took: run.took, Stale: gen != run.gen}
	in.Images, in.Labels = run.ds.Paths()
	if o := run.other; o != nil {
		in.Other = &o.Snap
	}
	if a := run.Scan; a != nil && run.slow != nil {
		progress("confusion matrix and map", 0)
		views, err := report.NewScanViews(ctx, run.slow, a.Snap.Labels, true, func(f float64) { progress("map", f) })
		if err != nil {
			return report.Report{}, err
		}
		in.Views = views
	}
	r, err := report.Build(in)
	progress("writing", 1)
	return r, err
}

// reportResult joins run's two passes into one suspecthealth.Result on run.snap's positions (the second
// pass's rows are the scan's snapshot's: mapped by sample index; a sample not in run.snap is
// left out), each kind's findings cut to reportTop, with the scan's result (for its out-of-fold error).
func reportResult(run *Run) *suspecthealth.Result {
	res := &suspecthealth.Result{Findings: map[suspecthealth.Kind][]suspecthealth.Finding{}, Flagged: map[suspecthealth.Kind]int{}}
	pos := func(i int) (int, bool) { return slices.BinarySearch(run.snap.Index, i) }
	add := func(r *suspecthealth.Result, rows []int) {
		if r == nil {
			return
		}
		for _, kind := range r.Kinds {
			var list []suspecthealth.Finding
			for _, f := range r.Findings[kind] {
				if len(list) == reportTop {
					break
				}
				if rows != nil {
					p, ok := pos(rows[f.Index])
					if !ok {
						continue
					}
					f.Index = p
				}
				list = append(list, f)
			}
			res.Findings[kind], res.Flagged[kind] = list, r.Flagged[kind]
		}
	}
	add(run.quick, nil)
	if run.Scan != nil {
		add(run.slow, run.Scan.Snap.Index)
		res.Scan = run.Scan.Res
	}
	for _, kind := range suspecthealth.Kinds {
		if _, ok := res.Findings[kind]; ok {
			res.Kinds = append(res.Kinds, kind)
		}
	}
	return res
}
