//go:build !unix

package pairfile

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
