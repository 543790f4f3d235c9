package pairfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// An accepted-marks file says which labels of a pair are accepted suggestions (pseudo-labels: a
// model's suggested label taken without a person typing it) rather than labels a person gave,
// so that the next round of labelling from scratch learns them as pseudo-labels, not as truth,
// and calibrates on the typed labels only. It sits beside the label file (AcceptedFile,
// "<labels>.idxlabel-accepted"), is written by a save of the window and read when the pair is
// opened (and by `idxlabel suggest`), and is one of idxlabel's own files (StateMarker).
//
// It is UTF-8 text: a first line "idxlabel accepted-marks 1" (a reviewed-marks file's, of the
// same format and rules: "idxlabel reviewed-marks 1"; MarksKind), a line "samples N", a line
// "labels sha256 <64 hex digits>" (AcceptedKey.Labels), a line "images crc32c <8 hex digits>"
// (AcceptedKey.Images), a line "marks M", then the M accepted samples' indices, one a line, in
// decimal, strictly ascending, each below N (so a file cut short at a line end is seen). It holds no path. Its size grows with the accepted samples (at most
// 11 bytes each), not with N.
//
// It belongs to the pair's contents, not to its names: the key lines say which label and image
// data it was written for, and a file whose key differs from the pair's (the label file
// rewritten, reordered or replaced by another program or writer since) is stale: ReadAccepted
// refuses it (ErrStaleAccepted) and its marks are ignored, never applied to other samples.
// Every writer under a claim (ClaimOutputs) removes it from the label files it replaces once
// the new file is in place, and leaves it untouched when the write fails or is cancelled
// (Claim.Replaced); a writer that derives its pair from a marked one then writes the new pair's
// own marks file (carry.go: Claim.KeepAccepted).

// AcceptedSuffix is appended to the label file's path to name its accepted-marks file:
// "t10k-labels-idx1-ubyte.gz.idxlabel-accepted".
const AcceptedSuffix = ".idxlabel-accepted"

// acceptedHeader is the first line of an accepted-marks file (its format's version).
const acceptedHeader = "idxlabel accepted-marks 1"

// acceptedHead is the most bytes the lines before the indices take (their longest form, with
// a sample count of 20 digits).
const acceptedHead = 512

// ReviewedSuffix is appended to the label file's path to name its reviewed-marks file:
// "t10k-labels-idx1-ubyte.gz.idxlabel-reviewed".
const ReviewedSuffix = ".idxlabel-reviewed"

// A MarksKind is one kind of marks file beside a pair's label file: a set of its samples, kept
// by a save for the next session, in the format described above (under its own first line),
// keyed by the pair's contents (AcceptedKey), read, written and refused by one rule whatever
// its kind. AcceptedMarks are the accepted suggestions (pseudo-labels); ReviewedMarks are the
// samples a person decided in a review (kept or relabelled as suspects, the health check's or
// the confusion matrix's), so that a review spread over several sessions does not show them
// again as undecided. Reviewed marks are written by a save of the window only: a pair derived
// from another (CarryAccepted) starts with none, and every writer's claim removes them with the
// accepted marks (Claim.Replaced).
type MarksKind struct {
	suffix  string // appended to SideBase(labels)
	header  string // the file's first line (its format's version)
	what    string // its name in errors
	ignored string // what ignoring the file means, in errors
}

// AcceptedMarks and ReviewedMarks are the two kinds of marks file.
var (
	AcceptedMarks = MarksKind{AcceptedSuffix, acceptedHeader, "accepted marks", "; its accepted suggestions count as typed labels"}
	ReviewedMarks = MarksKind{ReviewedSuffix, "idxlabel reviewed-marks 1", "reviewed marks", "; the samples it marks count as not reviewed"}
)

// MarksKinds are every kind of marks file, for the rules that hold for each (CheckOutputs,
// Claim.Replaced).
var MarksKinds = []MarksKind{AcceptedMarks, ReviewedMarks}

