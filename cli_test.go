package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/internal/mnisttest"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestInfoRealLabels(t *testing.T) {
	p := mnisttest.Path(t, mnisttest.TestLabels)
	code, out, errOut := runCLI("info", p)
	if code != 0 || errOut != "" {
		t.Fatalf("info exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"0x00000801 (2049)", "dtype   ubyte", "dims    10000", "classes 10", "     1     1135  11.3%", "(gzip)"} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
}

func TestInfoRealImagesHasNoHistogram(t *testing.T) {
	code, out, _ := runCLI("info", mnisttest.Path(t, mnisttest.TestImages))
	if code != 0 || !strings.Contains(out, "dims    10000×28×28") || strings.Contains(out, "classes") {
		t.Fatalf("info on images: exit %d\n%s", code, out)
	}
}

func TestVerifyRealPair(t *testing.T) {
	code, out, _ := runCLI("verify", mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TestLabels))
	if code != 0 || !strings.HasPrefix(out, "ok: 10000 samples") || !strings.Contains(out, "10 classes (0–9)") {
		t.Fatalf("verify: exit %d, %q", code, out)
	}
}

func TestVerifyCountMismatch(t *testing.T) {
	images, labels := mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TrainLabels)
	code, out, errOut := runCLI("verify", images, labels)
	want := "idxlabel: " + labels + " has 60000 labels, but " + images + " has 10000 images: the counts must match\n"
	if code != 1 || out != "" || errOut != want {
		t.Fatalf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}

func TestVerifyRejectsFloatLabels(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 2, 3, 3)
	labels, _ := idx.New(idx.Float32, 2)
	idx.WriteFile(filepath.Join(dir, "i"), images)
	idx.WriteFile(filepath.Join(dir, "l"), labels)
	code, _, errOut := runCLI("verify", filepath.Join(dir, "i"), filepath.Join(dir, "l"))
	if code != 1 || !strings.Contains(errOut, "labels must be integers (ubyte, sbyte, int16 or int32), found dtype float32") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

func TestConvertRoundTripsGzipAndPlain(t *testing.T) {
	dir := t.TempDir()
	src := mnisttest.Path(t, mnisttest.TestLabels)
	plain, gz := filepath.Join(dir, "labels"), filepath.Join(dir, "labels.gz")
	if code, _, e := runCLI("convert", src, plain); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runCLI("convert", plain, gz); code != 0 {
		t.Fatal(e)
	}
	raw, _ := os.ReadFile(plain)
	if len(raw) != 10008 || idx.IsGzip(raw) {
		t.Fatalf("plain output: %d bytes", len(raw))
	}
	if isGz, _ := idx.IsGzipFile(gz); !isGz {
		t.Fatal(".gz output is not gzip")
	}
	a, _ := idx.ReadFile(src)
	b, err := idx.ReadFile(gz)
	if err != nil || !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("convert changed the data: %v", err)
	}
}

func TestConvertFailureLeavesOutputUntouched(t *testing.T) {
	dir := t.TempDir()
	bad, out := filepath.Join(dir, "bad"), filepath.Join(dir, "out")
	os.WriteFile(bad, []byte{0, 0, 8, 1, 0, 0, 0, 5, 1, 2}, 0o644)
	os.WriteFile(out, []byte("precious"), 0o644)
	code, _, errOut := runCLI("convert", bad, out)
	if code != 1 || !strings.HasPrefix(errOut, "idxlabel: "+bad+": truncated IDX data") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if b, _ := os.ReadFile(out); string(b) != "precious" {
		t.Fatal("a failed convert changed OUT")
	}
}

func TestErrorsAndUsage(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"info"}, 2, "idxlabel: usage: idxlabel info FILE...\n"},
		{[]string{"verify", "a"}, 2, "idxlabel: usage: idxlabel verify IMAGES LABELS\n"},
		{[]string{"convert", "--bogus", "a", "b"}, 2, "idxlabel: convert: flag provided but not defined: -bogus\n"},
		{[]string{"info", "/nonexistent/x"}, 1, "idxlabel: /nonexistent/x: no such file or directory\n"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != c.code || errOut != c.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, code, errOut, c.code, c.stderr)
		}
	}
	if code, out, _ := runCLI("help"); code != 0 || !strings.Contains(out, "verify") {
		t.Errorf("help: exit %d", code)
	}
}
