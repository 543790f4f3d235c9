package cli

import (
	"errors"
	"strconv"
)

// topFlag is --top of suspects and check: how many rows to print, a count of 1 or more, or
// "all". It holds 0 for all, what writeSuspects and health.Options.Top take for it; a 0 given on
// the command line is refused like a negative count, so no count means "no limit" by accident.
type topFlag int

func (t *topFlag) String() string {
	if *t == 0 {
		return "all"
	}
	return strconv.Itoa(int(*t))
}

// Set parses "all" or a whole number of 1 or more. Errors: anything else.
func (t *topFlag) Set(s string) error {
	if s == "all" {
		*t = 0
		return nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return errors.New("expected a count of 1 or more, or all")
	}
	*t = topFlag(v)
	return nil
}
