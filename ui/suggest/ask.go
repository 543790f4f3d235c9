package suggest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/scancache"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
	"idxlabel/ui/testhook"
)

// The Suggested list is the labelling-from-scratch loop (package suspect/activelearn), on the
// space of the samples' pixels kept beside the images (keptSpace): first the samples whose
// labels would help the suggestions most (Space.Ask, badged "ask"), then a suggestion for every
// other sample without a label, most confident first (once labels of two classes exist): label
// spreading's first (Space.Suggest, shown at once), then the refined ones (Space.Refine). As
// labels arrive (typed, accepted, undone) the loop runs again in the background after a quiet
// moment (retrainAfter), stopping a refinement still running; keys go on meanwhile and the next
// round uses them. A round reads a snapshot: O(N) memory beyond the pixels and the space
// (activelearn's), a pass over the pixels to find the space's key, and applying each of its two
// results costs O(N) once on the UI thread.

// AskRound is how many asked samples the list holds waiting at its front: a round asks for as
// many as are needed to bring the outstanding ones back to it.
const AskRound = 20

// retrainAfter is how long the labels must rest before the loop runs again: a person typing
// labels one after another starts one round, not one per key.
const retrainAfter = 2 * time.Second

// RestTimer is the wait for the labels to rest (a *time.Timer).
type RestTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// askLoop is the state of the loop's rounds, kept by the Suggester.
type askLoop struct {
	job      *jobs.Job // the round running, nil when none
	refining bool      // its first suggestions are shown, it refines them
	again    bool      // the labels changed since the running round's snapshot
	timer    RestTimer // the debounce of the next round, nil when none waits
	tally    loopTally // what the person did in the loop: accepted, typed, right
	seed     uint64    // activelearn's seed (0: its default)
	dump     string    // the test hook's file (TestEnv), "" for none
	// home is the sample the cursor was on when the list was shown (Suggest), -1 for none:
	// while it is still there the person has not moved in the list (unmoved).
	home int
}

// askResult is what a round found, for the UI thread.
type askResult struct {
	ds      *store.Dataset
	resets  int
	snap    sample.Set
	asked   []int // snapshot positions, most useful first
	list    []activelearn.Suggestion
	from    int // labelled samples the round learnt from
	suggest bool
	refined bool // the round's last result (the refined suggestions, or none to refine)
	err     error
	took    time.Duration
}