// File returns the marks file of kind k of the pair whose label file is labels:
// SideBase(labels) + its suffix, beside it, or, when labels is a symbolic link, beside the file
// it names (beside.go); "" when labels is "" (a pair without labels has no such marks). The
// marks file itself is never followed (Read, Write).
func (k MarksKind) File(labels string) string {
	if labels == "" {
		return ""
	}
	return SideBase(labels) + k.suffix
}

// AcceptedFile returns the accepted-marks file of the pair whose label file is labels
// (AcceptedMarks.File): "<labels>.idxlabel-accepted".
func AcceptedFile(labels string) string { return AcceptedMarks.File(labels) }

// AcceptedKey is what an accepted-marks file is written for: the pair's sample count, the
// SHA-256 of its label array (dtype byte, rank byte, each dimension as a big-endian uint32, then
// the data as stored: the same for a file and its gzip copy), and the CRC-32C of its image data
// as stored (raw values, N×H×W in file order).
type AcceptedKey struct {
	Samples int
	Labels  [sha256.Size]byte
	Images  uint32
}

// KeyOf returns the key of a pair whose labels are labels (N or N×K integers) and whose image
// data's CRC-32C is imagesCRC (ImagesCRC). O(the label data).
func KeyOf(labels *idx.Array, imagesCRC uint32) AcceptedKey {
	h := sha256.New()
	h.Write([]byte{byte(labels.Type), byte(len(labels.Dims))})
	for _, d := range labels.Dims {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(d)))
	}
	h.Write(labels.Data)
	k := AcceptedKey{Images: imagesCRC}
	if len(labels.Dims) > 0 {
		k.Samples = labels.Dims[0]
	}
	h.Sum(k.Labels[:0])
	return k
}

// ImagesCRC returns the CRC-32C (Castagnoli) of image data as stored, for KeyOf; a caller whose
// data is in pieces updates one with crc32.Update and the Castagnoli table.
func ImagesCRC(data []byte) uint32 { return crc32.Checksum(data, castagnoli) }

// ErrStaleAccepted: an accepted-marks file was written for other contents of the pair (its key
// differs): its marks are ignored.
var ErrStaleAccepted = errors.New("written for other contents of the pair")

// ReadAccepted reads the accepted-marks file at path for the pair of key and returns the
// accepted samples' indices, ascending; nil, nil when there is no file there (or its name is too
// long for any to be). It is opened without following a symbolic link and read as untrusted
// bytes: at most acceptedHead + 11·N bytes (N = key.Samples), never more. Errors, each naming
// the file and saying its marks are ignored: not a regular file (a symbolic link, a FIFO:
// atomicfile.ErrNotRegular), larger than that bound, a line that is not of the format (a
// damaged or truncated file), an index not below N or not above the one before, and
// ErrStaleAccepted when its key is not key.
func ReadAccepted(path string, key AcceptedKey) ([]int, error) {
	return AcceptedMarks.Read(path, key)
}

// Read reads the marks file of kind k at path for the pair of key, as ReadAccepted reads the
// accepted marks (the same bound, the same errors, each naming the file and the kind).
func (k MarksKind) Read(path string, key AcceptedKey) ([]int, error) {
	_, marks, err := k.read(path, key.Samples, func(got AcceptedKey) bool { return got == key })
	return marks, err
}

// ReadAcceptedOf reads the accepted-marks file at path as ReadAccepted does, for a label file
// whose labels are labels and whose image file is not at hand (a label file re-encoded alone):
// the file's sample count and label hash must be labels' (else ErrStaleAccepted), its image
// CRC is taken as written. It returns the file's key (KeyOf labels with that CRC) and the
// marks; a zero key and nil marks, with no error, when there is no file. Errors: ReadAccepted's.
func ReadAcceptedOf(path string, labels *idx.Array) (AcceptedKey, []int, error) {
	want := KeyOf(labels, 0)
	return AcceptedMarks.read(path, want.Samples, func(got AcceptedKey) bool {
		return got.Samples == want.Samples && got.Labels == want.Labels
	})
}

