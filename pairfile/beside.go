package pairfile

import "idxlabel/internal/atomicfile"

// The files idxlabel keeps beside a pair's data, and reads back with it (the accepted marks, the
// class names, the sources), sit beside the file that holds the data: when the label file is a
// symbolic link, beside the file it names, which a write to the link replaces. So they are found
// whichever name opens the pair (the link, or the file itself), and a writer through the link
// writes them where the next opening looks. The side file's own path is never followed: each is
// read and written without following a link planted there (atomicfile.ReadFileNoFollow,
// WriteFileNoFollow; removed, never followed).

// SideBase returns the path the side files of a pair's file are named from (file + a suffix:
// AcceptedSuffix, ClassNamesSuffix, SourcesSuffix): file itself, or, when file is a symbolic
// link to a regular file, the file it names (atomicfile.Resolve); file as given when it does not
// exist yet (an output about to be written), or cannot be resolved (a link to nothing, a
// folder); "" for "".
func SideBase(file string) string {
	if file == "" {
		return ""
	}
	if real, err := atomicfile.Resolve(file); err == nil {
		return real
	}
	return file
}

// ClassNamesFile returns the class-name file idxlabel writes for the label file labels:
// SideBase(labels) + ClassNamesSuffix, where FindClassNames looks first among the files it
// writes; "" for "".
func ClassNamesFile(labels string) string {
	if labels == "" {
		return ""
	}
	return SideBase(labels) + ClassNamesSuffix
}
