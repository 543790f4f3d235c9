package convert

import (
	"path/filepath"

	"idxlabel/export"
	"idxlabel/internal/clip"
	"idxlabel/ui/widgets"
)

// SaveFormat is a format File → Save As… writes the dataset in: IDX, the pair the window edits
// and saves (the store's save), or a format of the export writers (package export), written as
// File → Export… writes it, the edits included and the IDX pair left unsaved.
type SaveFormat struct {
	Label  string        // as the Save As dialog lists it
	Export export.Format // the export writer's format; "" for IDX
	Suffix string        // what follows the base name: ".csv", ".npz"; "" for IDX and a folder
}

// SaveFormats are the formats Save As offers, IDX first (its default): Parquet as a Hugging
// Face dataset folder (export.WriteParquet: data/train-00000-of-00001.parquet and the README.md
// dataset card), Kaggle's CSV and NumPy's .npz.
var SaveFormats = []SaveFormat{
	{Label: "IDX pair (-images-idx3-ubyte, -labels-idx1-ubyte)"},
	{Label: "Parquet (Hugging Face dataset folder with its card)", Export: export.Parquet},
	{Label: "Kaggle CSV (label,pixel0,…)", Export: export.KaggleCSV, Suffix: ".csv"},
	{Label: "NumPy .npz (x: N×H×W uint8, y: N int64)", Export: export.NPZ, Suffix: ".npz"},
}

// SaveFormatLabels are the SaveFormats' labels, in order.
func SaveFormatLabels() []string {
	var out []string
	for _, f := range SaveFormats {
		out = append(out, f.Label)
	}
	return out
}

// Target is what f writes for the base name base in folder: the file base+Suffix, or for
// Parquet the folder base. (IDX's pair is named by the Save As dialog itself.)
func (f SaveFormat) Target(folder, base string) string {
	return filepath.Join(folder, base+f.Suffix)
}

// Files names what f writes at target, for the dialog to show: the file, or the Parquet
// folder's files.
func (f SaveFormat) Files(target string) string {
	if f.Export == export.Parquet {
		b := clip.Name(target)
		return filepath.Join(b, export.ParquetFile("train")) + "\n" + filepath.Join(b, "README.md")
	}
	return clip.Name(target)
}

// FormatChoice is the Save As dialog's list of SaveFormats (IDX chosen first): a dialog's
// passing choice (widgets.DialogSelect), whose arrow keys choose and whose Escape and Enter
// answer the dialog (Enter presses Save, as Enter in each of its fields does).
type FormatChoice struct {
	widgets.DialogSelect
}

// NewFormatChoice makes the list with IDX chosen.
func NewFormatChoice() *FormatChoice {
	c := &FormatChoice{}
	c.Options = SaveFormatLabels()
	c.ExtendBaseWidget(c)
	c.SetSelectedIndex(0)
	return c
}

// Chosen is the format chosen.
func (c *FormatChoice) Chosen() SaveFormat { return SaveFormats[max(c.SelectedIndex(), 0)] }
