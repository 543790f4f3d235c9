package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/export"
	"idxlabel/store"
)

// A Parquet export (File → Export…, and Save As in Parquet, which runs it) names its one split
// as `idxlabel export --format parquet` names it, from the image file's name: MNIST's t10k pair
// is the test split (data/test-00000-of-00001.parquet, the card's split test), a pair named
// otherwise the train split. Before, the window wrote every dataset as train: t10k's test set
// loaded by datasets.load_dataset as a train split.
func TestParquetExportNamesItsSplitFromTheImageFile(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, ip, _ string) {
		want := "train" // the generated pair, g-images-idx3-ubyte.gz
		if strings.HasPrefix(filepath.Base(ip), "t10k") {
			want = "test"
		}
		q := queueUI(w)
		out := filepath.Join(t.TempDir(), "hf")
		w.exp.run(out, export.Options{Format: export.Parquet}, false)
		waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "written to") })
		entries, err := os.ReadDir(filepath.Join(out, "data"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) != 1 || names[0] != want+"-00000-of-00001.parquet" {
			t.Fatalf("the Parquet export of %s wrote data/%v, want data/%s-00000-of-00001.parquet", filepath.Base(ip), names, want)
		}
		card, err := os.ReadFile(filepath.Join(out, "README.md"))
		if err != nil || !strings.Contains(string(card), "split: "+want+"\n") {
			t.Fatalf("the dataset card does not name the split %s (%v):\n%s", want, err, card)
		}
	})
}
