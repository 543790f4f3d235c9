package builder

// MergeNames returns the union of the inputs' class names by merge's rule (nil when none has
// any), for a caller that joins pairs itself (the window's File → Append Dataset…): only
// Names and NamesFile of each input are read. Errors, naming both class-name files: a class
// named differently in two of them, or one name given to two classes.
func MergeNames(inputs []*Input) (map[int]string, error) { return mergeNames(inputs) }
