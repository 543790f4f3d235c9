package dialogs

import (
	"errors"
	"fmt"

	"idxlabel/pairfile"
)

// withAdvice returns err with what a person in the window can do about it, where the library's
// error states only the fact (a pair open for editing, or a file being written, elsewhere); other errors as they are.
func withAdvice(err error) error {
	var locked *pairfile.LockedError
	switch {
	case errors.As(err, &locked) && locked.Writing:
		return fmt.Errorf("%w.\n\nWait for it to finish, or choose other files", err)
	case errors.As(err, &locked) && locked.Self:
		return fmt.Errorf("%w.\n\nEdit it in the window that has it open, or choose other files", err)
	case errors.As(err, &locked):
		return fmt.Errorf("%w.\n\nClose it there, or choose other files", err)
	}
	return err
}