// round starts a round of the loop in the background for the Suggested list. When one runs, it
// has another start when it ends (the labels changed meanwhile), unless the running one only
// refines suggestions already shown: that one is stopped and the new round starts at once, so
// that the first suggestions from the labels typed since come within seconds.
//
// A round, on its goroutine: the space (keptSpace: read or computed once, the estimate said
// first), the asks and the first suggestions (label spreading), shown at once; then the refined
// suggestions (networks), shown when they are done. Accepted suggestions (the store's marks,
// which a save keeps for the next session) go to the method as pseudo-labels
// (activelearn.Options.Accepted).
func (g *Suggester) round() {
	l, c := &g.loop, g.c
	if l.job != nil {
		if !l.refining {
			l.again = true
			return
		}
		g.jobs.Finish(l.job) // its first suggestions are shown; the new labels come first
		l.job, l.refining = nil, false
	}
	if g.Mode.List == nil {
		return
	}
	ds := c.State().DS
	snap := ds.Snapshot()
	labelled, unlabelled := splitLabelled(snap)
	if len(unlabelled) == 0 {
		return
	}
	outstanding := 0
	for i := range g.Mode.List.Asked {
		if ds.Label(i) == sample.NoLabel {
			outstanding++
		}
	}
	n := max(AskRound-outstanding, 0)
	suggest := nothingToLearn(snap, labelled) == ""
	resets := c.Resets()
	job := g.jobs.Start(jobs.Training, "Suggestions: learning from "+numfmt.Plural(len(labelled), "label"))
	l.job, l.again, l.refining = job, false, false
	c.Progress()
	note := func(text string) {
		g.jobs.Schedule(func() {
			if l.job == job {
				g.jobs.SetNote(job, text)
				c.Progress()
			}
		})
	}
	// While the space is first computed its progress says the estimate said before it began.
	var last time.Time
	var learning atomic.Pointer[string]
	opts := activelearn.Options{Seed: l.seed, Accepted: ds.AcceptedIn(snap), Progress: func(stage string, done float64) {
		if time.Since(last) < time.Second && done < 1 {
			return
		}
		last = time.Now()
		what := fmt.Sprintf("Suggestions (%s)", numfmt.Plural(len(labelled), "label"))
		if p := learning.Load(); p != nil {
			what = *p
		}
		note(fmt.Sprintf("%s: %s %.0f%%", what, stage, 100*done))
	}}
	images, _ := ds.Paths()
	kept := images != "" && !ds.ReadOnly()
	at := place{write: !ds.ReadOnly(), note: func(about string, n int) {
		text := numfmt.Sprintf("Learning features of %d samples", n) + " (" + about + ")"
		learning.Store(&text)
		note(text)
		g.jobs.Schedule(func() {
			if l.job == job {
				c.Note(SpaceNote(n, about, kept))
			}
		})
	}}
	if images != "" {
		at.path = images + scancache.SpaceSuffix
	}
	typed := len(labelled)
	for _, a := range opts.Accepted {
		if a {
			typed--
		}
	}
	start := time.Now()
	g.jobs.Run(func() {
		res := askResult{ds: ds, resets: resets, snap: snap, from: typed, suggest: suggest}
		show := func(res askResult) {
			res.took = time.Since(start)
			g.jobs.Schedule(func() {
				if l.job != job {
					return // stopped, or another dataset
				}
				if res.refined || res.err != nil || !res.suggest {
					l.job, l.refining = nil, false
					g.jobs.Finish(job)
				} else {
					l.refining = true
					g.jobs.SetNote(job, fmt.Sprintf("Suggestions (%s): refining", numfmt.Plural(res.from, "label")))
				}
				g.asked(res)
			})
		}
		if g.Prepare != nil {
			res.err = g.Prepare(job.Ctx, snap, opts, at)
			learning.Store(nil)
		}
		if res.err == nil && n > 0 {
			res.asked, res.err = g.AskFor(job.Ctx, snap, n, opts)
		}
		if res.err == nil && suggest && g.FirstFor != nil {
			res.list, res.err = g.FirstFor(job.Ctx, snap, opts)
			if res.err == nil {
				show(res) // the first suggestions, at once
				res.asked = nil
			}
		}
		if res.err == nil && suggest {
			res.list, res.err = g.SuggestFor(job.Ctx, snap, opts)
		}
		res.refined = true
		show(res)
	})
}

// Later has a round start once the labels rested for retrainAfter (each call starts the wait
// again). The timer's goroutine only schedules the round on the UI thread.
func (g *Suggester) Later() {
	l := &g.loop
	if l.timer != nil {
		l.timer.Reset(retrainAfter)
		return
	}
	schedule := g.jobs.Schedule
	l.timer = g.AfterRest(retrainAfter, func() {
		schedule(func() {
			if g.loop.timer != nil {
				g.loop.timer = nil
				g.round()
			}
		})
	})
}

// stopLoop cancels the round running and the one waiting.
func (g *Suggester) stopLoop() {
	l := &g.loop
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if l.job != nil {
		g.jobs.Finish(l.job)
		l.job, l.again, l.refining = nil, false, false
	}
}

