package builder

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"slices"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// Plan is what Write writes: the inputs (concatenated in order, sample g of the plan is sample
// g − (samples of the inputs before) of its input), each output pair with the samples it holds,
// in output order, the relabelling of column 0 and the class names of the outputs.
type Plan struct {
	Inputs  []*Input
	Parts   []Part
	Relabel map[int64]int64 // class OLD (column 0) is written as NEW; nil for none
	Names   map[int]string  // the outputs' class names; nil for none
	// Notices are what Write found a person should know: an input's accepted-marks file
	// refused (stale, damaged, a symbolic link), naming it.
	Notices []string
}

// Part is one output pair of a Plan and the samples it holds, in output order.
type Part struct {
	Out     Pair
	Samples []int // sample numbers of the concatenated inputs
}

// Written describes one output pair Write wrote.
type Written struct {
	Out            Pair
	Images, Labels idx.Header
	NamesFile      string // the class-name file written beside the labels; "" when none
	// NamesShadowed is the class-name file the app will read for these labels instead of
	// NamesFile (one pairfile.FindClassNames looks for first, such as EMNIST's
	// "<set>-mapping.txt"); "" when it reads NamesFile or none.
	NamesShadowed string
	// Accepted is how many of its labels are accepted suggestions (pseudo-labels), carried from
	// the inputs' marks and kept in AcceptedFile (pairfile.AcceptedFile of the labels; "" when
	// none is).
	Accepted     int
	AcceptedFile string
}

// Progress reports Write's progress: done of total input samples read for the output file.
type Progress func(file string, done, total int)

// NamesFileFor returns the class-name file Write writes beside an output label file:
// pairfile.ClassNamesFile (beside the file a symbolic link names), where
// pairfile.FindClassNames finds it.
func NamesFileFor(labels string) string { return pairfile.ClassNamesFile(labels) }

// Write writes every part of p: each output's images stream from the inputs, read in order to
// their ends (every input verified in full; an input changed since Open is refused), converted
// to the output dtype (imageLayout); its labels are the input rows, every column kept, column 0
// relabelled by p.Relabel, in the smallest dtype holding the inputs' dtypes and the new classes
// (labelType). Every file is written to a temporary name beside its target and read back
// (images: a CRC-32C of the data; labels: decoded and compared) before any output is put in
// place; then each pair is put in place as one operation (pairfile.Claim.CommitPair) and its
// class-name file (NamesFileFor, p.Names; removed when p has none) written atomically, all under
// claim, the caller's claim of the outputs (pairfile.ClaimOutputs), which it releases; then the
// accepted marks of the samples it holds that were marked in their input (acceptedMarks),
// renumbered to their places in it, as the output's own marks file (pairfile.Claim.KeepAccepted,
// keyed by the labels and images written; an input's marks file that does not fit its pair is a
// notice in p.Notices and carries no mark). When
// ctx is cancelled before the outputs are put in place, nothing is replaced, the temporary files
// are removed and ctx's error is returned. Memory: the output labels, 4 bytes per input sample
// per part, one record per input, a bit per input sample and 8 bytes per mark carried; a part
// not in input order (shuffled) also its images.
// Errors: those of imageLayout, label files of different column counts, a relabelled class its
// dtype cannot hold, the input and output files' errors, naming them.
func Write(ctx context.Context, claim *pairfile.Claim, p *Plan, progress Progress) ([]Written, error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	total, err := checkTotal(p.Inputs)
	if err != nil {
		return nil, err
	}
	imgHeader, err := imageLayout(p.Inputs)
	if err != nil {
		return nil, err
	}
	cols := p.Inputs[0].Columns()
	var types []idx.DType
	for _, in := range p.Inputs {
		if in.Columns() != cols {
			return nil, fmt.Errorf("%s: label rows of %d values, %s's of %d: merged label files must have the same columns",
				in.Files.Labels, in.Columns(), p.Inputs[0].Files.Labels, cols)
		}
		types = append(types, in.Labels.Type)
	}
	var newClasses []int64
	for _, v := range p.Relabel {
		newClasses = append(newClasses, v)
	}
	labType := labelType(types, newClasses)
	type pending struct {
		images, labels *idx.Pending
		w              Written
		marks          []int // the part's accepted samples, its places ascending
		key            pairfile.AcceptedKey
	}
	var done []pending
	abort := func() {
		for _, d := range done {
			d.images.Abort()
			d.labels.Abort()
		}
	}
	var marked []int // the inputs' accepted samples, numbered in the plan
	for k, part := range p.Parts {
		n := len(part.Samples)
		ih := imgHeader
		ih.Dims = slices.Clone(imgHeader.Dims)
		ih.Dims[0] = n
		labels := p.labels(part.Samples, labType, cols)
		atomicfile.RemoveStale(part.Out.Images, atomicfile.StaleAge)
		atomicfile.RemoveStale(part.Out.Labels, atomicfile.StaleAge)
		imgs, crc, err := p.writeImages(ctx, part, ih, total, progress)
		if err != nil {
			abort()
			return nil, err
		}
		if k == 0 {
			marked = p.acceptedMarks() // the inputs' image CRCs are known now
		}
		labs, err := idx.WritePendingContext(ctx, part.Out.Labels, labels)
		if err == nil {
			err = verifyArray(labs.Temp, part.Out.Labels, labels)
		}
		if err != nil {
			imgs.Abort()
			if labs != nil {
				labs.Abort()
			}
			abort()
			return nil, err
		}
		d := pending{images: imgs, labels: labs, w: Written{Out: part.Out, Images: ih, Labels: labels.Header}}
		if d.marks = pairfile.CarryAccepted(total, marked, part.Samples); len(d.marks) > 0 {
			d.key = pairfile.KeyOf(labels, crc)
		}
		done = append(done, d)
	}
	if err := ctx.Err(); err != nil {
		abort()
		return nil, err
	}
	var out []Written
	for k, d := range done {
		if err := claim.CommitPair(d.w.Out.Images, d.w.Out.Labels, d.images, d.labels); err != nil {
			for _, rest := range done[k+1:] {
				rest.images.Abort()
				rest.labels.Abort()
			}
			return out, err
		}
		names := NamesFileFor(d.w.Out.Labels)
		if len(p.Names) > 0 {
			if err := pairfile.WriteClassNames(names, p.Names); err != nil {
				return out, err
			}
			d.w.NamesFile = names
		} else if err := os.Remove(names); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, err
		}
		if _, found, _ := pairfile.FindClassNames(d.w.Out.Labels); found != "" && found != d.w.NamesFile {
			d.w.NamesShadowed = found
		}
		if len(d.marks) > 0 {
			if err := claim.KeepAccepted(d.w.Out.Labels, d.key, d.marks); err != nil {
				return out, fmt.Errorf("%s is written, but which of its labels are accepted suggestions could not be kept beside it (they count as typed labels): %w", d.w.Out.Labels, err)
			}
			d.w.Accepted, d.w.AcceptedFile = len(d.marks), pairfile.AcceptedFile(d.w.Out.Labels)
		}
		out = append(out, d.w)
	}
	return out, nil
}

