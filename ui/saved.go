package ui

import (
	"fmt"
	"strings"

	"idxlabel/internal/clip"
	"idxlabel/store"
)

// savedText says on the status bar what a save did (store's LastSave): which files, a label
// file made for labels typed on images that had none, an image file left alone because only
// labels changed (images is the dataset's image file), what happened to a symbolic or hard link
// that was written through, and the save's notes.
func savedText(r store.SaveReport, images string) string {
	written := r.Files
	if len(written) == 0 {
		return strings.Join(append([]string{"Saved: nothing in the files had changed, so nothing was written"}, r.Notes...), "; ")
	}
	var names, notes []string
	imagesWritten := false
	for _, f := range written {
		imagesWritten = imagesWritten || f.Path == images
		name := clip.Name(f.Path)
		if f.Created && f.Path != images {
			name += " (a new label file)"
		}
		names = append(names, name)
		if f.Through != "" {
			notes = append(notes, fmt.Sprintf("%s is a symbolic link: the file it names, %s, was replaced", clip.Name(f.Path), f.Through))
		}
		if f.Links > 1 {
			notes = append(notes, fmt.Sprintf("%s had %d hard links: the other names keep the old content", clip.Name(f.Path), f.Links))
		}
	}
	text := "Saved " + strings.Join(names, " and ")
	if !imagesWritten {
		text += "; the image file was left as it was (only labels changed)"
	}
	notes = append(notes, r.Notes...)
	if len(notes) > 0 {
		text += "; " + strings.Join(notes, "; ")
	}
	return text
}
