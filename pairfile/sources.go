package pairfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"idxlabel/internal/atomicfile"
)

// A sources file says where each sample of a pair came from: beside the pair (SourcesFile,
// "<labels>.sources.txt", or "<images>.sources.txt" for images alone), UTF-8 text of one line a
// sample in file order, each line the file the sample was imported from, a slash-separated path
// relative to the folder imported ("3/a.png"), and an empty line for a sample that has none (a
// drawn sample, or one of the files as first read). A pair none of whose samples has a source
// has no sources file. A save and `idxlabel import` write it; opening a pair reads it back.
//
// It is read as untrusted input: at most MaxSource bytes a line and the lines of the pair's
// samples, every character kept printable (CleanSource). A file whose lines do not match the
// samples (another count, a line too long) is refused whole, with an error naming it: the
// sources are left out, the pair still opens.

// SourcesSuffix is appended to the label file's path (the image file's when there is none;
// SideBase: the file a symbolic link names) to name the sources file:
// "x-labels-idx1-ubyte.sources.txt".
const SourcesSuffix = ".sources.txt"

// MaxSource is the longest source kept, in bytes: a path's length limit on most systems.
const MaxSource = 4096

// SourcesFile returns the sources file of the pair (images, labels; labels may be ""): beside
// the label file (Key), or beside the file it names when it is a symbolic link (SideBase, as the
// accepted marks); "" for neither. The sources file itself is never followed (ReadSources,
// WriteSources, RemoveSources).
func SourcesFile(images, labels string) string {
	if k := Key(images, labels); k != "" {
		return SideBase(k) + SourcesSuffix
	}
	return ""
}

// CleanSource returns s as a sources file holds it and a window may show it: invalid UTF-8,
// control and format characters (a line end, a tab, U+202E, which reverses text) each replaced
// by U+FFFD, cut at a character boundary to at most MaxSource bytes.
func CleanSource(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsGraphic(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean && len(s) <= MaxSource {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsGraphic(r) && r != ' ' {
			r = utf8.RuneError
		}
		if b.Len()+utf8.RuneLen(r) > MaxSource {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ReadSources reads the sources file at path for a pair of n samples and returns the source of
// each ("" for none), each cleaned (CleanSource); nil, nil when there is no file there (or its
// name is too long for the file system to hold one, or n is 0 and the file is empty). It reads at most n·(MaxSource+2) bytes. Errors, naming the file: not
// a regular file (atomicfile.ErrNotRegular; a FIFO is not waited on), larger than that, a line
// over MaxSource bytes, or another number of lines than n.
func ReadSources(path string, n int) ([]string, error) {
	data, err := atomicfile.ReadFileNoFollow(path, int64(n)*(MaxSource+2))
	if errors.Is(err, fs.ErrNotExist) || nameTooLong(err) {
		return nil, nil // no file there, or a name too long for any to be
	}
	if err != nil {
		return nil, fmt.Errorf("%w (%d samples); its sources are left out", err, n)
	}
	if len(data) == 0 && n == 0 {
		return nil, nil
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != n {
		return nil, fmt.Errorf("%s: %d lines for %d samples; its sources are left out", path, len(lines), n)
	}
	out := make([]string, n)
	for k, l := range lines {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(l) > MaxSource {
			return nil, fmt.Errorf("%s: line %d: %d bytes, more than %d; its sources are left out", path, k+1, len(l), MaxSource)
		}
		out[k] = CleanSource(string(l))
	}
	return out, nil
}

// WriteSources writes sources (one a sample, "" for none) to path atomically, never through a
// symbolic link there (atomicfile.WriteFileNoFollow), one line each, each cleaned (CleanSource),
// so that ReadSources reads them back. It first removes the temporary files of path a killed
// write left (sweepSideFile): call it holding the pair's lock, as every writer does. Errors:
// those of atomicfile.WriteFileNoFollow.
func WriteSources(path string, sources []string) error {
	sweepSideFile(path)
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		bw := &bytes.Buffer{}
		for _, s := range sources {
			bw.WriteString(CleanSource(s))
			bw.WriteByte('\n')
			if bw.Len() >= 1<<20 {
				if _, err := w.Write(bw.Bytes()); err != nil {
					return err
				}
				bw.Reset()
			}
		}
		_, err := w.Write(bw.Bytes())
		return err
	})
}

// HasSources reports whether one of sources is not empty: a pair has a sources file only then.
func HasSources(sources []string) bool {
	for _, s := range sources {
		if s != "" {
			return true
		}
	}
	return false
}

// RemoveSources removes the sources file at path (a symbolic link there is removed, not
// followed), and the temporary files of it a killed write left (sweepSideFile; the pair's lock
// held): a pair whose samples have no source has none. No file there, or a name too long for
// the file system to hold one, is no error.
func RemoveSources(path string) error {
	sweepSideFile(path)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) && !nameTooLong(err) {
		return err
	}
	return nil
}