// labels builds the label array of the samples given, in that order: every column of each
// input row, column 0 relabelled, as dtype t.
func (p *Plan) labels(samples []int, t idx.DType, cols int) *idx.Array {
	dims := []int{len(samples)}
	if p.Inputs[0].Labels.Rank() == 2 {
		dims = append(dims, cols)
	}
	a, _ := idx.New(t, dims...) // dims are checked: N ≤ 2^31−1, cols from a valid file
	for k, g := range samples {
		in, i := p.locate(g)
		for c := range cols {
			v := in.Labels.Int(i*cols + c)
			if c == 0 {
				if nv, ok := p.Relabel[v]; ok {
					v = nv
				}
			}
			a.SetInt(k*cols+c, v)
		}
	}
	return a
}

// locate returns the input holding plan sample g and g's number in it.
func (p *Plan) locate(g int) (*Input, int) {
	for _, in := range p.Inputs {
		if g < in.Shape.N {
			return in, g
		}
		g -= in.Shape.N
	}
	panic(fmt.Sprintf("dataset: sample %d is outside the plan's inputs", g))
}

// writeImages writes part's images to a temporary file beside part.Out.Images and reads it
// back; it returns the file and the CRC-32C of its image data (pairfile.ImagesCRC's). In input order the records go straight from the inputs to the file; otherwise they are
// kept as they arrive (records, whose memory grows with the records read, never with what a
// header declares) and written in the part's order once every input is read.
func (p *Plan) writeImages(ctx context.Context, part Part, h idx.Header, total int, progress Progress) (*idx.Pending, uint32, error) {
	pos := make([]int32, total)
	for g := range pos {
		pos[g] = -1
	}
	inOrder := true
	for k, g := range part.Samples {
		if g < 0 || g >= total || pos[g] >= 0 {
			return nil, 0, fmt.Errorf("dataset: %s: sample %d is not one of the %d samples, or is written twice", part.Out.Images, g, total)
		}
		pos[g] = int32(k)
		inOrder = inOrder && (k == 0 || g > part.Samples[k-1])
	}
	outRec := int(h.DataSize() / int64(max(h.Dims[0], 1)))
	sum := crc32.New(castagnoli)
	pend, err := idx.CreateFunc(part.Out.Images, h, func(w io.Writer) error {
		out := io.MultiWriter(w, sum)
		var held *records
		put := func(k int32, rec []byte) error {
			_, err := out.Write(rec)
			return err
		}
		if !inOrder {
			held = newRecords(len(part.Samples), outRec)
			put = func(k int32, rec []byte) error { held.put(k, rec); return nil }
		}
		if err := p.readImages(ctx, pos, h.Type, part.Out.Images, total, progress, put); err != nil {
			return err
		}
		if held == nil {
			return nil
		}
		bw := bufio.NewWriterSize(out, 1<<20)
		for k := range len(part.Samples) {
			if k%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if _, err := bw.Write(held.get(k)); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
	if err != nil {
		return nil, 0, err
	}
	if err := verifyStream(pend.Temp, h, sum.Sum32()); err != nil {
		pend.Abort()
		return nil, 0, fmt.Errorf("%s: the file written did not read back as written, nothing was replaced: %w", part.Out.Images, err)
	}
	return pend, sum.Sum32(), nil
}

// records holds the records of a part written in another order than its inputs' (a shuffle), in
// the order they are read: blocks of about 1 MiB (at least one record), each allocated when the
// first record it holds arrives, so its memory is the records received (and less than a block
// more), whatever the inputs' headers declare; slot maps the part's position k to where its
// record is held.
type records struct {
	size, perBlock int
	blocks         [][]byte
	slot           []int32 // the part's position k → the number of its record in arrival order
	n              int32   // records received
}

// newRecords returns an empty store for n records of size bytes.
func newRecords(n, size int) *records {
	return &records{size: size, perBlock: max(1, (1<<20)/max(size, 1)), slot: make([]int32, n)}
}

// put keeps rec, the record at the part's position k.
func (r *records) put(k int32, rec []byte) {
	b := int(r.n) / r.perBlock
	if b == len(r.blocks) {
		r.blocks = append(r.blocks, make([]byte, 0, r.perBlock*r.size))
	}
	r.blocks[b] = append(r.blocks[b], rec...)
	r.slot[k] = r.n
	r.n++
}

// get returns the record at the part's position k (put before).
func (r *records) get(k int) []byte {
	s := int(r.slot[k])
	at := s % r.perBlock * r.size
	return r.blocks[s/r.perBlock][at : at+r.size]
}

// readImages reads every input's images in order, to the end of each file, and calls put with
// each record whose pos is not −1, converted to dtype t. Of an input with an accepted-marks
// file it also keeps the CRC-32C of the image data as stored (imagesCRC).
func (p *Plan) readImages(ctx context.Context, pos []int32, t idx.DType, file string, total int, progress Progress, put func(k int32, rec []byte) error) error {
	g := 0
	for _, in := range p.Inputs {
		f, err := idx.OpenFile(in.Files.Images)
		if err != nil {
			return err
		}
		err = func() error {
			defer f.Close()
			if f.Header.String() != in.ImageHeader.String() {
				return fmt.Errorf("%s: the file changed while it was read (header %s, was %s)", in.Files.Images, f.Header, in.ImageHeader)
			}
			r := bufio.NewReaderSize(f, 1<<20)
			rec := make([]byte, f.Header.DataSize()/int64(max(in.Shape.N, 1)))
			var crc uint32
			conv := converter(f.Header.Type, t, len(rec)/f.Header.Type.Size())
			for i := 0; i < in.Shape.N; i, g = i+1, g+1 {
				if i%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
					progress(file, g, total)
				}
				if _, err := io.ReadFull(r, rec); err != nil {
					return err
				}
				if in.AcceptedFile != "" {
					crc = crc32.Update(crc, castagnoli, rec)
				}
				if pos[g] >= 0 {
					if err := put(pos[g], conv(rec)); err != nil {
						return err
					}
				}
			}
			// Reading to io.EOF verifies the end of the file (nothing after the data; gzip's CRC).
			if _, err := io.ReadFull(r, make([]byte, 1)); err != io.EOF {
				if err == nil {
					err = fmt.Errorf("%s: data after the samples", in.Files.Images)
				}
				return err
			}
			in.imagesCRC = crc
			return nil
		}()
		if err != nil {
			return err
		}
	}
	progress(file, total, total)
	return nil
}

// converter returns a function converting one record of n values from dtype from to dtype to
// (to holds every value of from: exact); the identity when they are the same.
func converter(from, to idx.DType, n int) func([]byte) []byte {
	if from == to {
		return func(b []byte) []byte { return b }
	}
	src := &idx.Array{Header: idx.Header{Type: from, Dims: []int{n}}}
	dst, _ := idx.New(to, n)
	return func(b []byte) []byte {
		src.Data = b
		for i := range n {
			if to.IsInteger() {
				dst.SetInt(i, src.Int(i))
			} else {
				dst.SetFloat(i, src.Float(i))
			}
		}
		return dst.Data
	}
}

// verifyStream reads the IDX file name to its end and checks its header is h and its data's
// CRC-32C is sum.
func verifyStream(name string, h idx.Header, sum uint32) error {
	f, err := idx.OpenFile(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.Header.String() != h.String() {
		return fmt.Errorf("header %s, %s was written", f.Header, h)
	}
	got := crc32.New(castagnoli)
	if _, err := io.Copy(got, f); err != nil {
		return err
	}
	if got.Sum32() != sum {
		return errors.New("its data differs from the data written")
	}
	return nil
}

// verifyArray decodes the IDX file name, written for target, and checks it holds a.
func verifyArray(name, target string, a *idx.Array) error {
	got, err := idx.ReadFile(name)
	if err != nil {
		return err
	}
	if got.Header.String() != a.Header.String() || !bytes.Equal(got.Data, a.Data) {
		return fmt.Errorf("%s: the file written did not read back as written, nothing was replaced", target)
	}
	return nil
}