// read is Read and ReadAcceptedOf: the marks file of kind k at path read for a pair of n
// samples and its key checked by fits.
func (k MarksKind) read(path string, n int, fits func(AcceptedKey) bool) (AcceptedKey, []int, error) {
	limit := int64(acceptedHead) + 11*int64(max(n, 0))
	data, err := atomicfile.ReadFileNoFollow(path, limit)
	if errors.Is(err, fs.ErrNotExist) || nameTooLong(err) {
		return AcceptedKey{}, nil, nil
	}
	ignored := k.ignored
	if err != nil {
		return AcceptedKey{}, nil, fmt.Errorf("%s: %w%s", k.what, err, ignored)
	}
	bad := func(line int, what string) (AcceptedKey, []int, error) {
		return AcceptedKey{}, nil, fmt.Errorf("%s %s: line %d: %s (damaged or not idxlabel's)%s", k.what, path, line, what, ignored)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return bad(bytes.Count(data, []byte("\n"))+1, "the file does not end with a line end (cut short)")
	}
	lines := bytes.Split(data[:len(data)-1], []byte("\n"))
	if len(lines) < 5 {
		return bad(len(lines), "fewer than the 5 lines of its head")
	}
	if string(lines[0]) != k.header {
		return bad(1, fmt.Sprintf("not %q", k.header))
	}
	var got AcceptedKey
	s, ok := field(lines[1], "samples ")
	if got.Samples, err = strconv.Atoi(s); !ok || err != nil || got.Samples < 0 || !decimal(s) {
		return bad(2, "not \"samples N\"")
	}
	l, ok := field(lines[2], "labels sha256 ")
	if b, err := hex.DecodeString(l); !ok || err != nil || len(b) != sha256.Size {
		return bad(3, "not \"labels sha256\" and 64 hex digits")
	} else {
		copy(got.Labels[:], b)
	}
	im, ok := field(lines[3], "images crc32c ")
	if v, err := strconv.ParseUint(im, 16, 32); !ok || err != nil || len(im) != 8 {
		return bad(4, "not \"images crc32c\" and 8 hex digits")
	} else {
		got.Images = uint32(v)
	}
	m, ok := field(lines[4], "marks ")
	if count, err := strconv.Atoi(m); !ok || err != nil || !decimal(m) || count != len(lines)-5 {
		return bad(5, fmt.Sprintf("not \"marks M\" with M the %d lines after it (cut short?)", len(lines)-5))
	}
	if !fits(got) {
		return AcceptedKey{}, nil, fmt.Errorf("%s %s: %w (the label or image file was changed since it was written: by another program, or by a writer stopped before it removed them)%s; the next save of the pair replaces or removes it", k.what, path, ErrStaleAccepted, ignored)
	}
	marks := make([]int, 0, len(lines)-5)
	for j, line := range lines[5:] {
		i, err := strconv.Atoi(string(line))
		switch {
		case err != nil || !decimal(string(line)):
			return bad(j+6, "not a sample index")
		case i >= got.Samples:
			return bad(j+6, fmt.Sprintf("sample %d, beyond the %d samples", i, got.Samples))
		case len(marks) > 0 && i <= marks[len(marks)-1]:
			return bad(j+6, fmt.Sprintf("sample %d after sample %d (the indices must ascend)", i, marks[len(marks)-1]))
		}
		marks = append(marks, i)
	}
	return got, marks, nil
}

// field returns what follows prefix in line, ok false when line does not start with it.
func field(line []byte, prefix string) (string, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(prefix))
	return string(rest), ok
}

