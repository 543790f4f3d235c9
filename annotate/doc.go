// Package annotate compares the labels several annotators gave the same N samples and settles
// them: agreement (raw, Cohen's κ for two annotators, Fleiss' κ for more, per class), the
// samples they disagree on, consensus by majority or by Dawid–Skene's EM, and errata — a file of
// corrections that names each sample by the SHA-256 of its pixels, so that anyone can apply it
// to their copy of the images, verified.
//
// Everything works on labels in memory: one []int32 column per annotator, sample.NoLabel
// (−2147483648) where that annotator gave none. Reading and writing label files is the
// caller's (the command line reads them with package idx; a window hands over its columns).
// It imports neither Fyne nor the store.
//
// How a caller uses it:
//
//	p, err := annotate.NewPanel([]annotate.Column{{Name: "ann", Labels: a}, {Name: "bob", Labels: b}})
//	s := p.Summary()                    // counts, raw agreement, κ, per-class agreement
//	for i := range p.N() { if p.Disagrees(i) { … } } // or p.Disagreements()
//	votes := p.Majority()               // per sample: label (NoLabel: no majority), votes, annotators
//	est, err := p.DawidSkene(ctx, annotate.DSOptions{}) // weighted labels, each annotator's accuracy
//	k, err := annotate.Cohen(annotator, adjudicated) // κ of any two columns (p.Cohen(a, b) within a panel)
//	m, err := p.Confusion(0, 1)          // the C×C table between two annotators
//	samples := p.Cell(0, 1, 4, 9)        // the samples of one cell: 0 said 4, 1 said 9
//
// Errata:
//
//	h, err := annotate.HashImages(ctx, header, data) // the images file's SHA-256 and each sample's
//	e, err := annotate.MakeErrata(h, old, new, votes, note) // a row per sample whose label changed
//	err = e.WriteCSV(w, "t10k-images-idx3-ubyte.gz")
//	e, err = annotate.ReadErrata(r, "errata.csv")  // untrusted: bounded, errors name file and line
//	outcomes := annotate.Apply(e, h.Samples, labels, fits) // where each row applies, or why not
//
// Sizes: a panel holds N·k int32 (4·N·k bytes) besides its classes; Summary, Majority and
// Disagreements are O(N·k) time (a sample's k labels are sorted: O(N·k·log k)); Dawid–Skene
// works on the distinct patterns of labels (at most N, usually far fewer) and holds k·C²
// probabilities. Nothing is quadratic in N.
package annotate
