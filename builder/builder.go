// Package builder builds datasets from IDX pairs: merge (pairs appended in order), split (a
// train and a test pair, stratified by class or keeping groups whole) and subset (samples kept
// by class, count per class, total or index file, relabelled on the way). It chooses the samples
// from the labels alone (Merge, Split, Subset return a Plan), then writes the plan (Write): the
// images stream record by record from the inputs to the outputs, so memory holds the labels and
// 4 bytes per input sample of each output, never the images, except for an output written in
// another order than the inputs' (a shuffle), which is assembled in memory: at most that
// output's size. It never imports Fyne.
package builder

import (
	"fmt"
	"math"
	"os"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// Pair names an image file and its label file.
type Pair struct {
	Images, Labels string
}

// Input is one input pair, checked by the pair rule (pairfile.CheckImages, pairfile.CheckLabels,
// pairfile.CheckLabel), with its labels in memory (N, or N×K with the class in column 0) and the
// header of its images; the images themselves stay on disk until Write streams them.
type Input struct {
	Files       Pair
	ImageHeader idx.Header     // the image file's header
	Shape       pairfile.Shape // N samples of H×W
	Labels      *idx.Array     // N or N×K integers, column 0 the class
	Names       map[int]string // class names from the class-name file beside the labels; nil when none
	NamesFile   string         // that file; "" when none
	Notices     []string       // what a person should know: a class-name file refused, naming it
	// AcceptedFile is the accepted-marks file found beside the labels (pairfile.AcceptedFile;
	// anything os.Lstat finds there, a symbolic link too, for Write to read or refuse); "" when
	// none. Its marks are read by Write, once it has read the images their key needs.
	AcceptedFile string
	imagesCRC    uint32 // the CRC-32C of the image data as stored, computed by Write's read when AcceptedFile is set
}

// Open reads the header of p.Images, checked against the bytes the file holds (idx.OpenFile:
// exactly the data a plain file's header declares; for gzip at most 1032 times the file's size),
// so that no size Write allocates from it is one a header merely claims; then the whole of
// p.Labels, checks them as a pair and finds the class-name file beside the labels
// (pairfile.FindClassNames; one that cannot be read becomes a notice and the input has no names)
// and notes the accepted-marks file beside the labels (AcceptedFile).
// Memory: the label file (at most idx.MaxData bytes). Errors, naming the file: those of
// idx.OpenFile, idx.ReadFileLimit, pairfile.CheckImages, pairfile.CheckLabels and pairfile.CheckLabel; an
// input of more than 2^31−1 samples.
func Open(p Pair) (*Input, error) {
	f, err := idx.OpenFile(p.Images)
	if err != nil {
		return nil, err
	}
	h := f.Header
	f.Close()
	shape, err := pairfile.CheckImages(p.Images, h, 0, 0)
	if err != nil {
		return nil, err
	}
	labels, err := idx.ReadFileLimit(p.Labels, idx.MaxData())
	if err != nil {
		return nil, err
	}
	if err := pairfile.CheckLabels(p.Labels, labels.Header, p.Images, shape.N); err != nil {
		return nil, err
	}
	stride := labels.Stride()
	for i := range shape.N {
		if err := pairfile.CheckLabel(p.Labels, i, labels.Int(i*stride)); err != nil {
			return nil, err
		}
	}
	in := &Input{Files: p, ImageHeader: h, Shape: shape, Labels: labels}
	if m := pairfile.AcceptedFile(p.Labels); m != "" {
		if _, err := os.Lstat(m); err == nil {
			in.AcceptedFile = m
		}
	}
	names, file, err := pairfile.FindClassNames(p.Labels)
	if err != nil {
		in.Notices = append(in.Notices, fmt.Sprintf("%v (class names left out)", err))
	} else {
		in.Names, in.NamesFile = names, file
	}
	return in, nil
}

// Class returns the class of sample i (column 0 of its label row; sample.NoLabel when it has
// none).
func (in *Input) Class(i int) int64 { return in.Labels.Int(i * in.Labels.Stride()) }

// Columns returns the number of values in each label row: 1 for N labels, K for N×K.
func (in *Input) Columns() int { return in.Labels.Stride() }

// checkTotal refuses a plan over more samples than an int32 position can number.
func checkTotal(inputs []*Input) (int, error) {
	total := 0
	for _, in := range inputs {
		total += in.Shape.N
		if total > math.MaxInt32 {
			return 0, fmt.Errorf("%s: more than %d samples in all; idxlabel builds datasets of at most that many", in.Files.Images, math.MaxInt32)
		}
	}
	return total, nil
}
