//go:build unix

package ui

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// A save refused because the folder cannot be written says that Save As writes the dataset
// elsewhere: on a read-only file system too (a dataset on a read-only mount or medium), where
// before only a permission error did; other errors are left as they are.
func TestSaveErrorAdvisesSaveAs(t *testing.T) {
	const advice = "File → Save As… writes the dataset to a folder you may write to"
	for _, err := range []error{
		&fs.PathError{Op: "create", Path: "/ro/x-labels-idx1-ubyte", Err: syscall.EROFS},
		&fs.PathError{Op: "create", Path: "/ro/x-labels-idx1-ubyte", Err: syscall.EACCES},
	} {
		got := withSaveAsAdvice(err)
		if !strings.Contains(got.Error(), advice) || !errors.Is(got, err.(*fs.PathError).Err) {
			t.Errorf("a save refused with %v says %q", err, got)
		}
	}
	if got := withSaveAsAdvice(fs.ErrNotExist); got != fs.ErrNotExist {
		t.Errorf("a save refused with %v says %q", fs.ErrNotExist, got)
	}
	if withSaveAsAdvice(nil) != nil {
		t.Error("no error became one")
	}
}
