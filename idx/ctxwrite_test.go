package idx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// cancelOnWrite cancels its context when first written to, and counts the bytes.
type cancelOnWrite struct {
	cancel context.CancelFunc
	n      int
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.cancel()
	c.n += len(p)
	return len(p), nil
}

// A cancelled write stops within a MiB, and WritePendingContext leaves no file behind.
func TestWritePendingContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sink := &cancelOnWrite{cancel: cancel}
	n, err := ctxWriter{ctx, sink}.Write(make([]byte, 3<<20))
	if !errors.Is(err, context.Canceled) || n != 1<<20 || sink.n != 1<<20 {
		t.Fatalf("wrote %d (%d reached the writer), error %v; want one MiB and context.Canceled", n, sink.n, err)
	}

	a, _ := New(UByte, 3000, 28, 28)
	dir := t.TempDir()
	for _, name := range []string{"x-images-idx3-ubyte", "x-images-idx3-ubyte.gz"} {
		p, err := WritePendingContext(ctx, filepath.Join(dir, name), a)
		if !errors.Is(err, context.Canceled) || p != nil {
			t.Fatalf("%s: cancelled write gave %v, %v", name, p, err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a cancelled write left %v", left)
	}
}
