package export

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// writeTree writes the ImageFolder tree OUT/<class>/<index>.png, <index> zero-padded to the
// width of the largest index, and the Marker file OUT/.idxlabel-export, with several
// goroutines, into a temporary folder beside out (place) that is renamed to out at the end (and
// removed on failure or cancel); an earlier export at out is replaced (replace). The Marker is
// written first and held (atomicfile.Hold) until the export ends, so that another export's
// recoverTrees knows the temporary folder as its own and leaves it alone while this one runs.
func writeTree(ctx context.Context, s sample.Set, out string, opts Options) error {
	dir, pattern := place(out)
	tmp, err := os.MkdirTemp(dir, pattern+"*")
	if err != nil {
		return err
	}
	os.Chmod(tmp, 0o755) // MkdirTemp makes it private; the tree is an ordinary folder
	marker := filepath.Join(tmp, Marker)
	err = os.WriteFile(marker, []byte(MarkerText), 0o644)
	if err == nil {
		var held *os.File
		if held, err = atomicfile.Hold(marker); held != nil {
			defer held.Close()
		}
	}
	if err == nil {
		err = buildTree(ctx, s, tmp, opts)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	step("built")
	if err := replace(tmp, out); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// folders returns the folder of each class present (folderName). Every class number is
// zero-padded to the width of the largest one present (classWidth), so that the folders sort in
// class order: torchvision's ImageFolder (and Keras') numbers classes by their sorted folder
// names, and "10" would sort before "9", "eight" before "zero". The number also keeps two
// classes' folders apart when their names are the same, or differ only in case (EMNIST's "A"
// and "a") on a disk that ignores case. Unlabelled samples' folder sorts after them all.
func folders(s sample.Set, names bool) map[int]string {
	width := classWidth(s.Labels)
	out := map[int]string{}
	for _, c := range s.Labels {
		if _, ok := out[c]; !ok {
			out[c] = folderName(s, c, names, width)
		}
	}
	return out
}

// classWidth returns the digits of the longest class number among labels (sample.NoLabel aside; a
// minus sign counts), at least 1.
func classWidth(labels []int) int {
	width := 1
	for _, c := range labels {
		if c != sample.NoLabel {
			width = max(width, len(strconv.Itoa(c)))
		}
	}
	return width
}

func buildTree(ctx context.Context, s sample.Set, root string, opts Options) error {
	dirs := folders(s, opts.ClassNames)
	for _, name := range dirs {
		if err := os.Mkdir(filepath.Join(root, name), 0o755); err != nil {
			return err
		}
	}
	h, w := s.ShownSize()
	width := 1
	for k := range s.N {
		width = max(width, len(strconv.Itoa(s.Number(k))))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next, done atomic.Int64
		once       sync.Once
		first      error
		wg         sync.WaitGroup
	)
	fail := func(err error) { once.Do(func() { first = err; cancel() }) }
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= s.N || ctx.Err() != nil {
					return
				}
				img := &image.Gray{Pix: s.Shown(k, nil), Stride: w, Rect: image.Rect(0, 0, w, h)}
				name := filepath.Join(root, dirs[s.Labels[k]], fmt.Sprintf("%0*d.png", width, s.Number(k)))
				if err := writePNG(name, img, &enc); err != nil {
					fail(err)
					return
				}
				if d := int(done.Add(1)); d%500 == 0 || d == s.N {
					opts.Progress(d, s.N)
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

func writePNG(name string, img image.Image, enc *png.Encoder) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}
