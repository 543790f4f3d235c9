package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A report asked for at a symbolic link (a report's name beside the dataset, planted to name
// another folder) is refused, and the folder it names is left as it was.
func TestReportAtALinkIsRefused(t *testing.T) {
	root := t.TempDir()
	other := filepath.Join(root, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(other, "mine.txt"), []byte("mine"), 0o644)
	dir := filepath.Join(root, "report")
	if err := os.Symlink(other, dir); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteReportFolder(context.Background(), dir, sampleFill); !errors.Is(err, ErrInTheWay) {
		t.Fatalf("a report at a link: %v", err)
	}
	entries, _ := os.ReadDir(other)
	if len(entries) != 1 || entries[0].Name() != "mine.txt" {
		t.Fatalf("the folder the link names holds %v", entries)
	}
}