// decimal reports whether s is 1–10 decimal digits, without a sign or a leading zero (but "0").
func decimal(s string) bool {
	if s == "" || len(s) > 10 || len(s) > 1 && s[0] == '0' {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// WriteAccepted writes the accepted-marks file at path for the pair of key: marks are the
// accepted samples' indices, ascending, each below key.Samples. It is written atomically (a
// temporary file synced and renamed over it) and never through a symbolic link
// (atomicfile.WriteFileNoFollow). With no marks it removes the file instead (RemoveAccepted).
// Either way it first removes the temporary files of path that a write killed before its rename
// left (sweepSideFile): call it holding the pair's lock, as every writer does (a window's save,
// a writer's claim). Errors: marks out of order or range (nothing written), and those of writing.
func WriteAccepted(path string, key AcceptedKey, marks []int) error {
	return AcceptedMarks.Write(path, key, marks)
}

// Write writes the marks file of kind k at path for the pair of key, as WriteAccepted writes
// the accepted marks (atomically, never through a symbolic link, the file removed when marks is
// empty; the same errors, naming the kind).
func (k MarksKind) Write(path string, key AcceptedKey, marks []int) error {
	if len(marks) == 0 {
		return RemoveAccepted(path)
	}
	sweepSideFile(path)
	for j, i := range marks {
		if i < 0 || i >= key.Samples || j > 0 && i <= marks[j-1] {
			return fmt.Errorf("%s %s: sample %d out of order or beyond the %d samples; nothing written", k.what, path, i, key.Samples)
		}
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		b := fmt.Appendf(nil, "%s\nsamples %d\nlabels sha256 %x\nimages crc32c %08x\nmarks %d\n", k.header, key.Samples, key.Labels, key.Images, len(marks))
		for _, i := range marks {
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, '\n')
			if len(b) >= 1<<20 {
				if _, err := w.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
		_, err := w.Write(b)
		return err
	})
}

// RemoveAccepted removes the marks file at path, of either kind (a symbolic link there is removed, not
// followed), and the temporary files of it a killed write left (sweepSideFile): call it holding
// the pair's lock, as every writer does. No file there, a name too long for any to be, or path ""
// is no error.
func RemoveAccepted(path string) error {
	if path == "" {
		return nil
	}
	sweepSideFile(path)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) && !nameTooLong(err) {
		return err
	}
	return nil
}

// Replaced tells c that the writer has put the outputs paths in place: the marks files beside
// each (AcceptedMarks.File, ReviewedMarks.File) are removed, since the labels there were rewritten (merged, split,
// subset, relabelled, re-encoded) and marks kept beside them could name other samples. The
// claim's pair writes (Write, WritePair, WriteNewPair, CommitPair) call it themselves once
// every file of the pair is renamed into place; a writer that puts an IDX file in place itself
// (idx.WriteFile or idx.WriteStream under the claim) calls it after that write succeeds, never
// before: a writer that fails or is cancelled leaves the marks beside the file it did not
// replace. A path that is not an output of c is passed over (nothing beside it is removed).
//
// It returns no error: a marks file that cannot be removed, like one left by a crash between
// the renames and this removal, is harmless. It is keyed by the contents it was written for
// (AcceptedKey), so opening the new pair refuses it as stale (ErrStaleAccepted, said in the
// dataset's notices) and applies none of its marks (unless the writer wrote the very same
// label and image data, for which they still hold); the window's next save of the pair
// replaces or removes it, and so does the next writer's. After Release it removes nothing: the
// outputs' locks are no longer held; on a nil Claim it does nothing.
func (c *Claim) Replaced(paths ...string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		if p == "" || c.released || !slices.Contains(c.outputs, Abs(p)) {
			continue
		}
		for _, k := range MarksKinds {
			RemoveAccepted(k.File(p))
		}
		if !slices.Contains(c.replaced, Abs(p)) {
			c.replaced = append(c.replaced, Abs(p))
		}
	}
}
