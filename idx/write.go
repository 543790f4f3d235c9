package idx

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	kgzip "github.com/klauspost/compress/gzip"
)

// GzipLevel is the compression level WriteFile and WritePending use for ".gz" targets.
var GzipLevel = kgzip.DefaultCompression

// Pending is an IDX file written in full to a temporary name in its target's folder and synced
// to disk, but not yet in place. Commit renames it over the target; Abort removes it. Writing
// two Pendings and committing both is how a paired save keeps the originals untouched until
// both new files are complete.
type Pending struct {
	Target string // the path the file is meant for
	Temp   string // the temporary file beside it, already complete and fsynced
}

// WritePending encodes a into a new temporary file in target's folder (gzip when target ends in
// ".gz", plain otherwise), fsyncs and closes it, and returns it uncommitted. The temporary file
// takes the target's permissions when the target exists, 0644 otherwise. On any error the
// temporary file is removed and the target is untouched. Errors: those of Encode, or the
// *os.PathError of creating, writing or syncing the temporary file.
func WritePending(target string, a *Array) (*Pending, error) {
	if err := a.Check(); err != nil {
		return nil, withFile(err, target)
	}
	return CreatePending(target, func(w io.Writer) error { return encodeTo(w, target, a) })
}

// CreatePending writes a new temporary file ".<name>.tmp-*" in target's folder with write (any
// content: IDX, PNG), fsyncs and closes it, gives it the target's permissions (0644 for a new
// target) and returns it uncommitted. On any error the temporary file is removed. Errors: write's
// error, or the *os.PathError of creating or syncing the file.
func CreatePending(target string, write func(w io.Writer) error) (*Pending, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	p := &Pending{Target: target, Temp: f.Name()}
	fail := func(err error) (*Pending, error) {
		f.Close()
		os.Remove(p.Temp)
		return nil, err
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(p.Temp)
		return nil, err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(p.Temp, mode); err != nil {
		os.Remove(p.Temp)
		return nil, err
	}
	return p, nil
}

// encodeTo encodes a into w, gzip-compressed when target's name ends in ".gz".
func encodeTo(w io.Writer, target string, a *Array) error {
	if !IsGzipName(target) {
		return Encode(w, a)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	zw, err := kgzip.NewWriterLevel(bw, GzipLevel)
	if err != nil {
		return err
	}
	zw.Name = filepath.Base(target[:len(target)-3])
	if err := Encode(zw, a); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// Commit renames the temporary file over the target (atomically on POSIX and on Windows, where
// os.Rename replaces; a sharing violation from a virus scanner or indexer is retried for about
// two seconds) and syncs the folder. Errors: the *os.LinkError of the rename; the temporary file
// is then left for Abort to remove.
func (p *Pending) Commit() error {
	var err error
	for attempt := 0; ; attempt++ {
		err = os.Rename(p.Temp, p.Target)
		if err == nil || runtime.GOOS != "windows" || attempt == 20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	SyncDir(filepath.Dir(p.Target))
	return nil
}

// Abort removes the temporary file; the target is untouched. It is safe after Commit.
func (p *Pending) Abort() { os.Remove(p.Temp) }

// SyncDir fsyncs a folder so a file created or renamed in it survives a power cut (POSIX);
// where folders cannot be opened or synced (Windows) it does nothing.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteFile writes a to name atomically: the whole file goes to a temporary name in the same
// folder, is fsynced, then renamed over name, so name is never half-written. name ending in
// ".gz" (any case) is written gzip-compressed. Errors: those of WritePending and Commit; on any
// error name is untouched.
func WriteFile(name string, a *Array) error {
	p, err := WritePending(name, a)
	if err != nil {
		return err
	}
	if err := p.Commit(); err != nil {
		p.Abort()
		return err
	}
	return nil
}