// asked takes a round's result on the UI thread: the Suggested list becomes the samples up to the
// cursor's (in its order), the others it has decided so far, the asked samples still without a
// label, the new asked ones, then the suggestions most confident first. The cursor stays on its
// sample (review.Mode.Refresh), so a key typed just after the list changed labels the sample the
// person was looking at; only the first round, while the person has not moved in the list yet
// (the cursor still on the sample it was on when the list was shown: unmoved), puts it on the
// first sample to decide, the first asked. A round of another dataset is dropped; one from before
// a save's renumbering runs again.
func (g *Suggester) asked(res askResult) {
	c, l := g.c, &g.loop
	if res.ds != c.State().DS {
		return
	}
	r := g.Mode.List
	switch {
	case res.err == context.Canceled:
		return
	case res.err != nil:
		c.Say("No suggestions: " + res.err.Error())
		c.Render()
		return
	case r == nil:
		return
	case c.Resets() != res.resets:
		g.round() // the samples were renumbered meanwhile
		return
	}
	// The first round's list while the person has not moved in it yet: the cursor goes to the
	// first sample to decide. Any other: it stays where the person put it.
	start := r.Pending && g.unmoved()
	nr := &review.List{Kind: review.Suggested, Of: map[int]suspect.Suspect{}, Asked: map[int]bool{}, Hidden: map[int]suspect.Suspect{}}
	in := make(map[int]bool, len(r.Order))
	add := func(i int) {
		if !in[i] {
			in[i] = true
			nr.Order = append(nr.Order, i)
		}
	}
	if !start {
		// The samples up to the cursor's stay in their order, so that the asks and
		// suggestions a round brings come after the cursor, where the next keys go: an ask is
		// never put behind them. The samples this round newly asks for leave that part for
		// their place after it (the cursor's own stays).
		fresh := make(map[int]bool, len(res.asked))
		for _, k := range res.asked {
			if i := res.snap.Index[k]; !r.Asked[i] {
				fresh[i] = true
			}
		}
		if cur := c.State().View.Current(); cur >= 0 && slices.Contains(r.Order, cur) {
			for _, i := range r.Order {
				if i == cur {
					add(i)
					break
				}
				if !fresh[i] {
					add(i)
				}
			}
		}
	}
	for _, i := range r.Order {
		if c.State().DS.Label(i) != sample.NoLabel {
			add(i) // decided: stays where it is
		}
	}
	for _, i := range r.Order {
		if r.Asked[i] && c.State().DS.Label(i) == sample.NoLabel {
			nr.Asked[i] = true
			add(i)
		}
	}
	for _, k := range res.asked {
		i := res.snap.Index[k]
		if c.State().DS.Label(i) == sample.NoLabel {
			nr.Asked[i] = true
			add(i)
		}
	}
	for _, s := range res.list {
		i := res.snap.Index[s.Index]
		x := suspect.Suspect{Index: i, Suggested: s.Label, Confidence: s.Confidence}
		if nr.Asked[i] {
			nr.Hidden[i] = x // an asked sample's label is typed, its suggestion only scored
			continue
		}
		nr.Of[i] = x
		add(i)
	}
	if !res.suggest {
		// No suggestion yet (labels of fewer than two classes): the rest in sample order.
		for _, i := range r.Order {
			add(i)
		}
	}
	nr.Method = fmt.Sprintf("label spreading and networks fine-tuned from %s", numfmt.Plural(res.from, "label"))
	if !res.refined {
		nr.Method = fmt.Sprintf("label spreading from %s, refining", numfmt.Plural(res.from, "label"))
	}
	if !res.suggest {
		nr.Method = fmt.Sprintf("asked from %s: suggestions need labels of two classes", numfmt.Plural(res.from, "label"))
	}
	nr.Few = res.suggest && res.from < suspect.FewLabels
	nr.SuggestsNone = !res.suggest
	g.Mode.Refresh(c, nr, start)
	g.writeDump(nr, res.from, res.refined)
	if g.newRound != nil {
		g.newRound(nr)
	}
	what := fmt.Sprintf("%s to label first", numfmt.Plural(len(nr.Asked), "sample"))
	if res.suggest {
		what += fmt.Sprintf(", then %s most confident first", numfmt.Plural(len(nr.Of), "suggestion"))
	}
	c.Note(fmt.Sprintf("Suggested list: %s (%s; %s)", what, nr.Method, res.took.Round(100*time.Millisecond)))
	if l.again {
		g.round() // labels came meanwhile: the next round learns from them
	}
}

