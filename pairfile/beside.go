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
// AcceptedSuffix, ReviewedSuffix, ClassNamesSuffix, SourcesSuffix): file itself, or, when file is a symbolic
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

// sweepSideFile removes the temporary files of the side file at path that a write killed before
// its rename left beside it (".<name>.idxlabel-tmp-<digits>": kill -9 between a writer's label
// file and its marks, class-name or sources file), by path's own name, never through a symbolic
// link, and none a live writer holds (atomicfile.RemoveAbandoned: every writer of a side file
// holds the pair's lock, which the caller holds, and flocks its temporary file while writing
// it). Each write or removal of a side file runs it first (WriteAccepted, RemoveAccepted,
// WriteClassNames, WriteSources, RemoveSources, Claim.WriteNewPair), and so does opening the
// pair for editing (sweepSideFiles). path "" does nothing. O(entries in the folder).
func sweepSideFile(path string) {
	if path != "" {
		atomicfile.RemoveAbandoned(path)
	}
}

// sweepSideFiles runs sweepSideFile on each side file of the pair (images, labels; labels may be
// ""): its accepted and reviewed marks, class-name file and sources file. The pair's lock held.
func sweepSideFiles(images, labels string) {
	for _, p := range []string{AcceptedFile(labels), ReviewedMarks.File(labels), ClassNamesFile(labels), SourcesFile(images, labels)} {
		sweepSideFile(p)
	}
}