// unmoved reports whether the person has not moved in the Suggested list since it was shown: the
// window shows it and its cursor is still on the sample it was on then (home). A person who
// moved away and came back to that sample is taken as one who has not moved: either way that is
// the sample under the cursor the list started with.
func (g *Suggester) unmoved() bool {
	c := g.c
	return c.Showing() == mode.Mode(g.Mode) && c.State().View.Current() == g.loop.home
}

// Follow keeps the loop in step with one change of the dataset (the controller calls it at every
// change): the tally follows the labels and the samples added or removed at the end (those
// appended with accepted marks count as accepted), and a change of labels starts the wait for
// the next round.
func (g *Suggester) Follow(ch store.Change) {
	l := &g.loop
	switch ch.Kind {
	case store.Reset:
		l.tally.renumber(ch.Renumber)
		return
	case store.Relabelled, store.Truncated:
		g.tally().follow(g.c.State().DS, ch.Indices)
	case store.Appended:
		g.tally().appended(g.c.State().DS, ch.Indices)
	}
	if g.Mode.List != nil {
		g.Later()
	}
}

// decided tells the loop's tally of a decision on sample i of the Suggested list r
// (reviewMode.decided).
func (g *Suggester) decided(r *review.List, i, label int, how store.How) {
	g.tally().decided(r, i, label, how)
}

// TestEnv is an environment variable for the real-window test (scripts/suggestloop.sh)
// only: it names a file where the window writes the Suggested list after each round, as CSV
// (index,label,asked,suggested,confidence in the list's order; a sample without a label or a
// suggestion has -2147483648 there), after a first line "# learnt from N labels" (N typed
// labels: accepted suggestions are not learnt from), ", refining" after it for a round's first
// suggestions when refined ones follow.
const TestEnv = "IDXLABEL_TEST_SUGGEST"

// SeedEnv is an environment variable for the real-window measurements only
// (scripts/scratchlabel.sh over several seeds): the loop's seed (activelearn.Options.Seed, 1 by
// default), read once when the window opens; a value that is not a positive integer is ignored.
const SeedEnv = "IDXLABEL_TEST_SUGGEST_SEED"

// seedFromEnv is SeedEnv's seed, 0 (the default) when unset or not a positive integer.
func seedFromEnv() uint64 {
	v, err := strconv.ParseUint(os.Getenv(SeedEnv), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// writeDump writes the list r of a round that learnt from `from` labels to the test hook's file,
// when one is set (written beside it, then renamed, so a reader never sees half of it); the
// first suggestions of a round that then refines them (refined false) say so on the first line:
// "# learnt from N labels, refining".
func (g *Suggester) writeDump(r *review.List, from int, refined bool) {
	if g.loop.dump == "" {
		return
	}
	var b []byte
	b = fmt.Appendf(b, "# learnt from %d labels", from)
	if !refined {
		b = append(b, ", refining"...)
	}
	b = append(b, "\nindex,label,asked,suggested,confidence\n"...)
	for _, i := range r.Order {
		s, ok := r.Of[i]
		if !ok {
			s.Suggested = sample.NoLabel
		}
		asked := 0
		if r.Asked[i] {
			asked = 1
		}
		b = fmt.Appendf(b, "%d,%d,%d,%d,%v\n", i, g.c.State().DS.Label(i), asked, s.Suggested, s.Confidence)
	}
	if err := testhook.Write(g.loop.dump, b); err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the suggested list for the test:", err)
	}
}
